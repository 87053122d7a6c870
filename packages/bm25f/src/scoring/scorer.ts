/**
 * The pluggable first-stage scorer: `createScorer(name, params)` returns a {@link Scorer}; the
 * retrieval code calls `prepareQuery` once per query and then scores postings with the returned
 * per-term {@link TermScorer}s.
 */
import { truncateForMessage } from '@pubmatch/core'
import {
  prepareBestMatchS1,
  resolveBestMatchS1Params,
  type BestMatchS1Params,
} from './bestmatch-s1.ts'
import { prepareBm25, resolveBm25Params, type Bm25Params } from './bm25.ts'
import { prepareBm25f, resolveBm25fParams, type Bm25fParams } from './bm25f.ts'
import { prepareDfrIneL2, resolveDfrParams, type DfrParams } from './dfr.ts'
import {
  averageFieldLengths,
  invalidArgument,
  type CollectionStats,
  type TermStats,
} from './stats.ts'
import { additiveQuery, type PreparedQuery, type TermScorer } from './term-scorer.ts'
import { prepareTfIdfQuery, resolveTfIdfParams, type TfIdfParams } from './tfidf.ts'
import { prepareXapianBm25, resolveXapianBm25Params, type XapianBm25Params } from './xapian.ts'

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

type Preparer = (collection: CollectionStats, term: TermStats) => TermScorer

const perTerm = (name: ScorerName, prepare: Preparer): Scorer => ({
  name,
  prepareQuery: (collection, terms) => {
    averageFieldLengths(collection)
    return additiveQuery(
      name,
      terms.map((term) => prepare(collection, term)),
    )
  },
})

const factories: { readonly [K in ScorerName]: (params?: ScorerParamsByName[K]) => Scorer } = {
  'bestmatch-s1': (params) => {
    const resolved = resolveBestMatchS1Params(params)
    return perTerm('bestmatch-s1', (collection, term) =>
      prepareBestMatchS1(collection, term, resolved),
    )
  },
  bm25f: (params) => {
    const resolved = resolveBm25fParams(params)
    return perTerm('bm25f', (collection, term) => prepareBm25f(collection, term, resolved))
  },
  bm25: (params) => {
    const resolved = resolveBm25Params(params)
    return perTerm('bm25', (collection, term) => prepareBm25(collection, term, resolved))
  },
  tfidf: (params) => {
    const resolved = resolveTfIdfParams(params)
    return {
      name: 'tfidf',
      prepareQuery: (collection, terms) => prepareTfIdfQuery(collection, terms, resolved),
    }
  },
  dfr: (params) => {
    const resolved = resolveDfrParams(params)
    return perTerm('dfr', (collection, term) => prepareDfrIneL2(collection, term, resolved))
  },
  xapian: (params) => {
    const resolved = resolveXapianBm25Params(params)
    return perTerm('xapian', (collection, term) => prepareXapianBm25(collection, term, resolved))
  },
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
