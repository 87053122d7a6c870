/**
 * The feature extractor: Best Match's 179 features of each first-stage candidate, from the
 * index (doc values, document frequencies), the forward store (token streams) and the query.
 */
import { isJoinedToken, type Analyzer } from '@pubmatch/analysis'
import type { Candidate, SearchResult } from '@pubmatch/bm25f'
import { PubmatchError, truncateForMessage } from '@pubmatch/core'
import type { IndexReader } from '@pubmatch/index'
import type { DocumentUsage, FeatureExtractor, FeatureMatrix } from '../types.ts'
import type { ForwardField, ForwardIndex } from './forward.ts'
import { BEST_MATCH_SCHEMA, COLUMNS, FEATURE_COUNT, LANGUAGES, NEUTRAL_YEAR, NO_POSITION, PUBLICATION_TYPES } from './registry.ts'
import { createSpanScratch, spanFeatures } from './spans.ts'

/**
 * An inverse document frequency from a document frequency and the collection size.
 * @param docFreq - documents holding the term (in the field, or in any of the fields)
 * @param docCount - documents in the index
 */
export type IdfFunction = (docFreq: number, docCount: number) => number

/**
 * The default IDF: `ln(N / max(df, 1))`, floored at 0 (and 0 for an empty index). `df` is the
 * field's document frequency (`IndexReader.docFreq`); for title+abstract it is the number of
 * documents holding the term in either field (`IndexReader.docFreqAny`).
 * @param docFreq - the document frequency
 * @param docCount - the number of documents
 */
export function logIdf(docFreq: number, docCount: number): number {
  return docCount <= 0 ? 0 : Math.max(0, Math.log(docCount / Math.max(docFreq, 1)))
}

/** Options of {@link createFeatureExtractor}. */
export interface FeatureExtractorOptions {
  /** The index the first stage searched (doc values, document frequencies, analyzer). */
  readonly reader: IndexReader
  /** The token streams of the same documents, built with the index's text analyzer. */
  readonly forward: ForwardIndex
  /** Past usage for F2–F3. Defaults to none (both 0). */
  readonly usage?: DocumentUsage
  /** The IDF of F171–F175. Defaults to {@link logIdf}. */
  readonly idf?: IdfFunction
  /**
   * The analyzer the query text goes through to find its terms. Defaults to the index's
   * `title` analyzer (`reader.analyzer('title')`).
   */
  readonly queryAnalyzer?: Analyzer
  /**
   * Words left out of the query terms, matched case-insensitively on each token's surface form:
   * pass the first stage's `queryStopwords` (e.g. bm25f's `QUESTION_STOPWORDS` for plain-text
   * queries) so both stages see the same terms. Defaults to none (the analyzer's own stop words only).
   */
  readonly queryStopwords?: readonly string[]
}

// Module-local copies: hot loops read these as plain bindings (bundlers and test runners may
// turn imported bindings into getter calls).
const COL = { ...COLUMNS }
const WIDTH: number = FEATURE_COUNT
const NO_POS: number = NO_POSITION
const NO_YEAR: number = NEUTRAL_YEAR

const IDF_CACHE_SIZE = 65_536

/** The last index of the scanner's filter words (2,048 words of 32 bits: term ids modulo 2^16). */
const FILTER_MASK = 2047

const NON_ALPHANUMERIC = /[^\p{L}\p{N}\s]/gu

/**
 * Counts the query-level raw-text features.
 * @param query - the query as typed
 * @returns `[non-alphanumeric characters (white space excluded), words, distinct case-folded words]`
 */
export function queryTextFeatures(query: string): [number, number, number] {
  const words = query.split(/\s+/).filter((word) => word !== '')
  const distinct = new Set(words.map((word) => word.toLowerCase()))
  return [query.match(NON_ALPHANUMERIC)?.length ?? 0, words.length, distinct.size]
}

