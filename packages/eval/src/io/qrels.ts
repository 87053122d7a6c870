import { PubmatchError, compareCodePoints, truncateForMessage, type Qrels } from '@pubmatch/core'
import {
  fields,
  parseDecimal,
  readLines,
  sourceName,
  type ReadOptions,
  type TextSource,
} from './lines.ts'

/** A judgement with the stratum it was sampled from (NIST `sample_eval.pl` qrels). */
export interface SampledJudgement {
  /** Stratum (sample_eval's "category"), e.g. `1` or `2`. */
  readonly stratum: string
  /** Grade; −1 = in the pool but not sampled for judging. */
  readonly grade: number
}

/** Sampled qrels: query id → document id → stratum and grade. */
export type SampledQrels = Map<string, Map<string, SampledJudgement>>

function parseGrade(text: string): number | undefined {
  const value = parseDecimal(text)
  // trec_eval reads grades with atol: "2.0" is 2
  return value === undefined ? undefined : Math.trunc(value)
}

function malformed(file: string, line: number, text: string, why: string): PubmatchError {
  return new PubmatchError(
    'UNSUPPORTED_FORMAT',
    `${file}:${line}: ${why}: "${truncateForMessage(text)}"`,
    { details: { file, position: line } },
  )
}

function createParser<T>(
  file: string,
  columns: number,
  layout: string,
  make: (f: string[], fail: (why: string) => never) => T,
): { line(text: string): void; done(): Map<string, Map<string, T>> } {
  const out = new Map<string, Map<string, T>>()
  let lineNumber = 0
  return {
    line(text) {
      lineNumber++
      const f = fields(text)
      if (f.length === 0 || f[0]?.startsWith('#') === true) {
        return
      }
      const fail = (why: string): never => {
        throw malformed(file, lineNumber, text, why)
      }
      if (f.length !== columns) {
        fail(`a line has ${columns} fields (${layout}), this one has ${f.length}`)
      }
      const [qid, , docId] = f as [string, string, string]
      let judged = out.get(qid)
      if (judged === undefined) {
        judged = new Map()
        out.set(qid, judged)
      }
      if (judged.has(docId)) {
        fail(
          `document ${JSON.stringify(docId)} is judged twice for query ${JSON.stringify(qid)} (trec_eval rejects this)`,
        )
      }
      judged.set(docId, make(f, fail))
    },
    done: () => out,
  }
}

function qrelsParser(file: string): { line(text: string): void; done(): Qrels } {
  return createParser(file, 4, 'qid iter docid grade', (f, fail) => {
    const grade = parseGrade(f[3] ?? '')
    return grade ?? fail(`grade ${JSON.stringify(f[3])} is not a number`)
  })
}

function sampledParser(file: string): { line(text: string): void; done(): SampledQrels } {
  return createParser(file, 5, 'qid iter docid stratum grade', (f, fail) => {
    const grade = parseGrade(f[4] ?? '')
    return {
      stratum: f[3] ?? '',
      grade: grade ?? fail(`grade ${JSON.stringify(f[4])} is not a number`),
    }
  })
}

/**
 * Streams a TREC qrels file (`qid iter docid grade`) into {@link Qrels}. Grades are read
 * like trec_eval's `atol` (`2.0` → 2); negative grades mark pooled-but-unjudged documents.
 * @param source - path (`.gz` is decompressed), URL, stream or iterable of text
 * @param options - see {@link ReadOptions}
 * @throws PubmatchError `UNSUPPORTED_FORMAT` naming file and line for a malformed line or a
 *   document judged twice for one query; `IO`
 */
export async function readQrels(source: TextSource, options: ReadOptions = {}): Promise<Qrels> {
  const parser = qrelsParser(sourceName(source, options))
  for await (const line of readLines(source, options)) {
    parser.line(line)
  }
  return parser.done()
}

/**
 * Parses qrels text held in memory; see {@link readQrels}.
 * @param text - the whole qrels file
 * @param options - see {@link ReadOptions}; `file` defaults to `<string>`
 */
export function parseQrels(text: string, options: ReadOptions = {}): Qrels {
  const parser = qrelsParser(options.file ?? '<string>')
  for (const line of text.split(/\r?\n/)) {
    parser.line(line)
  }
  return parser.done()
}

/**
 * Streams NIST sampled qrels (`qid iter docid stratum grade`, as used by
 * `sample_eval.pl` for infAP/infNDCG; grade −1 = not sampled).
 * @param source - path (`.gz` is decompressed), URL, stream or iterable of text
 * @param options - see {@link ReadOptions}
 * @throws PubmatchError `UNSUPPORTED_FORMAT` naming file and line for a malformed line; `IO`
 */
export async function readSampledQrels(
  source: TextSource,
  options: ReadOptions = {},
): Promise<SampledQrels> {
  const parser = sampledParser(sourceName(source, options))
  for await (const line of readLines(source, options)) {
    parser.line(line)
  }
  return parser.done()
}

/**
 * Parses sampled qrels text held in memory; see {@link readSampledQrels}.
 * @param text - the whole file
 * @param options - see {@link ReadOptions}; `file` defaults to `<string>`
 */
export function parseSampledQrels(text: string, options: ReadOptions = {}): SampledQrels {
  const parser = sampledParser(options.file ?? '<string>')
  for (const line of text.split(/\r?\n/)) {
    parser.line(line)
  }
  return parser.done()
}

/**
 * Drops the strata of sampled qrels, giving trec_eval qrels in which unsampled documents
 * have grade −1 (what trec_eval's single-stratum `infAP` expects).
 * @param sampled - sampled qrels
 */
export function sampledToQrels(sampled: SampledQrels): Qrels {
  const qrels: Qrels = new Map()
  for (const [qid, judged] of sampled) {
    qrels.set(qid, new Map([...judged].map(([doc, j]) => [doc, j.grade])))
  }
  return qrels
}

/**
 * Formats qrels as TREC text (`qid 0 docid grade`), queries and documents in `strcmp` order.
 * @param qrels - the judgements
 */
export function formatQrels(qrels: Qrels): string {
  let out = ''
  for (const qid of [...qrels.keys()].sort(compareCodePoints)) {
    const judged = qrels.get(qid) ?? new Map<string, number>()
    for (const docId of [...judged.keys()].sort(compareCodePoints)) {
      out += `${qid} 0 ${docId} ${judged.get(docId) ?? 0}\n`
    }
  }
  return out
}
