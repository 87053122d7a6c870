/**
 * Search log → training labels, the way Fiorini et al. (2018, S3) built Best Match's
 * training set, and document usage counts (features F2–F3).
 */
import { createHash } from 'node:crypto'
import { isSimpleQuery } from '@pubmatch/bm25f'
import { PubmatchError } from '@pubmatch/core'
import type { DocumentUsage, LabelledQuery } from '../types.ts'
import { ncbiJudgements, yeganovaVotes } from './labels.ts'
import type { ActionEvent, LogEvent, SearchEvent } from './log-format.ts'

/** Which label scheme {@link labelQueries} applies. */
export type Labelling = 'ncbi' | 'yeganova'

/** Options of {@link labelQueries}. */
export interface LabelQueriesOptions {
  /** Defaults to `'ncbi'`. */
  labelling?: Labelling
  /** A search that matched fewer documents is dropped. Defaults to `20`. */
  minResults?: number
  /** A (normalised) query searched fewer times is dropped. Defaults to `3`. */
  minOccurrences?: number
  /** A query with fewer distinct clicked documents is dropped. Defaults to `20`. */
  minClickedDocuments?: number
  /**
   * NCBI labelling: a document's click score is its abstract clicks plus this many times its
   * full-text requests (a full-text request is the stronger sign of interest). Defaults to `2`.
   */
  fullTextWeight?: number
  /** The "simple query" test. Defaults to `isSimpleQuery` of `@pubmatch/bm25f`. */
  isSimple?: (query: string) => boolean
}

/** Why a search event was left out (the first reason that applies, in this order). */
export type SearchDropReason = 'duplicate_id' | 'filters' | 'not_simple' | 'few_results'
/** Why an action event was left out. */
export type ActionDropReason = 'unknown_search' | 'search_dropped' | 'inconsistent' | 'repeated'
/** Why a (normalised) query was left out. */
export type QueryDropReason = 'rare' | 'few_clicked_documents' | 'no_positive_labels'

/** What {@link labelQueries} read, dropped and kept. */
export interface LabelStats {
  readonly searches: number
  readonly actions: number
  readonly droppedSearches: Readonly<Record<SearchDropReason, number>>
  readonly droppedActions: Readonly<Record<ActionDropReason, number>>
  /** Distinct normalised queries among the searches kept. */
  readonly queries: number
  readonly droppedQueries: Readonly<Record<QueryDropReason, number>>
  /** Queries labelled. */
  readonly kept: number
}

/** Clicks a document received for one query, summed over its searches. */
export interface ClickCounts {
  readonly abstractClicks: number
  readonly fullTextRequests: number
}

/** A query labelled from a log; usable wherever a {@link LabelledQuery} is. */
export interface ClickLabelledQuery extends LabelledQuery {
  /** The normalised text all merged searches share. */
  readonly key: string
  /** How many searches were merged. */
  readonly searches: number
  /** Clicked documents ordered by click score, best first (NCBI's gold list). */
  readonly gold: readonly string[]
  readonly clicks: ReadonlyMap<string, ClickCounts>
}

/** The result of {@link labelQueries}. */
export interface LabelQueriesResult {
  /** Ordered by `key`. */
  readonly queries: ClickLabelledQuery[]
  readonly stats: LabelStats
}

/**
 * The form under which duplicate queries are merged: Unicode NFKC, lower case, runs of white
 * space folded to one space, trimmed.
 * @param text - query text
 */
export function normalizeQuery(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim()
}

interface Impression {
  readonly search: SearchEvent
  /** Document → which actions it received (each counted once per impression). */
  readonly actions: Map<string, { abstract: boolean; fullText: boolean }>
}

interface Group {
  readonly forms: Map<string, number>
  readonly impressions: Impression[]
}

function checkCount(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `${name} must be an integer ≥ 0, got ${value}`,
    )
  }
  return value
}

/** A stable id for a normalised query: `log-` and 12 hex digits of its SHA-256. */
function queryId(key: string): string {
  return `log-${createHash('sha256').update(key).digest('hex').slice(0, 12)}`
}

/** The most frequent typed form; ties go to the form seen first. */
function commonForm(forms: Map<string, number>): string {
  let best = ''
  let bestCount = 0
  for (const [form, count] of forms) {
    if (count > bestCount) {
      best = form
      bestCount = count
    }
  }
  return best
}

