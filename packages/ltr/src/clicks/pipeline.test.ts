import { describe, expect, it } from 'vitest'
import type { ActionEvent, ActionKind, LogEvent, SearchEvent } from './log-format.ts'
import { documentUsage, labelQueries, normalizeQuery } from './pipeline.ts'

const TIME = '2026-01-05T10:00:00.000Z'
const DOCS = ['d1', 'd2', 'd3', 'd4', 'd5']

function search(id: string, query: string, extra: Partial<SearchEvent> = {}): SearchEvent {
  return {
    type: 'search',
    id,
    time: TIME,
    session: `u-${id}`,
    query,
    filters: [],
    total: 100,
    results: DOCS.map((doc, i) => ({ position: i + 1, id: doc })),
    ...extra,
  }
}
function act(
  searchId: string,
  doc: string,
  kind: ActionKind = 'abstract_click',
  extra: Partial<ActionEvent> = {},
): ActionEvent {
  return {
    type: 'action',
    time: TIME,
    session: `u-${searchId}`,
    search: searchId,
    id: doc,
    position: DOCS.indexOf(doc) + 1,
    kind,
    ...extra,
  }
}

/**
 * "asthma children" is searched 4 times (a1–a4, with case and space variants):
 *   a1: d2 abstract + full text, d4 abstract
 *   a2: d1 abstract, d4 abstract twice (the repeat counts once)
 *   a3: d1 abstract, d3 abstract, d4 full text only
 *   a4: d3 abstract
 * Click totals: d1 2/0, d2 1/1, d3 2/0, d4 2/1 (abstract / full text).
 */
const LOG: LogEvent[] = [
  search('a1', 'Asthma  Children'),
  act('a1', 'd2'),
  act('a1', 'd2', 'fulltext_request'),
  act('a1', 'd4'),
  search('a2', 'asthma children'),
  act('a2', 'd1'),
  act('a2', 'd4'),
  act('a2', 'd4'),
  search('a3', ' ASTHMA children '),
  act('a3', 'd1'),
  act('a3', 'd3'),
  act('a3', 'd4', 'fulltext_request'),
  act('a4', 'd3'), // before its search: order does not matter
  search('a4', 'asthma children'),
  // dropped searches
  search('a1', 'asthma children'), // duplicate id
  search('f1', 'asthma children', { filters: ['Review'] }),
  act('f1', 'd1'),
  search('n1', 'asthma[mh]'),
  search('n2', 'asthma AND children'),
  search('r1', 'rare disease', { total: 19, results: [{ position: 1, id: 'd1' }] }),
  // a query seen twice only
  search('b1', 'copd'),
  act('b1', 'd1'),
  act('b1', 'd2'),
  act('b1', 'd3'),
  act('b1', 'd4'),
  search('b2', 'copd'),
  // a query with two clicked documents only
  search('c1', 'flu'),
  search('c2', 'flu'),
  search('c3', 'FLU'),
  act('c1', 'd1'),
  act('c2', 'd2'),
  act('c3', 'd1', 'fulltext_request'),
  // broken actions
  act('zz', 'd1'), // unknown search
  act('a1', 'd3', 'abstract_click', { position: 2 }), // d3 was not at position 2
  act('a2', 'd3', 'abstract_click', { session: 'someone-else' }),
]

describe('normalizeQuery', () => {
  it('folds case, width and white space', () => {
    expect(normalizeQuery('  Asthma \t CHILDREN\n')).toBe('asthma children')
    expect(normalizeQuery('ＩＬ-６ levels')).toBe('il-6 levels')
  })
})

