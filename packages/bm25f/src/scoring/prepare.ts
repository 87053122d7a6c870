/**
 * What preparing a query shares across the scorers: the checked statistics of a term, the bag of
 * words of the bag scorers, the assembly of a {@link TermScorer} with its explanation, and the
 * plumbing from a scorer's definition to `Scorer.prepareQuery` and to its pure function. Each
 * scorer keeps only its formula: constants, `score`, `upperBound` and the details of `explain`.
 */
import { explanation, type Explained, type Explanation } from './explanation.ts'
import type { ScorerName } from './scorer.ts'
import {
  averageFieldLengths,
  checkDocument,
  checkTerm,
  isFrozenCollection,
  resolveBagFields,
  termLabel,
  type CollectionStats,
  type TermScoringInput,
  type TermStats,
} from './stats.ts'
import { additiveQuery, type PreparedQuery, type TermScorer } from './term-scorer.ts'

/** @internal A term's statistics, checked against the collection. */
export interface TermBasics {
  /** N, the number of documents. */
  readonly N: number
  /** n(t), the number of documents holding the term. */
  readonly n: number
  /** The term's boost; `1` when it has none. */
  readonly boost: number
  /** avgl(f), the mean length of each field: totalLength(f) / N. */
  readonly avgl: Float64Array
}

/**
 * @internal Checks the collection and the term (`INVALID_ARGUMENT`), in that order.
 * @param collection - the collection statistics
 * @param term - the term's statistics
 */
export function termBasics(collection: CollectionStats, term: TermStats): TermBasics {
  const avgl = averageFieldLengths(collection)
  checkTerm(term, collection)
  return { N: collection.docCount, n: term.docFreq, boost: term.boost ?? 1, avgl }
}

/** @internal The fields of a bag scorer summed into one bag of words. */
export interface Bag {
  /** The bag's field indexes, in `collection.fields` order of the names given. */
  readonly fields: Int32Array
  /** The mean bag length: Σ totalLength over the bag / N. */
  readonly avgdl: number
}

/**
 * @internal The bag of a bag scorer (`UNKNOWN_FIELD` for a name that is not a field).
 * @param scorer - the scorer's name, for messages
 * @param collection - the collection statistics
 * @param names - the bag's fields; all fields when undefined
 */
export function resolveBag(
  scorer: string,
  collection: CollectionStats,
  names: readonly string[] | undefined,
): Bag {
  const fields = resolveBagFields(scorer, collection, names)
  let total = 0
  for (const f of fields) {
    total += collection.fields[f]!.totalLength
  }
  return { fields, avgdl: total / collection.docCount }
}

/** @internal A document's bag: its tf and length summed over the bag, with their explanations. */
export interface ExplainedBag {
  /** Σ_f occ(t, f) over the bag. */
  readonly tf: number
  /** Σ_f l(f) over the bag. */
  readonly dl: number
  /** `tf`, with one child per bag field holding the term. */
  readonly tfNode: Explanation
  /** `dl`, with one child per bag field. */
  readonly dlNode: Explanation
}

/**
 * @internal Sums a document's tfs and lengths over the bag, for `explain` (`score` sums them inline).
 * @param collection - the collection statistics (field names)
 * @param bag - the bag
 * @param tfs - the term's per-field tfs in the document
 * @param lengths - the document's per-field lengths
 */
export function explainBag(
  collection: CollectionStats,
  bag: Bag,
  tfs: ArrayLike<number>,
  lengths: ArrayLike<number>,
): ExplainedBag {
  let tf = 0
  let dl = 0
  const tfParts: Explanation[] = []
  const dlParts: Explanation[] = []
  for (const f of bag.fields) {
    const name = collection.fields[f]!.name
    tf += tfs[f]!
    dl += lengths[f]!
    if (tfs[f]! > 0) {
      tfParts.push(explanation(name, tfs[f]!))
    }
    dlParts.push(explanation(name, lengths[f]!))
  }
  return {
    tf,
    dl,
    tfNode: explanation('tf', tf, 'Σ_f occ(t,f)', tfParts),
    dlNode: explanation('dl', dl, 'Σ_f l(f)', dlParts),
  }
}

/** @internal A term's score as its scorer explains it, before its label and trailing factors. */
export interface TermExplanation {
  /** The score, exactly as `score` computes it. */
  readonly value: number
  /** How the score is computed from `details`, without the trailing factors. */
  readonly formula: string
  /** The values it is computed from. */
  readonly details: readonly Explanation[]
  /** The (k1 + 1) factor, when the score is multiplied by it: appended as `· (k1 + 1)`. */
  readonly k1Plus1?: number
  /** The term's boost, when the formula ends with it: appended as `· boost` unless it is 1. */
  readonly boost?: number
}

