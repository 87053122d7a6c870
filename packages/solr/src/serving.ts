/**
 * What a search page reads from a collection when the serving process holds no index: a page of
 * hits in the first stage's order (or newest first) with their stored records, Solr's `bm25f`
 * explanation of each as pubmatch's tree, facet counts over the matching set, one document's
 * record, and where one document ranks for a query. The query is translated exactly as the first
 * stage's (`translateWith`), so the matching set and the scores are the first stage's.
 */
import type { Explanation, QueryNode, SearchFilters, SearchWarning } from '@pubmatch/bm25f'
import { checkJson, compareCodePoints, json, PubmatchError } from '@pubmatch/core'
import type { StoredDocument } from '@pubmatch/index'
import type { SolrResponse } from './client.ts'
import { ARTICLE_FIELD, FEATURE_DOC_VALUES } from './configset.ts'
import { SOLR_EXPLANATION, toExplanation } from './explain.ts'
import { decodeRecord, RECORD_FIELD } from './records.ts'
import { translateWith, type SolrFirstStageOptions } from './search.ts'
import type { SolrQuery } from './translate.ts'

/** Options of {@link SolrServing.page}. */
export interface SolrPageOptions {
  /** 0-based offset into the ranking. Defaults to `0`. */
  readonly offset?: number
  /** Hits returned. Defaults to `20`. */
  readonly limit?: number
  /**
   * `relevance` (the first stage's order, equal scores by id ascending), or `date`: the best
   * `dateWindow` by relevance, newest first (`pubdate`, missing dates last), equal dates by
   * relevance, as the embedded engine sorts. Defaults to `relevance`.
   */
  readonly sort?: 'relevance' | 'date'
  /** How many of the best by relevance the date sort orders. Defaults to `10000`. */
  readonly dateWindow?: number
  readonly filters?: SearchFilters
  /** Attach Solr's explanation of each hit as pubmatch's tree. Defaults to `false`. */
  readonly explain?: boolean
  /** Count the matching set's years, publication types and languages. Defaults to `false`. */
  readonly facets?: boolean
  /** Solr's `timeAllowed` (ms); a search past it is a `TIMEOUT`. Defaults to none. */
  readonly timeAllowedMs?: number
}

/** A hit of a page. */
export interface SolrPageHit {
  readonly id: string
  /** 1-based position in the page's order (newest first with the date sort). */
  readonly rank: number
  /** 1-based rank by relevance (the first stage's). */
  readonly relevanceRank: number
  /** The first stage's score. */
  readonly score: number
  readonly record: StoredDocument
  readonly explain?: Explanation
}

/** A value and the number of matching documents that have it. */
export interface FacetCount {
  readonly value: string
  readonly count: number
}

/**
 * Counts over the matching set (every matching article, not the page): each year (newest first),
 * publication type and language (most documents first, then by value), as the embedded index's doc
 * values hold them (`year`; raw publication type names and language codes, each counted once per
 * document).
 */
export interface SearchFacets {
  readonly years: readonly FacetCount[]
  readonly publicationTypes: readonly FacetCount[]
  readonly languages: readonly FacetCount[]
}

/** A page. */
export interface SolrPage {
  readonly hits: readonly SolrPageHit[]
  /** Matching documents (exact). */
  readonly total: number
  readonly query: QueryNode
  readonly warnings: readonly SearchWarning[]
  /** With `facets`. */
  readonly facets?: SearchFacets
  /** Solr's own time for the requests (ms). */
  readonly qtimeMs: number
}

/** Where a document ranks for a query. */
export interface SolrDocumentRank {
  /** Whether the document matches the query (and filters). */
  readonly matches: boolean
  /** Its 1-based rank, when among the first `window`. */
  readonly rank?: number
  readonly score?: number
  readonly explain?: Explanation
  /** Its record, `undefined` when the collection does not hold it. */
  readonly record: StoredDocument | undefined
}

/** Serving reads over a collection. */
export interface SolrServing {
  /**
   * A page of hits with records.
   * @throws PubmatchError `QUERY_SYNTAX`, `UNKNOWN_FIELD`, `INVALID_ARGUMENT`, `TIMEOUT`,
   *   `INDEX_CORRUPTED` (a record of another shape), `UPSTREAM_HTTP`/`NETWORK`
   */
  page(query: string, options?: SolrPageOptions): Promise<SolrPage>
  /** A document's record, or `undefined`. */
  document(id: string): Promise<StoredDocument | undefined>
  /**
   * Where a document ranks for a query: its rank among the first `window` (by relevance), its
   * score and explanation, and its record.
   */
  rank(
    id: string,
    query: string,
    options?: { readonly filters?: SearchFilters; readonly window?: number },
  ): Promise<SolrDocumentRank>
  /** The articles the collection holds (the state and vocabulary documents left out). */
  articleCount(): Promise<number>
}

const DOCS = json.object({
  response: json.object({ numFound: json.count, docs: json.array(json.record(json.unknown)) }),
})

