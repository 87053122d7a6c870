/**
 * Best Match's second stage inside SolrCloud: the first stage's top candidates reranked on the
 * shards by a deployed model (the `pubmatch` rank query of the Java module), in one request.
 */
import { isJoinedToken, type Analyzer } from '@pubmatch/analysis'
import { QUESTION_STOPWORDS, type SearchFilters } from '@pubmatch/bm25f'
import { checkJson, json, PubmatchError } from '@pubmatch/core'
import type { SolrFirstStageOptions, SolrSearchResult } from './search.ts'
import { translateQuery } from './translate.ts'

/** One query token as the rank query reads it (`pm.tokens`). */
export interface SolrQueryToken {
  /** The analysed term. */
  readonly term: string
  /** The surface word it came from, when the analyzer recorded one. */
  readonly original?: string
  /** A joined compound form (`cox2` beside `cox`, `2`); not a query term. */
  readonly joined: boolean
}

/** Options of {@link createSolrReranker}: the first stage's, plus the model. */
export interface SolrRerankerOptions extends SolrFirstStageOptions {
  /** The model's name in the collection (`deployModel`). */
  readonly model: string
  /**
   * The analyzer whose terms the features match: the collection's (pubmatch's own, the one the
   * forward token streams were made with). Defaults to `analyzer`.
   */
  readonly queryAnalyzer?: Analyzer
  /**
   * Words left out of the query terms (matched case-insensitively on the surface word): the first
   * stage's question stop words. Defaults to `QUESTION_STOPWORDS` with `syntax: 'plain'`, else none,
   * as `@pubmatch/ltr`'s `bestMatchExtractor`.
   */
  readonly queryStopwords?: readonly string[]
}

/** Options of one {@link SolrReranker.rerank}. */
export interface SolrRerankOptions {
  /** Hits returned. Defaults to `10`. */
  readonly rows?: number
  /** Offset of the first hit returned. Defaults to `0`. */
  readonly start?: number
  /** The filters the first stage ran with (the main query must be the same). Defaults to none. */
  readonly filters?: SearchFilters
  /** Return each hit's feature values (the `[pubmatch]` transformer: 179, or 182 with a query memory). Defaults to `false`. */
  readonly features?: boolean
  /**
   * Return each hit's model score in double precision (`modelScore`) without its feature values
   * (`[pubmatch features=false]`: what a full ordering needs, a few bytes per hit). Implied by
   * `features` and `explain`. Defaults to `false`.
   */
  readonly scores?: boolean
  /**
   * Return each hit's 179 values and the model's raw score attributed to them (`explain`: Saabas'
   * method, `[pubmatch explain=true]`), also when the query falls back. Defaults to `false`.
   */
  readonly explain?: boolean
  /**
   * A query whose query-level features lie outside the model's range: `fallback` keeps the first
   * stage's order, `rerank` reranks it anyway. Defaults to `fallback`.
   */
  readonly outOfRange?: 'fallback' | 'rerank'
  /** Widths of the training range accepted on each side. Defaults to `0`. */
  readonly rangeMargin?: number
  /** Solr's `timeAllowed` (ms). Defaults to none. */
  readonly timeAllowedMs?: number
}

/** A reranked hit. */
export interface SolrRerankedHit {
  readonly id: string
  /** The model's raw score, as Solr returns it (a 32-bit float); the first-stage score on a fallback. */
  readonly score: number
  /** 1-based, after reranking. */
  readonly rank: number
  /** With `features`, `scores` or `explain`: the model's raw score in double precision (`null` on a fallback). */
  readonly modelScore?: number | null
  /** With `features`, `scores` or `explain`: the first-stage score the shard computed (F143). */
  readonly firstStageScore?: number
  /** With `features` or `explain`: the model's feature values: the 179 in `BEST_MATCH_SCHEMA`'s order, then M1–M3 for a model with a query memory. */
  readonly features?: readonly number[]
  /**
   * With `explain`: the model's raw score attributed to the features along the hit's tree paths
   * (Saabas' method, as `explainScore` of `@pubmatch/ltr`): the bias (the roots' expected
   * outputs) and one contribution per feature column, in `BEST_MATCH_SCHEMA`'s order.
   */
  readonly explain?: { readonly bias: number; readonly contributions: readonly number[] }
}

/** Why a query kept the first stage's order. */
export interface SolrRerankFallback {
  readonly feature: string
  readonly value: number
  readonly range: readonly [number, number]
}

/** The collection-wide statistics a shard's IDFs (F171–F175) used. */
export interface SolrRerankStatistics {
  /** Articles in the collection. */
  readonly docCount: number
  /** Per query term: its title, abstract and title-or-abstract document frequencies. */
  readonly terms: ReadonlyArray<{
    readonly term: string
    readonly title: number
    readonly abstract: number
    readonly any: number
  }>
}

