/**
 * Text features of screening candidates: each record becomes a sparse TF-IDF vector over its
 * analysed title and abstract words (the `biomedical` analyzer: Porter2 stems, PubMed stop words
 * dropped), optionally word bigrams, and its MeSH descriptors as whole-heading features
 * (`mesh:<descriptor>`). Weights are sublinear (`1 + ln tf`) times smoothed IDF
 * (`ln((1 + N)/(1 + df)) + 1`, scikit-learn's `TfidfVectorizer` default) over the candidates,
 * then each vector is L2-normalised; terms in fewer than `minDf` records are dropped.
 */
import { biomedicalAnalyzer, type Analyzer } from '@pubmatch/analysis'
import { abstractText, type Article } from '@pubmatch/core'

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
  const idf = names.map((name) => Math.log((1 + n) / (1 + df.get(name)!)) + 1)
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
