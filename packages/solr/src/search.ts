/**
 * Best Match's first stage run in Solr: a query translated by {@link translateQuery}, the top
 * `limit` documents by BM25F (with global term statistics across shards), returned as ids,
 * scores and ranks — what the second stage needs, keyed by PMID.
 */
import type { Analyzer } from '@pubmatch/analysis'
import type { MatchMode, QueryNode, QuerySyntax, SearchFilters, SearchMeshLookup, SearchWarning } from '@pubmatch/bm25f'
import { checkJson, json, PubmatchError } from '@pubmatch/core'
import type { SolrClient } from './client.ts'
import type { SolrFields } from './configset.ts'
import { translateQuery, type SolrQuery } from './translate.ts'

/** What the first stage reads of a `/select` answer. */
const SELECT_ANSWER = json.object({
  response: json.object({ numFound: json.count, docs: json.array(json.object({ id: json.string, score: json.number })) }),
})

/** Options of {@link createSolrFirstStage}: the defaults of every search. */
export interface SolrFirstStageOptions {
  readonly client: SolrClient
  readonly collection: string
  readonly fields: SolrFields
  /** The pubmatch analyzer of the text fields (stop-word decisions in the translation). */
  readonly analyzer: Analyzer
  readonly match?: MatchMode
  readonly syntax?: QuerySyntax
  /** Work around query syntax errors with warnings. Defaults to `false`. */
  readonly recover?: boolean
  readonly fieldWeights?: Readonly<Record<string, number>>
  /** Weight of the scored fields `fieldWeights` does not name. Defaults to `1`. */
  readonly defaultFieldWeight?: number
  /** BM25's b per field. Defaults to the schema's b for every field. */
  readonly fieldB?: Readonly<Record<string, number>>
  /** The `bm25f` parser's model (see `TranslateOptions.scoring`). Defaults to `bm25f`. */
  readonly scoring?: 'bm25f' | 'combined'
  readonly mesh?: SearchMeshLookup
}

/** Options of one search. */
export interface SolrSearchOptions {
  /** Documents returned. Defaults to `500`. */
  readonly limit?: number
  readonly filters?: SearchFilters
  /**
   * Order of equal scores: `idDescending` (trec_eval's order, as the embedded `run`) or
   * `idAscending`. Defaults to `idAscending`.
   */
  readonly tieBreak?: 'idDescending' | 'idAscending'
  /** Solr's `timeAllowed` (ms); a search past it is a `TIMEOUT`. Defaults to none. */
  readonly timeAllowedMs?: number
}

/** One hit. */
export interface SolrHit {
  readonly id: string
  readonly score: number
  /** 1-based. */
  readonly rank: number
}

/** The answer to one search. */
export interface SolrSearchResult {
  readonly hits: readonly SolrHit[]
  /** Matching documents (exact). */
  readonly total: number
  readonly query: QueryNode
  readonly warnings: readonly SearchWarning[]
  /** Solr's own time for the request (ms). */
  readonly qtimeMs: number
}

/** The first stage over a collection. */
export interface SolrFirstStage {
  /**
   * @throws PubmatchError `QUERY_SYNTAX`, `UNKNOWN_FIELD`, `INVALID_ARGUMENT`, `TIMEOUT`,
   *   `UPSTREAM_HTTP`/`NETWORK` (Solr)
   */
  search(query: string | QueryNode, options?: SolrSearchOptions): Promise<SolrSearchResult>
}

/**
 * A query translated with a first stage's options (the first stage's and serving's one translation).
 * @param options - the first stage's options
 * @param query - the query
 * @param filters - the search's filters
 */
export function translateWith(options: SolrFirstStageOptions, query: string | QueryNode, filters: SearchFilters | undefined): SolrQuery {
  return translateQuery(query, {
    fields: options.fields,
    analyzer: options.analyzer,
    ...(options.match === undefined ? {} : { match: options.match }),
    ...(options.syntax === undefined ? {} : { syntax: options.syntax }),
    ...(options.recover === true ? { parse: { recover: true } } : {}),
    ...(options.fieldWeights === undefined ? {} : { fieldWeights: options.fieldWeights }),
    ...(options.defaultFieldWeight === undefined ? {} : { defaultFieldWeight: options.defaultFieldWeight }),
    ...(options.fieldB === undefined ? {} : { fieldB: options.fieldB }),
    ...(options.scoring === undefined ? {} : { scoring: options.scoring }),
    ...(options.mesh === undefined ? {} : { mesh: options.mesh }),
    ...(filters === undefined ? {} : { filters }),
  })
}

/**
 * The first stage over a collection that `indexCorpus` built.
 * @param options - see {@link SolrFirstStageOptions}
 */
export function createSolrFirstStage(options: SolrFirstStageOptions): SolrFirstStage {
  return {
    async search(query, searchOptions = {}) {
      const limit = searchOptions.limit ?? 500
      if (!Number.isInteger(limit) || limit < 0) {
        throw new PubmatchError('INVALID_ARGUMENT', `limit must be a non-negative integer, got ${limit}`)
      }
      const translated = translateWith(options, query, searchOptions.filters)
      if (translated.empty) {
        return { hits: [], total: 0, query: translated.query, warnings: translated.warnings, qtimeMs: 0 }
      }
      const answer = await options.client.request({
        path: `${options.collection}/select`,
        params: {
          ...translated.params,
          fl: 'id,score',
          rows: limit,
          sort: `score desc,id ${searchOptions.tieBreak === 'idDescending' ? 'desc' : 'asc'}`,
          ...(searchOptions.timeAllowedMs === undefined ? {} : { timeAllowed: Math.max(1, Math.round(searchOptions.timeAllowedMs)) }),
        },
      })
      const header: { QTime?: number; partialResults?: boolean } | undefined = answer.responseHeader
      if (header?.partialResults === true) {
        throw new PubmatchError('TIMEOUT', `the search ran past its time allowed (${searchOptions.timeAllowedMs} ms)`)
      }
      const { response } = checkJson(answer, SELECT_ANSWER, { file: `${options.collection}/select` })
      return {
        hits: response.docs.map((doc, i) => ({ id: doc.id, score: doc.score, rank: i + 1 })),
        total: response.numFound,
        query: translated.query,
        warnings: translated.warnings,
        qtimeMs: header?.QTime ?? 0,
      }
    },
  }
}
