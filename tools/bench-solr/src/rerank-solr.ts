/**
 * The Solr serving process of the rerank benchmark (a child process of `rerank-scale.ts`, so its
 * RSS is a serving client's own): `createSolrFirstStage` + `createSolrReranker` only, no local
 * index, corpus or forward store. Each reranked search is two requests from the client: (a) the
 * first stage's top `depth` with its exact total, (b) the rerank of those candidates on the shards
 * (`rq={!pubmatch model=…}`), a page of `rows`. It measures one client and paced rates, the first
 * stage alone, each request on one shard alone (`distrib=false`, for the projection), a node
 * stopped and restarted under paced load, and a second model deployed and switched to under
 * paced load.
 */
import { MIB, peakRssMiB, summarize, type SampleSummary } from '@pubmatch/bench-kit'
import { getAnalyzer } from '@pubmatch/analysis'
import { json, type JsonShape } from '@pubmatch/core'
import {
  createSolrClient,
  createSolrFirstStage,
  createSolrReranker,
  deployModel,
  loadModelOnReplicas,
  solrFields,
  startLocalCluster,
  type SolrClient,
  type SolrFirstStageOptions,
  type SolrParams,
} from '@pubmatch/solr'
import {
  LOAD_SUMMARY,
  SAMPLE_SUMMARY,
  runPaced,
  runSerial,
  summarizeLoad,
  windowAround,
  type Answered,
  type LoadSummary,
  type RequestSample,
} from './rerank-load.ts'
import { rerankQueries } from './rerank-queries.ts'
import { listReplicas } from './scale-solr.ts'

/** Serve from the collection. */
export interface RerankSolrCase {
  readonly kind: 'solr'
  readonly clusterDir: string
  readonly collection: string
  readonly queries: number
  readonly warmup: number
  /** Ids of the measured queries the embedded engine accepted (the same set is sent here). */
  readonly accepted: readonly string[]
  readonly rows: number
  readonly depth: number
  readonly rates: readonly number[]
  readonly pacedRequests: number
  readonly checkQueries: number
  readonly modelA: string
  readonly modelB: string
  readonly modelBDir: string
  readonly faultRate: number
  readonly faultRequests: number
  readonly stopNode: number
  readonly swapRate: number
  readonly swapRequests: number
  /** Queries measured on each shard alone. */
  readonly shardQueries: number
}

/** Requests (and their attempts) the client sent. */
export interface FetchCounts {
  readonly attempts: number
  /** Attempts that got no HTTP answer (connection refused, reset, timeout). */
  readonly networkErrors: number
  /** Attempts answered with a status ≥ 400. */
  readonly httpErrors: number
}

/** The fault phase. */
export interface FaultResult {
  readonly node: number
  readonly rate: number
  readonly summary: LoadSummary
  /** By state when due: `up`, `stopping`, `down`, `restarting`, `restarted`. */
  readonly byState: Readonly<Record<string, LoadSummary>>
  readonly stopMs: number
  readonly restartMs: number
  /** ms from the load's start. */
  readonly stoppedAt: number
  readonly restartedAt: number
  /** The fixed set's top ids against the baseline before the stop: queries with the same ids. */
  readonly checkedQueries: number
  readonly sameWhileDown: number
  readonly sameAfterRestart: number
  /** The same ids in any order (equal float scores may come in another order from another replica). */
  readonly sameSetWhileDown: number
  readonly sameSetAfterRestart: number
  readonly checkFailuresWhileDown: number
  readonly checkFailuresAfter: number
  readonly differing: readonly string[]
  readonly fetch: FetchCounts
}

/** The hot swap phase. */
export interface SwapResult {
  readonly rate: number
  readonly summary: LoadSummary
  /** The 10 s window around the switch (5 s before, 5 s after). */
  readonly window: LoadSummary
  /** The window from the deploy's start to the switch. */
  readonly deployWindow: LoadSummary
  readonly deployMs: number
  readonly loadMs: number
  readonly deployAt: number
  readonly switchAt: number
  readonly afterSwitchOnB: number
  readonly fetch: FetchCounts
}