/**
 * Creates the extractor of Best Match's 179 features ({@link BEST_MATCH_SCHEMA}).
 *
 * Query terms are the distinct terms of the query text analyzed like the index (joined
 * compound forms skipped). Per candidate, one pass over each of title, abstract and MeSH
 * tokens of the forward store gives matches, coverage, mean match position, IDF sums (one
 * IDF per matching token, as NCBI's code sums them) and the span input; spans run over title
 * then abstract as one stream. Absent data takes each feature's `neutral` value: no `year`
 * doc value → 0, no pub types / languages → all 0, no MeSH → 0.
 * @param options - see {@link FeatureExtractorOptions}
 * @throws PubmatchError `SCHEMA_MISMATCH` when the forward store was built for another analyzer
 */
export function createFeatureExtractor(options: FeatureExtractorOptions): FeatureExtractor {
  const { reader, forward } = options
  const usage = options.usage
  if (reader.hasField('title') && reader.field('title').analyzer !== forward.analyzer) {
    throw new PubmatchError(
      'SCHEMA_MISMATCH',
      `the forward index was built for analyzer "${truncateForMessage(forward.analyzer)}" but the index's title uses "${truncateForMessage(reader.field('title').analyzer)}"`,
    )
  }
  const queryTerms = createQueryTerms(options)
  const years = reader.schema.numericDocValues.includes('year') ? reader.numericValues('year') : null
  const hasPubtypes = reader.schema.sortedSetDocValues.includes('pubtype')
  const hasLanguages = reader.schema.sortedSetDocValues.includes('language')
  const pubtypeColumns = oneHotColumns(PUBLICATION_TYPES, COL.pubtypeFirst)
  const languageColumns = oneHotColumns(LANGUAGES, COL.languageFirst)
  // the one-hot columns (publication types and languages) of each index document seen: an index
  // into `columnSets`, plus one (0: not looked up yet); documents share the few distinct sets
  const columnSetOf = new Int32Array(hasPubtypes || hasLanguages ? reader.maxDoc : 0)
  const columnSets: Int32Array[] = []
  const columnSetIds = new Map<string, number>()
  const oneHot = (doc: number): Int32Array => {
    const known = columnSetOf[doc]! - 1
    if (known >= 0) {
      return columnSets[known]!
    }
    const columns: number[] = []
    if (hasPubtypes) {
      collectOneHot(columns, pubtypeColumns, reader.sortedSetValues('pubtype', doc))
    }
    if (hasLanguages) {
      collectOneHot(columns, languageColumns, reader.sortedSetValues('language', doc))
    }
    const key = columns.join(',')
    let id = columnSetIds.get(key)
    if (id === undefined) {
      id = columnSets.length
      columnSets.push(Int32Array.from(columns))
      columnSetIds.set(key, id)
    }
    columnSetOf[doc] = id + 1
    return columnSets[id]!
  }
  // a document number outside the index's (the reader would refuse it as before)
  const uncachedOneHot = (doc: number): Int32Array => {
    const columns: number[] = []
    if (hasPubtypes) {
      collectOneHot(columns, pubtypeColumns, reader.sortedSetValues('pubtype', doc))
    }
    if (hasLanguages) {
      collectOneHot(columns, languageColumns, reader.sortedSetValues('language', doc))
    }
    return Int32Array.from(columns)
  }
  const title = forward.field('title')
  const abstract = forward.field('abstract')
  const mesh = forward.field('mesh')
  const { scan, pass, mark, unmark, reserve, spans } = createScanner(forward.termCount)
  const span = new Float64Array(19)
  // the forward document of each index document seen, plus one (0: not looked up yet), checked
  // against the hit's id before use: an array read instead of a look-up of the id's text
  const forwardOf = new Int32Array(reader.maxDoc)
  const forwardDoc = (hit: Candidate): number => {
    const known = hit.docNumber >= 0 && hit.docNumber < forwardOf.length ? forwardOf[hit.docNumber]! - 1 : -1
    if (known >= 0 && forward.id(known) === hit.id) {
      return known
    }
    const fdoc = forward.docIndex(hit.id)
    if (fdoc >= 0 && hit.docNumber >= 0 && hit.docNumber < forwardOf.length) {
      forwardOf[hit.docNumber] = fdoc + 1
    }
    return fdoc
  }

  return {
    schema: BEST_MATCH_SCHEMA,
    extract(query: string, result: SearchResult): FeatureMatrix {
      const hits = result.hits
      const rows = hits.length
      const data = new Float64Array(rows * WIDTH)
      const { count: nq, ids, idfTiab, idfTitle, idfAbstract } = queryTerms(query)
      for (let q = 0; q < nq; q++) {
        if (ids[q]! >= 0) {
          mark(ids[q]!, q)
        }
      }
      reserve(nq)
      const [nonAlphanumeric, words, distinctWords] = queryTextFeatures(query)
      try {
        for (let r = 0; r < rows; r++) {
          const hit = hits[r]!
          const o = r * WIDTH
          const doc = hit.docNumber
          const fdoc = forwardDoc(hit)
          if (fdoc < 0) {
            throw new PubmatchError(
              'NOT_FOUND',
              `document "${truncateForMessage(hit.id)}" is not in the forward index; rebuild it from the corpus the index holds`,
              { details: { record: hit.id } },
            )
          }
          // Document features.
          const year = years === null ? Number.NaN : years[doc]!
          data[o + COL.year] = Number.isNaN(year) ? NO_YEAR : year
          if (usage !== undefined) {
            data[o + COL.abstractClicks] = usage.abstractClicks(hit.id)
            data[o + COL.fullTextRequests] = usage.fullTextRequests(hit.id)
          }
          if (hasPubtypes || hasLanguages) {
            const columns = doc >= 0 && doc < columnSetOf.length ? oneHot(doc) : uncachedOneHot(doc)
            for (let c = 0; c < columns.length; c++) {
              data[o + columns[c]!] = 1
            }
          }
          data[o + COL.firstStageScore] = hit.score
          // Title (span positions 0 … titleLength − 1).
          const titleLength = title.offsets[fdoc + 1]! - title.offsets[fdoc]!
          const titleStops = scan(title, fdoc, idfTiab, idfTitle, 0)
          data[o + COL.titleTokens] = titleLength
          data[o + COL.titleStopwordRatio] = titleLength === 0 ? 0 : titleStops / titleLength
          data[o + COL.titleCoverage] = nq === 0 ? 0 : pass.covered / nq
          data[o + COL.titleAvgPosition] = pass.matches === 0 ? NO_POS : pass.positionSum / pass.matches
          data[o + COL.titleMatches] = pass.matches
          data[o + COL.titleIdfTiab] = pass.idfA
          data[o + COL.titleIdfTitle] = pass.idfB
          // Abstract (span positions continue after the title).
          const abstractLength = abstract.offsets[fdoc + 1]! - abstract.offsets[fdoc]!
          const abstractStops = scan(abstract, fdoc, idfTiab, idfAbstract, titleLength)
          data[o + COL.abstractTokens] = abstractLength
          data[o + COL.abstractStopwordRatio] = abstractLength === 0 ? 0 : abstractStops / abstractLength
          data[o + COL.abstractCoverage] = nq === 0 ? 0 : pass.covered / nq
          data[o + COL.abstractAvgPosition] = pass.matches === 0 ? NO_POS : pass.positionSum / pass.matches
          data[o + COL.abstractMatches] = pass.matches
          data[o + COL.abstractIdfTiab] = pass.idfA
          data[o + COL.abstractIdfAbstract] = pass.idfB
          // Spans over title + abstract.
          spans(span)
          data.set(span, o + COL.spanFirst)
          // MeSH.
          scan(mesh, fdoc, idfTiab, idfTiab, -1)
          data[o + COL.meshCoverage] = nq === 0 ? 0 : pass.covered / nq
          data[o + COL.meshMatches] = pass.matches
          data[o + COL.meshIdfTiab] = pass.idfA
          // Query features.
          data[o + COL.resultCount] = result.total
          data[o + COL.queryNonAlphanumeric] = nonAlphanumeric
          data[o + COL.queryTokens] = words
          data[o + COL.queryUniqueTokens] = distinctWords
        }
      } finally {
        for (let q = 0; q < nq; q++) {
          if (ids[q]! >= 0) {
            unmark(ids[q]!)
          }
        }
      }
      return { numRows: rows, numFeatures: WIDTH, data, ids: hits.map((hit) => hit.id) }
    },
  }
}