/** What {@link SolrReranker.rerank} returns. */
export interface SolrRerankResult {
  /** The page asked for, in model order. */
  readonly hits: readonly SolrRerankedHit[]
  /** The candidates reranked (the first stage's hits given). */
  readonly total: number
  /** Set when the query kept the first stage's order, and why. */
  readonly fallback?: SolrRerankFallback
  /** With `features`: the statistics behind the IDFs, as the shard of the first hit used them. */
  readonly statistics?: SolrRerankStatistics
  /** Solr's own time for the request (ms). */
  readonly qtimeMs: number
}

/** The second stage over a collection. */
export interface SolrReranker {
  /**
   * Reranks a first-stage result in Solr: the same main query restricted to the result's hits,
   * each shard computing its candidates' features and model scores.
   * @param query - the query the first stage ran (text; the features read it)
   * @param firstStage - the first stage's answer: its hits are the candidates (usually its top
   *   500) and its `total` is F176
   * @param options - see {@link SolrRerankOptions}
   * @throws PubmatchError `INVALID_ARGUMENT`, `TIMEOUT`, `UPSTREAM_HTTP` (Solr refused: an unknown
   *   model answers 404, a model of another schema, or with a memory deployed without its analysed
   *   form, 400), `NETWORK`
   */
  rerank(
    query: string,
    firstStage: SolrSearchResult,
    options?: SolrRerankOptions,
  ): Promise<SolrRerankResult>
}

const RERANK_ANSWER = json.object({
  response: json.object({
    docs: json.array(
      json.object({
        id: json.string,
        score: json.number,
        '[pubmatch]': json.optional(
          json.object({
            score: json.nullable(json.number),
            firstStageScore: json.number,
            features: json.optional(json.array(json.number)),
            bias: json.optional(json.number),
            contributions: json.optional(json.array(json.number)),
            statistics: json.optional(
              json.object({
                docCount: json.number,
                terms: json.array(
                  json.object({
                    term: json.string,
                    title: json.number,
                    abstract: json.number,
                    any: json.number,
                  }),
                ),
              }),
            ),
          }),
        ),
      }),
    ),
  }),
  pubmatch: json.optional(
    json.object({
      fallback: json.optional(
        json.object({
          feature: json.string,
          value: json.number,
          range: json.tuple(json.number, json.number),
        }),
      ),
    }),
  ),
})

/**
 * The query's tokens as `@pubmatch/ltr`'s feature extractor reads them: the analyzer's tokens of
 * the whole query text, with their surface words and whether each is a joined compound form.
 * @param analyzer - the collection's analyzer
 * @param text - the query as typed
 */
export function queryTokens(analyzer: Analyzer, text: string): SolrQueryToken[] {
  return analyzer.analyze(text).map((token) => ({
    term: token.term,
    ...(token.original === undefined ? {} : { original: token.original }),
    joined: isJoinedToken(token),
  }))
}

/**
 * The separator that lists document ids in a `{!terms f=id separator=…}` query: a comma, or a line
 * feed when an id holds a comma.
 * @param ids - the ids
 * @throws PubmatchError `INVALID_ARGUMENT` when ids hold both
 */
export function idSeparator(ids: readonly string[]): string {
  const separator = ids.some((id) => id.includes(',')) ? '\n' : ','
  if (ids.some((id) => id.includes(separator))) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      'document ids hold both commas and line feeds; they cannot be listed in a terms filter',
    )
  }
  return separator
}

/**
 * The second stage in a collection: the Java `pubmatch` rank query over a first stage's hits.
 * Request: the first stage's main query (`q`, its `fq`s and parameters) plus
 * `fq={!terms f=id}` of the hits, `rq={!pubmatch model=M reRankDocs=<hits> total=<first-stage total>}`,
 * `pm.text`, `pm.tokens` (the query's tokens from pubmatch's analyzer, JSON) and `pm.stopwords`.
 * @param options - see {@link SolrRerankerOptions}
 */
