/**
 * Section scoring (Yeganova et al. 2021): for a query token and an article, the score of section
 * type s is the largest BM25 of the token over the article's passages of type s (so a section's
 * size does not matter), with BM25 statistics of that section type (its passages, their mean
 * length, document frequencies among them). A PAV function per section turns a score into
 * P(relevant | score), then into log-odds against the prior; Sum LogOdds adds a token's section
 * log-odds, Max LogOdds takes the largest, and a query's score is the sum over its tokens. The
 * baselines are BM25 on the abstract alone and BM25 on abstract and body merged into one field.
 */
import { PubmatchError, SECTION_TYPES, type SectionType } from '@pubmatch/core'
import { NO_MORE_DOCS, sectionField, type IndexReader } from '@pubmatch/index'
import { ABSTRACT_FIELD, MERGED_FIELD, type FulltextIndex } from './fulltext-index.ts'
import { evaluatePav, fitPav, logOdds, type PavFunction, type PavPoint } from './pav.ts'

/** BM25's parameters. */
export interface Bm25Params {
  /** Defaults to `1.2`. */
  readonly k1?: number
  /** Defaults to `0.75`. */
  readonly b?: number
}

/**
 * BM25 of one term in one text: `idf · tf·(k1+1) / (tf + k1·(1 − b + b·len/avgLen))` with
 * `idf = ln(1 + (N − df + 0.5)/(df + 0.5))` (Lucene's).
 * @param input - N (texts), df (texts holding the term), tf, the text's length and the mean length
 * @param params - k1 and b
 */
export function bm25(input: { readonly n: number; readonly df: number; readonly tf: number; readonly length: number; readonly avgLength: number }, params: Bm25Params = {}): number {
  const k1 = params.k1 ?? 1.2
  const b = params.b ?? 0.75
  if (input.tf === 0) {
    return 0
  }
  const idf = Math.log(1 + (input.n - input.df + 0.5) / (input.df + 0.5))
  return (idf * input.tf * (k1 + 1)) / (input.tf + k1 * (1 - b + (b * input.length) / (input.avgLength || 1)))
}

/** The section scores of a query over the articles that hold any of its terms. */
export interface SectionScores {
  /** The query's distinct analysed terms. */
  readonly terms: readonly string[]
  /** Article document numbers (in the article index) holding at least one term in a scored section. */
  readonly articles: Int32Array
  /**
   * `scores[(t · articles.length + a) · 13 + s]`: the largest BM25 of term `t` over the passages
   * of section type `SECTION_TYPES[s]` of article `a` (0 when none holds it).
   */
  readonly scores: Float64Array
}

/**
 * The query's analysed terms, distinct, in order.
 * @param index - the full-text index (its analyzer)
 * @param query - the query text
 */
export function queryTerms(index: FulltextIndex, query: string): string[] {
  const analyzer = index.passages.analyzer(sectionField('ABSTRACT'))
  return [...new Set(analyzer.analyze(query).map((token) => token.term))]
}

/**
 * Per query term, article and section type: the largest per-section BM25 over the article's passages.
 * @param index - the full-text index
 * @param query - the query text
 * @param params - BM25's k1 and b
 * @param extra - articles to include even without any query term (e.g. the relevant ones, for training)
 */
