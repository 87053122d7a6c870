/**
 * Text features of screening candidates: each record becomes a sparse TF-IDF vector over its
 * analysed title and abstract words (the `biomedical` analyzer: Porter2 stems, PubMed stop words
 * dropped), optionally word bigrams, and its MeSH descriptors as whole-heading features
 * (`mesh:<descriptor>`). Weights are sublinear (`1 + ln tf`) times smoothed IDF
 * (`ln((1 + N)/(1 + df)) + 1`, scikit-learn's `TfidfVectorizer` default) over the candidates,
 * (MeSH features times `meshWeight`), then each vector is L2-normalised; terms in fewer than
 * `minDf` records are dropped.
 */
import { biomedicalAnalyzer, type Analyzer } from '@pubmatch/analysis'
import { abstractText, PubmatchError, type Article } from '@pubmatch/core'

/** A sparse vector: ascending feature ids with their weights. */
export interface SparseVector {
  readonly indices: Int32Array
  readonly values: Float64Array
}

/** The candidates' feature matrix. */
export interface FeatureMatrix {
  /** One row per candidate, in candidate order. */
  readonly rows: readonly SparseVector[]
  /** Feature id → name (`stem`, `stem stem` for bigrams, `mesh:Heading`). */
  readonly names: readonly string[]
}

/** Options of {@link buildFeatures}. */
export interface FeatureOptions {
  /** The analyzer. Defaults to `biomedicalAnalyzer()`. */
  readonly analyzer?: Analyzer
  /** Add word bigrams (adjacent analysed terms). Defaults to `false`. */
  readonly bigrams?: boolean
  /** Add MeSH descriptors as features. Defaults to `true`. */
  readonly mesh?: boolean
  /** Drop features in fewer records than this. Defaults to `2`. */
  readonly minDf?: number
  /** Drop features in more than this share of the records. Defaults to `1` (keep all). */
  readonly maxDf?: number
  /** Without `analyzer`: stem words (the default analyzer's Porter2). Defaults to `true`. */
  readonly stem?: boolean
  /** Without `analyzer`: drop PubMed stop words. Defaults to `true`. */
  readonly stopwords?: boolean
  /** Count each title term this many times. Defaults to `1`. */
  readonly titleWeight?: number
  /** Multiply the MeSH features' weights by this before the L2 normalisation. Defaults to `1`. */
  readonly meshWeight?: number
}

/** The raw feature counts of one article. */
export function articleTerms(article: Article, analyzer: Analyzer, bigrams: boolean, mesh: boolean, titleWeight = 1): Map<string, number> {
  const counts = new Map<string, number>()
  let weight = 1
  const add = (term: string): void => {
    counts.set(term, (counts.get(term) ?? 0) + weight)
  }
  for (const [field, text] of [article.title, abstractText(article)].entries()) {
    weight = field === 0 ? titleWeight : 1
    const tokens = analyzer.analyze(text)
    for (const [i, token] of tokens.entries()) {
      add(token.term)
      const next = tokens[i + 1]
      if (bigrams && next !== undefined) {
        add(`${token.term} ${next.term}`)
      }
    }
  }
  weight = 1
  if (mesh) {
    for (const heading of article.mesh) {
      add(`mesh:${heading.descriptorName.toLowerCase()}`)
    }
  }
  return counts
}

/**
 * The TF-IDF matrix of a review's candidates.
 * @param articles - the candidates
 * @param options - see {@link FeatureOptions}
 */
export function buildFeatures(articles: readonly Article[], options: FeatureOptions = {}): FeatureMatrix {
  const analyzer = options.analyzer ?? biomedicalAnalyzer({ stem: options.stem ?? true, stopwords: options.stopwords ?? true })
  const minDf = options.minDf ?? 2
  const maxDf = (options.maxDf ?? 1) * articles.length
  const counts = articles.map((article) => articleTerms(article, analyzer, options.bigrams ?? false, options.mesh ?? true, options.titleWeight ?? 1))
  const df = new Map<string, number>()
  for (const doc of counts) {
    for (const term of doc.keys()) {
      df.set(term, (df.get(term) ?? 0) + 1)
    }
  }
  const names = [...df].filter(([, n]) => n >= minDf && n <= maxDf).map(([term]) => term).sort()
  const ids = new Map(names.map((name, i) => [name, i]))
  const n = articles.length
  const meshWeight = options.meshWeight ?? 1
  if (!(meshWeight > 0 && Number.isFinite(meshWeight))) {
    throw new PubmatchError('INVALID_ARGUMENT', `feature option meshWeight must be a positive number, got ${meshWeight}`)
  }
  // the idf, times meshWeight for MeSH features
  const idf = names.map((name) => (Math.log((1 + n) / (1 + df.get(name)!)) + 1) * (name.startsWith('mesh:') ? meshWeight : 1))
  const rows = counts.map((doc) => {
    const entries: Array<[number, number]> = []
    for (const [term, tf] of doc) {
      const id = ids.get(term)
      if (id !== undefined) {
        entries.push([id, (1 + Math.log(tf)) * idf[id]!])
      }
    }
    entries.sort((a, b) => a[0] - b[0])
    const norm = Math.sqrt(entries.reduce((sum, [, w]) => sum + w * w, 0)) || 1
    return { indices: Int32Array.from(entries, ([id]) => id), values: Float64Array.from(entries, ([, w]) => w / norm) }
  })
  return { rows, names }
}

/** Rows for a linear model after {@link foldSingletons}. */
export interface FoldedRows {
  /** One row per candidate, in candidate order. */
  readonly rows: readonly SparseVector[]
  /** The feature count: the matrix's features, then one per row (feature `names.length + i` is row `i`'s). */
  readonly features: number
}

/**
 * The rows with each row's features that no other row has (document frequency 1) folded into one
 * feature of that row, `names.length + i` for row `i`, weighing the L2 norm of what it replaces.
 *
 * For a linear model with L2 regularisation fitted on some of the rows, this changes no score (in
 * exact arithmetic):
 * such a feature only ever meets its own row, so at any L2 optimum (and at every step of gradient
 * descent from zero) the weights of a row's singleton features are proportional to their values;
 * one feature with value `‖x_S‖` spans the same contributions `u·‖x_S‖` at the same penalty, and
 * the row keeps its norm. What it saves is the entries and distinct features a fit goes through:
 * with `minDf` 1 and word bigrams, most of a record's bigrams are its own.
 * @param matrix - the candidates' features
 */
export function foldSingletons(matrix: FeatureMatrix): FoldedRows {
  const features = matrix.names.length
  const df = new Int32Array(features)
  for (const row of matrix.rows) {
    for (let k = 0; k < row.indices.length; k++) {
      df[row.indices[k]!]!++
    }
  }
  const rows = matrix.rows.map((row, i): SparseVector => {
    let singles = 0
    let squares = 0
    for (let k = 0; k < row.indices.length; k++) {
      if (df[row.indices[k]!] === 1) {
        singles++
        squares += row.values[k]! * row.values[k]!
      }
    }
    if (singles === 0) {
      return row
    }
    const kept = row.indices.length - singles
    const indices = new Int32Array(kept + 1)
    const values = new Float64Array(kept + 1)
    let at = 0
    for (let k = 0; k < row.indices.length; k++) {
      if (df[row.indices[k]!] !== 1) {
        indices[at] = row.indices[k]!
        values[at] = row.values[k]!
        at++
      }
    }
    indices[kept] = features + i
    values[kept] = Math.sqrt(squares)
    return { indices, values }
  })
  return { rows, features: features + matrix.rows.length }
}
