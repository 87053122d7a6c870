import { biomedicalAnalyzer, isJoinedToken } from '@pubmatch/analysis'
import { articleYear, type Article, type DeletedCitation } from '@pubmatch/core'
// A devDependency for real-data tests only: in production the CLI passes articles in.
// eslint-disable-next-line no-restricted-imports
import { readPubmedXml } from '@pubmatch/ingest'
import { samplePath } from '@pubmatch/sample-data'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../test/helpers.ts'
import { buildIndex } from './build/build-index.ts'
import { openIndex } from './index-reader.ts'
import { NO_MORE_DOCS } from './postings/postings-format.ts'
import { normalizeKeyword } from './schema/keyword.ts'
import { defaultPubmedFields } from './schema/pubmed-fields.ts'

/** The 2016 MEDLINE baseline chunk of the sample corpus. */
const FILE = samplePath('pubmed', 'medline16n0902.xml.gz')

async function readFile(): Promise<{ articles: Article[]; deleted: DeletedCitation[] }> {
  const articles: Article[] = []
  const deleted: DeletedCitation[] = []
  for await (const record of readPubmedXml(FILE)) {
    if (record.kind === 'article') {
      articles.push(record.article)
    } else if (record.kind === 'delete') {
      deleted.push(...record.deleted)
    }
  }
  return { articles, deleted }
}

const byteOrder = (values: readonly string[]): string[] =>
  [...new Set(values)].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))

describe('MEDLINE medline16n0902.xml.gz (real data, default PubMed fields)', () => {
  it('indexes 604 citations, applies deletions, and keeps doc values equal to brute force', async () => {
    const { articles, deleted } = await readFile()
    expect(articles).toHaveLength(604)
    expect(deleted.map((d) => d.id)).toEqual(['26432306'])
    const dir = await tempDir()
    // The file's DeleteCitation names a PMID of an older file (a no-op here); a later update
    // file deleting one of these citations is simulated with the 11th one.
    const gone = articles[10]!.id
    expect(articles.some((a) => a.id === '26432306')).toBe(false)
    const input = [...articles, { deleted }, { deleted: [{ id: gone }] }]
    const result = await buildIndex(input, dir, { fields: defaultPubmedFields() }, { maxBufferedDocs: 250 })
    expect(result).toMatchObject({ docsAdded: 604, docsDeleted: 1, docCount: 603 })
    const reader = await openIndex(dir)
    expect(reader.docNumber(gone)).toBeUndefined()
    const live = articles.filter((a) => a.id !== gone)
    const years = new Map<number, number>()
    for (const a of live) {
      const doc = reader.docNumber(a.id)!
      expect(reader.numericValue('year', doc)).toBe(articleYear(a))
      expect(reader.numericValue('author_count', doc)).toBe(a.authors.length)
      expect(reader.numericValue('mesh_count', doc)).toBe(a.mesh.length)
      expect(reader.sortedSetValues('pubtype', doc)).toEqual(byteOrder(a.publicationTypes.map((p) => p.name)))
      expect(reader.sortedSetValues('language', doc)).toEqual(byteOrder(a.languages))
      expect(reader.stored(doc)).toMatchObject({ id: a.id, title: a.title, authorCount: a.authors.length })
      const year = articleYear(a)
      if (year !== undefined) {
        years.set(year, (years.get(year) ?? 0) + 1)
      }
    }
    const column = reader.numericValues('year')
    for (const [year, count] of years) {
      let n = 0
      column.forEach((value, doc) => {
        if (value === year && reader.isLive(doc)) {
          n++
        }
      })
      expect(n).toBe(count)
    }
    // [pt] and [la] keyword postings equal brute-force counts.
    const pubtypes = new Set(live.flatMap((a) => a.publicationTypes.map((p) => p.name)))
    expect(pubtypes.size).toBeGreaterThan(3)
    for (const name of pubtypes) {
      const expected = live.filter((a) => a.publicationTypes.some((p) => p.name === name)).length
      expect(reader.liveDocFreq('pubtype', normalizeKeyword(name))).toBe(expected)
    }
    expect(reader.liveDocFreq('language', 'eng')).toBe(live.filter((a) => a.languages.includes('eng')).length)
  })

  it('inverts titles exactly as the biomedical analyzer tokenizes them, joined forms with their spans', async () => {
    const { articles } = await readFile()
    const dir = await tempDir()
    await buildIndex(articles, dir, { fields: defaultPubmedFields() }, { maxBufferedDocs: 200 })
    const reader = await openIndex(dir)
    const analyzer = biomedicalAnalyzer()
    const df = new Map<string, number>()
    let spanned: { id: string; term: string; position: number; span: number } | undefined
    for (const a of articles) {
      const tokens = analyzer.analyze(a.title)
      for (const term of new Set(tokens.map((t) => t.term))) {
        df.set(term, (df.get(term) ?? 0) + 1)
      }
      const joined = tokens.find(isJoinedToken)
      if (spanned === undefined && joined !== undefined && tokens.filter((t) => t.term === joined.term).length === 1) {
        spanned = { id: a.id, term: joined.term, position: joined.position, span: joined.positionLength! }
      }
      expect(reader.fieldLength('title', reader.docNumber(a.id)!)).toBe(tokens.filter((t) => !isJoinedToken(t)).length)
    }
    expect(new Map([...reader.terms('title')].map((e) => [e.term, e.docFreq]))).toEqual(df)
    expect(spanned).toBeDefined()
    const cursor = reader.postings('title', spanned!.term)!
    const doc = reader.docNumber(spanned!.id)!
    expect(cursor.advance(doc)).toBe(doc)
    expect([...cursor.positions()]).toEqual([spanned!.position])
    expect([...cursor.positionSpans()]).toEqual([spanned!.span])
    // [au] in "smith j" form and [majr] headings.
    const author = articles.find((a) => a.authors[0]?.lastName !== undefined && a.authors[0].initials !== undefined)!.authors[0]!
    const form = normalizeKeyword(`${author.lastName} ${author.initials}`)
    const withAuthor = articles.filter((a) => a.authors.some((x) => x.lastName === author.lastName && x.initials === author.initials))
    expect(reader.docFreq('authors', form)).toBe(withAuthor.length)
    const majors = new Map<string, number>()
    for (const a of articles) {
      const names = a.mesh.filter((h) => h.majorTopic || h.qualifiers.some((q) => q.majorTopic)).map((h) => h.descriptorName)
      for (const name of new Set(names)) {
        majors.set(name, (majors.get(name) ?? 0) + 1)
      }
    }
    const [topMajor, topCount] = [...majors].sort((x, y) => y[1] - x[1])[0]!
    expect(topCount).toBeGreaterThan(3)
    const majr = reader.postings('mesh_major', normalizeKeyword(topMajor))!
    let count = 0
    while (majr.nextDoc() !== NO_MORE_DOCS) {
      count++
    }
    expect(count).toBe(topCount)
  })
})
