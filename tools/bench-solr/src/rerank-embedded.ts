/**
 * The embedded reranked engine of the rerank benchmark, in a process of its own (so its RSS is
 * its own): `openSearch({ index, model, ranking: { match: 'any' } })`, then the measured queries
 * through `engine.search` (the first stage's top 500 reordered by the model, a page of `rows`) at
 * one client and at paced rates, and the first stage alone (`firstStageSearch`, top 500, exact
 * total) at one client.
 */
import { MIB, peakRssMiB } from '@pubmatch/bench-kit'
import { isPubmatchError, json, type JsonShape } from '@pubmatch/core'
import { openSearch } from '@pubmatch/engine'
import {
  LOAD_SUMMARY,
  runPaced,
  runSerial,
  summarizeLoad,
  type LoadSummary,
} from './rerank-load.ts'
import { rerankQueries } from './rerank-queries.ts'

/** Serve the embedded engine. */
export interface RerankEmbeddedCase {
  readonly kind: 'embedded'
  readonly index: string
  readonly model: string
  readonly queries: number
  readonly warmup: number
  readonly rows: number
  readonly depth: number
  readonly rates: readonly number[]
  readonly pacedRequests: number
  /** The first this many accepted queries are the fixed set whose top ids are kept. */
  readonly checkQueries: number
}

/** What the embedded engine measured. */
export interface RerankEmbedded {
  readonly docCount: number
  readonly openMs: number
  /** Loading the forward store (the features' token streams). */
  readonly forwardMs: number
  readonly rssAfterOpenMiB: number
  readonly rssAfterQueriesMiB: number
  readonly peakRssMiB: number
  /** The measured queries the engine answers (the others fail to parse, by code). */
  readonly accepted: readonly string[]
  readonly rejected: Readonly<Record<string, number>>
  readonly serial: LoadSummary
  readonly firstStage: LoadSummary
  readonly paced: ReadonlyArray<{ readonly rate: number; readonly summary: LoadSummary }>
  /** Top `rows` ids of the fixed query set, by query id. */
  readonly topIds: Readonly<Record<string, readonly string[]>>
}

/** The shape of {@link RerankEmbedded}. */
export const RERANK_EMBEDDED: JsonShape<RerankEmbedded> = json.object({
  docCount: json.count,
  openMs: json.numberOrNaN,
  forwardMs: json.numberOrNaN,
  rssAfterOpenMiB: json.numberOrNaN,
  rssAfterQueriesMiB: json.numberOrNaN,
  peakRssMiB: json.numberOrNaN,
  accepted: json.array(json.string),
  rejected: json.record(json.count),
  serial: LOAD_SUMMARY,
  firstStage: LOAD_SUMMARY,
  paced: json.array(json.object({ rate: json.numberOrNaN, summary: LOAD_SUMMARY })),
  topIds: json.record(json.array(json.string)),
})

const say = (text: string): void => {
  process.stderr.write(`bench-solr rerank: embedded ${text}\n`)
}

/**
 * Runs the embedded measurements.
 * @param request - see {@link RerankEmbeddedCase}
 */
export async function serveEmbeddedReranked(request: RerankEmbeddedCase): Promise<RerankEmbedded> {
  const t0 = performance.now()
  const engine = await openSearch({
    index: request.index,
    model: request.model,
    ranking: { match: 'any' },
  })
  const openMs = performance.now() - t0
  const t1 = performance.now()
  await engine.prepareFeatures()
  const forwardMs = performance.now() - t1
  globalThis.gc?.()
  const rssAfterOpenMiB = process.memoryUsage().rss / MIB
  const { warmup, measured } = rerankQueries(request.queries, request.warmup)
  const rejected: Record<string, number> = {}
  const accepted = measured.filter((query) => {
    try {
      engine.firstStageSearch(query.text, { limit: 1 })
      return true
    } catch (error) {
      const code = isPubmatchError(error) ? error.code : 'OTHER'
      rejected[code] = (rejected[code] ?? 0) + 1
      return false
    }
  })
  say(`${accepted.length} of ${measured.length} measured queries accepted; warm-up`)
  for (const query of warmup) {
    try {
      engine.search(query.text, { limit: request.rows })
    } catch {
      // warm-up failures do not count
    }
  }
  const topIds: Record<string, string[]> = {}
  const serial = await runSerial(accepted.length, (i) => {
    const query = accepted[i]!
    const result = engine.search(query.text, { limit: request.rows })
    if (i < request.checkQueries) {
      topIds[query.id] = result.hits.map((hit) => hit.id)
    }
    return { reranked: result.reranked }
  })
  say(`one client, reranked: done`)
  const firstStage = await runSerial(accepted.length, (i) => {
    engine.firstStageSearch(accepted[i]!.text, { limit: request.depth, exactTotal: true })
    return {}
  })
  say(`one client, first stage alone: done`)
  const paced: Array<{ rate: number; summary: LoadSummary }> = []
  for (const rate of request.rates) {
    const samples = await runPaced(
      request.pacedRequests,
      rate,
      (i) => ({
        reranked: engine.search(accepted[i % accepted.length]!.text, { limit: request.rows })
          .reranked,
      }),
      { progressEvery: 100, progress: (text) => say(`${rate} req/s: ${text}`) },
    )
    paced.push({ rate, summary: summarizeLoad(samples) })
    say(`${rate} req/s: done`)
  }
  return {
    docCount: engine.docCount,
    openMs,
    forwardMs,
    rssAfterOpenMiB,
    rssAfterQueriesMiB: process.memoryUsage().rss / MIB,
    peakRssMiB: peakRssMiB(),
    accepted: accepted.map((query) => query.id),
    rejected,
    serial: summarizeLoad(serial),
    firstStage: summarizeLoad(firstStage),
    paced,
    topIds,
  }
}
