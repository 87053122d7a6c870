import type { Article } from '@pubmatch/core'
import { fitCountDistribution, round6 } from '../distributions.ts'
import { createArticleGenerator } from '../generate.ts'
import {
  CORPUS_MODEL_VERSION,
  type CorpusModel,
  type ModelProvenance,
  type SectionShape,
  type TextModel,
} from '../model.ts'
import { parseQueryLog } from '../queries.ts'
import { corpusStatistics, type CorpusStatistics } from '../stats.ts'
import { TOKENIZER_DESCRIPTION, tokenTerms } from '../text.ts'
import { fitMesh, type MeshVocabularyInput } from './fit-mesh.ts'
import { fitMetadata, tally } from './fit-metadata.ts'
import {
  fitVocabulary,
  prepareArticle,
  type ContentGrowth,
  type PreparedArticle,
} from './fit-vocabulary.ts'

/** Options of {@link fitCorpusModel}. */
export interface FitOptions {
  /** Real MeSH descriptors and qualifiers (UIs, extra descriptors). Defaults to none: only what the articles carry. */
  mesh?: MeshVocabularyInput
  /** The text of a `qid|query` log (NCBI's Best Match `queries.txt`). Defaults to no queries. */
  queryLog?: string
  /** Number of topics. Defaults to `20`. */
  topics?: number
  /** Seed of the clustering and of the calibration runs. Defaults to `1`. */
  seed?: number
  /**
   * Content-word vocabulary growth of a larger real corpus (NFCorpus in the committed model),
   * which constrains the vocabulary tail together with the sample's own Heaps curve. Defaults
   * to none.
   */
  growth?: ContentGrowth
  /** Journals in the synthetic corpus. Defaults to `5200`. */
  journals?: number
  /** Articles generated per calibration run of the copying rates. Defaults to `3000`. */
  calibrationArticles?: number
  /** Provenance to record (files, names). */
  provenance?: Partial<ModelProvenance>
  /** Progress messages. */
  onProgress?: (message: string) => void
}

