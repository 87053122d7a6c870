/**
 * `node dist/phases.js --setup FILE --model DIR --out FILE [--rounds N]`: where a search's time
 * goes, in process (no HTTP), over the same accepted queries as the load: for each query the
 * first stage (`engine.firstStageSearch`, top 500), the 179 features of its candidates
 * (`bestMatchExtractor(…).extract`), the whole rerank (`reranker.rerank`, the model's reranker of
 * `@pubmatch/engine/internal`: the out-of-range check, features, 500 trees, sort; scoring ≈
 * rerank − features), the engine's page of 20 (`engine.search`: first stage + rerank + stored
 * records), the stored records of its 20 hits alone (`reader.stored`, the index reader of
 * `@pubmatch/engine/internal`) and the highlights of its hits.
 * The first round warms up; the others are measured. Writes JSON.
 */
import { writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { readJsonFileSync } from '@pubmatch/core/node'
import { openSearch } from '@pubmatch/engine'
import { engineInternals } from '@pubmatch/engine/internal'
import { bestMatchExtractor } from '@pubmatch/ltr'
import { SETUP_RESULT } from './results.ts'
import { summarize, type Summary } from './stats.ts'

/** Per-phase timings of one class of queries. */
export interface PhaseSummaries {
  readonly queries: number
  readonly firstStage: Summary
  readonly features: Summary
  readonly rerank: Summary
  readonly scoring: Summary
  readonly engineSearch: Summary
  /** Process CPU time of `engine.search` (`process.cpuUsage`, µs resolution): the work without waiting for a core. */
  readonly engineSearchCpu: Summary
  /** `reader.stored` of the page's 20 hits alone (part of `engineSearch`). */
  readonly records: Summary
  readonly highlights: Summary
  readonly candidates: Summary
}

/** What phases.js writes. */
export interface PhasesResult {
  readonly rounds: number
  readonly model: string
  /** Queries the model reranked (candidates, in range). */
  readonly reranked: PhaseSummaries
  /** Queries with candidates that the model left in first-stage order (out of its range). */
  readonly fallback: { readonly queries: number; readonly engineSearch: Summary }
  /** Queries that match nothing. */
  readonly noMatch: { readonly queries: number; readonly engineSearch: Summary }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { setup: { type: 'string' }, model: { type: 'string' }, out: { type: 'string' }, rounds: { type: 'string', default: '3' } },
  })
  const setup = readJsonFileSync(values.setup!, SETUP_RESULT)
  const rounds = Number(values.rounds)
  const engine = await openSearch({ index: setup.index, model: values.model!, ranking: { match: setup.match } })
  const model = engine.model!
  const { reader, forwardStore, reranker } = engineInternals(engine)
  const extractor = bestMatchExtractor({ reader, forward: await forwardStore(), syntax: engine.firstStage.syntax })
  const times = {
    firstStage: [] as number[],
    features: [] as number[],
    rerank: [] as number[],
    scoring: [] as number[],
    engineSearch: [] as number[],
    engineSearchCpu: [] as number[],
    records: [] as number[],
    highlights: [] as number[],
    candidates: [] as number[],
  }
  const fallback: number[] = []
  const noMatch: number[] = []
  let rerankedQueries = 0
  let fallbackQueries = 0
  let noMatchQueries = 0
  for (let round = 0; round < rounds; round++) {
    const measured = round > 0
    for (const query of setup.accepted) {
      const t0 = performance.now()
      const first = engine.firstStageSearch(query, { limit: model.depth })
      const t1 = performance.now()
      let featuresMs = 0
      let rerankMs = 0
      let isFallback = false
      if (first.hits.length > 0) {
        const head = { ...first, hits: first.hits.slice(0, model.depth) }
        const t2 = performance.now()
        extractor.extract(query, head)
        const t3 = performance.now()
        isFallback = reranker!.rerank(query, head).fallback !== undefined
        const t4 = performance.now()
        featuresMs = t3 - t2
        rerankMs = t4 - t3
      }
      const cpu = process.cpuUsage()
      const t5 = performance.now()
      const page = engine.search(query, { limit: 20 })
      const t6 = performance.now()
      const cpuUsed = process.cpuUsage(cpu)
      for (const hit of page.hits) {
        engine.highlights(hit.document, query)
      }
      const t7 = performance.now()
      for (const hit of page.hits) {
        reader.stored(hit.docNumber)
      }
      const t8 = performance.now()
      if (!measured) {
        continue
      }
      if (first.hits.length === 0) {
        noMatch.push(t6 - t5)
        noMatchQueries += round === 1 ? 1 : 0
      } else if (isFallback) {
        fallback.push(t6 - t5)
        fallbackQueries += round === 1 ? 1 : 0
      } else {
        rerankedQueries += round === 1 ? 1 : 0
        times.firstStage.push(t1 - t0)
        times.features.push(featuresMs)
        times.rerank.push(rerankMs)
        times.scoring.push(Math.max(0, rerankMs - featuresMs))
        times.engineSearch.push(t6 - t5)
        times.engineSearchCpu.push((cpuUsed.user + cpuUsed.system) / 1000)
        times.records.push(t8 - t7)
        times.highlights.push(t7 - t6)
        times.candidates.push(Math.min(first.hits.length, model.depth))
      }
    }
  }
  const result: PhasesResult = {
    rounds: rounds - 1,
    model: model.dir,
    reranked: {
      queries: rerankedQueries,
      firstStage: summarize(times.firstStage),
      features: summarize(times.features),
      rerank: summarize(times.rerank),
      scoring: summarize(times.scoring),
      engineSearch: summarize(times.engineSearch),
      engineSearchCpu: summarize(times.engineSearchCpu),
      records: summarize(times.records),
      highlights: summarize(times.highlights),
      candidates: summarize(times.candidates),
    },
    fallback: { queries: fallbackQueries, engineSearch: summarize(fallback) },
    noMatch: { queries: noMatchQueries, engineSearch: summarize(noMatch) },
  }
  writeFileSync(values.out!, `${JSON.stringify(result, null, 2)}\n`)
}

await main()