/**
 * Turns a search log into labelled training queries:
 *
 * 1. searches with filters/facets, with a query that is not simple (field tags, Boolean
 *    operators, wildcards, quotes; see `isSimpleQuery`), or with fewer than `minResults`
 *    matches are dropped; actions must name a kept search and match its shown result
 *    (same session, same document at the same position), and a repeated action (same
 *    search, document and kind) counts once;
 * 2. searches are merged by {@link normalizeQuery}; a query searched fewer than
 *    `minOccurrences` times is dropped (every search event counts, so a second page of
 *    results counts as a search);
 * 3. clicks are accumulated per document over the merged searches; a query with fewer than
 *    `minClickedDocuments` distinct documents with an action is dropped;
 * 4. labels: **ncbi** orders the clicked documents by `abstractClicks + fullTextWeight ×
 *    fullTextRequests` (ties: more full-text requests, then id) and grades rank p with
 *    `ncbiGrade` (12 − p, 2, 1); only clicked documents are listed. **yeganova** applies
 *    `yeganovaVotes` to every impression and gives grade 1 to a document with at least as
 *    many positive as negative votes, grade 0 (listed, i.e. judged non-relevant) otherwise;
 *    a clicked document is therefore positive unless it was skipped above a click more
 *    often than it was clicked below rank 1. A query with no positive label is dropped.
 *
 * The query's `text` is its most frequent typed form; its `id` is a hash of the normalised
 * text, stable across logs.
 * @param events - the log, in any order
 * @param options - see {@link LabelQueriesOptions}
 */
