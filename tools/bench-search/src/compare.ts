/**
 * Before/after in one process: two builds of `@pubmatch/bm25f` (this workspace's and another
 * checkout's `dist/index.js`) search the same open index, query by query, alternating which goes
 * first, so both see the same machine load. Every query's hits (ids and scores, `Object.is`) and
 * totals must be the same in both (where the baseline's total is a lower bound, this build's may be
 * exact and at least as large); the run stops at the first difference.
 *
 * `node dist/compare.js --baseline /path/to/other/packages/bm25f/dist/index.js
 *   [--baseline-index /path/to/other/packages/index/dist/index.js]
 *   [--corpus nfcorpus-x30] [--cells dev-any-1000,dev-any-500,bag-any-500,bag-all-500] [--rounds 5]
 *   [--clock wall|cpu]`
 *
 * With `--baseline-index`, the baseline searches a reader of that build of `@pubmatch/index`
 * (the same files, opened twice), so a change to the reader (postings, ids) is measured too.
 */
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { createSearcher } from '@pubmatch/bm25f'
import { markdownTable, sharedDataDir, summarizeLatencies, type LatencySummary } from '@pubmatch/bench-kit'
import { PubmatchError } from '@pubmatch/core'
import { buildIndex, openIndex, type IndexReader } from '@pubmatch/index'
import { corpusArticles, corpusSpec, indexFields } from './corpora.ts'
import { loadQuerySet, searchOptions, type QuerySetName } from './query-sets.ts'

/** A query cell on the command line: `dev-any-1000`, `bag-all-500`, `log-any-500`. */
export interface CompareCell {
  readonly name: string
  readonly set: QuerySetName
  readonly match: 'any' | 'all'
  readonly limit: number
}

const SETS: Readonly<Record<string, QuerySetName>> = { dev: 'nfcorpus-dev', bag: 'log-bag', log: 'log-pubmed' }

/**
 * Reads a cell name.
 * @param name - `<dev|bag|log>-<any|all>-<limit>`
 * @throws PubmatchError `INVALID_ARGUMENT` naming the cell otherwise
 */
export function parseCell(name: string): CompareCell {
  const m = /^(dev|bag|log)-(any|all)-([1-9]\d*)$/.exec(name)
  if (m === null) {
    throw new PubmatchError('INVALID_ARGUMENT', `a cell is <dev|bag|log>-<any|all>-<limit>, got "${name}"`)
  }
  return { name, set: SETS[m[1]!]!, match: m[2] as 'any' | 'all', limit: Number(m[3]) }
}

/** One cell's latencies, before and after, and the paired per-query ratios. */
export interface CellComparison {
  readonly before: LatencySummary
  readonly after: LatencySummary
  /**
   * Percentiles over queries of each query's fastest round: what a query costs when no other
   * process took the core from it, the steadier figure on a busy machine.
   */
  readonly beforeBest: LatencySummary
  readonly afterBest: LatencySummary
  /** Median over queries of (after's median ÷ before's median) for the query. */
  readonly pairedMedianRatio: number
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor((sorted.length - 1) / 2)]!
}

/**
 * Summarises paired samples: per query, its times in the builds (same rounds).
 * @param before - per query, its times with the baseline
 * @param after - per query, its times with this build (same queries, same order)
 */
export function compareSamples(before: readonly number[][], after: readonly number[][]): CellComparison {
  if (before.length !== after.length || before.length === 0) {
    throw new PubmatchError('INVALID_ARGUMENT', `paired samples need the same queries (got ${before.length} and ${after.length})`)
  }
  const ratios = before.map((times, i) => median(after[i]!) / median(times))
  return {
    before: summarizeLatencies(before.flat()),
    after: summarizeLatencies(after.flat()),
    beforeBest: summarizeLatencies(before.map((times) => Math.min(...times))),
    afterBest: summarizeLatencies(after.map((times) => Math.min(...times))),
    pairedMedianRatio: median(ratios),
  }
}

export type Search = (query: string, options: object) => { hits: { id: string; score: number }[]; total: number; totalRelation: string }

/**
 * Whether this build's answer `b` is the baseline's `a`: the same hits (ids, scores with
 * `Object.is`) and the same total, or, where the baseline gave a lower bound (`gte`), an exact
 * total at least that bound or a lower bound equal to it.
 * @param a - the baseline's answer
 * @param b - this build's answer
 */
