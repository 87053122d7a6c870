/**
 * Section scoring (Yeganova et al. 2021): for a query token and an article, the score of section
 * type s is the largest BM25 of the token over the article's passages of type s (so a section's
 * size does not matter), with BM25 statistics of that section type (its passages, their mean
 * length, document frequencies among them). A PAV function per section turns a score into
 * P(relevant | score), then into log-odds against the prior; Sum LogOdds adds a token's section
 * log-odds, Max LogOdds takes the largest, and a query's score is the sum over its tokens. The
 * baselines are BM25 on the abstract alone and BM25 on abstract and body merged into one field.
 */
import { bm25LengthNorm, lucene6Bm25, luceneIdf } from '@pubmatch/bm25f/internal'
import { PubmatchError, SECTION_TYPES, type SectionType } from '@pubmatch/core'
import type { IndexReader, IndexTermEntry } from '@pubmatch/index'
import { NO_MORE_DOCS, TermMerge, sectionField } from '@pubmatch/index/internal'
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
 * `idf = ln(1 + (N − df + 0.5)/(df + 0.5))` (Lucene's): `lucene6Bm25` and `luceneIdf` of
 * `@pubmatch/bm25f`, which the section scores use too.
 * @param input - N (texts), df (texts holding the term), tf, the text's length and the mean length
 * @param params - k1 and b
 */
export function bm25(input: { readonly n: number; readonly df: number; readonly tf: number; readonly length: number; readonly avgLength: number }, params: Bm25Params = {}): number {
  const k1 = params.k1 ?? 1.2
  const b = params.b ?? 0.75
  if (input.tf === 0) {
    return 0
  }
  return lucene6Bm25(luceneIdf(input.n, input.df), input.tf, k1, bm25LengthNorm(k1, b, (b * input.length) / (input.avgLength || 1)))
}

/** The section scores of a query over the articles that hold any of its terms. */
export interface SectionScores {
  /** The query's distinct analysed terms. */
  readonly terms: readonly string[]
  /** Article document numbers (in the article index) holding at least one term in a scored section, then any `extra` ones. */
  readonly articles: Int32Array
  /**
   * The non-zero scores, one entry per (term, article, section type) with a passage holding the
   * term, grouped by term in order: entry `i` is the largest BM25 `score[i]` of term
   * `terms[term[i]]` over the passages of section type `SECTION_TYPES[section[i]]` of article
   * `articles[article[i]]`. Every other (term, article, section) scores 0.
   */
  readonly entries: { readonly term: Int32Array; readonly article: Int32Array; readonly section: Uint8Array; readonly score: Float64Array }
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

/** Per-index scratch arrays, sized to the article index (scoring is synchronous, so one set per index suffices). */
interface Scratch {
  /** Per article: its position in the current query's `articles`, or -1. */
  readonly slot: Int32Array
  /** Per article: the epoch of the (term, section) pass that last saw it, and that pass's entry for it. */
  readonly seen: Int32Array
  readonly entry: Int32Array
  epoch: number
}

const scratches = new WeakMap<FulltextIndex, Scratch>()

function scratchFor(index: FulltextIndex): Scratch {
  let scratch = scratches.get(index)
  if (scratch === undefined || scratch.slot.length < index.articles.maxDoc) {
    const n = index.articles.maxDoc
    scratch = { slot: new Int32Array(n).fill(-1), seen: new Int32Array(n), entry: new Int32Array(n), epoch: 0 }
    scratches.set(index, scratch)
  }
  if (scratch.epoch > 0x3fffffff) {
    scratch.seen.fill(0)
    scratch.epoch = 0
  }
  return scratch
}

/**
 * Per query term, article and section type: the largest per-section BM25 over the article's
 * passages (sparse: only the non-zero ones).
 * @param index - the full-text index
 * @param query - the query text
 * @param params - BM25's k1 and b
 * @param extra - articles to include even without any query term (e.g. the relevant ones, for training)
 */
export function sectionScores(index: FulltextIndex, query: string, params: Bm25Params = {}, extra: readonly number[] = []): SectionScores {
  const k1 = params.k1 ?? 1.2
  const b = params.b ?? 0.75
  const terms = queryTerms(index, query)
  const S = SECTION_TYPES.length
  const scratch = scratchFor(index)
  const { slot, seen, entry } = scratch
  const articles: number[] = []
  const entryTerm: number[] = []
  const entryArticle: number[] = []
  const entrySection: number[] = []
  const entryScore: number[] = []
  try {
    for (const doc of extra) {
      if (doc >= 0 && doc < slot.length && slot[doc] === -1) {
        slot[doc] = articles.length
        articles.push(doc)
      }
    }
    for (const [t, term] of terms.entries()) {
      for (let s = 0; s < S; s++) {
        const field = sectionField(SECTION_TYPES[s]!)
        const cursor = index.passages.postings(field, term)
        if (cursor === null) {
          continue
        }
        const stats = index.sectionStats[s]!
        const df = index.passages.docFreq(field, term)
        const idf = luceneIdf(stats.passages, df)
        const lengths = index.passages.fieldLengths(field)
        const lengthNorm = b / (stats.avgLength || 1)
        const epoch = ++scratch.epoch
        for (let doc = cursor.nextDoc(); doc !== NO_MORE_DOCS; doc = cursor.nextDoc()) {
          const article = index.passageArticle[doc]!
          if (article < 0 || !index.passages.isLive(doc)) {
            continue
          }
          const tf = cursor.freq()
          const value = tf === 0 ? 0 : lucene6Bm25(idf, tf, k1, bm25LengthNorm(k1, b, lengthNorm * lengths[doc]!))
          if (seen[article] === epoch) {
            const at = entry[article]!
            if (value > entryScore[at]!) {
              entryScore[at] = value
            }
            continue
          }
          seen[article] = epoch
          entry[article] = entryScore.length
          if (slot[article] === -1) {
            slot[article] = articles.length
            articles.push(article)
          }
          entryTerm.push(t)
          entryArticle.push(slot[article]!)
          entrySection.push(s)
          entryScore.push(value)
        }
      }
    }
  } finally {
    for (const article of articles) {
      slot[article] = -1
    }
  }
  return {
    terms,
    articles: Int32Array.from(articles),
    entries: { term: Int32Array.from(entryTerm), article: Int32Array.from(entryArticle), section: Uint8Array.from(entrySection), score: Float64Array.from(entryScore) },
  }
}

/**
 * The section scores of one term and article, dense: `out[s]` for `SECTION_TYPES[s]`.
 * @param sections - what `sectionScores` returned
 * @param t - the term's index in `sections.terms`
 * @param a - the article's index in `sections.articles`
 */
export function termSectionScores(sections: SectionScores, t: number, a: number): Float64Array {
  const out = new Float64Array(SECTION_TYPES.length)
  const { term, article, section, score } = sections.entries
  for (let i = 0; i < score.length; i++) {
    if (term[i] === t && article[i] === a) {
      out[section[i]!] = score[i]!
    }
  }
  return out
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

function grow<T extends Int32Array | Float64Array>(from: T, to: T): T {
  to.set(from)
  return to
}

/**
 * A section model applied to every term of a full-text index once, so that a query only reads one
 * list per term (like BM25 over one field) instead of a passage list per term and section type and
 * a PAV lookup per entry. Built by {@link compileSectionModel}; in memory, 20 bytes per (term,
 * article) pair.
 */
export interface CompiledSectionModel {
  /** The index it was compiled for (it holds that index's document numbers). */
  readonly index: FulltextIndex
  readonly model: SectionModel
  readonly bm25: Required<Bm25Params>
  /** Per article: what a query term worth nothing in it adds (Σ, resp. max, of `LO_s(0)` over its modelled sections). */
  readonly baseSum: Float64Array
  readonly baseMax: Float64Array
  /** Per term: its number; its pairs are `articles`, `sum`, `max` from `offsets[n]` to `offsets[n + 1]`. */
  readonly terms: ReadonlyMap<string, number>
  readonly offsets: Int32Array
  /** Per (term, article) pair: the article's document number. */
  readonly articles: Int32Array
  /** Per pair: Σ over the article's section types holding the term of `LO_s(score) − LO_s(0)` (Sum LogOdds). */
  readonly sum: Float64Array
  /** Per pair: the largest `LO_s(score)` over the sections holding the term (Max LogOdds). */
  readonly max: Float64Array
  /** (term, article) pairs held. */
  readonly pairs: number
  /** How long compiling took, in ms. */
  readonly millis: number
}

const compiled = new WeakMap<FulltextIndex, WeakMap<SectionModel, CompiledSectionModel>>()

/**
 * Applies a section model to a full-text index: for every term and article, its Sum and Max
 * LogOdds shares (the per-section BM25 as in {@link sectionScores}, through each section's PAV
 * function, as log-odds against the prior). `rankFulltext` compiles on first use and keeps the
 * result for the index and model; call this ahead (e.g. when a server opens an index) to keep that
 * cost off the first query.
 * @param index - the full-text index
 * @param model - PAV functions and prior
 * @param params - BM25's k1 and b
 */
export function compileSectionModel(index: FulltextIndex, model: SectionModel, params: Bm25Params = {}): CompiledSectionModel {
  const k1 = params.k1 ?? 1.2
  const b = params.b ?? 0.75
  let forIndex = compiled.get(index)
  const cached = forIndex?.get(model)
  if (cached !== undefined && cached.bm25.k1 === k1 && cached.bm25.b === b) {
    return cached
  }
  const started = performance.now()
  const sections = modelledSections(model)
  const { baseSum, baseMax } = baseLogOdds(index, sections)
  const pairs = new PairCompiler(index, model, sections, k1, b)
  // the modelled section types' term lists, merged in term order (each list is sorted)
  const merge = new TermMerge<IndexTermEntry>(sections.modelled.map((s) => index.passages.terms(sectionField(SECTION_TYPES[s]!))[Symbol.iterator]()))
  while (merge.next()) {
    for (let i = 0; i < merge.count; i++) {
      pairs.addSection(merge.term, merge.entries[i]!.docFreq, sections.modelled[merge.sources[i]!]!)
    }
    pairs.endTerm(merge.term)
  }
  const out: CompiledSectionModel = {
    index,
    model,
    bm25: { k1, b },
    baseSum,
    baseMax,
    ...pairs.result(),
    millis: performance.now() - started,
  }
  if (forIndex === undefined) {
    forIndex = new WeakMap()
    compiled.set(index, forIndex)
  }
  forIndex.set(model, out)
  return out
}

/** A section model's PAV function per section type, and what a score of 0 is worth in each. */
interface ModelledSections {
  /** Per section type (`SECTION_TYPES` order): its PAV function, or `null` when the model has none. */
  readonly functions: readonly (PavFunction | null)[]
  /** Per section type: `LO_s(0)`, the log-odds of a section without the term (0 when unmodelled). */
  readonly zero: readonly number[]
  /** Bit s set when section type s has a function. */
  readonly mask: number
  /** The modelled section types, ascending. */
  readonly modelled: readonly number[]
}

function modelledSections(model: SectionModel): ModelledSections {
  const functions = SECTION_TYPES.map((type) => model.sections[type] ?? null)
  return {
    functions,
    zero: functions.map((f) => (f === null ? 0 : logOdds(evaluatePav(f, 0), model.prior))),
    mask: functions.reduce((bits, f, s) => (f === null ? bits : bits | (1 << s)), 0),
    modelled: functions.flatMap((f, s) => (f === null ? [] : [s])),
  }
}

/** Per article: what a query term in none of its sections adds, Σ (Sum) and max (Max) of `LO_s(0)` over its modelled sections. */
function baseLogOdds(index: FulltextIndex, sections: ModelledSections): { baseSum: Float64Array; baseMax: Float64Array } {
  const S = SECTION_TYPES.length
  const maxDoc = index.articles.maxDoc
  const baseSum = new Float64Array(maxDoc)
  const baseMax = new Float64Array(maxDoc).fill(-Infinity)
  for (let a = 0; a < maxDoc; a++) {
    const mask = index.sectionMask[a]! & sections.mask
    for (let s = 0; s < S; s++) {
      if ((mask & (1 << s)) !== 0) {
        baseSum[a]! += sections.zero[s]!
        baseMax[a] = Math.max(baseMax[a]!, sections.zero[s]!)
      }
    }
  }
  return { baseSum, baseMax }
}

/**
 * Collects the (term, article) pairs of a compiled model, one term at a time in term order: per
 * section type holding the term, each article's largest BM25 through the section's PAV function
 * (`addSection`), then the term's Sum and Max shares per article (`endTerm`).
 */
class PairCompiler {
  private readonly index: FulltextIndex
  private readonly prior: number
  private readonly sections: ModelledSections
  private readonly k1: number
  private readonly b: number
  /** Per section type: its field in the passage index, and its passages' lengths (modelled types only). */
  private readonly fields: readonly string[]
  private readonly lengths: readonly (Uint32Array | null)[]
  /** Per article: the largest BM25 of the current (term, section). */
  private readonly best: Float64Array
  /** Per article: the current term's Sum and Max shares so far. */
  private readonly sumAcc: Float64Array
  private readonly maxAcc: Float64Array
  /** The articles with a `best`, resp. with shares, for the current (term, section), resp. term. */
  private readonly inSection: number[] = []
  private readonly inTerm: number[] = []
  private readonly terms = new Map<string, number>()
  private readonly offsets: number[] = [0]
  private pairs = 0
  private articles = new Int32Array(1 << 16)
  private sums = new Float64Array(1 << 16)
  private maxes = new Float64Array(1 << 16)

  constructor(index: FulltextIndex, model: SectionModel, sections: ModelledSections, k1: number, b: number) {
    this.index = index
    this.prior = model.prior
    this.sections = sections
    this.k1 = k1
    this.b = b
    this.fields = SECTION_TYPES.map((type) => sectionField(type))
    this.lengths = this.fields.map((field, s) => ((sections.mask & (1 << s)) !== 0 ? index.passages.fieldLengths(field) : null))
    const maxDoc = index.articles.maxDoc
    this.best = new Float64Array(maxDoc)
    this.sumAcc = new Float64Array(maxDoc)
    this.maxAcc = new Float64Array(maxDoc).fill(-Infinity)
  }

  /** Adds the term's passages of section type `s` (`docFreq` of them in the index). */
  addSection(term: string, docFreq: number, s: number): void {
    const { index, k1, b, best, inSection } = this
    const cursor = index.passages.postings(this.fields[s]!, term)
    if (cursor === null) {
      return
    }
    const stats = index.sectionStats[s]!
    const idf = luceneIdf(stats.passages, docFreq)
    const lengthNorm = b / (stats.avgLength || 1)
    const sectionLengths = this.lengths[s]!
    for (let doc = cursor.nextDoc(); doc !== NO_MORE_DOCS; doc = cursor.nextDoc()) {
      const article = index.passageArticle[doc]!
      if (article < 0 || !index.passages.isLive(doc)) {
        continue
      }
      const tf = cursor.freq()
      const value = tf === 0 ? 0 : lucene6Bm25(idf, tf, k1, bm25LengthNorm(k1, b, lengthNorm * sectionLengths[doc]!))
      if (value <= 0) {
        continue
      }
      if (best[article] === 0) {
        inSection.push(article)
      }
      if (value > best[article]!) {
        best[article] = value
      }
    }
    const f = this.sections.functions[s]!
    const zero = this.sections.zero[s]!
    const { sumAcc, maxAcc, inTerm } = this
    for (const article of inSection) {
      const lo = logOdds(evaluatePav(f, best[article]!), this.prior)
      best[article] = 0
      if (maxAcc[article] === -Infinity) {
        inTerm.push(article)
      }
      sumAcc[article]! += lo - zero
      maxAcc[article] = Math.max(maxAcc[article]!, lo)
    }
    inSection.length = 0
  }

  /** Stores the term's pairs, if any article holds it in a modelled section. */
  endTerm(term: string): void {
    const { inTerm, sumAcc, maxAcc } = this
    if (inTerm.length === 0) {
      return
    }
    if (this.pairs + inTerm.length > this.articles.length) {
      const size = Math.max(this.articles.length * 2, this.pairs + inTerm.length)
      this.articles = grow(this.articles, new Int32Array(size))
      this.sums = grow(this.sums, new Float64Array(size))
      this.maxes = grow(this.maxes, new Float64Array(size))
    }
    const { articles, sums, maxes } = this
    let pairs = this.pairs
    for (const article of inTerm) {
      articles[pairs] = article
      sums[pairs] = sumAcc[article]!
      maxes[pairs] = maxAcc[article]!
      pairs += 1
      sumAcc[article] = 0
      maxAcc[article] = -Infinity
    }
    this.pairs = pairs
    inTerm.length = 0
    this.terms.set(term, this.offsets.length - 1)
    this.offsets.push(pairs)
  }

  result(): Pick<CompiledSectionModel, 'terms' | 'offsets' | 'articles' | 'sum' | 'max' | 'pairs'> {
    const pairs = this.pairs
    return {
      terms: this.terms,
      offsets: Int32Array.from(this.offsets),
      articles: this.articles.slice(0, pairs),
      sum: this.sums.slice(0, pairs),
      max: this.maxes.slice(0, pairs),
      pairs,
    }
  }
}

/**
 * Per article holding a query term, the query's Sum or Max LogOdds: a term's value in an article
 * is the sum (or the maximum) of `LO_s(score)` over the section types s the article has and the
 * model knows; a section without the term scores 0, so it adds `LO_s(0)`; a query's score is the
 * sum over its terms.
 */
function compiledLogOdds(index: FulltextIndex, model: CompiledSectionModel, terms: readonly string[], max: boolean): Array<[number, number]> {
  const scratch = scratchFor(index)
  const { slot } = scratch
  const articles: number[] = []
  const totals: number[] = []
  const T = terms.length
  try {
    const { articles: list, sum, max: maxLo } = model
    for (const term of terms) {
      const n = model.terms.get(term)
      if (n === undefined) {
        continue
      }
      for (let i = model.offsets[n]!, end = model.offsets[n + 1]!; i < end; i++) {
        const article = list[i]!
        let at = slot[article]!
        if (at === -1) {
          at = articles.length
          slot[article] = at
          articles.push(article)
          totals.push(T * (max ? model.baseMax[article]! : model.baseSum[article]!))
        }
        // Max: LO_s is non-decreasing, so the term's maximum is the larger of its best section
        // holding it and the best LO_s(0) of the others (an entry implies a modelled section, so baseMax is finite)
        totals[at]! += max ? Math.max(model.baseMax[article]!, maxLo[i]!) - model.baseMax[article]! : sum[i]!
      }
    }
  } finally {
    for (const article of articles) {
      slot[article] = -1
    }
  }
  return articles.map((article, at) => [article, totals[at]!])
}

/**
 * The same scores from a query's section scores, without a compiled model: a PAV lookup per
 * non-zero (term, article, section), plus `LO_s(0)` for the sections without the term.
 */
function sectionLogOdds(index: FulltextIndex, model: SectionModel, sections: SectionScores, max: boolean): Array<[number, number]> {
  const S = SECTION_TYPES.length
  const A = sections.articles.length
  const T = sections.terms.length
  const { functions, zero, mask: modelMask } = modelledSections(model)
  const { term, article, section, score } = sections.entries
  // what a term adds in an article where it is in none of its sections
  const base = new Float64Array(A)
  for (let a = 0; a < A; a++) {
    const mask = index.sectionMask[sections.articles[a]!]! & modelMask
    let value = max ? -Infinity : 0
    for (let s = 0; s < S; s++) {
      if ((mask & (1 << s)) !== 0) {
        value = max ? Math.max(value, zero[s]!) : value + zero[s]!
      }
    }
    base[a] = value
  }
  const total = new Float64Array(A)
  if (max) {
    // LO_s is non-decreasing: a term's maximum is the larger of its best section holding it and
    // the best LO_s(0) of the article's other sections
    const best = new Float64Array(T * A)
    for (let t = 0; t < T; t++) {
      best.set(base, t * A)
    }
    for (let i = 0; i < score.length; i++) {
      const f = functions[section[i]!]
      if (f !== null && f !== undefined) {
        const at = term[i]! * A + article[i]!
        best[at] = Math.max(best[at]!, logOdds(evaluatePav(f, score[i]!), model.prior))
      }
    }
    for (let t = 0; t < T; t++) {
      for (let a = 0; a < A; a++) {
        const value = best[t * A + a]!
        total[a]! += value === -Infinity ? 0 : value
      }
    }
  } else {
    for (let a = 0; a < A; a++) {
      total[a] = T * base[a]!
    }
    for (let i = 0; i < score.length; i++) {
      const s = section[i]!
      const f = functions[s]
      if (f !== null && f !== undefined) {
        total[article[i]!]! += logOdds(evaluatePav(f, score[i]!), model.prior) - zero[s]!
      }
    }
  }
  // as the compiled form: only articles holding a term in a section the model knows
  const held = new Uint8Array(A)
  for (let i = 0; i < score.length; i++) {
    if (functions[section[i]!] !== null) {
      held[article[i]!] = 1
    }
  }
  return Array.from(sections.articles, (doc, a) => [doc, total[a]!] as [number, number]).filter((_, a) => held[a] === 1)
}

/**
 * Ranks the articles of a full-text index for a query with one of the four strategies. The
 * log-odds strategies rank the articles holding a query term in a section the model knows; with a
 * model from {@link compileSectionModel} a query reads one list per term (for servers), with a
 * plain model it scores the query's section scores directly (no start-up cost: for one-off queries).
 * @param index - the full-text index
 * @param query - the query text
 * @param strategy - `sum-logodds`, `max-logodds` (need `model`), `merged` or `abstract`
 * @param options - the PAV model (plain or compiled for this index), how many hits, BM25 parameters
 * @throws PubmatchError `INVALID_ARGUMENT` for a log-odds strategy without a model, or with a
 *   compiled model and other BM25 parameters than it was compiled with
 */
export function rankFulltext(
  index: FulltextIndex,
  query: string,
  strategy: FulltextStrategy,
  options: { readonly model?: SectionModel | CompiledSectionModel; readonly limit?: number; readonly bm25?: Bm25Params } = {},
): FulltextHit[] {
  const limit = options.limit ?? 1000
  let scored: Array<[number, number]>
  if (strategy === 'merged' || strategy === 'abstract') {
    const terms = queryTerms(index, query)
    scored = [...fieldScores(index.articles, strategy === 'merged' ? MERGED_FIELD : ABSTRACT_FIELD, terms, options.bm25)]
  } else {
    const model = options.model
    if (model === undefined) {
      throw new PubmatchError('INVALID_ARGUMENT', `${strategy} needs PAV functions (a section model): train them with \`trainSectionModel\` (\`pubmatch fulltext train\`)`)
    }
    const max = strategy === 'max-logodds'
    if ('offsets' in model && model.index !== index) {
      throw new PubmatchError('INVALID_ARGUMENT', `the section model was compiled for the index in ${model.index.dir}, not this one (${index.dir})`)
    }
    if ('offsets' in model && ((options.bm25?.k1 ?? 1.2) !== model.bm25.k1 || (options.bm25?.b ?? 0.75) !== model.bm25.b)) {
      throw new PubmatchError('INVALID_ARGUMENT', `the compiled section model has k1 ${model.bm25.k1}, b ${model.bm25.b}; compile it again for other BM25 parameters`)
    }
    scored =
      'offsets' in model
        ? compiledLogOdds(index, model, queryTerms(index, query), max)
        : sectionLogOdds(index, model, sectionScores(index, query, options.bm25), max)
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
    const labels = Array.from(sections.articles, (doc) => (query.relevant.has(index.articles.externalId(doc)) ? 1 : 0))
    const lists = SECTION_TYPES.map((type) => points.get(type)!)
    const dense = new Float64Array(A * S)
    const { term, article, section, score } = sections.entries
    let i = 0
    for (let t = 0; t < sections.terms.length; t++) {
      dense.fill(0)
      for (; i < score.length && term[i] === t; i++) {
        dense[article[i]! * S + section[i]!] = score[i]!
      }
      for (let a = 0; a < A; a++) {
        const mask = index.sectionMask[sections.articles[a]!]!
        for (let s = 0; s < S; s++) {
          if ((mask & (1 << s)) !== 0) {
            lists[s]!.push({ x: dense[a * S + s]!, y: labels[a]! })
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
    throw new PubmatchError('INVALID_ARGUMENT', 'no training points: the queries match no article of the index')
  }
  return { prior: positives / total, sections, points: total }
}