function fitTextShape(prepared: readonly PreparedArticle[]): Omit<TextModel, 'vocabulary'> {
  const withAbstract = prepared.filter((p) => p.abstract.length > 0)
  const isStructured = (p: PreparedArticle): boolean =>
    p.article.abstract.some((s) => s.label !== undefined)
  const structured = withAbstract.filter(isStructured)
  const unstructured = withAbstract.filter((p) => !isStructured(p))
  const layoutTally = tally(structured, (p) =>
    p.article.abstract.map((s) => `${s.label ?? ''}|${s.nlmCategory ?? ''}`).join('/'),
  )
  const layouts: SectionShape[][] = layoutTally.keys.map((key) => {
    const members = structured.filter(
      (p) =>
        p.article.abstract.map((s) => `${s.label ?? ''}|${s.nlmCategory ?? ''}`).join('/') === key,
    )
    const first = members[0]!.article.abstract
    return first.map((section, i) => {
      const shares = members.map(
        (p) => p.sectionTokens[i]! / p.sectionTokens.reduce((s, v) => s + v, 0),
      )
      const shape: SectionShape = {
        share: round6(shares.reduce((s, v) => s + v, 0) / shares.length),
      }
      if (section.label !== undefined) {
        shape.label = section.label
      }
      if (section.nlmCategory !== undefined) {
        shape.nlmCategory = section.nlmCategory
      }
      return shape
    })
  })
  const sentences: number[] = []
  let commas = 0
  let tokens = 0
  for (const p of withAbstract) {
    tokens += p.abstract.length
    for (const section of p.article.abstract) {
      commas += (section.text.match(/,(?!\d)/g) ?? []).length
      for (const sentence of section.text.split(/(?<=[.!?])\s+(?=[A-Z0-9([])/)) {
        const n = tokenTerms(sentence).length
        if (n > 0) {
          sentences.push(n)
        }
      }
    }
  }
  return {
    titleTokens: fitCountDistribution(
      prepared.map((p) => p.title.length),
      { min: 1 },
    ),
    abstractShare: round6(withAbstract.length / prepared.length),
    structuredShare: round6(structured.length / withAbstract.length),
    // A sample without one of the two kinds borrows the other's lengths (and never draws it).
    unstructuredTokens: fitCountDistribution(
      (unstructured.length > 0 ? unstructured : withAbstract).map((p) => p.abstract.length),
      { min: 1 },
    ),
    structuredTokens: fitCountDistribution(
      (structured.length > 0 ? structured : withAbstract).map((p) => p.abstract.length),
      { min: 1 },
    ),
    layouts: { values: layouts, weights: layoutTally.weights },
    sentenceTokens: fitCountDistribution(sentences, { min: 1 }),
    commaRate: round6(commas / tokens),
  }
}

/**
 * Fits a corpus model to real PubMed articles (the ones of `../shared/data` in the committed
 * model; see `src/fit-cli.ts`). Only `source: 'pubmed'` articles are used, once per PMID.
 *
 * Text lengths, counts and categorical fields are smoothed empirical distributions; the
 * vocabulary is a Zipf–Mandelbrot law fitted by maximum likelihood with a tail calibrated on
 * Heaps' law; topics come from spherical k-means over the abstracts. The two copying rates
 * (repeats within an abstract, title words taken from the abstract) are calibrated by
 * generating `calibrationArticles` articles and matching the real shares (two rounds).
 * Deterministic: the same articles and options give the same model.
 * @param articles - real articles
 * @param options - see {@link FitOptions}
 */
export async function fitCorpusModel(
  articles: AsyncIterable<Article> | Iterable<Article>,
  options: FitOptions = {},
): Promise<CorpusModel> {
  const progress = options.onProgress ?? ((): void => {})
  const seed = options.seed ?? 1
  const topics = options.topics ?? 20
  const calibrationArticles = options.calibrationArticles ?? 3000
  const byId = new Map<string, Article>()
  for await (const article of articles) {
    if (article.source === 'pubmed' && !byId.has(article.id)) {
      byId.set(article.id, article)
    }
  }
  const real = [...byId.values()]
  progress(`fitting ${real.length} articles`)
  const prepared = real.map(prepareArticle)
  const shape = fitTextShape(prepared)
  const vocabularyAt = (
    repeatShare: number,
    titleFromAbstract: number,
  ): ReturnType<typeof fitVocabulary> =>
    fitVocabulary(prepared, {
      topics,
      seed,
      repeatShare,
      titleFromAbstract,
      ...(options.growth === undefined ? {} : { growth: options.growth }),
    })
  let fit = vocabularyAt(0, 0)
  progress(
    `vocabulary: ${fit.vocabulary.words.length} words (${fit.dropped} dropped), s = ${fit.vocabulary.law.s}, q = ${fit.vocabulary.law.q}, tail ${fit.vocabulary.law.tailExponent} from rank ${fit.vocabulary.law.breakRank}`,
  )
  const mesh = fitMesh(
    real,
    fit.clusters,
    fit.clusterCount,
    options.mesh ?? { descriptors: [], qualifiers: [] },
  )
  const metadata = fitMetadata(
    real,
    options.journals === undefined ? {} : { journals: options.journals },
  )
  const queries = options.queryLog === undefined ? [] : parseQueryLog(options.queryLog)
  const reference = await corpusStatistics(real, { zipfRanks: fit.vocabulary.law.fitRanks })

  const provenance: ModelProvenance = {
    articleFiles: options.provenance?.articleFiles ?? [],
    articles: real.length,
    queryLog: options.provenance?.queryLog ?? '',
    meshFiles: options.provenance?.meshFiles ?? [],
    tokenizer: TOKENIZER_DESCRIPTION,
    seed,
  }
  const assemble = (): CorpusModel => ({
    schemaVersion: CORPUS_MODEL_VERSION,
    provenance,
    text: { ...shape, vocabulary: fit.vocabulary },
    mesh,
    metadata,
    queries,
    reference,
  })
  const simulate = async (): Promise<CorpusStatistics> => {
    const generator = createArticleGenerator(assemble())
    const sample: Article[] = []
    for (let i = 0; i < calibrationArticles; i++) {
      sample.push(generator.article(seed, i))
    }
    return corpusStatistics(sample, { zipfRanks: fit.vocabulary.law.fitRanks })
  }

  // Calibrate the copying rates: ρ (repeats in an abstract) and θ (title words from the abstract).
  const clamp = (x: number): number => Math.min(0.95, Math.max(0, x))
  const base = await simulate()
  let rho = clamp((reference.repeatShare - base.repeatShare) / (1 - base.repeatShare))
  let theta = clamp(
    (reference.titleInAbstractShare - base.titleInAbstractShare) / (1 - base.titleInAbstractShare),
  )
  progress(
    `calibration: base repeat ${round6(base.repeatShare)}, title-in-abstract ${round6(base.titleInAbstractShare)} → ρ = ${round6(rho)}, θ = ${round6(theta)}`,
  )
  fit = vocabularyAt(rho, theta)
  const second = await simulate()
  rho = clamp(rho + (reference.repeatShare - second.repeatShare) / (1 - base.repeatShare))
  theta = clamp(
    theta +
      (reference.titleInAbstractShare - second.titleInAbstractShare) /
        (1 - base.titleInAbstractShare),
  )
  progress(
    `calibration: repeat ${round6(second.repeatShare)}, title-in-abstract ${round6(second.titleInAbstractShare)} → ρ = ${round6(rho)}, θ = ${round6(theta)}`,
  )
  fit = vocabularyAt(rho, theta)
  return assemble()
}