export function labelQueries(
  events: Iterable<LogEvent>,
  options: LabelQueriesOptions = {},
): LabelQueriesResult {
  const labelling = options.labelling ?? 'ncbi'
  if (labelling !== 'ncbi' && labelling !== 'yeganova') {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `unknown labelling ${JSON.stringify(labelling)}`,
    )
  }
  const minResults = checkCount('minResults', options.minResults ?? 20)
  const minOccurrences = checkCount('minOccurrences', options.minOccurrences ?? 3)
  const minClicked = checkCount('minClickedDocuments', options.minClickedDocuments ?? 20)
  const fullTextWeight = options.fullTextWeight ?? 2
  if (!Number.isFinite(fullTextWeight) || fullTextWeight < 0) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `fullTextWeight must be ≥ 0, got ${fullTextWeight}`,
    )
  }
  const simpleTest = options.isSimple ?? ((q: string) => isSimpleQuery(q))
  const simpleCache = new Map<string, boolean>()
  const isSimple = (q: string): boolean => {
    let simple = simpleCache.get(q)
    if (simple === undefined) {
      simple = simpleTest(q)
      simpleCache.set(q, simple)
    }
    return simple
  }

  const droppedSearches: Record<SearchDropReason, number> = {
    duplicate_id: 0,
    filters: 0,
    not_simple: 0,
    few_results: 0,
  }
  const droppedActions: Record<ActionDropReason, number> = {
    unknown_search: 0,
    search_dropped: 0,
    inconsistent: 0,
    repeated: 0,
  }
  const droppedQueries: Record<QueryDropReason, number> = {
    rare: 0,
    few_clicked_documents: 0,
    no_positive_labels: 0,
  }

  // Pass 1: searches.
  let searches = 0
  const actionEvents: ActionEvent[] = []
  const seenIds = new Set<string>()
  const dropped = new Set<string>()
  const impressions = new Map<string, Impression>()
  for (const event of events) {
    if (event.type === 'action') {
      actionEvents.push(event)
      continue
    }
    searches++
    if (seenIds.has(event.id)) {
      droppedSearches.duplicate_id++
      continue
    }
    seenIds.add(event.id)
    let reason: SearchDropReason | null = null
    if (event.filters.length > 0) {
      reason = 'filters'
    } else if (!isSimple(event.query)) {
      reason = 'not_simple'
    } else if (event.total < minResults) {
      reason = 'few_results'
    }
    if (reason !== null) {
      droppedSearches[reason]++
      dropped.add(event.id)
      continue
    }
    impressions.set(event.id, { search: event, actions: new Map() })
  }

  // Pass 2: actions.
  for (const action of actionEvents) {
    const impression = impressions.get(action.search)
    if (impression === undefined) {
      droppedActions[dropped.has(action.search) ? 'search_dropped' : 'unknown_search']++
      continue
    }
    const shown = impression.search.results.find((r) => r.position === action.position)
    if (shown?.id !== action.id || impression.search.session !== action.session) {
      droppedActions.inconsistent++
      continue
    }
    let entry = impression.actions.get(action.id)
    if (entry === undefined) {
      entry = { abstract: false, fullText: false }
      impression.actions.set(action.id, entry)
    }
    const key = action.kind === 'abstract_click' ? 'abstract' : 'fullText'
    if (entry[key]) {
      droppedActions.repeated++
    } else {
      entry[key] = true
    }
  }

  // Merge duplicates.
  const groups = new Map<string, Group>()
  for (const impression of impressions.values()) {
    const key = normalizeQuery(impression.search.query)
    let group = groups.get(key)
    if (group === undefined) {
      group = { forms: new Map(), impressions: [] }
      groups.set(key, group)
    }
    group.forms.set(impression.search.query, (group.forms.get(impression.search.query) ?? 0) + 1)
    group.impressions.push(impression)
  }

  const queries: ClickLabelledQuery[] = []
  const keys = [...groups.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  for (const key of keys) {
    const group = groups.get(key) as Group
    if (group.impressions.length < minOccurrences) {
      droppedQueries.rare++
      continue
    }
    const clicks = new Map<string, { abstractClicks: number; fullTextRequests: number }>()
    for (const { actions } of group.impressions) {
      for (const [id, entry] of actions) {
        const counts = clicks.get(id) ?? { abstractClicks: 0, fullTextRequests: 0 }
        counts.abstractClicks += entry.abstract ? 1 : 0
        counts.fullTextRequests += entry.fullText ? 1 : 0
        clicks.set(id, counts)
      }
    }
    if (clicks.size < minClicked) {
      droppedQueries.few_clicked_documents++
      continue
    }
    const score = (c: ClickCounts): number => c.abstractClicks + fullTextWeight * c.fullTextRequests
    const gold = [...clicks.entries()]
      .sort(
        ([ia, a], [ib, b]) =>
          score(b) - score(a) ||
          b.fullTextRequests - a.fullTextRequests ||
          (ia < ib ? -1 : ia > ib ? 1 : 0),
      )
      .map(([id]) => id)
    let judgements: Map<string, number>
    if (labelling === 'ncbi') {
      judgements = ncbiJudgements(gold)
    } else {
      const votes = new Map<string, { positive: number; negative: number }>()
      const vote = (id: string, kind: 'positive' | 'negative'): void => {
        const v = votes.get(id) ?? { positive: 0, negative: 0 }
        v[kind]++
        votes.set(id, v)
      }
      for (const { search, actions } of group.impressions) {
        const { positive, negative } = yeganovaVotes(search.results, new Set(actions.keys()))
        positive.forEach((id) => vote(id, 'positive'))
        negative.forEach((id) => vote(id, 'negative'))
      }
      judgements = new Map()
      for (const id of [...votes.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
        const v = votes.get(id) as { positive: number; negative: number }
        judgements.set(id, v.positive > 0 && v.positive >= v.negative ? 1 : 0)
      }
      if (![...judgements.values()].some((g) => g > 0)) {
        droppedQueries.no_positive_labels++
        continue
      }
    }
    queries.push({
      id: queryId(key),
      text: commonForm(group.forms),
      judgements,
      key,
      searches: group.impressions.length,
      gold,
      clicks,
    })
  }

  return {
    queries,
    stats: {
      searches,
      actions: actionEvents.length,
      droppedSearches,
      droppedActions,
      queries: groups.size,
      droppedQueries,
      kept: queries.length,
    },
  }
}

/**
 * Past usage of documents (Best Match F2–F3) from a whole log: every `abstract_click` and
 * every `fulltext_request` event counts once for its document, whatever its search (no
 * filtering: usage is usage).
 * @param events - the log
 */
export function documentUsage(
  events: Iterable<LogEvent>,
): DocumentUsage & { readonly documents: number; readonly ids: readonly string[] } {
  const abstract = new Map<string, number>()
  const fullText = new Map<string, number>()
  const all = new Set<string>()
  for (const event of events) {
    if (event.type !== 'action') {
      continue
    }
    const counts = event.kind === 'abstract_click' ? abstract : fullText
    counts.set(event.id, (counts.get(event.id) ?? 0) + 1)
    all.add(event.id)
  }
  return {
    documents: all.size,
    ids: [...all],
    abstractClicks: (id: string): number => abstract.get(id) ?? 0,
    fullTextRequests: (id: string): number => fullText.get(id) ?? 0,
  }
}
