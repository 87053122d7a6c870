/**
 * The 179 features of PubMed Best Match (F1–F179), in NCBI's order.
 *
 * Spec: `best-match-179-features.md` (reconstructed from NCBI's research code,
 * github.com/ncbi-nlp/PubMed-Best-Match, `bestmatch/features.py` and `computeAll.py`). The
 * one-hot vocabularies (`one-hot-values.json`) are copied verbatim from the same repository's
 * `FeatureCalculator.pubTypes` / `.languages` lists (74 publication types incl. `book`, 61
 * ISO 639-2 language codes).
 */
import type { FeatureDefinition, FeatureGroup, FeatureSchema } from '../types.ts'
import oneHotValues from './one-hot-values.json' with { type: 'json' }

/** The 74 publication types of the one-hot block F4–F77, in column order. */
export const PUBLICATION_TYPES: readonly string[] = Object.freeze([...oneHotValues.publication_types_F4_F77])

/** The 61 language codes (ISO 639-2/B, as MEDLINE writes them) of the one-hot block F80–F140, in column order. */
export const LANGUAGES: readonly string[] = Object.freeze([...oneHotValues.languages_F80_F140])

/** Value of F1 (year) when a document has no year. NCBI's code writes `0` for a missing DateCompleted. */
export const NEUTRAL_YEAR = 0

/** Value of F147/F148 (average match position) when the field has no match or is absent. */
export const NO_POSITION = -1

/** 0-based columns of the features the extractor writes, named after their first id. */
export const COLUMNS = {
  year: 0,
  abstractClicks: 1,
  fullTextRequests: 2,
  /** First of the 74 publication-type columns. */
  pubtypeFirst: 3,
  titleTokens: 77,
  abstractTokens: 78,
  /** First of the 61 language columns. */
  languageFirst: 79,
  titleStopwordRatio: 140,
  abstractStopwordRatio: 141,
  firstStageScore: 142,
  titleCoverage: 143,
  abstractCoverage: 144,
  meshCoverage: 145,
  titleAvgPosition: 146,
  abstractAvgPosition: 147,
  /** First of the 19 span columns (F149). */
  spanFirst: 148,
  titleMatches: 167,
  abstractMatches: 168,
  meshMatches: 169,
  titleIdfTiab: 170,
  abstractIdfTiab: 171,
  titleIdfTitle: 172,
  abstractIdfAbstract: 173,
  meshIdfTiab: 174,
  resultCount: 175,
  queryNonAlphanumeric: 176,
  queryTokens: 177,
  queryUniqueTokens: 178,
} as const

/** The number of Best Match features. */
export const FEATURE_COUNT = 179

/** The 19 span features F149–F167: name suffix and description, in order. */
export const SPAN_FEATURES: readonly (readonly [string, string])[] = Object.freeze([
  ['multi_term_spans', 'spans holding more than one query-term match'],
  ['rich_spans', 'spans holding more than three query-term matches'],
  ['length_sum', 'sum of span lengths (a single-match span counts 10)'],
  ['term_sum', 'sum of query-term matches in spans'],
  ['density_sum', 'sum of span densities (matches / length)'],
  ['indefinite_articles', 'occurrences of "a"/"an" inside spans'],
  ['definite_articles', 'occurrences of "the" inside spans'],
  ['stopwords', 'stop words inside spans'],
  ['stopword_only_spans', 'spans made only of stop words'],
  ['cubed_terms_per_length', 'sum over spans of matches³ / length'],
  ['count', 'number of spans'],
  ['max_length', 'length of the longest span'],
  ['mean_length', 'mean span length'],
  ['max_terms', 'most query-term matches in one span'],
  ['mean_terms', 'mean query-term matches per span'],
  ['max_density', 'highest span density'],
  ['mean_density', 'mean span density'],
  ['densest_length', 'length of the (first) densest span'],
  ['longest_running_density', 'running sum of densities up to and including the (first) longest span (NCBI quirk)'],
])

