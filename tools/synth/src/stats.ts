import { abstractText, type Article } from '@pubmatch/core'
import { mean, quantile } from './distributions.ts'
import { FUNCTION_WORDS, tokenTerms } from './text.ts'
import { fitHeaps, fitZipfMandelbrot } from './zipf.ts'

/** Mean and quantiles of a quantity. */
export interface Summary {
  mean: number
  p10: number
  p50: number
  p90: number
}

/**
 * The main statistics of a corpus, measured the same way on the real sample and on generated
 * corpora (lengths in tokens of {@link tokenTerms}).
 */
export interface CorpusStatistics {
  articles: number
  titleTokens: Summary
  /** Share of articles with an abstract. */
  abstractShare: number
  /** Over articles with an abstract. */
  abstractTokens: Summary
  /** Share of abstracts with labelled sections. */
  structuredShare: number
  authors: Summary
  /** Share of articles with MeSH headings. */
  meshShare: number
  /** Headings per article, over articles with MeSH. */
  meshHeadings: Summary
  /** Qualifiers per heading. */
  qualifiersPerHeading: number
  /** Share of headings with a major-topic flag on the descriptor or a qualifier. */
  majorHeadingShare: number
  keywordShare: number
  /** Keywords per article, over articles with keywords. */
  keywords: Summary
  /** Share of articles in English. */
  englishShare: number
  /** Share with a DOI. */
  doiShare: number
  /** Abstract tokens and distinct abstract terms. */
  abstractVocabulary: { tokens: number; types: number }
  /** Zipf–Mandelbrot fit of abstract term counts over the top `ranks` ranks. */
  zipf: { s: number; q: number; ranks: number }
  /** Heaps' law fit of abstract terms in corpus order. */
  heaps: { k: number; beta: number }
  /** Share of function words (PubMed stop words) among title and abstract tokens. */
  functionShare: { title: number; abstract: number }
  /** Share of title content tokens that occur in the same article's abstract. */
  titleInAbstractShare: number
  /** Share of abstract content tokens that repeat an earlier content token of the same abstract. */
  repeatShare: number
}

/** Options of {@link corpusStatistics}. */
export interface StatisticsOptions {
  /** Ranks of the Zipf fit. Defaults to the types seen ≥ 5 times. */
  zipfRanks?: number
  /** Record a Heaps point every this many abstract tokens. Defaults to `2000`. */
  heapsStep?: number
  /** Called with each Heaps point `[tokens, types]`. */
  onHeapsPoint?: (tokens: number, types: number) => void
}

/**
 * The summary of a quantity.
 * @param values - numbers; an empty list gives `NaN`s
 */
export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b)
  return {
    mean: mean(sorted),
    p10: quantile(sorted, 0.1),
    p50: quantile(sorted, 0.5),
    p90: quantile(sorted, 0.9),
  }
}

/**
 * Measures a corpus (real or synthetic) in one pass.
 * @param articles - the articles
 * @param options - see {@link StatisticsOptions}
 */
export async function corpusStatistics(
  articles: AsyncIterable<Article> | Iterable<Article>,
  options: StatisticsOptions = {},
): Promise<CorpusStatistics> {
  const heapsStep = options.heapsStep ?? 2000
  const titleLengths: number[] = []
  const abstractLengths: number[] = []
  const authors: number[] = []
  const meshCounts: number[] = []
  const keywordCounts: number[] = []
  let n = 0
  let structured = 0
  let headings = 0
  let qualifiers = 0
  let majorHeadings = 0
  let english = 0
  let doi = 0
  let titleTokens = 0
  let titleFunction = 0
  let abstractTokens = 0
  let abstractFunction = 0
  let titleContentWithAbstract = 0
  let titleContentInAbstract = 0
  let abstractContent = 0
  let abstractRepeats = 0
  const counts = new Map<string, number>()
  const heapsPoints: [number, number][] = []
  for await (const article of articles) {
    n++
    const title = tokenTerms(article.title)
    titleLengths.push(title.length)
    authors.push(article.authors.length)
    if (article.mesh.length > 0) {
      meshCounts.push(article.mesh.length)
      for (const heading of article.mesh) {
        headings++
        qualifiers += heading.qualifiers.length
        if (heading.majorTopic || heading.qualifiers.some((q) => q.majorTopic)) {
          majorHeadings++
        }
      }
    }
    if (article.keywords.length > 0) {
      keywordCounts.push(article.keywords.length)
    }
    if (article.languages.includes('eng')) {
      english++
    }
    if (article.articleIds.some((id) => id.type === 'doi')) {
      doi++
    }
    const body = article.abstract.length > 0 ? tokenTerms(abstractText(article)) : []
    const seen = new Set<string>()
    if (body.length > 0) {
      abstractLengths.push(body.length)
      if (article.abstract.some((section) => section.label !== undefined)) {
        structured++
      }
      for (const term of body) {
        abstractTokens++
        counts.set(term, (counts.get(term) ?? 0) + 1)
        if (abstractTokens % heapsStep === 0) {
          heapsPoints.push([abstractTokens, counts.size])
          options.onHeapsPoint?.(abstractTokens, counts.size)
        }
        if (FUNCTION_WORDS.has(term)) {
          abstractFunction++
        } else {
          abstractContent++
          if (seen.has(term)) {
            abstractRepeats++
          } else {
            seen.add(term)
          }
        }
      }
    }
    for (const term of title) {
      titleTokens++
      if (FUNCTION_WORDS.has(term)) {
        titleFunction++
      } else if (body.length > 0) {
        titleContentWithAbstract++
        if (seen.has(term)) {
          titleContentInAbstract++
        }
      }
    }
  }
  const ranked = [...counts.values()].sort((a, b) => b - a)
  const zipf =
    ranked.length >= 3
      ? fitZipfMandelbrot(
          ranked,
          options.zipfRanks === undefined ? {} : { ranks: options.zipfRanks },
        )
      : { s: Number.NaN, q: Number.NaN, ranks: 0 }
  const heaps =
    heapsPoints.length >= 2 ? fitHeaps(heapsPoints) : { k: Number.NaN, beta: Number.NaN }
  return {
    articles: n,
    titleTokens: summarize(titleLengths),
    abstractShare: abstractLengths.length / n,
    abstractTokens: summarize(abstractLengths),
    structuredShare: structured / abstractLengths.length,
    authors: summarize(authors),
    meshShare: meshCounts.length / n,
    meshHeadings: summarize(meshCounts),
    qualifiersPerHeading: qualifiers / headings,
    majorHeadingShare: majorHeadings / headings,
    keywordShare: keywordCounts.length / n,
    keywords: summarize(keywordCounts),
    englishShare: english / n,
    doiShare: doi / n,
    abstractVocabulary: { tokens: abstractTokens, types: counts.size },
    zipf: { s: zipf.s, q: zipf.q, ranks: zipf.ranks },
    heaps: { k: heaps.k, beta: heaps.beta },
    functionShare: {
      title: titleFunction / titleTokens,
      abstract: abstractFunction / abstractTokens,
    },
    titleInAbstractShare: titleContentInAbstract / titleContentWithAbstract,
    repeatShare: abstractRepeats / abstractContent,
  }
}
