import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { PubmatchError, truncateForMessage } from '@pubmatch/core'
import type { CountDistribution } from './distributions.ts'
import type { CorpusStatistics } from './stats.ts'

/** The model schema version; {@link parseCorpusModel} rejects any other. */
export const CORPUS_MODEL_VERSION = 1

/** Values with relative weights (empirical frequencies). */
export interface Weighted<T> {
  values: T[]
  weights: number[]
}

/** One section of an abstract layout: the real label, NLM's category and its share of the tokens. */
export interface SectionShape {
  label?: string
  nlmCategory?: string
  /** Mean share of the abstract's tokens in this section. */
  share: number
}

/** Where the model came from. */
export interface ModelProvenance {
  /** The files the articles were read from, relative to the shared data folder. */
  articleFiles: string[]
  /** Distinct PubMed articles fitted (duplicates across files removed by PMID). */
  articles: number
  /** The query log file, relative to the shared data folder. */
  queryLog: string
  /** MeSH files whose descriptors and qualifiers were embedded. */
  meshFiles: string[]
  /** How text was split into tokens for every length and count. */
  tokenizer: string
  /** The seed of the randomised steps of the fit (topic clustering, calibration). */
  seed: number
}

/** Text: lengths, abstract layouts, vocabulary. */
export interface TextModel {
  /** Title length in tokens. */
  titleTokens: CountDistribution
  /** Share of articles with an abstract. */
  abstractShare: number
  /** Share of abstracts that are structured (labelled sections). */
  structuredShare: number
  /** Length in tokens of unstructured abstracts. */
  unstructuredTokens: CountDistribution
  /** Length in tokens of structured abstracts. */
  structuredTokens: CountDistribution
  /** Section layouts of structured abstracts, with their frequencies. */
  layouts: Weighted<SectionShape[]>
  /** Sentence length in tokens. */
  sentenceTokens: CountDistribution
  /** Commas per token (outside sentence ends). */
  commaRate: number
  /** The vocabulary. */
  vocabulary: VocabularyModel
}

/** The vocabulary and how words are drawn. */
export interface VocabularyModel {
  /**
   * The real words of the sample in rank order (`words[r − 1]` has rank `r`), by token count
   * over titles and abstracts, ties broken by a hash of the word. Each is its most frequent
   * surface form (`DNA`, `Alzheimer`), which the tokenizer maps back to exactly one token.
   */
  words: string[]
  /** 1-based ranks of the function words (PubMed stop words) among `words`. */
  functionRanks: number[]
  /**
   * Share of numbers among the synthetic tail words (the share of tokens with a digit among the
   * real rare types, seen fewer than 5 times).
   */
  numericTailShare: number
  /** The rank-frequency law (head fitted by maximum likelihood; tail calibrated on Heaps' law). */
  law: {
    s: number
    q: number
    breakRank: number
    tailExponent: number
    maxRank: number
    /** Ranks used in the head fit (types seen ≥ 5 times in abstracts). */
    fitRanks: number
  }
  /**
   * Heaps' law of the real abstracts: the fit and the measured curve `[tokens, types]`; and
   * the content-word growth `[content tokens, content types]` of a larger real corpus that also
   * constrained the tail, when one was given.
   */
  heaps: {
    k: number
    beta: number
    points: [number, number][]
    growth?: { source: string; points: [number, number][] }
  }
  /** Share of title tokens that are function words. */
  titleFunctionShare: number
  /** Share of title content tokens copied from the article's own abstract. */
  titleFromAbstract: number
  /** Share of abstract content tokens that repeat an earlier content token of the same abstract (copying rate ρ). */
  repeatShare: number
  /** Topics: clusters of the real abstracts, and the topic of every real content word. */
  topics: TopicModel
}