export function createSolrReranker(options: SolrRerankerOptions): SolrReranker {
  const analyzer = options.queryAnalyzer ?? options.analyzer
  const stopwords = options.queryStopwords ?? (options.syntax === 'plain' ? QUESTION_STOPWORDS : [])
  return {
    async rerank(query, firstStage, rerankOptions = {}) {
      const rows = rerankOptions.rows ?? 10
      const start = rerankOptions.start ?? 0
      const margin = rerankOptions.rangeMargin ?? 0
      for (const [name, value] of [
        ['rows', rows],
        ['start', start],
      ] as const) {
        if (!Number.isInteger(value) || value < 0) {
          throw new PubmatchError(
            'INVALID_ARGUMENT',
            `${name} must be a non-negative integer, got ${value}`,
          )
        }
      }
      if (!(margin >= 0)) {
        throw new PubmatchError('INVALID_ARGUMENT', `rangeMargin must be ≥ 0, got ${margin}`)
      }
      const ids = firstStage.hits.map((hit) => hit.id)
      if (ids.length === 0) {
        return { hits: [], total: 0, qtimeMs: 0 }
      }
      const translated = translateQuery(query, {
        fields: options.fields,
        analyzer: options.analyzer,
        ...(options.match === undefined ? {} : { match: options.match }),
        ...(options.syntax === undefined ? {} : { syntax: options.syntax }),
        ...(options.recover === true ? { parse: { recover: true } } : {}),
        ...(options.fieldWeights === undefined ? {} : { fieldWeights: options.fieldWeights }),
        ...(options.defaultFieldWeight === undefined
          ? {}
          : { defaultFieldWeight: options.defaultFieldWeight }),
        ...(options.fieldB === undefined ? {} : { fieldB: options.fieldB }),
        ...(options.scoring === undefined ? {} : { scoring: options.scoring }),
        ...(options.mesh === undefined ? {} : { mesh: options.mesh }),
        ...(rerankOptions.filters === undefined ? {} : { filters: rerankOptions.filters }),
      })
      if (translated.empty) {
        return { hits: [], total: 0, qtimeMs: 0 }
      }
      const separator = idSeparator(ids)
      const fq = translated.params.fq
      const transformer =
        rerankOptions.explain === true
          ? '[pubmatch explain=true]'
          : rerankOptions.features === true
            ? '[pubmatch]'
            : rerankOptions.scores === true
              ? '[pubmatch features=false]'
              : undefined
      const params = {
        ...translated.params,
        fq: [
          ...(fq === undefined ? [] : typeof fq === 'string' ? [fq] : fq),
          '{!terms f=id separator=$pm.idsep v=$pm.ids}',
        ],
        'pm.ids': ids.join(separator),
        'pm.idsep': separator,
        rq:
          `{!pubmatch model=$pm.model reRankDocs=${ids.length} total=${firstStage.total}` +
          ` outOfRange=${rerankOptions.outOfRange ?? 'fallback'} rangeMargin=${margin}}`,
        'pm.model': options.model,
        'pm.text': query,
        'pm.tokens': JSON.stringify(queryTokens(analyzer, query)),
        'pm.stopwords': JSON.stringify(stopwords),
        fl: `id,score${transformer === undefined ? '' : `,${transformer}`}`,
        // equal scores by id, whichever replica answers: the shards' first pass (the rescorer
        // keeps its order for equal model scores) and the coordinator's merge of equal floats
        sort: 'score desc,id asc',
        ...(transformer === undefined ? {} : { 'distrib.singlePass': 'true' }),
        rows,
        start,
        ...(rerankOptions.timeAllowedMs === undefined
          ? {}
          : { timeAllowed: Math.max(1, Math.round(rerankOptions.timeAllowedMs)) }),
      }
      const answer = await options.client.request({ path: `${options.collection}/select`, params })
      const header: { QTime?: number; partialResults?: boolean } | undefined = answer.responseHeader
      if (header?.partialResults === true) {
        throw new PubmatchError(
          'TIMEOUT',
          `the rerank ran past its time allowed (${rerankOptions.timeAllowedMs} ms)`,
        )
      }
      const checked = checkJson(answer, RERANK_ANSWER, { file: `${options.collection}/select` })
      const fallback = checked.pubmatch?.fallback
      const statistics = checked.response.docs[0]?.['[pubmatch]']?.statistics
      return {
        hits: checked.response.docs.map((doc, i): SolrRerankedHit => {
          const extra = doc['[pubmatch]']
          return {
            id: doc.id,
            score: doc.score,
            rank: start + i + 1,
            ...(extra === undefined
              ? {}
              : {
                  modelScore: extra.score,
                  firstStageScore: extra.firstStageScore,
                  ...(extra.features === undefined ? {} : { features: extra.features }),
                  ...(extra.bias === undefined || extra.contributions === undefined
                    ? {}
                    : { explain: { bias: extra.bias, contributions: extra.contributions } }),
                }),
          }
        }),
        total: ids.length,
        ...(fallback === undefined
          ? {}
          : {
              fallback: { feature: fallback.feature, value: fallback.value, range: fallback.range },
            }),
        ...(statistics === undefined ? {} : { statistics }),
        qtimeMs: header?.QTime ?? 0,
      }
    },
  }
}
