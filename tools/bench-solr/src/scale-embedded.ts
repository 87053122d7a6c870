/**
 * The embedded engine's cases of the scale benchmark (build, serve). Each runs in a process of
 * its own, `scale-case.ts`, started by `scale.ts`, so that peak RSS is the case's own.
 */
import { mkdirSync, rmSync } from 'node:fs'
import { MIB, cpuSecondsSince, dirBytes, peakRssMiB, timeIterable } from '@pubmatch/bench-kit'
import { createSearcher } from '@pubmatch/bm25f'
import { PubmatchError } from '@pubmatch/core'
import { buildIndex, defaultPubmedFields, openIndex } from '@pubmatch/index'
import { syntheticArticles } from './scale-corpus.ts'
import { logQueries, runPasses } from './scale-queries.ts'
import type { EmbeddedBuild, EmbeddedServe } from './scale-results.ts'
import { summarizePasses } from './scale-stats.ts'

/** Build the embedded index of the synthetic corpus. */
export interface EmbeddedBuildCase {
  readonly kind: 'build'
  readonly dir: string
  readonly docs: number
  readonly seed: number
  readonly workers: number
  /** Stop with `TIMEOUT` after this many ms. */
  readonly timeLimitMs: number
}

/** Open the embedded index and time the log queries. */
export interface EmbeddedServeCase {
  readonly kind: 'serve'
  readonly dir: string
  readonly queries: number
  readonly warmup: number
  readonly passes: number
  readonly timeLimitMs: number
}

/** Documents per flushed segment (tools/bench-search's synthetic corpora). */
export const MAX_BUFFERED_DOCS = 25_000

const progress = (text: string): void => {
  process.stderr.write(`bench-solr scale: embedded ${text}\n`)
}

/**
 * `buildIndex` over the synthetic articles, generated inside the build loop (their generation
 * time is measured and subtracted), `defaultPubmedFields()`, force-merged to one segment.
 * @param request - see {@link EmbeddedBuildCase}
 * @throws PubmatchError `TIMEOUT` past the time limit
 */
export async function buildEmbedded(request: EmbeddedBuildCase): Promise<EmbeddedBuild> {
  rmSync(request.dir, { recursive: true, force: true })
  mkdirSync(request.dir, { recursive: true })
  const t0 = performance.now()
  const timed = timeIterable(syntheticArticles(request.docs, request.seed), { deadline: t0 + request.timeLimitMs })
  let lastReport = t0
  const cpu0 = process.cpuUsage()
  const result = await buildIndex(
    timed,
    request.dir,
    { fields: defaultPubmedFields() },
    {
      maxBufferedDocs: MAX_BUFFERED_DOCS,
      forceMergeTo: 1,
      workers: request.workers,
      onProgress: (p) => {
        const now = performance.now()
        if (now - lastReport > 30_000) {
          lastReport = now
          const net = (now - t0 - timed.producingMs) / 1000
          progress(
            `build: ${p.phase}, ${p.docsAdded.toLocaleString('en-US')} docs, ${Math.round(p.docsAdded / Math.max(net, 1e-3))} docs/s (generation excluded), ${((now - t0) / 1000).toFixed(0)} s`,
          )
        }
      },
    },
  )
  const end = performance.now()
  const cpuSeconds = cpuSecondsSince(cpu0)
  const seconds = (end - t0) / 1000
  const files = dirBytes(request.dir)
  const inputSeconds = timed.producingMs / 1000
  return {
    docs: result.docsAdded,
    seconds,
    inputSeconds,
    cpuSeconds,
    docsPerSecond: result.docsAdded / (seconds - inputSeconds),
    docsPerCpuSecond: result.docsAdded / (cpuSeconds - inputSeconds),
    tailSeconds: (end - (timed.endedAt ?? end)) / 1000,
    peakRssMiB: peakRssMiB(),
    indexBytes: files.total,
    fileBytes: files.byKind,
    segments: result.segments,
    errors: result.errors.length,
    workers: request.workers,
  }
}

/**
 * Opens the index (timed), a full GC and RSS, then the log queries one at a time with
 * `createSearcher(reader, { match: 'all' })`, top 500, exact totals.
 * @param request - see {@link EmbeddedServeCase}
 * @throws PubmatchError `TIMEOUT` past the time limit
 */
export async function serveEmbedded(request: EmbeddedServeCase): Promise<EmbeddedServe> {
  const deadline = performance.now() + request.timeLimitMs
  const t0 = performance.now()
  const reader = await openIndex(request.dir)
  const openMs = performance.now() - t0
  globalThis.gc?.()
  const rssAfterOpenMiB = process.memoryUsage().rss / MIB
  const searcher = createSearcher(reader, { match: 'all' })
  const queries = logQueries(request.queries, request.warmup)
  const samples = await runPasses(
    queries,
    request.passes,
    (text) => ({
      total: searcher.search(text, { limit: 500, exactTotal: true, parse: { recover: true } })
        .total,
    }),
    {
      onPass: (pass) => progress(`queries: pass ${pass} of ${request.passes} done`),
      check: () => {
        if (performance.now() > deadline) {
          throw new PubmatchError(
            'TIMEOUT',
            '@pubmatch/bench-solr: the embedded queries ran past their time limit',
          )
        }
      },
    },
  )
  const totals = Object.values(samples.totals)
  return {
    docs: reader.docCount,
    openMs,
    rssAfterOpenMiB,
    rssAfterQueriesMiB: process.memoryUsage().rss / MIB,
    peakRssMiB: peakRssMiB(),
    queries: {
      queries: queries.measured.length,
      warmup: queries.warmup.length,
      latency: summarizePasses(samples.latencies),
      failed: samples.failed,
      totals: samples.totals,
      emptyQueries: totals.filter((total) => total === 0).length,
    },
  }
}