/**
 * A feature name fragment: lower case, runs of other characters than `a-z0-9` become `_`.
 * @param value - a publication type or language code
 */
export function slug(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
}

type Row = readonly [name: string, group: FeatureGroup, description: string, neutral: number]

function rows(): Row[] {
  const d: FeatureGroup = 'document'
  const qd: FeatureGroup = 'query-document'
  const q: FeatureGroup = 'query'
  const out: Row[] = [
    ['year', d, 'publication year (the index `year` doc value)', NEUTRAL_YEAR],
    ['abstract_clicks', d, 'past usage: abstract views of the document in the search log', 0],
    ['fulltext_requests', d, 'past usage: full-text requests of the document in the search log', 0],
  ]
  for (const type of PUBLICATION_TYPES) {
    out.push([`pubtype_${slug(type)}`, d, `1 when the document has publication type "${type}"`, 0])
  }
  out.push(
    ['title_tokens', d, 'tokens in the title, stop words included', 0],
    ['abstract_tokens', d, 'tokens in the abstract, stop words included', 0],
  )
  for (const code of LANGUAGES) {
    out.push([`language_${slug(code)}`, d, `1 when the document is in language "${code}"`, 0])
  }
  out.push(
    ['title_stopword_ratio', d, 'stop words / tokens in the title (0 when empty)', 0],
    ['abstract_stopword_ratio', d, 'stop words / tokens in the abstract (0 when empty)', 0],
    ['first_stage_score', qd, 'the first-stage (BM25F) score of the document', 0],
    ['title_coverage', qd, 'distinct query terms matched in the title / distinct query terms', 0],
    ['abstract_coverage', qd, 'distinct query terms matched in the abstract / distinct query terms', 0],
    ['mesh_coverage', qd, 'distinct query terms matched in the MeSH headings / distinct query terms', 0],
    ['title_avg_match_position', qd, 'mean 0-based token position of query-term matches in the title (-1 when none)', NO_POSITION],
    ['abstract_avg_match_position', qd, 'mean 0-based token position of query-term matches in the abstract (-1 when none)', NO_POSITION],
  )
  for (const [name, description] of SPAN_FEATURES) {
    out.push([`span_${name}`, qd, `title+abstract proximity: ${description}`, 0])
  }
  out.push(
    ['title_matches', qd, 'query-term occurrences in the title', 0],
    ['abstract_matches', qd, 'query-term occurrences in the abstract', 0],
    ['mesh_matches', qd, 'query-term occurrences in the MeSH headings', 0],
    ['title_idf_sum_tiab', qd, 'sum over title matches of the title+abstract IDF', 0],
    ['abstract_idf_sum_tiab', qd, 'sum over abstract matches of the title+abstract IDF', 0],
    ['title_idf_sum_title', qd, 'sum over title matches of the title IDF', 0],
    ['abstract_idf_sum_abstract', qd, 'sum over abstract matches of the abstract IDF', 0],
    ['mesh_idf_sum_tiab', qd, 'sum over MeSH matches of the title+abstract IDF', 0],
    ['result_count', q, 'number of documents the first stage matched (`SearchResult.total`)', 0],
    ['query_non_alphanumeric', q, 'non-alphanumeric characters in the query, white space excluded', 0],
    ['query_tokens', q, 'white-space separated words in the query', 0],
    ['query_unique_tokens', q, 'distinct white-space separated words in the query (case-folded)', 0],
  )
  return out
}

function definitions(): readonly FeatureDefinition[] {
  return Object.freeze(
    rows().map(([name, group, description, neutral], column) =>
      Object.freeze({ id: `F${column + 1}`, column, name, group, description, neutral }),
    ),
  )
}

/**
 * Best Match's 179 features F1–F179 in NCBI's order (column = id − 1). Bump the version
 * whenever a definition, the order or the count changes: models record it.
 */
export const BEST_MATCH_SCHEMA: FeatureSchema = Object.freeze({
  version: 'bestmatch-179/1',
  features: definitions(),
})
