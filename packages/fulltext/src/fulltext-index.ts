/**
 * A full-text index: the passages of PMC articles by section type (one field per type, so BM25
 * has per-section statistics) and the articles themselves (their abstract, and abstract and body
 * merged, for the two baselines). Built from `FullTextDocument`s; opened for scoring.
 */
import { existsSync } from 'node:fs'
import { mkdir, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { PubmatchError, SECTION_TYPES, emptyArticle, type Article, type FullTextDocument, type SectionType } from '@pubmatch/core'
import { writeFileAtomic } from '@pubmatch/core/node'
import { buildIndex, openIndex, type IndexConfig, type IndexReader } from '@pubmatch/index'
import { passageArticle, sectionField, sectionFields } from '@pubmatch/index/internal'

/** The article index's fields. */
export const ABSTRACT_FIELD = 'abstract'
export const MERGED_FIELD = 'merged'

const META_FILE = 'fulltext.json'

/** What `fulltext.json` records. */
interface FulltextMeta {
  readonly format: 'pubmatch-fulltext/1'
  readonly analyzer: string
  readonly articles: number
  readonly passages: number
  readonly builtAt: string
}

/** The id an article is known by: its PMID, else its PMCID. */
export function articleKey(document: FullTextDocument): string {
  return document.pmid ?? document.pmcid
}

function articlesConfig(analyzer: string): IndexConfig {
  return {
    fields: [
      { name: ABSTRACT_FIELD, analyzer, positions: false, source: (a) => a.abstract.filter((p) => p.label === 'ABSTRACT').map((p) => p.text) },
      { name: MERGED_FIELD, analyzer, positions: false, source: (a) => a.abstract.map((p) => p.text) },
    ],
    numericDocValues: [],
    sortedSetDocValues: [],
    storedFields: (a) => ({
      id: a.id,
      title: a.title,
      authors: [],
      authorCount: 0,
      pubTypes: [],
      languages: [],
      ...(a.articleIds.find((id) => id.type === 'pmc') === undefined ? {} : { pmcid: a.articleIds.find((id) => id.type === 'pmc')!.value }),
      ...(a.articleIds.find((id) => id.type === 'doi') === undefined ? {} : { doi: a.articleIds.find((id) => id.type === 'doi')!.value }),
    }),
  }
}

/** The scored passages of a full text: those of the 13 section types (not references, boilerplate or front matter). */
export function scoredPassages(document: FullTextDocument): Array<{ type: SectionType; text: string }> {
  return document.passages.flatMap((passage) => (passage.sectionType === null || passage.text.trim() === '' ? [] : [{ type: passage.sectionType, text: passage.text }]))
}

function articleOf(document: FullTextDocument): Article {
  const passages = scoredPassages(document)
  return {
    ...emptyArticle(articleKey(document), 'test-collection'),
    title: document.title ?? '',
    abstract: passages.map((p) => ({ label: p.type, text: p.text })),
    articleIds: [{ type: 'pmc', value: document.pmcid }, ...(document.doi === undefined ? [] : [{ type: 'doi', value: document.doi }])],
  }
}

/** Options of {@link buildFulltextIndex}. */
export interface BuildFulltextOptions {
  /** The analyzer of every field. Defaults to `biomedical`. */
  readonly analyzer?: string
  /** Progress: articles done. */
  readonly onProgress?: (articles: number, passages: number) => void
}

/**
 * Builds a full-text index in `dir` (replacing one there crash-safely: built beside, then swapped in).
 * @param documents - the full texts (e.g. `CorpusStore.fullTexts()`)
 * @param dir - the directory
 * @param options - analyzer and progress
 * @returns how many articles and passages were indexed
 */
export async function buildFulltextIndex(
  documents: AsyncIterable<FullTextDocument> | Iterable<FullTextDocument>,
  dir: string,
  options: BuildFulltextOptions = {},
): Promise<{ articles: number; passages: number; seconds: number }> {
  const started = performance.now()
  const analyzer = options.analyzer ?? 'biomedical'
  const target = `${dir}.new-${process.pid}`
  await rm(target, { recursive: true, force: true })
  await mkdir(target, { recursive: true })
  const articles: Article[] = []
  const passages: Article[] = []
  const seen = new Set<string>()
  for await (const document of documents) {
    const key = articleKey(document)
    if (seen.has(key)) {
      continue
    }
    seen.add(key)
    articles.push(articleOf(document))
    for (const [i, passage] of scoredPassages(document).entries()) {
      passages.push(passageArticle(key, i, passage.type, passage.text))
    }
    options.onProgress?.(articles.length, passages.length)
  }
  await buildIndex(articles, join(target, 'articles'), articlesConfig(analyzer), { forceMergeTo: 1 })
  await buildIndex(passages, join(target, 'passages'), sectionFields({ analyzer }), { forceMergeTo: 1 })
  const meta: FulltextMeta = { format: 'pubmatch-fulltext/1', analyzer, articles: articles.length, passages: passages.length, builtAt: new Date().toISOString() }
  await writeFileAtomic(join(target, META_FILE), `${JSON.stringify(meta, null, 2)}\n`)
  const aside = `${dir}.old-${process.pid}`
  if (existsSync(dir)) {
    await rename(dir, aside)
  }
  await rename(target, dir)
  await rm(aside, { recursive: true, force: true })
  return { articles: articles.length, passages: passages.length, seconds: (performance.now() - started) / 1000 }
}

/** An opened full-text index. */
export interface FulltextIndex {
  readonly dir: string
  readonly articles: IndexReader
  readonly passages: IndexReader
  /** Articles in the index. */
  readonly size: number
  /** Per article (by its document number in `articles`): a bit per section type it has (bit i = `SECTION_TYPES[i]`). */
  readonly sectionMask: Uint16Array
  /** Per passage (document number in `passages`): its article's document number in `articles`. */
  readonly passageArticle: Int32Array
  /** Per section type: passages of that type, and their mean length. */
  readonly sectionStats: ReadonlyArray<{ readonly passages: number; readonly avgLength: number }>
}

/**
 * Opens a full-text index.
 * @param dir - the directory `buildFulltextIndex` wrote
 * @throws PubmatchError `NOT_FOUND` when there is none
 */
export async function openFulltextIndex(dir: string): Promise<FulltextIndex> {
  if (!existsSync(join(dir, META_FILE))) {
    throw new PubmatchError('NOT_FOUND', `no full-text index in ${dir}; build one with \`buildFulltextIndex\` (\`pubmatch index --fulltext -c CORPUS -i INDEX\` builds INDEX/fulltext)`, { details: { file: dir } })
  }
  const articles = await openIndex(join(dir, 'articles'))
  const passages = await openIndex(join(dir, 'passages'))
  const passageArticleOf = new Int32Array(passages.maxDoc).fill(-1)
  const sectionMask = new Uint16Array(articles.maxDoc)
  const fields = SECTION_TYPES.map((type) => sectionField(type))
  for (let doc = 0; doc < passages.maxDoc; doc++) {
    if (!passages.isLive(doc)) {
      continue
    }
    const parent = passages.sortedSetValues('parent', doc)[0]
    const article = parent === undefined ? undefined : articles.docNumber(parent)
    if (article === undefined) {
      continue
    }
    passageArticleOf[doc] = article
    for (let s = 0; s < fields.length; s++) {
      if (passages.fieldLength(fields[s]!, doc) > 0) {
        sectionMask[article]! |= 1 << s
      }
    }
  }
  const sectionStats = fields.map((field) => {
    const stats = passages.fieldStats(field)
    return { passages: stats.docsWithField, avgLength: stats.docsWithField === 0 ? 0 : stats.sumLength / stats.docsWithField }
  })
  return { dir, articles, passages, size: articles.docCount, sectionMask, passageArticle: passageArticleOf, sectionStats }
}
