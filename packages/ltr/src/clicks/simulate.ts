/**
 * A click simulator over a judged collection: users run the collection's queries, look at
 * the first page of results and click according to a click model, so that the log → labels
 * → model path runs end to end without real (private) PubMed logs.
 */
import type { Qrels, Query } from '@pubmatch/core'
import { PubmatchError } from '@pubmatch/core'
import { createRandom } from '@pubmatch/eval/internal'
import type { ActionEvent, LogEvent, SearchEvent, ShownResult } from './log-format.ts'
import type { LogSink } from './log-store.ts'

/**
 * How users examine a result page.
 * - `pbm` (position-based model): the result at rank r (1-based) is examined with probability
 *   1 / r^eta, independently of the others; `eta` defaults to `1`.
 * - `cascade`: the user reads from the top; each examined result is clicked with its click
 *   probability; after a click the user goes on reading with probability
 *   `continueAfterClick` (defaults to `0`: the classic cascade model, at most one click),
 *   otherwise stops; after a skip the user always goes on.
 */
export type ClickModel =
  { kind: 'pbm'; eta?: number } | { kind: 'cascade'; continueAfterClick?: number }

/** The ranked list shown for a query text. */
export interface SimulatedSearchResult {
  /** Document ids, best first (only the first `pageSize` are shown). */
  readonly ids: readonly string[]
  /** How many documents matched. */
  readonly total: number
}

/** Options of {@link simulateClicks}. */
export interface SimulateClicksOptions {
  /** The query set sessions draw from. */
  queries: readonly Query[]
  /** Grades by query id and document id; an unjudged document has grade 0. */
  qrels: Qrels
  /** Runs a query; called once per distinct query text (its answer is reused). */
  search: (text: string) => SimulatedSearchResult
  /** Where the events go, in batches of `batchSessions` sessions. */
  sink: LogSink
  /** Defaults to `1`. The same seed and inputs give the same log, byte for byte. */
  seed?: number
  /** Defaults to `{ kind: 'pbm', eta: 1 }`. */
  model?: ClickModel
  /**
   * Probability that an examined result is clicked, by grade (index = grade; grades beyond
   * the end use the last value). Defaults to `[0.05, 0.5, 0.9]`, for NFCorpus's grades 0–2.
   */
  clickProbability?: readonly number[]
  /**
   * Probability that a click is followed by a full-text request, by grade (same indexing).
   * Defaults to `[0.05, 0.2, 0.4]`.
   */
  fullTextProbability?: readonly number[]
  /** Sessions (one search each) per sampled query. Defaults to `10`. */
  sessionsPerQuery?: number
  /** How many queries to sample, without replacement, from `queries`. Defaults to all. */
  sampleQueries?: number
  /** Results shown per search. Defaults to `20`. */
  pageSize?: number
  /** Time of the first session; sessions start a minute apart. Defaults to `2026-01-01T00:00:00.000Z`. */
  startTime?: string
  /** Sessions per appended batch. Defaults to `1000`. */
  batchSessions?: number
  /** Prefix of session and search ids. Defaults to `sim`. */
  idPrefix?: string
}

/** What a simulation wrote. */
export interface SimulationStats {
  readonly queries: number
  readonly sessions: number
  readonly abstractClicks: number
  readonly fullTextRequests: number
  /** Clicks by 1-based rank (index 0 = rank 1). */
  readonly clicksByRank: readonly number[]
}

function checkProbabilities(name: string, values: readonly number[]): readonly number[] {
  if (values.length === 0 || !values.every((p) => Number.isFinite(p) && p >= 0 && p <= 1)) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `${name} must be a non-empty list of probabilities in [0, 1], got ${JSON.stringify(values)}`,
    )
  }
  return values
}

function checkPositive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `${name} must be an integer ≥ 1, got ${value}`,
    )
  }
  return value
}

function byGrade(values: readonly number[], grade: number): number {
  const index = Math.min(Math.max(0, Math.floor(grade)), values.length - 1)
  return values[index] as number
}

/**
 * The probability that the position-based model examines rank `rank`: 1 / rank^eta.
 * @param rank - 1-based rank
 * @param eta - the position-bias exponent
 */
export function pbmExamination(rank: number, eta: number): number {
  return 1 / rank ** eta
}

/**
 * Simulates search sessions and appends their events (one search, then its clicks and
 * full-text requests) to `sink`. Every sampled query gets `sessionsPerQuery` sessions, in a
 * seeded random order; the page shown is the first `pageSize` ids of `search(text)`.
 * @param options - see {@link SimulateClicksOptions}
 * @returns counts of what was written
 */
