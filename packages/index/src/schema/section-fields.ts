/**
 * The field set of a passage index: one document per full-text passage (paragraph), its text in
 * the field of its section type (`sec_INTRO`, `sec_METHODS`, … one field per type of Yeganova et
 * al.'s 13), so that each section type has its own statistics (documents, lengths, document
 * frequencies: BM25 per section), and the article it belongs to as the sorted-set doc value
 * `parent`. A passage is given to the index writer as an `Article` made by `passageArticle`.
 */
import { emptyArticle, SECTION_TYPES, type Article, type SectionType } from '@pubmatch/core'
import type { IndexConfig } from './config.ts'

/** The field of a section type in a passage index. */
export function sectionField(type: SectionType): string {
  return `sec_${type}`
}

/**
 * A passage as an article for the index writer: its id, its text as a one-section abstract
 * labelled with its section type, and its parent article's id.
 * @param parent - the article's id (PMID, or PMCID without one)
 * @param ordinal - the passage's number within the article
 * @param type - its section type
 * @param text - its text
 */
export function passageArticle(parent: string, ordinal: number, type: SectionType, text: string): Article {
  return {
    ...emptyArticle(`${parent}/${ordinal}`, 'test-collection'),
    abstract: [{ label: type, text }],
    articleIds: [{ type: 'parent', value: parent }],
  }
}

/** The article a passage belongs to (see {@link passageArticle}). */
function parentOf(article: Article): string {
  return article.articleIds.find((id) => id.type === 'parent')?.value ?? article.id
}

/**
 * The index configuration of a passage index.
 * @param options - the analyzer. Defaults to `biomedical`.
 */
export function sectionFields(options: { readonly analyzer?: string } = {}): IndexConfig {
  const analyzer = options.analyzer ?? 'biomedical'
  return {
    fields: SECTION_TYPES.map((type) => ({
      name: sectionField(type),
      analyzer,
      positions: false,
      source: (article: Article) => article.abstract.filter((part) => part.label === type).map((part) => part.text),
    })),
    numericDocValues: [],
    sortedSetDocValues: [{ name: 'parent', source: (article) => [parentOf(article)] }],
    storedFields: (article) => ({ id: article.id, title: '', authors: [], authorCount: 0, pubTypes: [], languages: [] }),
  }
}