/** What the Solr serving process measured. */
export interface RerankSolr {
  readonly rssStartMiB: number
  readonly rssAfterLatencyMiB: number
  readonly rssEndMiB: number
  readonly peakRssMiB: number
  readonly serial: LoadSummary
  readonly firstStage: LoadSummary
  readonly paced: ReadonlyArray<{ readonly rate: number; readonly summary: LoadSummary }>
  readonly qtime: { readonly a: SampleSummary; readonly b: SampleSummary }
  readonly shard: {
    readonly a: SampleSummary
    readonly b: SampleSummary
    readonly candidates: number
  }
  readonly topIds: Readonly<Record<string, readonly string[]>>
  readonly fault?: FaultResult
  readonly swap?: SwapResult
  readonly errors: readonly string[]
}

const FETCH_COUNTS = json.object({
  attempts: json.count,
  networkErrors: json.count,
  httpErrors: json.count,
})

/** The shape of {@link RerankSolr}. */
export const RERANK_SOLR: JsonShape<RerankSolr> = json.object({
  rssStartMiB: json.numberOrNaN,
  rssAfterLatencyMiB: json.numberOrNaN,
  rssEndMiB: json.numberOrNaN,
  peakRssMiB: json.numberOrNaN,
  serial: LOAD_SUMMARY,
  firstStage: LOAD_SUMMARY,
  paced: json.array(json.object({ rate: json.numberOrNaN, summary: LOAD_SUMMARY })),
  qtime: json.object({ a: SAMPLE_SUMMARY, b: SAMPLE_SUMMARY }),
  shard: json.object({ a: SAMPLE_SUMMARY, b: SAMPLE_SUMMARY, candidates: json.numberOrNaN }),
  topIds: json.record(json.array(json.string)),
  fault: json.optional(
    json.object({
      node: json.count,
      rate: json.numberOrNaN,
      summary: LOAD_SUMMARY,
      byState: json.record(LOAD_SUMMARY),
      stopMs: json.numberOrNaN,
      restartMs: json.numberOrNaN,
      stoppedAt: json.numberOrNaN,
      restartedAt: json.numberOrNaN,
      checkedQueries: json.count,
      sameWhileDown: json.count,
      sameAfterRestart: json.count,
      sameSetWhileDown: json.count,
      sameSetAfterRestart: json.count,
      checkFailuresWhileDown: json.count,
      checkFailuresAfter: json.count,
      differing: json.array(json.string),
      fetch: FETCH_COUNTS,
    }),
  ),
  swap: json.optional(
    json.object({
      rate: json.numberOrNaN,
      summary: LOAD_SUMMARY,
      window: LOAD_SUMMARY,
      deployWindow: LOAD_SUMMARY,
      deployMs: json.numberOrNaN,
      loadMs: json.numberOrNaN,
      deployAt: json.numberOrNaN,
      switchAt: json.numberOrNaN,
      afterSwitchOnB: json.count,
      fetch: FETCH_COUNTS,
    }),
  ),
  errors: json.array(json.string),
})

const say = (text: string): void => {
  process.stderr.write(`bench-solr rerank: solr ${text}\n`)
}

const rss = (): number => {
  globalThis.gc?.()
  return process.memoryUsage().rss / MIB
}

/** A fetch that counts attempts and their failures. */
function countingFetch(): { fetch: typeof fetch; counts: () => FetchCounts; reset: () => void } {
  let attempts = 0
  let networkErrors = 0
  let httpErrors = 0
  const counted: typeof fetch = async (input, init) => {
    attempts++
    try {
      const response = await fetch(input, init)
      if (response.status >= 400) {
        httpErrors++
      }
      return response
    } catch (error) {
      networkErrors++
      throw error
    }
  }
  return {
    fetch: counted,
    counts: () => ({ attempts, networkErrors, httpErrors }),
    reset: () => {
      attempts = 0
      networkErrors = 0
      httpErrors = 0
    },
  }
}

