/**
 * The statistics every scorer reads, and the checks and look-ups the scorers share. Scorers never
 * touch an index: the caller passes these numbers in.
 */
import { PubmatchError, truncateForMessage, type ErrorDetails } from '@pubmatch/core'

/** One indexed field of the collection. */
export interface FieldStats {
  /** The field's name, e.g. `title`, `abstract`, `mesh`. */
  readonly name: string
  /**
   * The field's length summed over all documents of the collection (tokens). Its mean over the
   * collection is `totalLength / docCount`: a document without the field counts as length 0.
   */
  readonly totalLength: number
}

/** What the scorers need to know about the collection. */
export interface CollectionStats {
  /** N, the number of documents in the collection. */
  readonly docCount: number
  /**
   * The indexed fields. Per-document arrays (`tfs`, `lengths`, block maxima) are indexed in this
   * order.
   */
  readonly fields: readonly FieldStats[]
}

/** What the scorers need to know about one query term. */
export interface TermStats {
  /** n(t), the number of documents that contain the term in at least one of the scored fields. */
  readonly docFreq: number
  /**
   * F, the number of occurrences of the term in the scored fields over the whole collection. Only
   * DFR needs it (and throws `INVALID_ARGUMENT` without it).
   */
  readonly totalTermFreq?: number
  /** A query-time weight that multiplies the term's score. Defaults to `1`. */
  readonly boost?: number
  /** The term's text, used only to label explanations. Defaults to `term`. */
  readonly text?: string
}

/** Everything one per-term scoring function reads. */
export interface TermScoringInput {
  /** Collection statistics. */
  readonly collection: CollectionStats
  /** The term's statistics. */
  readonly term: TermStats
  /** The term's occurrences in each field of the document, in `collection.fields` order. */
  readonly tfs: ArrayLike<number>
  /** The document's length in each field, in `collection.fields` order. */
  readonly lengths: ArrayLike<number>
}

/** @internal Throws `INVALID_ARGUMENT` naming the package. */
export function invalidArgument(message: string, details?: ErrorDetails): PubmatchError {
  return new PubmatchError('INVALID_ARGUMENT', `${message}`, {
    details: details ?? {},
  })
}

const show = (value: unknown): string => truncateForMessage(String(value))

/** @internal A parameter within `[min, max]` (finite). */
export function checkNumber(
  scorer: string,
  name: string,
  value: number,
  min: number,
  max: number = Number.POSITIVE_INFINITY,
): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    const range = max === Number.POSITIVE_INFINITY ? `≥ ${min}` : `in [${min}, ${max}]`
    throw invalidArgument(
      `${scorer} parameter ${name} must be a finite number ${range}, got ${show(value)}`,
    )
  }
  return value
}

/**
 * @internal A parameter that names one of a few variants: the first of `choices` when undefined,
 * `INVALID_ARGUMENT` when it is none of them.
 */
export function checkChoice<T extends string>(
  scorer: string,
  name: string,
  value: T | undefined,
  choices: readonly [T, ...T[]],
): T {
  const chosen = value ?? choices[0]
  if (!choices.includes(chosen)) {
    const quoted = choices.map((choice) => JSON.stringify(choice))
    throw invalidArgument(
      `${scorer} parameter ${name} must be ${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}, got ${JSON.stringify(chosen)}`,
    )
  }
  return chosen
}

/**
 * @internal k1 (≥ 0, by default 1.2) and b (in [0, 1], by default 0.75) of the BM25 family,
 * checked.
 */
export function checkSaturation(
  scorer: string,
  params: { readonly k1?: number; readonly b?: number },
): { readonly k1: number; readonly b: number } {
  return {
    k1: checkNumber(scorer, 'k1', params.k1 ?? 1.2, 0),
    b: checkNumber(scorer, 'b', params.b ?? 0.75, 0, 1),
  }
}

/** The checked mean field lengths of frozen collection statistics (they cannot change). */
const frozenAverages = new WeakMap<CollectionStats, Float64Array>()

/**
 * A deep-frozen collection (the object and each field): its statistics cannot change, so what is
 * derived from them can be kept (a searcher freezes the statistics it prepares queries with).
 */
export function isFrozenCollection(collection: CollectionStats): boolean {
  if (deepFrozen.has(collection)) {
    return true
  }
  const frozen =
    Object.isFrozen(collection) &&
    Object.isFrozen(collection.fields) &&
    collection.fields.every((field) => Object.isFrozen(field))
  if (frozen) {
    deepFrozen.add(collection) // an object cannot be unfrozen: the answer holds for good
  }
  return frozen
}

/** Collections found deep-frozen (asked every search: checked once each). */
const deepFrozen = new WeakSet<CollectionStats>()