export function sectionScores(index: FulltextIndex, query: string, params: Bm25Params = {}, extra: readonly number[] = []): SectionScores {
  const terms = queryTerms(index, query)
  const S = SECTION_TYPES.length
  const fields = SECTION_TYPES.map((type) => sectionField(type))
  // pass 1: which articles hold a term
  const position = new Map<number, number>()
  for (const doc of extra) {
    if (!position.has(doc)) {
      position.set(doc, position.size)
    }
  }
  const hits: Array<Array<{ s: number; passage: number; tf: number }>> = terms.map(() => [])
  for (const [t, term] of terms.entries()) {
    for (let s = 0; s < S; s++) {
      const cursor = index.passages.postings(fields[s]!, term)
      if (cursor === null) {
        continue
      }
      for (let doc = cursor.nextDoc(); doc !== NO_MORE_DOCS; doc = cursor.nextDoc()) {
        const article = index.passageArticle[doc]!
        if (article < 0 || !index.passages.isLive(doc)) {
          continue
        }
        if (!position.has(article)) {
          position.set(article, position.size)
        }
        hits[t]!.push({ s, passage: doc, tf: cursor.freq() })
      }
    }
  }
  const articles = Int32Array.from(position.keys())
  const scores = new Float64Array(terms.length * articles.length * S)
  for (const [t, term] of terms.entries()) {
    const dfs = fields.map((field) => index.passages.docFreq(field, term))
    for (const { s, passage, tf } of hits[t]!) {
      const a = position.get(index.passageArticle[passage]!)!
      const stats = index.sectionStats[s]!
      const value = bm25({ n: stats.passages, df: dfs[s]!, tf, length: index.passages.fieldLength(fields[s]!, passage), avgLength: stats.avgLength }, params)
      const at = (t * articles.length + a) * S + s
      if (value > scores[at]!) {
        scores[at] = value
      }
    }
  }
  return { terms, articles, scores }
}

/**
 * BM25 of a query over one field of the article index (the baselines), for the articles holding a term.
 * @param reader - the article index
 * @param field - `abstract` or `merged`
 * @param terms - analysed query terms
 * @param params - k1 and b
 */
export function fieldScores(reader: IndexReader, field: string, terms: readonly string[], params: Bm25Params = {}): Map<number, number> {
  const stats = reader.fieldStats(field)
  const n = stats.docsWithField
  const avgLength = n === 0 ? 0 : stats.sumLength / n
  const out = new Map<number, number>()
  for (const term of terms) {
    const cursor = reader.postings(field, term)
    if (cursor === null) {
      continue
    }
    const df = reader.docFreq(field, term)
    for (let doc = cursor.nextDoc(); doc !== NO_MORE_DOCS; doc = cursor.nextDoc()) {
      if (!reader.isLive(doc)) {
        continue
      }
      out.set(doc, (out.get(doc) ?? 0) + bm25({ n, df, tf: cursor.freq(), length: reader.fieldLength(field, doc), avgLength }, params))
    }
  }
  return out
}

/** The four ways to rank full texts. */
export type FulltextStrategy = 'sum-logodds' | 'max-logodds' | 'merged' | 'abstract'

/** The strategies, for option parsers. */
export const FULLTEXT_STRATEGIES: readonly FulltextStrategy[] = ['sum-logodds', 'max-logodds', 'merged', 'abstract']

/** PAV functions per section type and the prior they are measured against. */
export interface SectionModel {
  /** The share of positives in the training points. */
  readonly prior: number
  /** A function per section type that had training points. */
  readonly sections: Readonly<Partial<Record<SectionType, PavFunction>>>
}

/** A ranked article. */
export interface FulltextHit {
  /** Its document number in the article index. */
  readonly doc: number
  /** Its id (PMID, else PMCID). */
  readonly id: string
  readonly score: number
  readonly rank: number
}

/**
 * The log-odds of one term in one article: per section type the article has, `LO_s(score)`;
 * combined by sum or max.
 */
function termLogOdds(model: SectionModel, scores: Float64Array, at: number, mask: number, max: boolean): number {
  let out = max ? -Infinity : 0
  for (let s = 0; s < SECTION_TYPES.length; s++) {
    if ((mask & (1 << s)) === 0) {
      continue
    }
    const f = model.sections[SECTION_TYPES[s]!]
    if (f === undefined) {
      continue
    }
    const value = logOdds(evaluatePav(f, scores[at + s]!), model.prior)
    out = max ? Math.max(out, value) : out + value
  }
  return out === -Infinity ? 0 : out
}

/**
 * Ranks the articles of a full-text index for a query with one of the four strategies.
 * @param index - the full-text index
 * @param query - the query text
 * @param strategy - `sum-logodds`, `max-logodds` (need `model`), `merged` or `abstract`
 * @param options - the PAV model, how many hits, BM25 parameters
 * @throws PubmatchError `INVALID_ARGUMENT` for a log-odds strategy without a model
 */
