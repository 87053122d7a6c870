/**
 * The pluggable first-stage scorer: `createScorer(name, params)` returns a {@link Scorer}; the
 * retrieval code calls `prepareQuery` once per query and then scores postings with the returned
 * per-term {@link TermScorer}s.
 */
import { truncateForMessage } from '@pubmatch/core'
import { BEST_MATCH_S1, type BestMatchS1Params } from './bestmatch-s1.ts'
import { BM25, type Bm25Params } from './bm25.ts'
import { BM25F, type Bm25fParams } from './bm25f.ts'
import { DFR, type DfrParams } from './dfr.ts'
import { perTermQuery, type PerTermDefinition } from './prepare.ts'
import { invalidArgument, type CollectionStats, type TermStats } from './stats.ts'
import type { PreparedQuery } from './term-scorer.ts'
import { prepareTfIdfQuery, resolveTfIdfParams, type TfIdfParams } from './tfidf.ts'
import { XAPIAN, type XapianBm25Params } from './xapian.ts'

/** The scorers pubmatch ships. */
export type ScorerName = 'bestmatch-s1' | 'bm25f' | 'bm25' | 'tfidf' | 'dfr' | 'xapian'

/** Every {@link ScorerName}, in a stable order. */
export const SCORER_NAMES: readonly ScorerName[] = Object.freeze([
  'bestmatch-s1',
  'bm25f',
  'bm25',
  'tfidf',
  'dfr',
  'xapian',
])

/** The parameters each scorer takes. */
export interface ScorerParamsByName {
  /** BM25F as the Best Match S1 text writes it. */
  'bestmatch-s1': BestMatchS1Params
  /** Robertson–Zaragoza BM25F. */
  bm25f: Bm25fParams
  /** Lucene BM25 over one bag of words. */
  bm25: Bm25Params
  /** Lucene's classic TF-IDF. */
  tfidf: TfIdfParams
  /** DFR I(ne)L2. */
  dfr: DfrParams
  /** Xapian's BM25Weight. */
  xapian: XapianBm25Params
}

/** A scorer and its parameters, e.g. from a configuration file. */
export type ScorerConfig = {
  [K in ScorerName]: { readonly name: K; readonly params?: ScorerParamsByName[K] }
}[ScorerName]

/** A first-stage scoring function with its parameters bound. */
export interface Scorer {
  /** Which scorer this is. */
  readonly name: ScorerName
  /**
   * Precomputes everything that depends only on the collection and the query, checks the
   * statistics (`INVALID_ARGUMENT`, `UNKNOWN_FIELD`), and returns one {@link TermScorer} per term.
   * Give each distinct query term once.
   * @param collection - N and the fields with their total lengths
   * @param terms - the query terms' statistics
   */
  prepareQuery(collection: CollectionStats, terms: readonly TermStats[]): PreparedQuery
}

/** A per-term scorer with its parameters bound (checked here). */
const perTerm = <Params, Resolved>(
  definition: PerTermDefinition<Params, Resolved>,
  params: Params | undefined,
): Scorer => ({
  name: definition.name,
  prepareQuery: perTermQuery(definition, definition.resolve(params)),
})

const factories: { readonly [K in ScorerName]: (params?: ScorerParamsByName[K]) => Scorer } = {
  'bestmatch-s1': (params) => perTerm(BEST_MATCH_S1, params),
  bm25f: (params) => perTerm(BM25F, params),
  bm25: (params) => perTerm(BM25, params),
  tfidf: (params) => {
    const resolved = resolveTfIdfParams(params)
    return {
      name: 'tfidf',
      prepareQuery: (collection, terms) => prepareTfIdfQuery(collection, terms, resolved),
    }
  },
  dfr: (params) => perTerm(DFR, params),
  xapian: (params) => perTerm(XAPIAN, params),
}

/**
 * Creates a scorer by name. Parameters are checked here (`INVALID_ARGUMENT`); those that depend on
 * the collection's fields (field weights, bag fields) when a query is prepared.
 * @param name - `bestmatch-s1`, `bm25f`, `bm25`, `tfidf`, `dfr` or `xapian`
 * @param params - the scorer's parameters; every one has a default (see each params type).
 *   Defaults to `{}`.
 */
export function createScorer<N extends ScorerName>(
  name: N,
  params?: ScorerParamsByName[N],
): Scorer {
  if (!Object.hasOwn(factories, name)) {
    throw invalidArgument(
      `unknown scorer "${truncateForMessage(String(name))}" (expected one of ${SCORER_NAMES.join(', ')})`,
    )
  }
  const factory: (params?: ScorerParamsByName[N]) => Scorer = factories[name]
  return factory(params)
}

/**
 * Creates a scorer from a configuration object.
 * @param config - `{ name, params }`
 */
export function createScorerFromConfig(config: ScorerConfig): Scorer {
  return createScorer(config.name, config.params)
}