/**
 * Request parameters with Solr's result caches bypassed: `cache=false` in the local parameters of
 * the main query (`q`, so neither the query-result cache nor, for the rerank, its cached top
 * documents answer a repeated query) and of every `{!terms}` filter (the candidates' ids). The
 * embedded engine has no result cache; without this, the paced runs' repeated queries and every
 * later pass would be answered from Solr's caches (measured: 1–4 ms instead of 20–30 ms on one
 * shard of 150,000 articles).
 * @param params - the request's parameters
 */
export function uncachedParams(params: SolrParams): SolrParams {
  const local = (value: string): string =>
    value.replace(
      /^\{!(\S+?)([ }])/,
      (_, parser: string, end: string) => `{!${parser} cache=false${end}`,
    )
  const out: Record<string, SolrParams[string]> = { ...params }
  if (
    typeof params.q === 'string' &&
    params.q.startsWith('{!') &&
    !/^\{![^}]*\bcache=/.test(params.q)
  ) {
    out.q = local(params.q)
  }
  const fq = params.fq
  if (fq !== undefined && typeof fq !== 'boolean' && typeof fq !== 'number') {
    const list = typeof fq === 'string' ? [fq] : fq
    const mapped = list.map((one) =>
      typeof one === 'string' && one.startsWith('{!terms ') && !one.includes('cache=')
        ? local(one)
        : one,
    )
    out.fq = typeof fq === 'string' ? mapped[0]! : mapped
  }
  return out
}

/** A client whose requests bypass Solr's result caches ({@link uncachedParams}). */
function uncached(client: SolrClient): SolrClient {
  return {
    urls: client.urls,
    request: (request) =>
      client.request(
        request.params === undefined
          ? request
          : { ...request, params: uncachedParams(request.params) },
      ),
  }
}

/** A client that sends every request to one core alone (`distrib=false`). */
function singleCore(client: SolrClient): SolrClient {
  return {
    urls: client.urls,
    request: (request) =>
      client.request({ ...request, params: { ...request.params, distrib: 'false' } }),
  }
}

/**
 * Runs the Solr measurements.
 * @param request - see {@link RerankSolrCase}
 */
