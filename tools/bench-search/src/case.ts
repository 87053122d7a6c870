/**
 * One benchmark case in its own process (started by `run.ts`, so that peak RSS is the case's
 * own): `node --expose-gc dist/case.js '<CaseRequest JSON>'`. Prints the result as JSON on
 * its last stdout line; progress goes to stderr.
 */
import { mkdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { createSearcher, type FirstStageRanker } from '@pubmatch/bm25f'
import { isPubmatchError, parseJson, type Query, type Run } from '@pubmatch/core'
import { evaluate, readQrels } from '@pubmatch/eval'
import { buildIndex, openIndex } from '@pubmatch/index'
import { indexSpaceUsage } from '@pubmatch/index/internal'
import { MIB, cpuSecondsSince, dirBytes, peakRssMiB, sharedDataDir, timeIterable } from '@pubmatch/bench-kit'
import { corpusArticles, corpusSpec, indexFields, writeTitleAbstractJsonl } from './corpora.ts'
import { summarizeRounds } from './latency.ts'
import { createHeapSampler } from './measure.ts'
import {
  loadQuerySet,
  searchOptions,
  type QuerySet,
  type QuerySetName,
  type SearchCell,
} from './query-sets.ts'
import type { BuildResult, CellResult, ServeResult } from './results.ts'
import { CASE_REQUEST, type CaseRequest } from './case-request.ts'

const progress = (text: string): void => {
  process.stderr.write(`bench-search: ${text}\n`)
}

/** The fields holding the words the anchors index (title and abstract), for `postingsBytes`. */
const ANCHOR_FIELDS: ReadonlySet<string> = new Set(['title', 'abstract'])

async function build(corpus: string, dir: string): Promise<BuildResult> {
  const spec = corpusSpec(corpus)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const articles = await corpusArticles(
    spec,
    spec.source.kind === 'nfcorpus' ? sharedDataDir() : '',
  )
  const heap = createHeapSampler()
  const timed = timeIterable(articles, { everyN: 1000, every: () => heap.sample() })
  let lastReport = performance.now()
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  const result = await buildIndex(
    timed,
    dir,
    { fields: indexFields(spec) },
    {
      maxBufferedDocs: spec.maxBufferedDocs,
      forceMergeTo: 1,
      onProgress: (p) => {
        const now = performance.now()
        if (now - lastReport > 30_000) {
          lastReport = now
          progress(
            `${corpus}: ${p.phase}, ${p.docsAdded.toLocaleString('en-US')} docs added, ${p.merges} merges, ${((now - t0) / 1000).toFixed(0)} s`,
          )
        }
      },
    },
  )
  const end = performance.now()
  const cpuSeconds = cpuSecondsSince(cpu0)
  const { total, byKind } = dirBytes(dir)
  const usage = await indexSpaceUsage(dir)
  let postingsBytes = 0
  for (const field of usage.fields) {
    if (ANCHOR_FIELDS.has(field.field)) {
      postingsBytes += field.postingsBytes + field.positionsBytes
    }
  }
  return {
    engine: 'pubmatch',
    corpus,
    docs: result.docsAdded,
    seconds: (end - t0) / 1000,
    inputSeconds: timed.producingMs / 1000,
    cpuSeconds,
    tailSeconds: (end - (timed.endedAt ?? end)) / 1000,
    peakRssMiB: peakRssMiB(),
    peakHeapMiB: heap.stop(),
    indexBytes: total,
    fileBytes: byKind,
    postingsBytes,
    storedBytes: usage.files.sto,
    segments: result.segments,
    errors: result.errors.length,
    date: new Date().toISOString(),
  }
}

interface CellState {
  readonly cell: SearchCell
  readonly set: QuerySet
  readonly options: ReturnType<typeof searchOptions>
  /** Its own searcher, so that no cell inherits another's n(t) cache. */
  readonly searcher: FirstStageRanker
  readonly latencies: number[]
  readonly cpuMs: number[]
  readonly failed: Set<string>
  readonly errorCodes: Record<string, number>
  postings: number
  docsScored: number
  matches: number
  empty: number
}

async function serve(request: Extract<CaseRequest, { kind: 'serve' }>): Promise<ServeResult> {
  const spec = corpusSpec(request.corpus)
  const shared = sharedDataDir()
  const t0 = performance.now()
  const reader = await openIndex(request.dir)
  const openMs = performance.now() - t0
  globalThis.gc?.()
  const afterOpen = process.memoryUsage()
  const sets = new Map<QuerySetName, QuerySet>()
  for (const cell of request.cells) {
    if (!sets.has(cell.set)) {
      sets.set(cell.set, await loadQuerySet(cell.set, shared, request.log))
    }
  }
  const heap = createHeapSampler()
  const states: CellState[] = request.cells.map((cell) => ({
    cell,
    set: sets.get(cell.set)!,
    options: searchOptions(cell, spec.fields),
    searcher: createSearcher(reader),
    latencies: [],
    cpuMs: [],
    failed: new Set(),
    errorCodes: {},
    postings: 0,
    docsScored: 0,
    matches: 0,
    empty: 0,
  }))
  for (const state of states) {
    for (const query of state.set.warmup) {
      try {
        state.searcher.search(query.text, state.options)
      } catch {
        // failures are counted on the measured queries
      }
    }
    heap.sample()
  }
  for (let round = 0; round < request.rounds; round++) {
    for (const state of states) {
      state.set.measured.forEach((query, i) => {
        if (state.failed.has(query.id)) {
          return
        }
        const cpu0 = process.cpuUsage()
        const t = performance.now()
        let result
        try {
          result = state.searcher.search(query.text, state.options)
        } catch (error) {
          if (round > 0) {
            throw error
          }
          state.failed.add(query.id)
          const code = isPubmatchError(error) ? error.code : 'OTHER'
          state.errorCodes[code] = (state.errorCodes[code] ?? 0) + 1
          return
        }
        state.latencies.push(performance.now() - t)
        state.cpuMs.push(cpuSecondsSince(cpu0) * 1000)
        if (round === 0) {
          state.postings += result.stats.postingsScored
          state.docsScored += result.stats.docsScored
          state.matches += result.total
          state.empty += result.hits.length === 0 ? 1 : 0
        }
        if (i % 64 === 0) {
          heap.sample()
        }
      })
    }
    progress(`${request.corpus}: query round ${round + 1} of ${request.rounds} done`)
  }
  const cells = states.map((state): CellResult => {
    const queries = state.set.measured.length - state.failed.size
    return {
      ...state.cell,
      queries,
      rounds: request.rounds,
      errors: state.failed.size,
      errorCodes: state.errorCodes,
      ...summarizeRounds(state.latencies, state.cpuMs, queries),
      postingsPerQuery: state.postings / Math.max(1, queries),
      docsScoredPerQuery: state.docsScored / Math.max(1, queries),
      matchesPerQuery: state.matches / Math.max(1, queries),
      emptyQueries: state.empty,
    }
  })
  let ndcg10: number | undefined
  if (request.ndcg) {
    const dev =
      sets.get('nfcorpus-dev') ?? (await loadQuerySet('nfcorpus-dev', shared, request.log))
    ndcg10 = await nfcorpusDevNdcg(createSearcher(reader), dev.measured, shared)
  }
  return {
    engine: 'pubmatch',
    corpus: request.corpus,
    docs: reader.docCount,
    openMs,
    rssAfterOpenMiB: afterOpen.rss / MIB,
    heapAfterOpenMiB: afterOpen.heapUsed / MIB,
    peakRssMiB: peakRssMiB(),
    peakHeapMiB: heap.stop(),
    indexBytes: dirBytes(request.dir).total,
    cells,
    ...(ndcg10 === undefined ? {} : { ndcg10 }),
  }
}

/**
 * nDCG@10 of the dev title queries as `pnpm eval:nfcorpus` runs them: plain text, match any,
 * 1,000 hits, ties in trec_eval order, `s-3.qrel`, trec_eval -c.
 */
async function nfcorpusDevNdcg(
  searcher: FirstStageRanker,
  queries: readonly Query[],
  shared: string,
): Promise<number> {
  const run: Run = { tag: 'pubmatch', queries: new Map() }
  for (const query of queries) {
    const result = searcher.search(query.text, {
      syntax: 'plain',
      match: 'any',
      limit: 1000,
      tieBreak: 'idDescending',
    })
    run.queries.set(
      query.id,
      result.hits.map((hit) => ({ docId: hit.id, score: hit.score, rank: hit.rank })),
    )
  }
  const qrels = await readQrels(join(shared, 'nfcorpus/dev/s-3.qrel'))
  return evaluate(run, qrels, { measures: ['ndcg_cut.10'] }).mean['ndcg_cut_10'] ?? Number.NaN
}

async function exportDocs(corpus: string, path: string): Promise<{ docs: number }> {
  const spec = corpusSpec(corpus)
  mkdirSync(dirname(path), { recursive: true })
  const docs = await writeTitleAbstractJsonl(
    await corpusArticles(spec, spec.source.kind === 'nfcorpus' ? sharedDataDir() : ''),
    path,
  )
  return { docs }
}

const request = parseJson(process.argv[2] ?? '', CASE_REQUEST, { file: 'the case request (argument 1)', code: 'INVALID_ARGUMENT' })
let output: unknown
switch (request.kind) {
  case 'build':
    output = await build(request.corpus, request.dir)
    break
  case 'serve':
    output = await serve(request)
    break
  case 'export':
    output = await exportDocs(request.corpus, request.path)
    break
}
process.stdout.write(`${JSON.stringify(output)}\n`)
