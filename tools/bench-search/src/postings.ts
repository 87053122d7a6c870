/**
 * Nanoseconds of CPU per posting read, on the benchmark's cached index: every postings list of
 * the title and abstract fields with at least `--min-df` documents is walked from start to end,
 * (a) in blocks with `nextDocs` (the term-at-a-time loop's read) and (b) one document at a time
 * with `nextDoc` + `freq` (the document-at-a-time loop's read); each pass sums the documents and
 * frequencies, so nothing is optimised away and both builds must give the same sums.
 *
 * With `--baseline-index <other checkout>/packages/index/dist/index.js` a second reader of the
 * same files, opened with that build of `@pubmatch/index`, is walked too, the builds alternating
 * pass by pass (which goes first alternates as well), so both see the same machine load.
 *
 * `node dist/postings.js [--corpus nfcorpus-x30] [--min-df 1000] [--passes 15]
 *   [--baseline-index …/packages/index/dist/index.js]`
 *
 * CPU time is the process's user + system time around a pass (`process.cpuUsage`); the first
 * three passes of each build warm up and are not reported. Reported per build and read: the
 * median and minimum ns per posting over the passes, and the median over passes of this build's
 * time ÷ the baseline's time in the same pair of passes.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { markdownTable } from '@pubmatch/bench-kit'
import { PubmatchError } from '@pubmatch/core'
import { openIndex, type IndexReader } from '@pubmatch/index'
import { NO_MORE_DOCS } from '@pubmatch/index/internal'
import { corpusSpec } from './corpora.ts'

/** The way a pass reads each postings list. */
export type PostingsRead = 'nextDocs' | 'nextDoc+freq'

/** One pass's result: how many postings it read and the checksum of documents and frequencies. */
export interface PassResult {
  readonly postings: number
  readonly checksum: number
}

/**
 * Reads every listed postings list once, the given way.
 * @param reader - the index
 * @param terms - (field, term) pairs
 * @param read - `nextDocs` (blocks) or `nextDoc+freq` (one at a time)
 */
export function readPostings(
  reader: IndexReader,
  terms: readonly { readonly field: string; readonly term: string }[],
  read: PostingsRead,
): PassResult {
  const docs = new Int32Array(128)
  const freqs = new Int32Array(128)
  let postings = 0
  let checksum = 0
  for (const { field, term } of terms) {
    const cursor = reader.postings(field, term)
    if (cursor === null) {
      continue
    }
    if (read === 'nextDocs') {
      for (let n = cursor.nextDocs(docs, freqs); n > 0; n = cursor.nextDocs(docs, freqs)) {
        for (let i = 0; i < n; i++) {
          checksum = (checksum + docs[i]! * 31 + freqs[i]!) | 0
        }
        postings += n
      }
    } else {
      for (let d = cursor.nextDoc(); d !== NO_MORE_DOCS; d = cursor.nextDoc()) {
        checksum = (checksum + d * 31 + cursor.freq()) | 0
        postings++
      }
    }
  }
  return { postings, checksum }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor((sorted.length - 1) / 2)]!
}

function cpuNs(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start)
  return (used.user + used.system) * 1000
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      corpus: { type: 'string', default: 'nfcorpus-x30' },
      'min-df': { type: 'string', default: '1000' },
      passes: { type: 'string', default: '15' },
      'baseline-index': { type: 'string' },
    },
  })
  const minDf = Number(values['min-df'])
  const passes = Number(values.passes)
  if (!Number.isInteger(minDf) || minDf < 1 || !Number.isInteger(passes) || passes < 5) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `--min-df is a whole number ≥ 1 and --passes ≥ 5, got "${values['min-df']}", "${values.passes}"`,
    )
  }
  const spec = corpusSpec(values.corpus)
  const dir = join(fileURLToPath(new URL('..', import.meta.url)), '.cache', 'indexes', spec.name)
  if (!existsSync(join(dir, 'INDEX.json'))) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `no cached index of ${spec.name} in ${dir}: run compare.js or the benchmark first`,
    )
  }
  const reader = await openIndex(dir)
  const readers: { name: string; reader: IndexReader }[] = [{ name: 'this', reader }]
  if (values['baseline-index'] !== undefined) {
    const other = (await import(pathToFileURL(values['baseline-index']).href)) as {
      openIndex: typeof openIndex
    }
    readers.unshift({ name: 'baseline', reader: await other.openIndex(dir) })
  }
  const terms: { field: string; term: string }[] = []
  for (const field of ['title', 'abstract']) {
    if (!reader.hasField(field)) {
      continue
    }
    for (const entry of reader.terms(field)) {
      if (entry.docFreq >= minDf) {
        terms.push({ field, term: entry.term })
      }
    }
  }
  const rows: string[][] = []
  for (const read of ['nextDocs', 'nextDoc+freq'] as const) {
    const times = readers.map((): number[] => [])
    let postings = 0
    let checksum: number | undefined
    for (let pass = 0; pass < passes; pass++) {
      for (let k = 0; k < readers.length; k++) {
        const r = (pass + k) % readers.length
        const start = process.cpuUsage()
        const result = readPostings(readers[r]!.reader, terms, read)
        const ns = cpuNs(start)
        if (checksum === undefined) {
          checksum = result.checksum
          postings = result.postings
        } else if (result.checksum !== checksum || result.postings !== postings) {
          throw new PubmatchError(
            'INTERNAL',
            `${readers[r]!.name} read different postings (${read})`,
          )
        }
        if (pass >= 3) {
          times[r]!.push(ns)
        }
      }
    }
    readers.forEach(({ name }, r) => {
      const t = times[r]!
      const paired =
        readers.length === 2 && r === 1
          ? `×${median(t.map((ns, i) => ns / times[0]![i]!)).toFixed(3)}`
          : ''
      rows.push([
        read,
        name,
        String(postings),
        (median(t) / postings).toFixed(2),
        (Math.min(...t) / postings).toFixed(2),
        paired,
      ])
    })
  }
  process.stdout.write(
    `# ${spec.label}: CPU ns per posting, ${terms.length} title/abstract postings lists with ≥ ${minDf} documents, ${passes - 3} passes reported\n\n` +
      markdownTable(
        [
          'read',
          'build',
          'postings per pass',
          'median ns/posting',
          'min ns/posting',
          'this ÷ baseline (paired median)',
        ],
        rows,
      ) +
      '\n',
  )
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  })
}