/** A query's distinct analysed terms as forward term ids (−1: not in the store), with their IDFs. */
interface QueryTerms {
  readonly count: number
  readonly ids: Int32Array
  readonly idfTiab: Float64Array
  readonly idfTitle: Float64Array
  readonly idfAbstract: Float64Array
}

/**
 * The query side of the extractor: a query's distinct analysed terms (joined compound forms and
 * `queryStopwords` left out), interned to forward term ids, with their title+abstract, title and
 * abstract IDFs (cached per term: the reader is a point-in-time view, so they never change, and
 * `docFreqAny` walks the postings of terms found in both fields).
 * @param options - the extractor's options
 */
function createQueryTerms(options: FeatureExtractorOptions): (query: string) => QueryTerms {
  const { reader, forward } = options
  const idf = options.idf ?? logIdf
  const hasTitle = reader.hasField('title')
  const hasAbstract = reader.hasField('abstract')
  const queryAnalyzer = options.queryAnalyzer ?? reader.analyzer(hasTitle ? 'title' : reader.schema.fields[0]!.name)
  const dropped = new Set((options.queryStopwords ?? []).map((word) => word.toLowerCase()))
  const tiabFields = [...(hasTitle ? ['title'] : []), ...(hasAbstract ? ['abstract'] : [])]
  const idfCache = new Map<string, readonly [number, number, number]>()
  return (query) => {
    const terms: string[] = []
    for (const token of queryAnalyzer.analyze(query)) {
      const skip = isJoinedToken(token) || (dropped.size > 0 && dropped.has((token.original ?? token.term).toLowerCase()))
      if (!skip && !terms.includes(token.term)) {
        terms.push(token.term)
      }
    }
    const nq = terms.length
    const docCount = reader.docCount
    const out = { count: nq, ids: new Int32Array(nq), idfTiab: new Float64Array(nq), idfTitle: new Float64Array(nq), idfAbstract: new Float64Array(nq) }
    terms.forEach((term, q) => {
      let cached = idfCache.get(term)
      if (cached === undefined) {
        cached = [
          tiabFields.length === 0 ? 0 : idf(reader.docFreqAny(term, tiabFields), docCount),
          hasTitle ? idf(reader.docFreq('title', term), docCount) : 0,
          hasAbstract ? idf(reader.docFreq('abstract', term), docCount) : 0,
        ]
        if (idfCache.size >= IDF_CACHE_SIZE) {
          idfCache.clear()
        }
        idfCache.set(term, cached)
      }
      out.idfTiab[q] = cached[0]
      out.idfTitle[q] = cached[1]
      out.idfAbstract[q] = cached[2]
      out.ids[q] = forward.termId(term)
    })
    return out
  }
}

