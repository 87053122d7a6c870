import { articleId, type Article } from '@pubmatch/core'
import { normalizeKeyword } from './keyword.ts'

/** One value of PubMed's Filter field (`humans[filter]`, `medline[sb]`) that the index answers. */
export interface PubmedFilter {
  /** The value indexed in the `filter` field (normalised, see `normalizeKeyword`). */
  readonly value: string
  /** Other spellings PubMed accepts for it (normalised). */
  readonly aliases: readonly string[]
  /** What the filter selects, as PubMed's help describes it. */
  readonly description: string
  /**
   * Set when the corpus can only approximate PubMed's filter: what is used instead (a query
   * with it gets a warning saying so).
   */
  readonly approximation?: string
  /** Whether an article is in the filter. */
  readonly test: (article: Article) => boolean
}

const hasMesh = (article: Article, name: string): boolean =>
  article.mesh.some((heading) => heading.descriptorName.toLowerCase() === name)

const hasStatus = (article: Article, status: string): boolean =>
  (article.citationStatus ?? '').toLowerCase() === status

const hasLink = (article: Article, refType: string): boolean =>
  article.commentsCorrections.some((link) => link.refType === refType)

const inPmc = (article: Article): boolean => articleId(article, 'pmc') !== undefined

/**
 * The values of PubMed's Filter / Subset field (`[filter]`, `[sb]`) that pubmatch indexes, from
 * the PubMed XML of each article. Any other filter value matches nothing, with a warning.
 */
export const PUBMED_FILTERS: readonly PubmedFilter[] = [
  {
    value: 'hasabstract',
    aliases: ['has abstract'],
    description: 'citations with an abstract',
    test: (a) => a.abstract.some((section) => section.text.trim() !== ''),
  },
  {
    value: 'medline',
    aliases: [],
    description: 'citations indexed for MEDLINE (status MEDLINE or OLDMEDLINE)',
    test: (a) => hasStatus(a, 'medline') || hasStatus(a, 'oldmedline'),
  },
  {
    value: 'pubmednotmedline',
    aliases: ['pubmed not medline'],
    description: 'citations not indexed for MEDLINE (status PubMed-not-MEDLINE)',
    test: (a) => hasStatus(a, 'pubmed-not-medline'),
  },
  {
    value: 'inprocess',
    aliases: ['in process'],
    description: 'citations being indexed for MEDLINE (status In-Process)',
    test: (a) => hasStatus(a, 'in-process'),
  },
  {
    value: 'publisher',
    aliases: [],
    description: 'citations supplied by the publisher, not yet processed (status Publisher)',
    test: (a) => hasStatus(a, 'publisher'),
  },
  {
    value: 'pubmed pmc',
    aliases: ['pmc', 'pubmed pmc local'],
    description: 'citations with a full text in PubMed Central (a PMC id)',
    test: inPmc,
  },
  {
    value: 'free full text',
    aliases: ['ffrft', 'loattrfree full text', 'free full text articles'],
    description: 'citations with a free full text',
    approximation:
      'the articles with a PubMed Central id (PubMed also counts free full texts at publishers’ sites, which PubMed XML does not record)',
    test: inPmc,
  },
  {
    value: 'full text',
    aliases: ['loattrfull text', 'fft', 'full text articles'],
    description: 'citations with a link to a full text',
    approximation:
      'the articles with a PubMed Central id or a DOI (PubMed uses its LinkOut links, which PubMed XML does not record)',
    test: (a) => inPmc(a) || articleId(a, 'doi') !== undefined,
  },
  {
    value: 'humans',
    aliases: [],
    description: 'citations indexed with the MeSH heading Humans',
    test: (a) => hasMesh(a, 'humans'),
  },
  {
    value: 'animals',
    aliases: ['other animals'],
    description: 'citations indexed with the MeSH heading Animals and not Humans',
    test: (a) => hasMesh(a, 'animals') && !hasMesh(a, 'humans'),
  },
  {
    value: 'male',
    aliases: [],
    description: 'citations indexed with the MeSH heading Male',
    test: (a) => hasMesh(a, 'male'),
  },
  {
    value: 'female',
    aliases: [],
    description: 'citations indexed with the MeSH heading Female',
    test: (a) => hasMesh(a, 'female'),
  },
  {
    value: 'english',
    aliases: [],
    description: 'citations in English',
    test: (a) => a.languages.some((language) => language.toLowerCase() === 'eng'),
  },
  {
    value: 'hascommentin',
    aliases: [],
    description: 'citations with a comment in another citation',
    test: (a) => hasLink(a, 'CommentIn'),
  },
  {
    value: 'haserratumin',
    aliases: [],
    description: 'citations with a published erratum',
    test: (a) => hasLink(a, 'ErratumIn'),
  },
  {
    value: 'hasretractionin',
    aliases: ['retracted publication'],
    description: 'citations with a retraction notice',
    test: (a) => hasLink(a, 'RetractionIn'),
  },
]

const FILTER_BY_NAME: ReadonlyMap<string, PubmedFilter> = new Map(
  PUBMED_FILTERS.flatMap((filter) =>
    [filter.value, ...filter.aliases].map((name) => [normalizeKeyword(name), filter] as const),
  ),
)

/**
 * The filter a query's `[filter]`/`[sb]` text names, by any accepted spelling (`FFRFT`,
 * `free full text`, `Has Abstract`), or `undefined` when the index has no such filter.
 * @param text - the term text
 */
export function lookupPubmedFilter(text: string): PubmedFilter | undefined {
  return FILTER_BY_NAME.get(normalizeKeyword(text))
}

/**
 * The filter values of an article (the `filter` field).
 * @param article - the article
 */
export function articleFilters(article: Article): string[] {
  return PUBMED_FILTERS.filter((filter) => filter.test(article)).map((filter) => filter.value)
}