/**
 * @internal Checks collection statistics; returns the mean length of each field (read only: the
 * same array for the same frozen collection, checked once).
 */
export function averageFieldLengths(collection: CollectionStats): Float64Array {
  const cached = frozenAverages.get(collection)
  if (cached !== undefined) {
    return cached
  }
  const averages = checkedAverages(collection)
  if (isFrozenCollection(collection)) {
    frozenAverages.set(collection, averages)
  }
  return averages
}

function checkedAverages(collection: CollectionStats): Float64Array {
  const n = collection.docCount
  if (!Number.isInteger(n) || n < 1) {
    throw invalidArgument(`collection docCount must be an integer ≥ 1, got ${show(n)}`)
  }
  if (collection.fields.length === 0) {
    throw invalidArgument('collection has no fields')
  }
  const averages = new Float64Array(collection.fields.length)
  const seen = new Set<string>()
  collection.fields.forEach((field, f) => {
    if (seen.has(field.name)) {
      throw invalidArgument(`collection field "${show(field.name)}" is listed twice`)
    }
    seen.add(field.name)
    if (!Number.isFinite(field.totalLength) || field.totalLength < 0) {
      throw invalidArgument(
        `collection field "${show(field.name)}" totalLength must be a finite number ≥ 0, got ${show(field.totalLength)}`,
      )
    }
    averages[f] = field.totalLength / n
  })
  return averages
}

const termName = (term: TermStats): string =>
  term.text === undefined ? 'a term' : `term "${show(term.text)}"`

/** @internal Checks a term's statistics against the collection. */
export function checkTerm(term: TermStats, collection: CollectionStats): void {
  const { docFreq, boost } = term
  if (!Number.isInteger(docFreq) || docFreq < 0 || docFreq > collection.docCount) {
    throw invalidArgument(
      `${termName(term)} docFreq must be an integer in [0, docCount = ${collection.docCount}], got ${show(docFreq)}`,
    )
  }
  if (boost !== undefined && (!Number.isFinite(boost) || boost < 0)) {
    throw invalidArgument(`${termName(term)} boost must be a finite number ≥ 0, got ${show(boost)}`)
  }
}

/**
 * @internal Resolves per-field weights by name: `weights[name]` when given, else `fallback`.
 * Names that are not fields of the collection are ignored, so that one configuration serves
 * indexes with and without (say) a MeSH field.
 */
export function resolveFieldValues(
  scorer: string,
  parameter: string,
  collection: CollectionStats,
  values: Readonly<Record<string, number>>,
  fallback: number,
  min: number,
  max: number = Number.POSITIVE_INFINITY,
): Float64Array {
  const resolved = new Float64Array(collection.fields.length)
  collection.fields.forEach((field, f) => {
    const value = Object.hasOwn(values, field.name) ? values[field.name]! : fallback
    resolved[f] = checkNumber(scorer, `${parameter}.${field.name}`, value, min, max)
  })
  return resolved
}

/**
 * @internal The indexes of the fields that make up a single bag of words. All fields when `names`
 * is undefined; an unknown name throws `UNKNOWN_FIELD`.
 */
export function resolveBagFields(
  scorer: string,
  collection: CollectionStats,
  names: readonly string[] | undefined,
): Int32Array {
  if (names === undefined) {
    return Int32Array.from(collection.fields, (_field, f) => f)
  }
  if (names.length === 0) {
    throw invalidArgument(`${scorer} parameter fields must name at least one field`)
  }
  const indexes = names.map((name) => {
    const f = collection.fields.findIndex((field) => field.name === name)
    if (f < 0) {
      const known = collection.fields.map((field) => field.name).join(', ')
      throw new PubmatchError(
        'UNKNOWN_FIELD',
        `${scorer} field "${show(name)}" is not a field of the collection (${show(known)})`,
        { details: { field: name } },
      )
    }
    return f
  })
  if (new Set(indexes).size !== indexes.length) {
    throw invalidArgument(
      `${scorer} parameter fields lists a field twice: ${show(names.join(', '))}`,
    )
  }
  return Int32Array.from(indexes)
}

/** @internal Checks that a document's per-field arrays match the collection's fields. */
export function checkDocument(
  collection: CollectionStats,
  tfs: ArrayLike<number>,
  lengths: ArrayLike<number>,
): void {
  const count = collection.fields.length
  if (tfs.length !== count || lengths.length !== count) {
    throw invalidArgument(
      `expected ${count} per-field values (one per collection field), got ${tfs.length} tfs and ${lengths.length} lengths`,
    )
  }
}

/** @internal The label of a term's explanation. */
export const termLabel = (term: TermStats): string => term.text ?? 'term'
