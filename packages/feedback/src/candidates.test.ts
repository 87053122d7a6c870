import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emptyArticle } from '@pubmatch/core'
import { createIndexWriter, openIndex, testCollectionFields, type IndexReader } from '@pubmatch/index'
import { indexCandidates } from './candidates.ts'

/**
 * 60 documents (whitespace analyzer): every one holds `common` in its title; `rare` is in the
 * abstracts of d7 (twice) and d41; `even` is in the titles of the even-numbered ones (30).
 */
const docs = Array.from({ length: 60 }, (_, i) => ({
  id: `d${i}`,
  title: `common${i % 2 === 0 ? ' even' : ''}${i === 7 ? ' common' : ''}`,
  abstract: i === 7 ? 'rare text rare' : i === 41 ? 'rare' : 'text',
}))

describe('indexCandidates', () => {
  let dir: string
  let reader: IndexReader
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'feedback-candidates-'))
    const writer = await createIndexWriter(join(dir, 'index'), { fields: testCollectionFields({ analyzer: 'whitespace' }) })
    for (const doc of docs) {
      await writer.addArticle({ ...emptyArticle(doc.id, 'test-collection'), title: doc.title, abstract: [{ text: doc.abstract }] })
    }
    await writer.commit()
    await writer.close()
    reader = await openIndex(join(dir, 'index'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('counts a term in title and abstract of each candidate, for short and long postings lists alike', () => {
    // three candidates, out of document order: `common` (df 60 > 8 × 3) is jumped through,
    // `rare` (df 2) is read whole
    const ids = ['d41', 'd7', 'd2']
    const set = indexCandidates(reader, ids.map((id) => reader.docNumber(id)!))
    expect(set.ids).toEqual(ids)
    expect([...set.tf('common')]).toEqual([1, 2, 1])
    expect([...set.tf('rare')]).toEqual([1, 2, 0])
    expect([...set.tf('even')]).toEqual([0, 0, 1])
    expect([...set.tf('text')]).toEqual([0, 1, 1])
    expect([...set.tf('absent')]).toEqual([0, 0, 0])
    expect(set.localDocFreq('rare')).toBe(2)
    expect(set.localDocFreq('even')).toBe(1)
    expect(set.globalDocFreq('even')).toBe(30)
    expect(set.globalDocFreq('rare')).toBe(2)
    expect(set.collectionSize).toBe(60)
    // lengths: title + abstract tokens
    expect([...set.lengths]).toEqual([2, 5, 3])
  })

  it('gives the same columns whichever way it reads a list', () => {
    // all 60 candidates: every list is read whole
    const all = indexCandidates(reader, docs.map((doc) => reader.docNumber(doc.id)!))
    for (const term of ['common', 'rare', 'even', 'text']) {
      const expected = docs.map((doc) => [...`${doc.title} ${doc.abstract}`.split(' ')].filter((word) => word === term).length)
      expect([...all.tf(term)]).toEqual(expected)
    }
  })
})