/** Topical coherence: each article picks topics; a share of its content words come from them. */
export interface TopicModel {
  /** Number of topics `T`. */
  count: number
  /** Topic of each real word (`-1` for function words); synthetic words get `rank mod T`. */
  wordTopics: number[]
  /** Weights of an article having 1, 2, 3 … topics. */
  perArticle: number[]
  /** Share λ of abstract content tokens drawn from the article's topics. */
  abstractShare: number
  /** Share of title content tokens drawn from the article's topics. */
  titleShare: number
  /** Share of MeSH headings drawn from the article's topics. */
  meshShare: number
}

/** One MeSH descriptor of the model: `[ui, name, qualifier share, major-topic share, topic]`. */
export type DescriptorEntry = [string, string, number, number, number]

/** MeSH assignment. */
export interface MeshModel {
  /** Headings per article, for articles that have MeSH. */
  headingCount: CountDistribution
  /** Descriptors in popularity rank order. */
  descriptors: DescriptorEntry[]
  /** Zipf–Mandelbrot fit of descriptor popularity (weights of `descriptors` are `(r + q)^−s`). */
  popularity: { s: number; q: number }
  /** Qualifiers `[ui, name]` with their frequencies (add-one smoothed over all qualifiers of the MeSH file, 83 in 2014). */
  qualifiers: Weighted<[string, string]>
  /** Qualifiers per heading, for headings that have qualifiers. */
  qualifierCount: CountDistribution
  /** Share of qualifiers marked major topic. */
  qualifierMajorShare: number
}

/** A real journal of the sample. */
export interface JournalEntry {
  title: string
  isoAbbreviation?: string
  medlineTa: string
  issn?: string
  issnType?: string
  nlmUniqueId?: string
  country?: string
}

/** Bibliographic metadata. */
export interface MetadataModel {
  /** `citationStatus` values, with the share of each that has MeSH headings. */
  statuses: Weighted<{ status: string; owner: string; meshShare: number }>
  languages: Weighted<string[]>
  /** Publication type sets `[ui, name][]`. */
  publicationTypes: Weighted<[string, string][]>
  /** Real journals by popularity, then synthetic ones up to `total`. */
  journals: { entries: JournalEntry[]; s: number; q: number; total: number }
  /** Publication years, smoothed. */
  years: Weighted<number>
  /** Shape of `pubDate`: year only, year+month, year+month+day, season, MedlineDate. */
  dateShapes: Weighted<'y' | 'ym' | 'ymd' | 'season' | 'medline'>
  /** Share with an electronic date. */
  electronicDateShare: number
  /**
   * Shares with `received`, `revised`, `accepted` history dates, and with the
   * `pubmed`/`medline`/`entrez` dates PubMed adds (EFetch records have them, baseline files not).
   */
  history: { received: number; revised: number; accepted: number; pubmed: number }
  /** Share with a `DateRevised`. */
  dateRevisedShare: number
  authors: AuthorModel
  keywords: {
    share: number
    count: CountDistribution
    words: CountDistribution
  }
  /** Shares of articles carrying each id type. */
  articleIds: { doi: number; pmc: number; pii: number; mid: number }
  chemicals: {
    share: number
    count: CountDistribution
    entries: Weighted<[string, string, string]>
  }
  copyrightShare: number
  /** Pages of articles with a pagination. */
  pagination: { share: number; pages: CountDistribution }
}

/** Authors. */
export interface AuthorModel {
  /** Authors per article. */
  count: CountDistribution
  /** Real last names with their frequencies. */
  lastNames: Weighted<string>
  /** Real fore names with their frequencies. */
  foreNames: Weighted<string>
  /** Share of names drawn from the real lists (the rest are synthetic). */
  realNameShare: number
  /** Share of collective (group) authors. */
  collectiveShare: number
  /** Share of authors with an affiliation: first author, other authors. */
  affiliationShare: { first: number; other: number }
  /** Share of non-first authors with the same affiliation as the author before them. */
  sameAffiliationShare: number
  /** Share of affiliations that start with a department. */
  departmentShare: number
  /** Real department names (`Department of Surgery`). */
  departments: Weighted<string>
  /** Real institution-and-place strings with e-mail addresses removed. */
  sites: Weighted<string>
  /** Share of authors with an ORCID. */
  orcidShare: number
}