export async function serveSolrReranked(request: RerankSolrCase): Promise<RerankSolr> {
  const rssStartMiB = rss()
  const errors: string[] = []
  const cluster = await startLocalCluster({ dir: request.clusterDir, ownerPid: process.pid })
  const counter = countingFetch()
  const client = createSolrClient({ urls: cluster.urls(), fetch: counter.fetch })
  const options: SolrFirstStageOptions = {
    client: uncached(client),
    collection: request.collection,
    fields: solrFields('pubmed'),
    analyzer: getAnalyzer('biomedical'),
    match: 'any',
    syntax: 'pubmed',
    recover: true,
  }
  const stage = createSolrFirstStage(options)
  const rerankers = new Map([
    [request.modelA, createSolrReranker({ ...options, model: request.modelA })],
    [request.modelB, createSolrReranker({ ...options, model: request.modelB })],
  ])
  const qtimesA: number[] = []
  const qtimesB: number[] = []
  let model = request.modelA
  const search = async (text: string, keep?: (ids: string[]) => void): Promise<Answered> => {
    const reranker = rerankers.get(model)!
    const t0 = performance.now()
    const first = await stage.search(text, { limit: request.depth })
    const t1 = performance.now()
    qtimesA.push(first.qtimeMs)
    if (first.hits.length === 0) {
      keep?.([])
      return { aMs: t1 - t0, reranked: false }
    }
    const second = await reranker.rerank(text, first, { rows: request.rows })
    const t2 = performance.now()
    qtimesB.push(second.qtimeMs)
    keep?.(second.hits.map((hit) => hit.id))
    return {
      aMs: t1 - t0,
      bMs: t2 - t1,
      reranked: first.hits.length > 1 && second.fallback === undefined,
    }
  }
  const { warmup, measured } = rerankQueries(request.queries, request.warmup)
  const acceptedIds = new Set(request.accepted)
  const accepted =
    acceptedIds.size === 0 ? measured : measured.filter((query) => acceptedIds.has(query.id))
  say(`warm-up (${warmup.length} queries)`)
  for (const query of warmup) {
    await search(query.text).catch(() => undefined)
  }
  const topIds: Record<string, string[]> = {}
  const serial = await runSerial(
    accepted.length,
    (i) => {
      const query = accepted[i]!
      return search(
        query.text,
        i < request.checkQueries ? (ids) => (topIds[query.id] = ids) : undefined,
      )
    },
    { progressEvery: 100, progress: (text) => say(`one client, reranked: ${text}`) },
  )
  const qtime = { a: summarize(qtimesA, { empty: 'nan' }), b: summarize(qtimesB, { empty: 'nan' }) }
  say('one client, reranked: done')
  const firstStage = await runSerial(accepted.length, async (i) => {
    const t0 = performance.now()
    await stage.search(accepted[i]!.text, { limit: request.depth })
    return { aMs: performance.now() - t0 }
  })
  say('one client, first stage alone: done')
  const paced: Array<{ rate: number; summary: LoadSummary }> = []
  for (const rate of request.rates) {
    const samples = await runPaced(
      request.pacedRequests,
      rate,
      (i) => search(accepted[i % accepted.length]!.text),
      {
        progressEvery: 100,
        progress: (text) => say(`${rate} req/s: ${text}`),
      },
    )
    paced.push({ rate, summary: summarizeLoad(samples) })
    say(`${rate} req/s: done`)
  }
  const rssAfterLatencyMiB = rss()

  // each request on one shard alone: the shard's own work without the fan-out (projection)
  const shardA: number[] = []
  const shardB: number[] = []
  let candidates = 0
  let shardRuns = 0
  const leaders = (await listReplicas(client)).filter((replica) => replica.leader)
  for (const leader of leaders) {
    const core = uncached(singleCore(createSolrClient({ urls: [leader.baseUrl], retries: 2 })))
    const coreOptions = { ...options, client: core, collection: leader.core }
    const coreStage = createSolrFirstStage(coreOptions)
    const coreReranker = createSolrReranker({ ...coreOptions, model: request.modelA })
    for (const query of accepted.slice(0, request.shardQueries)) {
      try {
        // the candidates are the collection's top `depth` (each shard finds its share of them)
        const first = await stage.search(query.text, { limit: request.depth })
        if (first.hits.length === 0) {
          continue
        }
        const a = await coreStage.search(query.text, { limit: request.depth })
        const b = await coreReranker.rerank(query.text, first, { rows: request.rows })
        shardA.push(a.qtimeMs)
        shardB.push(b.qtimeMs)
        candidates += first.hits.length
        shardRuns++
      } catch (error) {
        errors.push(
          `shard ${leader.core}: ${error instanceof Error ? error.message : String(error)}`,
        )
      }
    }
    say(`one shard alone (${leader.core}): done`)
  }
  const shard = {
    a: summarize(shardA, { empty: 'nan' }),
    b: summarize(shardB, { empty: 'nan' }),
    candidates: shardRuns === 0 ? 0 : candidates / shardRuns / leaders.length,
  }

  let fault: FaultResult | undefined
  try {
    fault = await faultPhase(request, cluster, accepted, search, counter)
  } catch (error) {
    errors.push(`fault: ${error instanceof Error ? error.message : String(error)}`)
  }
  let swap: SwapResult | undefined
  try {
    swap = await swapPhase(request, client, accepted, search, counter, (name) => {
      model = name
    })
  } catch (error) {
    errors.push(`swap: ${error instanceof Error ? error.message : String(error)}`)
  }
  return {
    rssStartMiB,
    rssAfterLatencyMiB,
    rssEndMiB: rss(),
    peakRssMiB: peakRssMiB(),
    serial: summarizeLoad(serial),
    firstStage: summarizeLoad(firstStage),
    paced,
    qtime,
    shard,
    topIds,
    ...(fault === undefined ? {} : { fault }),
    ...(swap === undefined ? {} : { swap }),
    errors,
  }
}

