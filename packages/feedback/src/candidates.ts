/**
 * A candidate set: the documents a feedback session re-ranks (an index's first-stage candidates,
 * or articles fetched from Entrez), with what the re-rankers need of them: per term, its frequency
 * in each candidate's title and abstract; each candidate's length; document frequencies over the
 * candidates (local IDF) and over the whole collection (global IDF); and each candidate's terms,
 * for feedback vectors.
 */
import type { Analyzer } from '@pubmatch/analysis'
import { PubmatchError } from '@pubmatch/core'
import type { IndexReader } from '@pubmatch/index'
import { NO_MORE_DOCS } from '@pubmatch/index/internal'

/** The documents a session works on. */
export interface CandidateSet {
  /** Candidate ids (PMIDs), in the order given. */
  readonly ids: readonly string[]
  readonly size: number
  /** Analysed tokens in each candidate's title and abstract. */
  readonly lengths: Float64Array
  /** Mean of `lengths`. */
  readonly avgLength: number
  /** Documents of the whole collection, for global IDF. */
  readonly collectionSize: number
  /**
   * Occurrences of an analysed term in each candidate's title and abstract (a shared array: do not
   * modify). Computed on first use per term, then cached.
   * @param term - an analysed (stemmed) term
   */
  tf(term: string): Float64Array
  /**
   * Candidates holding a term (local document frequency).
   * @param term - an analysed term
   */
  localDocFreq(term: string): number
  /**
   * Documents of the whole collection holding a term in title or abstract (global document frequency).
   * @param term - an analysed term
   */
  globalDocFreq(term: string): number
  /**
   * A candidate's analysed terms with their frequencies, and its surface words (lower-cased,
   * for remote query expansion).
   * @param i - the candidate's position in `ids`
   */
  document(i: number): CandidateDocument
  /**
   * The position of an id in `ids`, or `-1`.
   * @param id - a PMID
   */
  indexOf(id: string): number
}

/** One candidate's text, analysed. */
export interface CandidateDocument {
  readonly id: string
  /** Analysed term → occurrences in title and abstract. */
  readonly terms: ReadonlyMap<string, number>
  /** Lower-cased surface words of title and abstract, in order. */
  readonly words: readonly string[]
}

/** A document's text for {@link textCandidates}. */
export interface CandidateText {
  readonly id: string
  readonly title: string
  readonly abstract: string
}