/** One real query of the log with its term count. */
export interface QueryLogEntry {
  /** The log's id, e.g. `qid0000`. */
  qid: string
  /** The query as typed (trimmed). */
  text: string
  /** Content terms: tokens that are not stop words, boolean operators or field tags. */
  terms: number
  /** Whether it uses PubMed syntax: field tags, booleans, quotes or wildcards. */
  fielded: boolean
}

/** Everything the generator needs; saved as `model/pubmed-model.json`. */
export interface CorpusModel {
  schemaVersion: typeof CORPUS_MODEL_VERSION
  provenance: ModelProvenance
  text: TextModel
  mesh: MeshModel
  metadata: MetadataModel
  /** The real query log (queries with at least one term). */
  queries: QueryLogEntry[]
  /** Statistics of the real sample, measured like those of a generated corpus. */
  reference: CorpusStatistics
}

/** The path of the committed model, resolved from this file (works from `src/` and `dist/`). */
export const DEFAULT_MODEL_PATH: string = fileURLToPath(
  new URL('../model/pubmed-model.json', import.meta.url),
)

/**
 * Checks the parts of a parsed JSON value the generator relies on and returns it typed.
 * @param value - a parsed model file
 * @param file - the name used in messages. Defaults to `<model>`.
 * @throws PubmatchError `SCHEMA_MISMATCH` for another schema version, `MALFORMED_JSON` for a
 *   value that is not a model
 */
export function parseCorpusModel(value: unknown, file = '<model>'): CorpusModel {
  if (typeof value !== 'object' || value === null) {
    throw new PubmatchError(
      'MALFORMED_JSON',
      `@pubmatch/synth: ${file}: not a corpus model object`,
      {
        details: { file },
      },
    )
  }
  const model = value as Partial<CorpusModel>
  if (model.schemaVersion !== CORPUS_MODEL_VERSION) {
    throw new PubmatchError(
      'SCHEMA_MISMATCH',
      `@pubmatch/synth: ${file}: model schema version ${truncateForMessage(String(model.schemaVersion))}, expected ${CORPUS_MODEL_VERSION}`,
      { details: { file } },
    )
  }
  const missing = (['text', 'mesh', 'metadata', 'queries', 'reference'] as const).filter(
    (key) => model[key] === undefined,
  )
  if (missing.length > 0 || !Array.isArray(model.text?.vocabulary?.words)) {
    throw new PubmatchError(
      'MALFORMED_JSON',
      `@pubmatch/synth: ${file}: corpus model lacks ${missing.length > 0 ? missing.join(', ') : 'text.vocabulary.words'}`,
      { details: { file } },
    )
  }
  return model as CorpusModel
}

let cached: CorpusModel | undefined

/**
 * Reads a model file. Without a path it reads the committed model
 * (`tools/synth/model/pubmed-model.json`, {@link DEFAULT_MODEL_PATH}) once and caches it.
 * @param path - a model JSON file. Defaults to {@link DEFAULT_MODEL_PATH}.
 * @throws PubmatchError `IO` (unreadable), `MALFORMED_JSON`, `SCHEMA_MISMATCH`
 */
export function loadCorpusModel(path?: string): CorpusModel {
  if (path === undefined && cached !== undefined) {
    return cached
  }
  const file = path ?? DEFAULT_MODEL_PATH
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (cause) {
    throw new PubmatchError('IO', `@pubmatch/synth: cannot read the corpus model ${file}`, {
      cause,
      details: { file },
    })
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (cause) {
    throw new PubmatchError(
      'MALFORMED_JSON',
      `@pubmatch/synth: ${file}: not valid JSON: ${truncateForMessage(text)}`,
      { cause, details: { file } },
    )
  }
  const model = parseCorpusModel(json, file)
  if (path === undefined) {
    cached = model
  }
  return model
}