/** What one {@link Scanner.scan} counted. */
interface FieldPass {
  matches: number
  covered: number
  positionSum: number
  idfA: number
  idfB: number
}

/**
 * The token passes of the extractor, with their work state reused across calls (`extract` is
 * synchronous, so one call at a time).
 */
interface Scanner {
  /** Makes forward term `termId` the query's term `q` while a query is extracted. */
  readonly mark: (termId: number, q: number) => void
  /** Undoes {@link Scanner.mark} once the query is extracted. */
  readonly unmark: (termId: number) => void
  /** The last scan's counts. */
  readonly pass: FieldPass
  /**
   * One pass over a field's tokens of a document; `spanBase` ≥ 0 also records matches and flags
   * for spans (positions from `spanBase`; 0 starts a new document's spans). Returns the number of
   * stop-word tokens.
   */
  readonly scan: (field: ForwardField, doc: number, idfA: Float64Array, idfB: Float64Array, spanBase: number) => number
  /** Makes room for a query of `terms` terms. */
  readonly reserve: (terms: number) => void
  /** Writes the span features of the document's matches (recorded since the scan from position 0) into `out`. */
  readonly spans: (out: Float64Array) => void
}

/**
 * A {@link Scanner} over a forward store's token streams.
 * @param termCount - the forward store's distinct terms
 */