export function rankFulltext(
  index: FulltextIndex,
  query: string,
  strategy: FulltextStrategy,
  options: { readonly model?: SectionModel; readonly limit?: number; readonly bm25?: Bm25Params } = {},
): FulltextHit[] {
  const limit = options.limit ?? 1000
  let scored: Array<[number, number]>
  if (strategy === 'merged' || strategy === 'abstract') {
    const terms = queryTerms(index, query)
    scored = [...fieldScores(index.articles, strategy === 'merged' ? MERGED_FIELD : ABSTRACT_FIELD, terms, options.bm25)]
  } else {
    const model = options.model
    if (model === undefined) {
      throw new PubmatchError('INVALID_ARGUMENT', `fulltext: ${strategy} needs PAV functions: train them with \`pubmatch fulltext train\``)
    }
    const sections = sectionScores(index, query, options.bm25)
    const A = sections.articles.length
    const S = SECTION_TYPES.length
    scored = Array.from(sections.articles, (doc, a) => {
      let total = 0
      for (let t = 0; t < sections.terms.length; t++) {
        total += termLogOdds(model, sections.scores, (t * A + a) * S, index.sectionMask[doc]!, strategy === 'max-logodds')
      }
      return [doc, total] as [number, number]
    })
  }
  scored.sort((x, y) => y[1] - x[1] || (index.articles.externalId(x[0]) < index.articles.externalId(y[0]) ? 1 : -1))
  return scored.slice(0, limit).map(([doc, score], i) => ({ doc, id: index.articles.externalId(doc), score, rank: i + 1 }))
}

/** A training query: its text and the ids of its relevant articles. */
export interface LabelledFulltextQuery {
  readonly text: string
  readonly relevant: ReadonlySet<string>
}

/**
 * The training points of each section type: for every query token and every article that holds a
 * query token (or is relevant), one point per section type the article has: (its score, relevant?).
 * @param index - the full-text index
 * @param queries - labelled queries
 * @param params - BM25's k1 and b
 */
export function trainingPoints(index: FulltextIndex, queries: readonly LabelledFulltextQuery[], params: Bm25Params = {}): Map<SectionType, PavPoint[]> {
  const points = new Map<SectionType, PavPoint[]>(SECTION_TYPES.map((type) => [type, []]))
  const S = SECTION_TYPES.length
  for (const query of queries) {
    const relevantDocs = [...query.relevant].map((id) => index.articles.docNumber(id)).filter((doc): doc is number => doc !== undefined)
    const sections = sectionScores(index, query.text, params, relevantDocs)
    const A = sections.articles.length
    for (let t = 0; t < sections.terms.length; t++) {
      for (let a = 0; a < A; a++) {
        const doc = sections.articles[a]!
        const y = query.relevant.has(index.articles.externalId(doc)) ? 1 : 0
        const mask = index.sectionMask[doc]!
        for (let s = 0; s < S; s++) {
          if ((mask & (1 << s)) !== 0) {
            points.get(SECTION_TYPES[s]!)!.push({ x: sections.scores[(t * A + a) * S + s]!, y })
          }
        }
      }
    }
  }
  return points
}

/**
 * Fits a PAV function per section type from labelled queries; the prior is the share of positives
 * among all points.
 * @param index - the full-text index
 * @param queries - labelled queries
 * @param params - BM25's k1 and b
 */
export function trainSectionModel(index: FulltextIndex, queries: readonly LabelledFulltextQuery[], params: Bm25Params = {}): SectionModel & { readonly points: number } {
  const points = trainingPoints(index, queries, params)
  let positives = 0
  let total = 0
  const sections: Partial<Record<SectionType, PavFunction>> = {}
  for (const [type, list] of points) {
    if (list.length === 0) {
      continue
    }
    sections[type] = fitPav(list)
    for (const point of list) {
      positives += point.y
      total += 1
    }
  }
  if (total === 0) {
    throw new PubmatchError('INVALID_ARGUMENT', 'fulltext: no training points: the queries match no article of the index')
  }
  return { prior: positives / total, sections, points: total }
}