type Search = (text: string, keep?: (ids: string[]) => void) => Promise<Answered>
type Queries = ReadonlyArray<{ readonly id: string; readonly text: string }>

async function topIdsOf(
  search: Search,
  queries: Queries,
): Promise<{ ids: Map<string, string>; failures: number }> {
  const ids = new Map<string, string>()
  let failures = 0
  for (const query of queries) {
    try {
      await search(query.text, (got) => ids.set(query.id, got.join(' ')))
    } catch {
      failures++
    }
  }
  return { ids, failures }
}

/**
 * A node stopped at a quarter of a paced run and started again at 60 %; the fixed query set's top
 * ids before the stop, while the node is down and after the restart.
 */
async function faultPhase(
  request: RerankSolrCase,
  cluster: Awaited<ReturnType<typeof startLocalCluster>>,
  accepted: Queries,
  search: Search,
  counter: ReturnType<typeof countingFetch>,
): Promise<FaultResult> {
  const fixed = accepted.slice(0, request.checkQueries)
  const baseline = await topIdsOf(search, fixed)
  counter.reset()
  let state = 'up'
  let stoppedAt = Number.NaN
  let restartedAt = Number.NaN
  let stopMs = Number.NaN
  let restartMs = Number.NaN
  let whileDown: Promise<{ ids: Map<string, string>; failures: number }> | undefined
  let restart: Promise<void> | undefined
  let stop: Promise<void> | undefined
  const stopAt = Math.floor(request.faultRequests * 0.25)
  const startAt = Math.floor(request.faultRequests * 0.6)
  const t0 = performance.now()
  say(
    `fault: ${request.faultRequests} requests at ${request.faultRate} req/s; node ${request.stopNode} stops at request ${stopAt}, starts at ${startAt}`,
  )
  const samples = await runPaced(
    request.faultRequests,
    request.faultRate,
    (i) => search(accepted[i % accepted.length]!.text),
    {
      state: () => state,
      progressEvery: 50,
      progress: (text) => say(`fault (${state}): ${text}`),
      onDue: (i) => {
        if (i === stopAt) {
          state = 'stopping'
          const ts = performance.now()
          stop = cluster.stopNode(request.stopNode).then(() => {
            stopMs = performance.now() - ts
            stoppedAt = performance.now() - t0
            state = 'down'
            say(`fault: node ${request.stopNode} stopped in ${stopMs.toFixed(0)} ms`)
            whileDown = topIdsOf(search, fixed)
          })
        }
        if (i === startAt) {
          const go = async (): Promise<void> => {
            await stop
            state = 'restarting'
            const ts = performance.now()
            await cluster.startNode(request.stopNode)
            restartMs = performance.now() - ts
            restartedAt = performance.now() - t0
            state = 'restarted'
            say(
              `fault: node ${request.stopNode} started again and active in ${restartMs.toFixed(0)} ms`,
            )
          }
          restart = go()
        }
      },
    },
  )
  await stop
  await restart
  const down = (await whileDown) ?? { ids: new Map<string, string>(), failures: fixed.length }
  const fetchCounts = counter.counts()
  const after = await topIdsOf(search, fixed)
  const differing: string[] = []
  let sameWhileDown = 0
  let sameAfterRestart = 0
  let sameSetWhileDown = 0
  let sameSetAfterRestart = 0
  const asSet = (ids: string | undefined): string | undefined => ids?.split(' ').sort().join(' ')
  for (const query of fixed) {
    const want = baseline.ids.get(query.id)
    if (want !== undefined && asSet(down.ids.get(query.id)) === asSet(want)) {
      sameSetWhileDown++
    }
    if (want !== undefined && asSet(after.ids.get(query.id)) === asSet(want)) {
      sameSetAfterRestart++
    }
    if (want !== undefined && down.ids.get(query.id) === want) {
      sameWhileDown++
    }
    if (want !== undefined && after.ids.get(query.id) === want) {
      sameAfterRestart++
    }
    if (want === undefined || down.ids.get(query.id) !== want || after.ids.get(query.id) !== want) {
      differing.push(query.text)
    }
  }
  const byState: Record<string, LoadSummary> = {}
  for (const name of ['up', 'stopping', 'down', 'restarting', 'restarted']) {
    const some = samples.filter((s) => s.state === name)
    if (some.length > 0) {
      byState[name] = summarizeLoad(some)
    }
  }
  return {
    node: request.stopNode,
    rate: request.faultRate,
    summary: summarizeLoad(samples),
    byState,
    stopMs,
    restartMs,
    stoppedAt,
    restartedAt,
    checkedQueries: baseline.ids.size,
    sameWhileDown,
    sameAfterRestart,
    sameSetWhileDown,
    sameSetAfterRestart,
    checkFailuresWhileDown: down.failures,
    checkFailuresAfter: after.failures,
    differing: differing.slice(0, 10),
    fetch: fetchCounts,
  }
}

