import { readFileSync } from 'node:fs'
import { sharedDataPath } from '@pubmatch/core/testing'
import { beforeAll, describe, expect, it } from 'vitest'
import { tempDir } from '../test/helpers.ts'
import { nfArticle, readNfcorpus, readSampleDocs, type NfDoc } from '../test/nfcorpus.ts'
import { buildIndex } from './build/build-index.ts'
import { createIndexWriter } from './index-writer.ts'
import { openIndex, type IndexReader } from './index-reader.ts'
import { NO_MERGES } from './merge/merge-policy.ts'
import { NO_MORE_DOCS } from './postings/postings-format.ts'
import { testCollectionFields } from './schema/pubmed-fields.ts'

const config = { fields: testCollectionFields({ analyzer: 'whitespace' }), mergePolicy: NO_MERGES }

/** field → term → document frequency, by brute force. */
function bruteDf(docs: readonly NfDoc[], field: 'title' | 'abstract'): Map<string, number> {
  const df = new Map<string, number>()
  for (const doc of docs) {
    for (const term of new Set(doc[field])) {
      df.set(term, (df.get(term) ?? 0) + 1)
    }
  }
  return df
}

function checkAgainstBruteForce(reader: IndexReader, docs: readonly NfDoc[]): void {
  for (const field of ['title', 'abstract'] as const) {
    const truth = bruteDf(docs, field)
    const indexed = new Map([...reader.terms(field)].map((e) => [e.term, e.docFreq]))
    expect(indexed).toEqual(truth)
  }
}

/** Deletes every 10th document and merges the segments: the statistics must follow the deletions exactly. */
async function expectMergeFollowsDeletions(docs: readonly NfDoc[], maxBufferedDocs: number): Promise<void> {
  const dir = await tempDir()
  const writer = await createIndexWriter(dir, config, { maxBufferedDocs })
  for (const doc of docs) {
    await writer.addArticle(nfArticle(doc))
  }
  await writer.commit()
  const kept = docs.filter((_, i) => i % 10 !== 0)
  for (let i = 0; i < docs.length; i += 10) {
    await writer.deleteArticle(docs[i]!.id)
  }
  const info = await writer.forceMerge()
  await writer.close()
  expect(info).toMatchObject({ segments: 1, docCount: kept.length, deletedCount: 0 })
  const reader = await openIndex(dir)
  checkAgainstBruteForce(reader, kept)
  expect(reader.fieldStats('title').sumLength).toBe(kept.reduce((s, d) => s + d.title.length, 0))
}

describe('the sample corpus as a test collection (MEDLINE titles and abstracts split on white space)', () => {
  let docs: NfDoc[] = []

  beforeAll(async () => {
    docs = await readSampleDocs()
  })

  it("keeps every term's df over five segments equal to brute force, and every field length exact", async () => {
    const dir = await tempDir()
    const result = await buildIndex(docs.map(nfArticle), dir, config, { maxBufferedDocs: 125 })
    expect(result).toMatchObject({ docsAdded: 604, docCount: 604, segments: 5 })
    const reader = await openIndex(dir)
    checkAgainstBruteForce(reader, docs)
    const lengths = reader.fieldLengths('abstract')
    for (const doc of docs) {
      expect(lengths[reader.docNumber(doc.id)!]).toBe(doc.abstract.length)
    }
  })

  it('merges five segments into one with the same statistics', async () => {
    await expectMergeFollowsDeletions(docs, 125)
  })
})