export function sameAnswer(a: ReturnType<Search>, b: ReturnType<Search>): boolean {
  const totals =
    a.totalRelation === 'eq'
      ? b.totalRelation === 'eq' && a.total === b.total
      : b.totalRelation === 'eq'
        ? b.total >= a.total
        : b.total === a.total
  return (
    totals &&
    a.hits.length === b.hits.length &&
    a.hits.every((hit, i) => hit.id === b.hits[i]!.id && Object.is(hit.score, b.hits[i]!.score))
  )
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      baseline: { type: 'string' },
      'baseline-index': { type: 'string' },
      corpus: { type: 'string', default: 'nfcorpus-x30' },
      cells: { type: 'string', default: 'dev-any-1000,dev-any-500,bag-any-500,bag-all-500' },
      rounds: { type: 'string', default: '5' },
      'log-queries': { type: 'string', default: '500' },
      clock: { type: 'string', default: 'wall' },
    },
  })
  if (values.baseline === undefined) {
    throw new PubmatchError('INVALID_ARGUMENT', '--baseline names the other build of @pubmatch/bm25f (its dist/index.js)')
  }
  const rounds = Number(values.rounds)
  const logQueries = Number(values['log-queries'])
  if (!Number.isInteger(rounds) || rounds < 2 || !Number.isInteger(logQueries) || logQueries < 1) {
    throw new PubmatchError('INVALID_ARGUMENT', `--rounds is a whole number ≥ 2 and --log-queries ≥ 1, got "${values.rounds}", "${values['log-queries']}"`)
  }
  if (values.clock !== 'wall' && values.clock !== 'cpu') {
    throw new PubmatchError('INVALID_ARGUMENT', `--clock is wall or cpu, got "${values.clock}"`)
  }
  // CPU time (user + system, µs resolution) leaves out the time other processes hold the core
  const cpu = values.clock === 'cpu'
  const cells = values.cells.split(',').map(parseCell)
  const other = (await import(pathToFileURL(values.baseline).href)) as { createSearcher: (reader: IndexReader) => { search: Search } }
  const spec = corpusSpec(values.corpus)
  const dir = join(fileURLToPath(new URL('..', import.meta.url)), '.cache', 'indexes', spec.name)
  if (!existsSync(join(dir, 'INDEX.json'))) {
    process.stderr.write(`compare: building ${spec.label} into ${dir}\n`)
    mkdirSync(dir, { recursive: true })
    const articles = await corpusArticles(spec, spec.source.kind === 'nfcorpus' ? sharedDataDir() : '')
    await buildIndex(articles, dir, { fields: indexFields(spec) }, { maxBufferedDocs: spec.maxBufferedDocs, forceMergeTo: 1 })
  }
  const reader = await openIndex(dir)
  const baselineReader =
    values['baseline-index'] === undefined
      ? reader
      : await ((await import(pathToFileURL(values['baseline-index']).href)) as { openIndex: typeof openIndex }).openIndex(dir)
  const rows: string[][] = []
  for (const cell of cells) {
    // one searcher per build and cell, as the benchmark does
    const baseline = other.createSearcher(baselineReader)
    const current = createSearcher(reader)
    const search: Search[] = [(q, o) => baseline.search(q, o), (q, o) => current.search(q, o)]
    const querySet = await loadQuerySet(cell.set, sharedDataDir(), { measured: logQueries, warmup: 100 })
    const options = searchOptions({ set: cell.set, match: cell.match, limit: cell.limit, pruning: true }, spec.fields)
    // Both builds run every query once here (so neither has run the measured queries more often
    // than the other when the rounds start).
    const runnable = querySet.measured.filter((query) => {
      try {
        search[0]!(query.text, options)
        search[1]!(query.text, options)
        return true
      } catch {
        return false // fields the index lacks: counted out, as the benchmark does
      }
    })
    for (const query of querySet.warmup) {
      for (const s of search) {
        try {
          s(query.text, options)
        } catch {
          // as above
        }
      }
    }
    const times: number[][][] = [runnable.map(() => []), runnable.map(() => [])]
    for (let round = 0; round < rounds; round++) {
      runnable.forEach((query, q) => {
        const results: ReturnType<Search>[] = []
        for (let k = 0; k < 2; k++) {
          const b = (round + q + k) % 2
          const cpuStart = cpu ? process.cpuUsage() : undefined
          const start = process.hrtime.bigint()
          results[b] = search[b]!(query.text, options)
          const wallMs = Number(process.hrtime.bigint() - start) / 1e6
          if (cpuStart === undefined) {
            times[b]![q]!.push(wallMs)
          } else {
            const used = process.cpuUsage(cpuStart)
            times[b]![q]!.push((used.user + used.system) / 1000)
          }
        }
        if (!sameAnswer(results[0]!, results[1]!)) {
          throw new PubmatchError('INTERNAL', `${cell.name}: the builds differ on ${query.id} "${query.text}"`)
        }
      })
    }
    // round 1 is the first pass (cold per query), as in the benchmark: rounds 2 … R are reported
    const drop = (t: number[][]): number[][] => t.map((ms) => ms.slice(1))
    const c = compareSamples(drop(times[0]!), drop(times[1]!))
    const f = (v: number): string => v.toFixed(2)
    rows.push([
      cell.name,
      String(runnable.length),
      `${f(c.before.p50)} / ${f(c.before.p95)} / ${f(c.before.p99)}`,
      `${f(c.after.p50)} / ${f(c.after.p95)} / ${f(c.after.p99)}`,
      `×${f(c.after.p50 / c.before.p50)} / ×${f(c.after.p99 / c.before.p99)}`,
      `${f(c.beforeBest.p50)} / ${f(c.beforeBest.p99)}`,
      `${f(c.afterBest.p50)} / ${f(c.afterBest.p99)}`,
      `×${f(c.afterBest.p50 / c.beforeBest.p50)} / ×${f(c.afterBest.p99 / c.beforeBest.p99)}`,
      `×${f(c.pairedMedianRatio)}`,
    ])
    process.stderr.write(`compare: ${cell.name} done\n`)
  }
  process.stdout.write(
    `# ${spec.label}: baseline${values['baseline-index'] === undefined ? '' : ' (its own index reader)'} vs this build, interleaved, ${rounds - 1} rounds reported, ${cpu ? 'CPU time (user + system) per query' : 'wall time per query'} (same hits and scores; totals the same or exact where the baseline's was a lower bound)\n\n` +
      markdownTable(
        [
          'cell',
          'queries',
          'baseline p50 / p95 / p99 ms',
          'this p50 / p95 / p99 ms',
          'this ÷ baseline p50 / p99',
          'baseline best-round p50 / p99 ms',
          'this best-round p50 / p99 ms',
          'this ÷ baseline best-round p50 / p99',
          'paired median ratio',
        ],
        rows,
      ) +
      '\n\nBest-round figures: percentiles over queries of each query\'s fastest reported round.\n' +
      '\n',
  )
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  })
}