describe('labelQueries', () => {
  it('counts what it drops and why', () => {
    const { queries, stats } = labelQueries(LOG, { minClickedDocuments: 4 })
    expect(stats).toEqual({
      searches: 14,
      actions: 21,
      droppedSearches: { duplicate_id: 1, filters: 1, not_simple: 2, few_results: 1 },
      droppedActions: { unknown_search: 1, search_dropped: 1, inconsistent: 2, repeated: 1 },
      queries: 3,
      droppedQueries: { rare: 1, few_clicked_documents: 1, no_positive_labels: 0 },
      kept: 1,
    })
    expect(queries.map((q) => q.key)).toEqual(['asthma children'])
    // Thresholds are configurable: copd survives with 2 occurrences.
    const lenient = labelQueries(LOG, { minClickedDocuments: 2, minOccurrences: 2 })
    expect(lenient.queries.map((q) => q.key)).toEqual(['asthma children', 'copd', 'flu'])
    // The defaults (20 clicked documents) keep nothing here.
    expect(labelQueries(LOG).stats.droppedQueries).toEqual({
      rare: 1,
      few_clicked_documents: 2,
      no_positive_labels: 0,
    })
  })

  it('NCBI labels: clicked documents ordered by abstract clicks + 2 × full-text requests, graded 12 − p', () => {
    const [query] = labelQueries(LOG, { minClickedDocuments: 4 }).queries
    expect(query).toBeDefined()
    expect(query!.text).toBe('asthma children')
    expect(query!.id).toMatch(/^log-[0-9a-f]{12}$/)
    expect(query!.searches).toBe(4)
    // Scores: d4 2 + 2·1 = 4, d2 1 + 2 = 3, d1 2, d3 2 (tie, same full-text count: by id).
    expect(query!.gold).toEqual(['d4', 'd2', 'd1', 'd3'])
    expect([...query!.judgements]).toEqual([
      ['d4', 12],
      ['d2', 11],
      ['d1', 10],
      ['d3', 9],
    ])
    expect(query!.clicks.get('d4')).toEqual({ abstractClicks: 2, fullTextRequests: 1 })
    // Without the full-text weight: d4 2 (1 full text), d1 2, d3 2, d2 1.
    const plain = labelQueries(LOG, { minClickedDocuments: 4, fullTextWeight: 0 }).queries[0]!
    expect(plain.gold).toEqual(['d4', 'd1', 'd3', 'd2'])
    // The id depends on the normalised text only.
    const other = labelQueries(LOG.slice(0, 14), { minClickedDocuments: 4 }).queries[0]!
    expect(other.id).toBe(query!.id)
  })

  it('Yeganova labels: votes over impressions, ties go to positive', () => {
    // a1: clicks d2,d4 → + d2 d4, − d1 d3.  a2: clicks d1(rank 1, ignored),d4 → + d4, − d2 d3.
    // a3: clicks d1(ignored),d3,d4 → + d3 d4, − d2.  a4: click d3 → + d3, − d1 d2.
    // d1 0+/2− → 0; d2 1+/3− → 0; d3 2+/2− → 1 (tie); d4 3+/0− → 1; d5 never voted (below every click).
    const [query] = labelQueries(LOG, { minClickedDocuments: 4, labelling: 'yeganova' }).queries
    expect([...query!.judgements]).toEqual([
      ['d1', 0],
      ['d2', 0],
      ['d3', 1],
      ['d4', 1],
    ])
  })

  it('drops a Yeganova query whose only clicks are at rank 1', () => {
    const log: LogEvent[] = []
    for (const id of ['x1', 'x2', 'x3']) {
      log.push(search(id, 'hay fever'), act(id, 'd1'))
    }
    const result = labelQueries(log, { minClickedDocuments: 1, labelling: 'yeganova' })
    expect(result.queries).toEqual([])
    expect(result.stats.droppedQueries.no_positive_labels).toBe(1)
    expect(labelQueries(log, { minClickedDocuments: 1 }).queries[0]!.judgements).toEqual(
      new Map([['d1', 12]]),
    )
  })

  it('rejects bad options', () => {
    expect(() => labelQueries([], { minOccurrences: -1 })).toThrow(/minOccurrences/)
    expect(() => labelQueries([], { fullTextWeight: Number.NaN })).toThrow(/fullTextWeight/)
  })
})

describe('documentUsage', () => {
  it('counts every abstract click and full-text request of the log', () => {
    const usage = documentUsage(LOG)
    // d4: a1, a2 ×2, b1 abstract; a3 full text.  d1: a2, a3, f1, b1, c1, zz abstract; c3 full text.
    expect([usage.abstractClicks('d4'), usage.fullTextRequests('d4')]).toEqual([4, 1])
    expect([usage.abstractClicks('d1'), usage.fullTextRequests('d1')]).toEqual([6, 1])
    expect([usage.abstractClicks('d5'), usage.fullTextRequests('d5')]).toEqual([0, 0])
    expect(usage.documents).toBe(4)
    // first acted on: d2 (a1), d4 (a1), d1 (a2), d3 (a3)
    expect(usage.ids).toEqual(['d2', 'd4', 'd1', 'd3'])
  })
})