describe('NFCorpus corpus.docs (real data, whitespace analyzer)', { tags: ['real-data'] }, () => {
  let docs: NfDoc[] = []

  beforeAll(() => {
    docs = readNfcorpus()
  })

  it('has N = 3,394 and the reference average lengths 10.51 / 134.42', async () => {
    const dir = await tempDir()
    const result = await buildIndex(docs.map(nfArticle), dir, config, { maxBufferedDocs: 1000 })
    expect(result).toMatchObject({ docsAdded: 3394, docCount: 3394, segments: 4 })
    const reader = await openIndex(dir)
    expect(reader.docCount).toBe(3394)
    const sum = (field: 'title' | 'abstract'): number => docs.reduce((s, d) => s + d[field].length, 0)
    expect(reader.fieldStats('title')).toMatchObject({ sumLength: sum('title'), avgLength: sum('title') / 3394 })
    expect(reader.fieldStats('abstract')).toMatchObject({ sumLength: sum('abstract'), avgLength: sum('abstract') / 3394 })
    expect(reader.fieldStats('title').avgLength).toBeCloseTo(10.51, 2)
    expect(reader.fieldStats('abstract').avgLength).toBeCloseTo(134.42, 2)
    expect(reader.fieldStats('abstract').docsWithField).toBe(docs.filter((d) => d.abstract.length > 0).length)
    // Every term's df in both fields, over 4 segments, equals the brute-force count.
    checkAgainstBruteForce(reader, docs)
    // Exact field lengths per document.
    const lengths = reader.fieldLengths('abstract')
    docs.forEach((d, i) => expect(lengths[reader.docNumber(d.id)!]).toBe(docs[i]!.abstract.length))
  })

  it('gives n(t) over title and abstract as the reference defines it, and positions as split', async () => {
    const dir = await tempDir()
    await buildIndex(docs.map(nfArticle), dir, config, { maxBufferedDocs: 700 })
    const reader = await openIndex(dir)
    const queries = readFileSync(sharedDataPath('reference', 'nfcorpus-bm25', 'dev_query_tokens.tsv'), 'utf8')
      .trim()
      .split('\n')
      .slice(0, 60)
      .flatMap((line) => line.split('\t')[1]!.split(' '))
    for (const term of new Set([...queries, 'cancer', 'statin', 'breast', 'num'])) {
      const expected = docs.filter((d) => d.title.includes(term) || d.abstract.includes(term)).length
      expect(reader.docFreqAny(term, ['title', 'abstract'])).toBe(expected)
    }
    // Positions of `cancer` in the abstracts (a multi-block term: df 679 > 128).
    const cursor = reader.postings('abstract', 'cancer')!
    expect(cursor.docFreq).toBe(679)
    let seen = 0
    for (let doc = cursor.nextDoc(); doc !== NO_MORE_DOCS; doc = cursor.nextDoc()) {
      const truth = docs.find((d) => d.id === reader.externalId(doc))!
      const positions = truth.abstract.flatMap((t, i) => (t === 'cancer' ? [i] : []))
      expect([...cursor.positions()]).toEqual(positions)
      expect(cursor.freq()).toBe(positions.length)
      seen++
    }
    expect(seen).toBe(679)
  })

  it('reproduces the reference rz-lucene BM25F scores to 1e-9 from the index statistics', async () => {
    const dir = await tempDir()
    await buildIndex(docs.map(nfArticle), dir, config, { maxBufferedDocs: 1000 })
    const reader = await openIndex(dir)
    const N = reader.docCount
    const fields = [
      { name: 'title', weight: 5, avg: reader.fieldStats('title').avgLength },
      { name: 'abstract', weight: 1, avg: reader.fieldStats('abstract').avgLength },
    ]
    const rows = readFileSync(sharedDataPath('reference', 'nfcorpus-bm25', 'dev_pairs.tsv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split('\t'))
      .filter((row) => row[0] === 'rz-lucene')
    expect(rows).toHaveLength(45) // 10 queries, top 5 (fewer for queries with few hits)
    for (const [, , docId, , score, tokens] of rows) {
      const doc = reader.docNumber(docId!)!
      let total = 0
      for (const term of new Set(tokens!.split(' '))) {
        const n = reader.docFreqAny(term, ['title', 'abstract'])
        if (n === 0) {
          continue
        }
        const idf = Math.log(1 + (N - n + 0.5) / (n + 0.5))
        let tf = 0
        for (const field of fields) {
          const cursor = reader.postings(field.name, term)
          if (cursor !== null && cursor.advance(doc) === doc) {
            const length = reader.fieldLength(field.name, doc)
            tf += (field.weight * cursor.freq()) / (1 - 0.75 + (0.75 * length) / field.avg)
          }
        }
        total += (idf * tf) / (1.2 + tf)
      }
      expect(Math.abs(total - Number(score))).toBeLessThan(1e-9)
    }
  })

  it('merges four segments into one with the same statistics', async () => {
    await expectMergeFollowsDeletions(docs, 1000)
  })
})
