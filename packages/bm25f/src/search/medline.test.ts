/**
 * Real PubMed queries on a real MEDLINE file (medline16n0902.xml.gz, 604 citations, default PubMed
 * fields), every result checked against a brute-force evaluation of the articles themselves.
 */
import { biomedicalAnalyzer, isJoinedToken } from '@pubmatch/analysis'
import { abstractText, type Article } from '@pubmatch/core'
import { defaultPubmedFields, type IndexReader } from '@pubmatch/index'
import { authorDisplayName, normalizeKeyword, sortableDate } from '@pubmatch/index/internal'
// eslint-disable-next-line no-restricted-imports -- test only: reads the real MEDLINE file
import { readPubmedXml } from '@pubmatch/ingest'
import { samplePath } from '@pubmatch/sample-data'
import { beforeAll, describe, expect, it } from 'vitest'
import { suiteIndex } from '../../test/helpers.ts'
import { bm25f } from '../scoring/bm25f.ts'
import { SCORER_NAMES } from '../scoring/scorer.ts'
import { createSearcher } from './searcher.ts'
import type { FirstStageRanker } from './types.ts'

/** The 2016 MEDLINE baseline chunk of the sample corpus. */
const FILE = samplePath('pubmed', 'medline16n0902.xml.gz')
const analyzer = biomedicalAnalyzer()

/** The analyzed view of an article that brute force works on. */
interface Doc {
  readonly article: Article
  /** Scored text fields: title, abstract, mesh, keywords → their tokens (parts and joined forms). */
  readonly fields: readonly (readonly string[])[]
  /** Field lengths: tokens that are not joined forms. */
  readonly lengths: readonly number[]
  readonly pubdate: number | undefined
}

function view(article: Article): Doc {
  const texts = [
    [article.title],
    article.abstract.map((s) => s.text),
    article.mesh.map((h) => h.descriptorName),
    article.keywords.map((k) => k.text),
  ]
  const tokens = texts.map((values) => values.flatMap((value) => analyzer.analyze(value)))
  return {
    article,
    fields: tokens.map((list) => list.map((t) => t.term)),
    lengths: tokens.map((list) => list.filter((t) => !isJoinedToken(t)).length),
    pubdate: sortableDate(
      article.pubDate?.year === undefined ? article.electronicDate : article.pubDate,
    ),
  }
}

const stem = (word: string): string => analyzer.analyze(word)[0]!.term
const hasWord = (doc: Doc, word: string, fields = [0, 1, 2, 3]): boolean =>
  fields.some((f) => doc.fields[f]!.includes(stem(word)))
/** Whether a text field holds the words consecutively (stop words only keep their place). */
function hasPhrase(values: readonly string[], phrase: string): boolean {
  const wanted = analyzer.analyze(phrase).filter((t) => !isJoinedToken(t))
  return values.some((value) => {
    const tokens = analyzer.analyze(value).filter((t) => !isJoinedToken(t))
    return tokens.some((first) =>
      wanted.every((w) =>
        tokens.some(
          (t) =>
            t.term === w.term && t.position === first.position + w.position - wanted[0]!.position,
        ),
      ),
    )
  })
}
const keywordValues = (a: Article): string[] =>
  [
    ...a.mesh.map((h) => h.descriptorName),
    ...a.authors.map((x) => authorDisplayName(x) ?? ''),
    a.journal?.medlineTa ?? '',
    a.journal?.isoAbbreviation ?? '',
    a.journal?.title ?? '',
    a.journal?.issn ?? '',
    a.journal?.issnLinking ?? '',
    ...a.publicationTypes.map((p) => p.name),
    ...a.languages,
    ...a.chemicals.map((c) => c.name),
    ...a.supplementaryConcepts.map((c) => c.name),
  ].map(normalizeKeyword)