/**
 * Model B deployed at 30 % of a paced run, loaded on every replica, then the queries switched to
 * it; the 10 s window around the switch.
 */
async function swapPhase(
  request: RerankSolrCase,
  client: SolrClient,
  accepted: Queries,
  search: Search,
  counter: ReturnType<typeof countingFetch>,
  use: (model: string) => void,
): Promise<SwapResult> {
  counter.reset()
  const deployAtRequest = Math.floor(request.swapRequests * 0.3)
  let deployAt = Number.NaN
  let switchAt = Number.NaN
  let deployMs = Number.NaN
  let loadMs = Number.NaN
  let current = request.modelA
  let deploying: Promise<void> | undefined
  const t0 = performance.now()
  say(
    `swap: ${request.swapRequests} requests at ${request.swapRate} req/s; model ${request.modelB} deployed at request ${deployAtRequest}`,
  )
  const samples: RequestSample[] = await runPaced(
    request.swapRequests,
    request.swapRate,
    (i) => search(accepted[i % accepted.length]!.text),
    {
      state: () => current,
      progressEvery: 50,
      progress: (text) => say(`swap (${current}): ${text}`),
      onDue: (i) => {
        if (i === deployAtRequest) {
          deployAt = performance.now() - t0
          const go = async (): Promise<void> => {
            const ts = performance.now()
            await deployModel({
              client,
              collection: request.collection,
              dir: request.modelBDir,
              name: request.modelB,
            })
            deployMs = performance.now() - ts
            const tl = performance.now()
            await loadModelOnReplicas({
              client,
              collection: request.collection,
              name: request.modelB,
            })
            loadMs = performance.now() - tl
            use(request.modelB)
            current = request.modelB
            switchAt = performance.now() - t0
            say(
              `swap: deployed in ${deployMs.toFixed(0)} ms, loaded on every replica in ${loadMs.toFixed(0)} ms; queries now use ${request.modelB}`,
            )
          }
          deploying = go()
        }
      },
    },
  )
  await deploying
  const fetchCounts = counter.counts()
  return {
    rate: request.swapRate,
    summary: summarizeLoad(samples),
    window: summarizeLoad(windowAround(samples, switchAt, 5000)),
    deployWindow: summarizeLoad(samples.filter((s) => s.due >= deployAt && s.due < switchAt)),
    deployMs,
    loadMs,
    deployAt,
    switchAt,
    afterSwitchOnB: samples.filter((s) => s.state === request.modelB && s.error === undefined)
      .length,
    fetch: fetchCounts,
  }
}