/**
 * @internal Assembles a term scorer: `explain` checks the document's arrays (`INVALID_ARGUMENT`),
 * then labels the scorer's explanation with the term and appends its trailing factors.
 * @param collection - the collection statistics
 * @param term - the term's statistics
 * @param score - the term's score in a document
 * @param upperBound - its upper bound over documents
 * @param explain - the score with its formula and details
 */
export function termScorer(
  collection: CollectionStats,
  term: TermStats,
  score: TermScorer['score'],
  upperBound: TermScorer['upperBound'],
  explain: (tfs: ArrayLike<number>, lengths: ArrayLike<number>) => TermExplanation,
): TermScorer {
  return {
    term,
    score,
    upperBound,
    explain: (tfs, lengths) => {
      checkDocument(collection, tfs, lengths)
      const explained = explain(tfs, lengths)
      const details = [...explained.details]
      let formula = explained.formula
      if (explained.k1Plus1 !== undefined) {
        details.push(explanation('k1 + 1', explained.k1Plus1))
        formula += ' · (k1 + 1)'
      }
      if (explained.boost !== undefined && explained.boost !== 1) {
        details.push(explanation('boost', explained.boost))
        formula += ' · boost'
      }
      return {
        value: explained.value,
        explain: explanation(termLabel(term), explained.value, formula, details),
      }
    },
  }
}

/**
 * @internal A scorer whose query score is the sum of its per-term scores: how its parameters are
 * checked and how one term is prepared.
 */
export interface PerTermDefinition<Params, Resolved> {
  /** The scorer's name. */
  readonly name: ScorerName
  /** Fills in the defaults and checks the parameters (`INVALID_ARGUMENT`). */
  readonly resolve: (params?: Params) => Resolved
  /** Checks the statistics and precomputes the constants of one term. */
  readonly prepare: (collection: CollectionStats, term: TermStats, params: Resolved) => TermScorer
}

/**
 * @internal `Scorer.prepareQuery` of a per-term scorer: checks the collection, prepares each term
 * and sums their scores.
 * @param definition - the scorer
 * @param params - its parameters, already resolved
 */
export function perTermQuery<Params, Resolved>(
  definition: PerTermDefinition<Params, Resolved>,
  params: Resolved,
): (collection: CollectionStats, terms: readonly TermStats[]) => PreparedQuery {
  // Prepared terms of frozen collections (a searcher's): the same statistics give the same scorer.
  const prepared = new WeakMap<CollectionStats, Map<string, TermScorer>>()
  return (collection, terms) => {
    averageFieldLengths(collection)
    let cache: Map<string, TermScorer> | undefined
    if (isFrozenCollection(collection)) {
      cache = prepared.get(collection)
      if (cache === undefined) {
        cache = new Map()
        prepared.set(collection, cache)
      }
    }
    return additiveQuery(
      definition.name,
      terms.map((term) => {
        if (cache === undefined) {
          return definition.prepare(collection, term, params)
        }
        const key = `${term.docFreq}\u0000${term.totalTermFreq ?? '-'}\u0000${term.boost ?? '-'}\u0000${term.text === undefined ? '-' : `=${term.text}`}`
        let scorer = cache.get(key)
        if (scorer === undefined) {
          scorer = definition.prepare(collection, term, params)
          if (cache.size >= PREPARED_TERMS_CACHE_SIZE) {
            cache.delete(cache.keys().next().value!)
          }
          cache.set(key, scorer)
        }
        return scorer
      }),
    )
  }
}

/** How many prepared terms a per-term scorer keeps per frozen collection. */
const PREPARED_TERMS_CACHE_SIZE = 20_000

/**
 * @internal A per-term scorer's pure function: the explained score of one term in one document.
 * @param definition - the scorer
 * @param input - collection and term statistics, and the document's per-field tfs and lengths
 * @param params - its parameters, as the caller gave them
 */
export function explainOneTerm<Params, Resolved>(
  definition: PerTermDefinition<Params, Resolved>,
  input: TermScoringInput,
  params: Params | undefined,
): Explained {
  return definition
    .prepare(input.collection, input.term, definition.resolve(params))
    .explain(input.tfs, input.lengths)
}