describe('createSearcher on MEDLINE (real PubMed queries, brute force)', () => {
  let docs: Doc[]
  let reader: IndexReader
  let searcher: FirstStageRanker

  beforeAll(async () => {
    const articles: Article[] = []
    for await (const record of readPubmedXml(FILE)) {
      if (record.kind === 'article') {
        articles.push(record.article)
      }
    }
    expect(articles).toHaveLength(604)
    docs = articles.map(view)
    reader = await suiteIndex(articles, { fields: defaultPubmedFields() }, { maxBufferedDocs: 200 })
    searcher = createSearcher(reader, { limit: 1000 })
  })

  const expectMatches = (query: string, predicate: (doc: Doc) => boolean): number => {
    const expected = docs
      .filter(predicate)
      .map((d) => d.article.id)
      .sort()
    const result = searcher.search(query)
    expect(result.hits.map((h) => h.id).sort(), query).toEqual(expected)
    expect(result.total).toBe(expected.length)
    expect(result.totalRelation).toBe('eq')
    // The same top 10 with and without pruning, for every ranker.
    for (const ranker of SCORER_NAMES) {
      const pruned = searcher.search(query, { ranker, limit: 10 })
      const exhaustive = searcher.search(query, { ranker, limit: 10, pruning: false })
      expect(pruned.hits, `${query} ${ranker}`).toEqual(exhaustive.hits)
    }
    return expected.length
  }

  it('finds untagged words in any text field, or as a whole keyword value', () => {
    const n = expectMatches(
      'cancer',
      (d) => hasWord(d, 'cancer') || keywordValues(d.article).includes('cancer'),
    )
    expect(n).toBeGreaterThan(20)
    expectMatches(
      'cataract surgery',
      (d) =>
        (hasWord(d, 'cataract') && hasWord(d, 'surgery')) ||
        keywordValues(d.article).includes('cataract surgery'),
    )
  })

  it('searches a tagged run as a phrase in title, abstract and keywords', () => {
    const n = expectMatches('cataract surgery[tiab]', (d) =>
      hasPhrase(
        [
          d.article.title,
          ...d.article.abstract.map((s) => s.text),
          ...d.article.keywords.map((k) => k.text),
        ],
        'cataract surgery',
      ),
    )
    expect(n).toBeGreaterThan(3)
    expectMatches('"cataract surgery"[ti]', (d) => hasPhrase([d.article.title], 'cataract surgery'))
  })

  it('combines MeSH headings, publication types, languages and dates', () => {
    const has = (d: Doc, value: string, values: (a: Article) => string[]): boolean =>
      values(d.article).map(normalizeKeyword).includes(normalizeKeyword(value))
    const mesh = (a: Article): string[] => a.mesh.map((h) => h.descriptorName)
    const types = (a: Article): string[] => a.publicationTypes.map((p) => p.name)
    expect(
      expectMatches(
        'humans[mh] AND review[pt]',
        (d) => has(d, 'humans', mesh) && has(d, 'review', types),
      ),
    ).toBeGreaterThan(0)
    expect(
      expectMatches(
        '(surgery OR therapy) NOT ita[la]',
        (d) =>
          (hasWord(d, 'surgery') ||
            hasWord(d, 'therapy') ||
            keywordValues(d.article).includes('surgery') ||
            keywordValues(d.article).includes('therapy')) &&
          !d.article.languages.includes('ita'),
      ),
    ).toBeGreaterThan(10)
    expect(
      expectMatches(
        'patients[ti] AND 2014/06:2015/03[dp]',
        (d) =>
          hasWord(d, 'patients', [0]) &&
          d.pubdate !== undefined &&
          d.pubdate >= 20140600 &&
          d.pubdate <= 20150399,
      ),
    ).toBeGreaterThan(0)
    expect(
      expectMatches(
        "research support, non u.s. gov't[pt] AND animals[mh:noexp]",
        (d) => has(d, "Research Support, Non-U.S. Gov't", types) && has(d, 'animals', mesh),
      ),
    ).toBeGreaterThan(5)
  })

  it('expands truncated words in text and author fields', () => {
    expect(
      expectMatches(
        'cataract* AND 2015[dp]',
        (d) =>
          (d.fields.some((f) => f.some((t) => t.startsWith('cataract'))) ||
            keywordValues(d.article).some((v) => v.startsWith('cataract'))) &&
          d.pubdate !== undefined &&
          Math.floor(d.pubdate / 10000) === 2015,
      ),
    ).toBeGreaterThan(5)
    expect(
      expectMatches('wang*[au]', (d) =>
        d.article.authors.some((x) =>
          normalizeKeyword(authorDisplayName(x) ?? '').startsWith('wang'),
        ),
      ),
    ).toBe(35)
  })

  it('scores with BM25F over title, abstract, MeSH and keywords, statistics counted by brute force', () => {
    const hits = searcher.search('cataract', { limit: 3 }).hits
    const term = stem('cataract')
    const n = docs.filter((d) => d.fields.some((f) => f.includes(term))).length
    const totals = [0, 1, 2, 3].map((f) => docs.reduce((sum, d) => sum + d.lengths[f]!, 0))
    for (const hit of hits) {
      const doc = docs.find((d) => d.article.id === hit.id)!
      const expected = bm25f({
        collection: {
          docCount: 604,
          fields: ['title', 'abstract', 'mesh', 'keywords'].map((name, f) => ({
            name,
            totalLength: totals[f]!,
          })),
        },
        term: { docFreq: n },
        tfs: doc.fields.map((f) => f.filter((t) => t === term).length),
        lengths: doc.lengths,
      })
      expect(hit.score).toBe(expected.value)
    }
    expect(
      abstractText(docs.find((d) => d.article.id === hits[0]!.id)!.article).length,
    ).toBeGreaterThan(0)
  })
})