export async function simulateClicks(options: SimulateClicksOptions): Promise<SimulationStats> {
  const model: ClickModel = options.model ?? { kind: 'pbm', eta: 1 }
  const eta = model.kind === 'pbm' ? (model.eta ?? 1) : 0
  const continueAfterClick = model.kind === 'cascade' ? (model.continueAfterClick ?? 0) : 0
  if (model.kind !== 'pbm' && model.kind !== 'cascade') {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `unknown click model ${JSON.stringify(model)}`,
    )
  }
  if (!Number.isFinite(eta) || eta < 0) {
    throw new PubmatchError('INVALID_ARGUMENT', `eta must be ≥ 0, got ${eta}`)
  }
  checkProbabilities('continueAfterClick', [continueAfterClick])
  const click = checkProbabilities('clickProbability', options.clickProbability ?? [0.05, 0.5, 0.9])
  const fullText = checkProbabilities(
    'fullTextProbability',
    options.fullTextProbability ?? [0.05, 0.2, 0.4],
  )
  const sessionsPerQuery = checkPositive('sessionsPerQuery', options.sessionsPerQuery ?? 10)
  const pageSize = checkPositive('pageSize', options.pageSize ?? 20)
  const batchSessions = checkPositive('batchSessions', options.batchSessions ?? 1000)
  const prefix = options.idPrefix ?? 'sim'
  const start = Date.parse(options.startTime ?? '2026-01-01T00:00:00.000Z')
  if (Number.isNaN(start)) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `startTime is not a date: ${String(options.startTime)}`,
    )
  }

  const next = createRandom(options.seed ?? 1)
  const uniform = (): number => next() / 4294967296
  const pick = (n: number): number => Math.floor(uniform() * n)

  // Sample queries without replacement (partial Fisher–Yates), then shuffle the sessions.
  const pool = options.queries.slice()
  const sampleCount = Math.min(
    pool.length,
    checkPositive('sampleQueries', options.sampleQueries ?? Math.max(1, pool.length)),
  )
  for (let i = 0; i < sampleCount; i++) {
    const j = i + pick(pool.length - i)
    const tmp = pool[i] as Query
    pool[i] = pool[j] as Query
    pool[j] = tmp
  }
  const sampled = pool.slice(0, sampleCount)
  const sessions: Query[] = []
  for (const query of sampled) {
    for (let s = 0; s < sessionsPerQuery; s++) {
      sessions.push(query)
    }
  }
  for (let i = sessions.length - 1; i > 0; i--) {
    const j = pick(i + 1)
    const tmp = sessions[i] as Query
    sessions[i] = sessions[j] as Query
    sessions[j] = tmp
  }

  const pages = new Map<string, { results: ShownResult[]; total: number }>()
  const page = (text: string): { results: ShownResult[]; total: number } => {
    let cached = pages.get(text)
    if (cached === undefined) {
      const answer = options.search(text)
      const ids = [...new Set(answer.ids)].slice(0, pageSize)
      cached = {
        results: ids.map((id, i) => ({ position: i + 1, id })),
        total: Math.max(answer.total, ids.length),
      }
      pages.set(text, cached)
    }
    return cached
  }

  let abstractClicks = 0
  let fullTextRequests = 0
  const clicksByRank = new Array<number>(pageSize).fill(0)
  let batch: LogEvent[] = []
  for (let s = 0; s < sessions.length; s++) {
    const query = sessions[s] as Query
    const { results, total } = page(query.text)
    const session = `${prefix}-u${s + 1}`
    const searchId = `${prefix}-s${s + 1}`
    const at = start + s * 60_000
    const search: SearchEvent = {
      type: 'search',
      id: searchId,
      time: new Date(at).toISOString(),
      session,
      query: query.text,
      filters: [],
      total,
      results,
    }
    batch.push(search)
    const grades = options.qrels.get(query.id)
    let second = 0
    const act = (result: ShownResult, kind: ActionEvent['kind']): void => {
      second += 10
      batch.push({
        type: 'action',
        time: new Date(at + second * 1000).toISOString(),
        session,
        search: searchId,
        id: result.id,
        position: result.position,
        kind,
      })
    }
    for (const result of results) {
      const grade = grades?.get(result.id) ?? 0
      const examined = model.kind === 'cascade' || uniform() < pbmExamination(result.position, eta)
      if (!examined || !(uniform() < byGrade(click, grade))) {
        continue
      }
      act(result, 'abstract_click')
      abstractClicks++
      clicksByRank[result.position - 1] = (clicksByRank[result.position - 1] ?? 0) + 1
      if (uniform() < byGrade(fullText, grade)) {
        act(result, 'fulltext_request')
        fullTextRequests++
      }
      if (model.kind === 'cascade' && !(uniform() < continueAfterClick)) {
        break
      }
    }
    if ((s + 1) % batchSessions === 0) {
      await options.sink.append(batch)
      batch = []
    }
  }
  if (batch.length > 0) {
    await options.sink.append(batch)
  }
  return {
    queries: sampled.length,
    sessions: sessions.length,
    abstractClicks,
    fullTextRequests,
    clicksByRank,
  }
}
