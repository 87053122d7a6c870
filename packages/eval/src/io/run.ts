import { createWriteStream } from 'node:fs'
import { once } from 'node:events'
import type { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { PubmatchError, compareCodePoints, truncateForMessage, type Run, type RunEntry } from '@pubmatch/core'
import { sortTrecOrder } from '../trec-order.ts'
import {
  fields,
  parseDecimal,
  readLines,
  sourceName,
  type ReadOptions,
  type TextSource,
} from './lines.ts'

/**
 * Accumulates run lines (`qid Q0 docid rank score tag [ignored…]`). Blank lines and lines
 * starting with `#` are skipped, as trec_eval does.
 */
function createRunParser(file: string): { line(text: string): void; done(): Run } {
  const queries = new Map<string, RunEntry[]>()
  let tag = ''
  let lineNumber = 0
  return {
    line(text) {
      lineNumber++
      const f = fields(text)
      if (f.length === 0 || f[0]?.startsWith('#') === true) {
        return
      }
      const [qid, , docId, rankText, scoreText, runTag] = f
      if (
        qid === undefined ||
        docId === undefined ||
        scoreText === undefined ||
        runTag === undefined
      ) {
        throw malformed(
          file,
          lineNumber,
          text,
          `a run line has 6 fields (qid Q0 docid rank score tag), this one has ${f.length}`,
        )
      }
      const score = parseDecimal(scoreText)
      if (score === undefined) {
        throw malformed(
          file,
          lineNumber,
          text,
          `score ${JSON.stringify(scoreText)} is not a number`,
        )
      }
      const rank = rankText === undefined ? undefined : parseDecimal(rankText)
      const entry: RunEntry = rank === undefined ? { docId, score } : { docId, score, rank }
      const list = queries.get(qid)
      if (list === undefined) {
        queries.set(qid, [entry])
      } else {
        list.push(entry)
      }
      tag = runTag
    },
    done: () => ({ tag, queries }),
  }
}

function malformed(file: string, line: number, text: string, why: string): PubmatchError {
  return new PubmatchError(
    'UNSUPPORTED_FORMAT',
    `${file}:${line}: ${why}: "${truncateForMessage(text)}"`,
    { details: { file, position: line } },
  )
}

/** Options of {@link readRun} and {@link parseRun}. */
export type ReadRunOptions = ReadOptions

/**
 * Streams a TREC run file into a {@link Run}. Entries keep file order; the rank column is
 * kept in `rank` but evaluation ignores it (trec_eval ranks by score). The run's tag is
 * that of the last line, as trec_eval reports it.
 * @param source - path (`.gz` is decompressed), URL, stream or iterable of text
 * @param options - see {@link ReadOptions}
 * @throws PubmatchError `UNSUPPORTED_FORMAT` naming file and line for a malformed line; `IO`
 */
export async function readRun(source: TextSource, options: ReadRunOptions = {}): Promise<Run> {
  const parser = createRunParser(sourceName(source, options))
  for await (const line of readLines(source, options)) {
    parser.line(line)
  }
  return parser.done()
}

/**
 * Parses run text held in memory; see {@link readRun}.
 * @param text - the whole run file
 * @param options - see {@link ReadOptions}; `file` defaults to `<string>`
 */
export function parseRun(text: string, options: ReadRunOptions = {}): Run {
  const parser = createRunParser(options.file ?? '<string>')
  for (const line of text.split(/\r?\n/)) {
    parser.line(line)
  }
  return parser.done()
}

/** Options of {@link formatRun} and {@link writeRun}. */
export interface WriteRunOptions {
  /** Tag written in the last column. Defaults to the run's tag, or `pubmatch` if empty. */
  tag?: string
  /** Write at most this many documents per query. Defaults to `Infinity`. */
  depth?: number
}

function* runLines(run: Run, options: WriteRunOptions): Generator<string> {
  const tag = options.tag ?? (run.tag === '' ? 'pubmatch' : run.tag)
  if (/\s/.test(tag)) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `run tag ${JSON.stringify(tag)} contains whitespace`,
    )
  }
  const queryIds = [...run.queries.keys()].sort(compareCodePoints)
  for (const qid of queryIds) {
    const ranked = sortTrecOrder(run.queries.get(qid) ?? []).slice(0, options.depth ?? Infinity)
    for (let i = 0; i < ranked.length; i++) {
      const e = ranked[i] as RunEntry
      if (/\s/.test(e.docId) || /\s/.test(qid) || !Number.isFinite(e.score)) {
        throw new PubmatchError(
          'INVALID_ARGUMENT',
          `cannot write query ${JSON.stringify(qid)} document ${JSON.stringify(e.docId)} with score ${e.score} as a TREC run line`,
        )
      }
      yield `${qid} Q0 ${e.docId} ${i + 1} ${String(e.score)} ${tag}\n`
    }
  }
}

/**
 * Formats a run as TREC run text: queries by id, documents in trec_eval order with ranks
 * 1…n, scores with full precision (so re-reading reproduces the ranking exactly).
 * @param run - the run
 * @param options - see {@link WriteRunOptions}
 * @throws PubmatchError `INVALID_ARGUMENT` for ids with whitespace or non-finite scores
 */
export function formatRun(run: Run, options: WriteRunOptions = {}): string {
  let out = ''
  for (const line of runLines(run, options)) {
    out += line
  }
  return out
}

/**
 * Streams a run to a file or writable stream in the format of {@link formatRun}.
 * @param run - the run
 * @param destination - file path, `file:` URL or writable stream (left open)
 * @param options - see {@link WriteRunOptions}
 */
export async function writeRun(
  run: Run,
  destination: string | URL | Writable,
  options: WriteRunOptions = {},
): Promise<void> {
  const toFile = typeof destination === 'string' || destination instanceof URL
  const out = toFile
    ? createWriteStream(destination instanceof URL ? fileURLToPath(destination) : destination)
    : destination
  for (const line of runLines(run, options)) {
    if (!out.write(line)) {
      await once(out, 'drain')
    }
  }
  if (toFile) {
    out.end()
    await once(out, 'finish')
  }
}

/**
 * Removes repeated documents of a query, keeping the first occurrence in file order
 * (trec_eval refuses runs with duplicates; many tools silently keep one).
 * @param run - the run
 */
export function dedupeRun(run: Run): Run {
  const queries = new Map<string, RunEntry[]>()
  for (const [qid, entries] of run.queries) {
    const seen = new Set<string>()
    queries.set(
      qid,
      entries.filter((e) => !seen.has(e.docId) && seen.add(e.docId) !== undefined),
    )
  }
  return { tag: run.tag, queries }
}
