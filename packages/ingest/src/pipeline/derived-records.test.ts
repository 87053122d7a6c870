import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sharedDataPath } from '@pubmatch/core/testing'
import { samplePath } from '@pubmatch/sample-data'
import { openCorpus, type CorpusStore } from '../store/corpus-store.ts'
import { ingestFiles, ingestOutcome } from './ingest-files.ts'
import { defaultReaders } from './readers.ts'

const readers = defaultReaders()

let dir: string
const stores: CorpusStore[] = []
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pubmatch-derived-'))
})
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()))
  await rm(dir, { recursive: true, force: true })
})

async function corpus(name: string): Promise<CorpusStore> {
  const store = await openCorpus(join(dir, name), { create: true })
  stores.push(store)
  return store
}

async function live(store: CorpusStore): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  for await (const article of store.articles()) {
    out.set(article.id, `${article.source}${article.derivedFrom === undefined ? '' : `/${article.derivedFrom}`}: ${article.title}`)
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)))
}

/**
 * A real PubMed record (pmid_9500320.xml) as the citation of another article: its PMID replaced,
 * and a PMC id added to its ArticleIdList.
 */
async function citationOf(pmid: string, pmcid?: string): Promise<string> {
  const xml = (await readFile(samplePath('pubmed', 'pmid_9500320.xml'), 'utf8'))
    .replaceAll('9500320', pmid)
    .replace('</ArticleIdList>', pmcid === undefined ? '</ArticleIdList>' : `<ArticleId IdType="pmc">${pmcid}</ArticleId></ArticleIdList>`)
  const path = join(dir, `pubmed-${pmid}.xml`)
  await writeFile(path, xml)
  return path
}

describe('a corpus of PMC full texts alone (bundled sample)', () => {
  it('gets an article record per full text: by PMID, or by PMCID for the one without', async () => {
    const store = await corpus('ft')
    const summary = await ingestFiles(store, [samplePath('jats'), samplePath('bioc')], { readers })
    expect(summary).toMatchObject({ fullTexts: 8, derived: 8, added: 0, errors: 0, sources: 8 })
    expect(ingestOutcome(summary)).toBe('complete')
    expect(store.stats()).toMatchObject({ articles: 8, derived: 8, fullTexts: 8 })
    expect([...(await live(store)).keys()]).toEqual(['17299597', '18405359', '19079722', '37112839', '37494371', '38092777', '38989048', 'PMC11500582'])
    expect((await store.getArticle('17299597'))?.derivedFrom).toBe('jats')
    expect((await store.getArticle('PMC11500582'))?.derivedFrom).toBe('bioc')
  })

  it('lets a PubMed record take the place of a derived one whatever the order of ingestion', async () => {
    const pubmed = [await citationOf('17299597'), await citationOf('900001', 'PMC11500582')]
    const fullTexts = [samplePath('jats'), samplePath('bioc')]

    const textsFirst = await corpus('texts-first')
    await ingestFiles(textsFirst, fullTexts, { readers })
    const later = await ingestFiles(textsFirst, pubmed, { readers })
    // the PMCID-keyed record gives way to the citation that names its PMCID: not a deletion
    expect(later).toMatchObject({ added: 2, updated: 0, deleted: 0, derived: 0 })

    const citationsFirst = await corpus('citations-first')
    await ingestFiles(citationsFirst, pubmed, { readers })
    const after = await ingestFiles(citationsFirst, fullTexts, { readers })
    expect(after).toMatchObject({ fullTexts: 8, derived: 6, added: 0 })

    const expected = await live(textsFirst)
    expect(await live(citationsFirst)).toEqual(expected)
    expect(expected.get('17299597')).toMatch(/^pubmed: Ileal-lymphoid-nodular hyperplasia/)
    expect(expected.get('900001')).toMatch(/^pubmed: /)
    expect(expected.has('PMC11500582')).toBe(false)
    expect(expected.get('19079722')).toMatch(/^pmc\/jats: Dietary Exposure/)
    expect(textsFirst.stats()).toMatchObject({ articles: 8, derived: 6, fullTexts: 8, deleted: 0 })
  })
})

describe('a corpus of the real PMC JATS files alone', { tags: ['real-data'] }, () => {
  it('reports 8 full texts and 8 derived records, with no error', async () => {
    const store = await corpus('jats')
    const summary = await ingestFiles(store, [sharedDataPath('pmc', 'jats')], { readers })
    expect(summary).toMatchObject({ fullTexts: 8, derived: 8, added: 0, errors: 0 })
    expect([...(await live(store)).keys()]).toEqual(['17299597', '18405359', '19079722', '21045829', '21810267', '23029536', '23149571', '23469300'])
  })
})