const WORD = /[\p{L}\p{N}]+(?:[-'][\p{L}\p{N}]+)*/gu

function analyse(analyzer: Analyzer, id: string, title: string, abstract: string): CandidateDocument {
  const terms = new Map<string, number>()
  for (const text of [title, abstract]) {
    for (const token of analyzer.analyze(text)) {
      terms.set(token.term, (terms.get(token.term) ?? 0) + 1)
    }
  }
  const words = [...`${title} ${abstract}`.matchAll(WORD)].map((match) => match[0].toLowerCase())
  return { id, terms, words }
}

function indexOfFactory(ids: readonly string[]): (id: string) => number {
  const positions = new Map(ids.map((id, i) => [id, i]))
  return (id) => positions.get(id) ?? -1
}

/**
 * The candidates of an index: term frequencies come from the postings of its `title` and
 * `abstract` fields (no re-analysis of the documents), lengths from its exact field lengths, and
 * global document frequencies from the index.
 * @param reader - the open index
 * @param docNumbers - the candidates' document numbers, in candidate order
 * @throws PubmatchError `UNKNOWN_FIELD` when the index has neither a title nor an abstract field
 */
export function indexCandidates(reader: IndexReader, docNumbers: readonly number[]): CandidateSet {
  const fields = ['title', 'abstract'].filter((field) => reader.hasField(field))
  if (fields.length === 0) {
    throw new PubmatchError('UNKNOWN_FIELD', 'the index has neither a title nor an abstract field to rank candidates by')
  }
  const size = docNumbers.length
  const ids = docNumbers.map((doc) => reader.externalId(doc))
  const lengths = new Float64Array(size)
  for (let i = 0; i < size; i++) {
    for (const field of fields) {
      lengths[i]! += reader.fieldLength(field, docNumbers[i]!)
    }
  }
  const avgLength = size === 0 ? 0 : lengths.reduce((sum, n) => sum + n, 0) / size
  // candidates by document number, for advancing a cursor in document order; and each document's
  // candidate position, for walking a short postings list whole
  const order = docNumbers.map((doc, i) => [doc, i] as const).sort((a, b) => a[0] - b[0])
  const position = new Int32Array(reader.maxDoc).fill(-1)
  docNumbers.forEach((doc, i) => {
    position[doc] = i
  })
  const cache = new Map<string, Float64Array>()
  const localDf = new Map<string, number>()
  const globalDf = new Map<string, number>()
  const analyzer = reader.analyzer(fields[0]!)
  const documents = new Map<number, CandidateDocument>()
  const tf = (term: string): Float64Array => {
    let column = cache.get(term)
    if (column !== undefined) {
      return column
    }
    column = new Float64Array(size)
    for (const field of fields) {
      const cursor = reader.postings(field, term)
      if (cursor === null) {
        continue
      }
      if (reader.docFreq(field, term) <= WALK_FACTOR * size) {
        // a list not much longer than the candidates: read it whole (O(df))
        for (let doc = cursor.nextDoc(); doc !== NO_MORE_DOCS; doc = cursor.nextDoc()) {
          const i = position[doc]!
          if (i >= 0) {
            column[i]! += cursor.freq()
          }
        }
        continue
      }
      // a long list: jump to each candidate (O(candidates · log df))
      for (const [doc, i] of order) {
        const at = cursor.advance(doc)
        if (at === NO_MORE_DOCS) {
          break
        }
        if (at === doc) {
          column[i]! += cursor.freq()
        }
      }
    }
    cache.set(term, column)
    return column
  }
  return {
    ids,
    size,
    lengths,
    avgLength,
    collectionSize: reader.docCount,
    tf,
    localDocFreq: (term) => memo(localDf, term, () => tf(term).reduce((n, f) => n + (f > 0 ? 1 : 0), 0)),
    globalDocFreq: (term) => memo(globalDf, term, () => reader.docFreqAny(term, fields)),
    document(i) {
      let document = documents.get(i)
      if (document === undefined) {
        const stored = reader.stored(docNumbers[i]!)
        document = analyse(analyzer, stored.id, stored.title, stored.abstract ?? '')
        documents.set(i, document)
      }
      return document
    },
    indexOf: indexOfFactory(ids),
  }
}

/** A postings list at most this many times the candidate count is read whole rather than jumped through. */
const WALK_FACTOR = 8

function memo(cache: Map<string, number>, term: string, compute: () => number): number {
  let value = cache.get(term)
  if (value === undefined) {
    value = compute()
    cache.set(term, value)
  }
  return value
}

/** Options of {@link textCandidates}. */
export interface TextCandidatesOptions {
  /** The analyzer (the index's, so that terms agree with local searches). */
  readonly analyzer: Analyzer
  /**
   * Global statistics when a collection is known (e.g. PubMed's size and the df of a term in a
   * local index); defaults to the candidates themselves (global = local).
   */
  readonly collection?: { readonly size: number; readonly docFreq: (term: string) => number }
}

/**
 * Candidates from texts (articles fetched from Entrez, not in any local index): each is
 * analysed once, up front.
 * @param docs - the documents, in candidate order
 * @param options - the analyzer and the collection statistics
 */
export function textCandidates(docs: readonly CandidateText[], options: TextCandidatesOptions): CandidateSet {
  const documents = docs.map((doc) => analyse(options.analyzer, doc.id, doc.title, doc.abstract))
  const size = documents.length
  const ids = documents.map((doc) => doc.id)
  const lengths = Float64Array.from(documents, (doc) => [...doc.terms.values()].reduce((sum, n) => sum + n, 0))
  const avgLength = size === 0 ? 0 : lengths.reduce((sum, n) => sum + n, 0) / size
  const cache = new Map<string, Float64Array>()
  const tf = (term: string): Float64Array => {
    let column = cache.get(term)
    if (column === undefined) {
      column = Float64Array.from(documents, (doc) => doc.terms.get(term) ?? 0)
      cache.set(term, column)
    }
    return column
  }
  const localDf = new Map<string, number>()
  const localDocFreq = (term: string): number => memo(localDf, term, () => tf(term).reduce((n, f) => n + (f > 0 ? 1 : 0), 0))
  return {
    ids,
    size,
    lengths,
    avgLength,
    collectionSize: options.collection?.size ?? size,
    tf,
    localDocFreq,
    globalDocFreq: options.collection?.docFreq ?? localDocFreq,
    document: (i) => documents[i]!,
    indexOf: indexOfFactory(ids),
  }
}