const BUCKETS = json.optional(
  json.object({ buckets: json.array(json.object({ val: json.unknown, count: json.count })) }),
)
const FACETS = json.object({
  facets: json.optional(json.object({ year: BUCKETS, pubtype: BUCKETS, language: BUCKETS })),
})

const EXPLAIN = json.object({
  debug: json.optional(json.object({ explain: json.optional(json.record(SOLR_EXPLANATION)) })),
})

/** The JSON Facet API request of {@link SearchFacets} (every bucket: the counts are exact across shards). */
const FACET_REQUEST = JSON.stringify({
  year: { type: 'terms', field: 'year', limit: -1, mincount: 1 },
  pubtype: { type: 'terms', field: FEATURE_DOC_VALUES['pubtype'], limit: -1, mincount: 1 },
  language: { type: 'terms', field: FEATURE_DOC_VALUES['language'], limit: -1, mincount: 1 },
})

/**
 * Serving reads over a collection that `indexCorpus` built.
 * @param options - the first stage's options (the same translation)
 */
export function createSolrServing(options: SolrFirstStageOptions): SolrServing {
  const { client, collection } = options
  const where = `${collection}/select`
  const select = async (
    params: Record<string, string | number | readonly string[]>,
    timeAllowedMs?: number,
  ): Promise<SolrResponse> => {
    const answer = await client.request({
      path: where,
      params: {
        ...params,
        ...(timeAllowedMs === undefined
          ? {}
          : { timeAllowed: Math.max(1, Math.round(timeAllowedMs)) }),
      },
    })
    if (answer.responseHeader?.partialResults === true) {
      throw new PubmatchError(
        'TIMEOUT',
        `the search ran past its time allowed (${timeAllowedMs} ms)`,
      )
    }
    return answer
  }
  const recordOf = (doc: Record<string, unknown>): StoredDocument => {
    const text = doc[RECORD_FIELD]
    if (typeof text !== 'string') {
      throw new PubmatchError(
        'INDEX_CORRUPTED',
        `document ${String(doc['id'])} of collection ${collection} has no ${RECORD_FIELD}; index the corpus into the collection again`,
        { details: { file: where } },
      )
    }
    return decodeRecord(
      text,
      `${RECORD_FIELD} of document ${String(doc['id'])} in collection ${collection}`,
    )
  }
  const explanations = (answer: SolrResponse): Map<string, Explanation> => {
    const explain = checkJson(answer, EXPLAIN, { file: where }).debug?.explain ?? {}
    return new Map(Object.entries(explain).map(([id, tree]) => [id, toExplanation(tree)]))
  }
  const byIds = (ids: readonly string[]): Record<string, string> => ({
    fq: `{!terms f=id v=$pubmatch_ids}`,
    pubmatch_ids: ids.join(','),
  })
  const debug = (explain: boolean | undefined): Record<string, string> =>
    explain === true ? { debug: 'results', 'debug.explain.structured': 'true' } : {}
  const withFq = (
    translated: SolrQuery,
    extra: Record<string, string>,
  ): Record<string, string | readonly string[]> => {
    const fq = translated.params['fq']
    const fqs = [
      ...(fq === undefined ? [] : typeof fq === 'string' ? [fq] : fq),
      ...(extra['fq'] === undefined ? [] : [extra['fq']]),
    ]
    return { ...translated.params, ...extra, ...(fqs.length === 0 ? {} : { fq: fqs }) }
  }

  return {
    async page(query, pageOptions = {}) {
      const offset = pageOptions.offset ?? 0
      const limit = pageOptions.limit ?? 20
      const translated = translateWith(options, query, pageOptions.filters)
      if (translated.empty) {
        return {
          hits: [],
          total: 0,
          query: translated.query,
          warnings: translated.warnings,
          qtimeMs: 0,
          ...(pageOptions.facets === true ? { facets: NO_FACETS } : {}),
        }
      }
      const facetParams: Record<string, string> =
        pageOptions.facets === true ? { 'json.facet': FACET_REQUEST } : {}
      const sort = 'score desc,id asc'
      if (pageOptions.sort !== 'date') {
        const answer = await select(
          {
            ...translated.params,
            ...facetParams,
            ...debug(pageOptions.explain),
            fl: `id,score,${RECORD_FIELD}`,
            sort,
            start: offset,
            rows: limit,
          },
          pageOptions.timeAllowedMs,
        )
        const { response } = checkJson(answer, DOCS, { file: where })
        const explained = pageOptions.explain === true ? explanations(answer) : undefined
        const hits = response.docs.map((doc, i): SolrPageHit => {
          const id = String(doc['id'])
          const explain = explained?.get(id)
          return {
            id,
            rank: offset + i + 1,
            relevanceRank: offset + i + 1,
            score: Number(doc['score']),
            record: recordOf(doc),
            ...(explain === undefined ? {} : { explain }),
          }
        })
        return {
          hits,
          total: response.numFound,
          query: translated.query,
          warnings: translated.warnings,
          ...(pageOptions.facets === true ? { facets: facetsOf(answer, where) } : {}),
          qtimeMs: answer.responseHeader?.QTime ?? 0,
        }
      }
      // newest first over the best `dateWindow` by relevance, as the embedded engine
      const window = pageOptions.dateWindow ?? 10_000
      const answer = await select(
        { ...translated.params, ...facetParams, fl: 'id,score,pubdate', sort, rows: window },
        pageOptions.timeAllowedMs,
      )
      const { response } = checkJson(answer, DOCS, { file: where })
      const ranked = response.docs.map((doc, i) => ({
        id: String(doc['id']),
        score: Number(doc['score']),
        relevanceRank: i + 1,
        date: typeof doc['pubdate'] === 'number' ? doc['pubdate'] : Number.NEGATIVE_INFINITY,
      }))
      ranked.sort((a, b) => b.date - a.date || a.relevanceRank - b.relevanceRank)
      const shown = ranked.slice(offset, offset + limit)
      let qtimeMs = answer.responseHeader?.QTime ?? 0
      const records = new Map<string, Record<string, unknown>>()
      let explained: Map<string, Explanation> | undefined
      if (shown.length > 0) {
        const second = await select(
          {
            ...withFq(translated, byIds(shown.map((hit) => hit.id))),
            ...debug(pageOptions.explain),
            fl: `id,${RECORD_FIELD}`,
            rows: shown.length,
          },
          pageOptions.timeAllowedMs,
        )
        qtimeMs += second.responseHeader?.QTime ?? 0
        for (const doc of checkJson(second, DOCS, { file: where }).response.docs) {
          records.set(String(doc['id']), doc)
        }
        explained = pageOptions.explain === true ? explanations(second) : undefined
      }
      const hits = shown.map((hit, i): SolrPageHit => {
        const doc = records.get(hit.id)
        if (doc === undefined) {
          throw new PubmatchError(
            'UPSTREAM_ERROR',
            `collection ${collection} lost document ${hit.id} between two requests of one search; search again`,
          )
        }
        const explain = explained?.get(hit.id)
        return {
          id: hit.id,
          rank: offset + i + 1,
          relevanceRank: hit.relevanceRank,
          score: hit.score,
          record: recordOf(doc),
          ...(explain === undefined ? {} : { explain }),
        }
      })
      return {
        hits,
        total: response.numFound,
        query: translated.query,
        warnings: translated.warnings,
        ...(pageOptions.facets === true ? { facets: facetsOf(answer, where) } : {}),
        qtimeMs,
      }
    },

    async document(id) {
      const answer = await select({
        q: '{!term f=id v=$pubmatch_id}',
        pubmatch_id: id,
        fq: `{!term f=${ARTICLE_FIELD} v=1}`,
        fl: `id,${RECORD_FIELD}`,
        rows: 1,
      })
      const doc = checkJson(answer, DOCS, { file: where }).response.docs[0]
      return doc === undefined ? undefined : recordOf(doc)
    },

    async rank(id, query, rankOptions = {}) {
      const window = rankOptions.window ?? 1000
      const translated = translateWith(options, query, rankOptions.filters)
      if (translated.empty) {
        return { matches: false, record: await this.document(id) }
      }
      const [top, own] = await Promise.all([
        select({ ...translated.params, fl: 'id', sort: 'score desc,id asc', rows: window }),
        select({
          ...withFq(translated, byIds([id])),
          ...debug(true),
          fl: `id,score,${RECORD_FIELD}`,
          rows: 1,
        }),
      ])
      const doc = checkJson(own, DOCS, { file: where }).response.docs[0]
      if (doc === undefined) {
        return { matches: false, record: await this.document(id) }
      }
      const position = checkJson(top, DOCS, { file: where }).response.docs.findIndex(
        (hit) => String(hit['id']) === id,
      )
      const explain = explanations(own).get(id)
      return {
        matches: true,
        ...(position < 0 ? {} : { rank: position + 1 }),
        score: Number(doc['score']),
        ...(explain === undefined ? {} : { explain }),
        record: recordOf(doc),
      }
    },

    async articleCount() {
      const answer = await select({ q: `{!term f=${ARTICLE_FIELD} v=1}`, rows: 0 })
      return checkJson(answer, DOCS, { file: where }).response.numFound
    },
  }
}

const NO_FACETS: SearchFacets = { years: [], publicationTypes: [], languages: [] }

function facetsOf(answer: SolrResponse, where: string): SearchFacets {
  const facets = checkJson(answer, FACETS, { file: where }).facets
  const counts = (
    buckets: { buckets: Array<{ val: unknown; count: number }> } | undefined,
  ): FacetCount[] =>
    (buckets?.buckets ?? []).map((bucket) => ({ value: String(bucket.val), count: bucket.count }))
  const byCount = (a: FacetCount, b: FacetCount): number =>
    b.count - a.count || compareCodePoints(a.value, b.value)
  return {
    years: counts(facets?.year).sort((a, b) => Number(b.value) - Number(a.value)),
    publicationTypes: counts(facets?.pubtype).sort(byCount),
    languages: counts(facets?.language).sort(byCount),
  }
}