function createScanner(termCount: number): Scanner {
  // per forward term id: its query term index while a query is extracted, else −1
  const slot = new Int32Array(termCount).fill(-1)
  // a bit per term id modulo 2^16, set for the query's terms: read first, it fits where `slot` does not
  const filter = new Uint32Array(FILTER_MASK + 1)
  let seen = new Int32Array(16)
  let stamp = 0
  let matchPositions = new Int32Array(256)
  let matchTerms = new Int32Array(256)
  let flagBuffer = new Uint8Array(1024)
  const scratch = createSpanScratch(256)
  const pass: FieldPass = { matches: 0, covered: 0, positionSum: 0, idfA: 0, idfB: 0 }
  let spanCount = 0

  const scan = (field: ForwardField, doc: number, idfA: Float64Array, idfB: Float64Array, spanBase: number): number => {
    const start = field.offsets[doc]!
    const end = field.offsets[doc + 1]!
    const terms = field.terms
    const flags = field.flags
    stamp++
    if (stamp === 0x3fffffff) {
      seen.fill(0)
      stamp = 1
    }
    // the counts are summed in locals, in token order as before (the same floating-point sums)
    let stops = 0
    let matches = 0
    let covered = 0
    let positionSum = 0
    let sumA = 0
    let sumB = 0
    if (spanBase === 0) {
      spanCount = 0
    }
    if (spanBase >= 0) {
      if (flagBuffer.length < spanBase + end - start) {
        const grown = new Uint8Array(2 * (spanBase + end - start))
        grown.set(flagBuffer.subarray(0, spanBase))
        flagBuffer = grown
      }
      flagBuffer.set(flags.subarray(start, end), spanBase)
    }
    for (let k = start; k < end; k++) {
      stops += flags[k]! & 1
      const t = terms[k]!
      // most tokens are not query terms: a bit of `filter` (in the first-level cache) tells
      // before the larger `slot` is read
      if (t < 0 || (filter[(t >>> 5) & FILTER_MASK]! & (1 << (t & 31))) === 0) {
        continue
      }
      const q = slot[t]!
      if (q < 0) {
        continue
      }
      const i = k - start
      matches++
      positionSum += i
      sumA += idfA[q]!
      sumB += idfB[q]!
      if (seen[q] !== stamp) {
        seen[q] = stamp
        covered++
      }
      if (spanBase >= 0) {
        if (spanCount === matchPositions.length) {
          const positions = new Int32Array(2 * spanCount)
          positions.set(matchPositions)
          matchPositions = positions
          const ts = new Int32Array(2 * spanCount)
          ts.set(matchTerms)
          matchTerms = ts
        }
        matchPositions[spanCount] = spanBase + i
        matchTerms[spanCount] = q
        spanCount++
      }
    }
    pass.matches = matches
    pass.covered = covered
    pass.positionSum = positionSum
    pass.idfA = sumA
    pass.idfB = sumB
    return stops
  }

  return {
    mark: (termId, q) => {
      slot[termId] = q
      const word = (termId >>> 5) & FILTER_MASK
      filter[word] = filter[word]! | (1 << (termId & 31))
    },
    unmark: (termId) => {
      slot[termId] = -1
      // every bit set belongs to a term of the query being undone
      filter[(termId >>> 5) & FILTER_MASK] = 0
    },
    pass,
    scan,
    reserve: (terms) => {
      if (seen.length < terms) {
        seen = new Int32Array(2 * terms)
        stamp = 0
      }
    },
    spans: (out) => spanFeatures(matchPositions, matchTerms, spanCount, flagBuffer, out, 0, scratch),
  }
}

function oneHotColumns(values: readonly string[], first: number): Map<string, number> {
  const map = new Map<string, number>()
  values.forEach((value, i) => {
    map.set(value, first + i)
    map.set(value.toLowerCase(), first + i)
  })
  return map
}

/** Appends the one-hot columns of a document's values (those the registry lists) to `out`. */
function collectOneHot(out: number[], columns: ReadonlyMap<string, number>, values: readonly string[]): void {
  for (const value of values) {
    const column = columns.get(value) ?? columns.get(value.toLowerCase())
    if (column !== undefined) {
      out.push(column)
    }
  }
}
