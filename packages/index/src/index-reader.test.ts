import { cp, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { article, tempDir, testConfig } from '../test/helpers.ts'
import { createIndexWriter } from './index-writer.ts'
import { openIndex, readIndexGeneration, type IndexReader } from './index-reader.ts'
import { isPubmatchError } from '@pubmatch/core'
import { NO_MERGES } from './merge/merge-policy.ts'
import { BLOCK_SIZE, NO_MORE_DOCS } from './postings/postings-format.ts'

/**
 * Three segments of 300 documents each; every document has `common` (freq = 1 + doc % 3)
 * and every 7th has `rare`; documents 5 and 400 are deleted.
 */
async function threeSegments(): Promise<IndexReader> {
  const dir = await tempDir()
  const writer = await createIndexWriter(dir, testConfig({ mergePolicy: NO_MERGES }), { maxBufferedDocs: 300 })
  for (let i = 0; i < 900; i++) {
    const words = [...new Array<string>(1 + (i % 3)).fill('common'), ...(i % 7 === 0 ? ['rare'] : []), ...new Array<string>(i % 11).fill('pad')]
    await writer.addArticle(article({ id: `d${i}`, title: words.join(' '), abstract: '', keywords: i % 2 === 0 ? ['Even Numbers'] : [], year: 2000 + (i % 20) }))
  }
  await writer.commit()
  await writer.deleteArticle('d5')
  await writer.deleteArticle('d400')
  await writer.close()
  return openIndex(dir)
}

describe('IndexReader', () => {
  it('walks postings across segments in global numbers, skipping deleted documents', async () => {
    const reader = await threeSegments()
    expect(reader.segments.map((s) => [s.docBase, s.docCount, s.deletedCount])).toEqual([
      [0, 300, 1],
      [300, 300, 1],
      [600, 300, 0],
    ])
    const cursor = reader.postings('title', 'common')!
    expect(cursor.docFreq).toBe(900)
    const docs: number[] = []
    for (let d = cursor.nextDoc(); d !== NO_MORE_DOCS; d = cursor.nextDoc()) {
      expect(cursor.freq()).toBe(1 + (d % 3))
      docs.push(d)
    }
    expect(docs).toHaveLength(898)
    expect(docs).not.toContain(5)
    expect(docs).not.toContain(400)
    // in bulk: the same live documents and frequencies
    const bulk = reader.postings('title', 'common')!
    const chunkDocs = new Int32Array(128)
    const chunkFreqs = new Int32Array(128)
    const bulkDocs: number[] = []
    for (let n = bulk.nextDocs(chunkDocs, chunkFreqs); n > 0; n = bulk.nextDocs(chunkDocs, chunkFreqs)) {
      for (let i = 0; i < n; i++) {
        expect(chunkFreqs[i]).toBe(1 + (chunkDocs[i]! % 3))
        bulkDocs.push(chunkDocs[i]!)
      }
    }
    expect(bulkDocs).toEqual(docs)
    expect(bulk.docID()).toBe(NO_MORE_DOCS)
    const skipping = reader.postings('title', 'rare')!
    expect(skipping.advance(5)).toBe(7)
    expect(skipping.advance(299)).toBe(301) // crosses into segment 2
    expect(skipping.advance(301)).toBe(301) // stays
    expect(skipping.advance(600)).toBe(602)
    expect(skipping.advance(895)).toBe(896)
    expect(skipping.advance(897)).toBe(NO_MORE_DOCS)
  })

  it('gives block impacts that bound every document up to the block end, across segments', async () => {
    const reader = await threeSegments()
    const lengths = reader.fieldLengths('title')
    const cursor = reader.postings('title', 'common')!
    let target = 0
    let blocks = 0
    while (target < reader.maxDoc) {
      const end = cursor.shallowAdvance(target)
      expect(end).toBeGreaterThanOrEqual(target)
      const impacts = cursor.blockImpacts()
      for (let d = target; d <= Math.min(end, reader.maxDoc - 1); d++) {
        const freq = 1 + (d % 3)
        expect(impacts.some((i) => i.freq >= freq && i.length <= lengths[d]!)).toBe(true)
      }
      blocks++
      target = end + 1
    }
    // 300 documents per segment = 3 blocks each (128 + 128 + 44)
    expect(blocks).toBe(9)
    expect(cursor.shallowAdvance(BLOCK_SIZE)).toBe(2 * BLOCK_SIZE - 1)
    expect(cursor.maxImpacts().at(-1)?.freq).toBe(3)
  })

  it('serves doc values, stored records, ids and lengths in global numbers', async () => {
    const reader = await threeSegments()
    expect(reader).toMatchObject({ maxDoc: 900, docCount: 898, deletedCount: 2 })
    expect(reader.numericValue('year', 450)).toBe(2010)
    expect(reader.numericValues('year')[899]).toBe(2019)
    expect(reader.sortedSetValues('journal', 3)).toEqual([])
    expect(reader.stored(601)).toMatchObject({ id: 'd601', authors: [], authorCount: 0 })
    expect(reader.externalId(777)).toBe('d777')
    expect(reader.docNumber('d777')).toBe(777)
    expect(reader.docNumber('d400')).toBeUndefined()
    expect(reader.isLive(400)).toBe(false)
    expect(reader.fieldLength('title', 12)).toBe(2) // common × (1 + 12 % 3), no rare, pad × (12 % 11)
    expect(reader.docFreq('tag', 'even numbers')).toBe(450)
    expect(reader.liveDocFreq('tag', 'even numbers')).toBe(449) // d400 was even
    expect(reader.analyzer('tag').analyze(' Even  NUMBERS! ').map((t) => t.term)).toEqual(['even numbers'])
    expect(reader.analyzer('title').analyze('common rare').map((t) => t.term)).toEqual(['common', 'rare'])
  })

  it('names unknown fields and doc values', async () => {
    const reader = await threeSegments()
    expect(() => reader.docFreq('titel', 'x')).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: unknown field "titel" (known: title, abstract, kw, tag)]`,
    )
    expect(() => reader.numericValue('yr', 0)).toThrow(/unknown numeric doc value "yr"/)
    expect(() => reader.sortedSetValues('pt', 0)).toThrow(/unknown sorted-set doc value "pt"/)
    expect(() => reader.stored(900)).toThrow(/document number 900 is outside 0…899/)
    expect(reader.hasField('kw')).toBe(true)
    expect(reader.field('kw')).toEqual({ name: 'kw', analyzer: 'whitespace', keyword: false, positions: true, positionGap: 7 })
    expect(reader.postings('title', 'absent')).toBeNull()
    expect(reader.docFreq('title', 'absent')).toBe(0)
  })
})

describe('readIndexGeneration', () => {
  it("reads the last commit's generation without opening the index, and says when there is none", async () => {
    const dir = await tempDir()
    const writer = await createIndexWriter(dir, testConfig())
    await writer.addArticle(article({ id: 'a', title: 'one', abstract: '', keywords: [] }))
    await writer.commit()
    const first = await readIndexGeneration(dir)
    expect(first).toBe((await openIndex(dir)).generation)
    await writer.addArticle(article({ id: 'b', title: 'two', abstract: '', keywords: [] }))
    await writer.commit()
    await writer.close()
    expect(await readIndexGeneration(dir)).toBe(first + 1)
    expect(await readIndexGeneration(dir)).toBe((await openIndex(dir)).generation)
    const empty = await tempDir()
    await expect(readIndexGeneration(empty)).rejects.toSatisfy((error: unknown) =>
      isPubmatchError(error, 'NOT_FOUND'),
    )
  })
})

describe('openIndex with an earlier reader to reuse', () => {
  /** Flips one byte of a file in place (its checksum no longer matches the manifest). */
  async function damage(dir: string, file: string): Promise<void> {
    const path = join(dir, file)
    const bytes = await readFile(path)
    bytes[20] = bytes[20]! ^ 0xff
    await writeFile(path, bytes)
  }

  it("shares the segments a later commit still lists, reads only a segment's new deletions, and reads new segments", async () => {
    const dir = await tempDir()
    const writer = await createIndexWriter(dir, testConfig({ mergePolicy: NO_MERGES }), { maxBufferedDocs: 100 })
    for (const id of ['a', 'b', 'c']) {
      await writer.addArticle(article({ id, title: `first ${id}`, abstract: '', keywords: [] }))
    }
    await writer.commit()
    const earlier = await openIndex(dir)
    expect(earlier.segments).toHaveLength(1)
    const [first] = earlier.segments
    // the first segment's postings are damaged on disk after `earlier` read them: a fresh open
    // refuses the index, a reopen that shares the segment does not read them again
    await damage(dir, `${first!.name}.pst`)
    await expect(openIndex(dir)).rejects.toSatisfy((error: unknown) => isPubmatchError(error, 'INDEX_CORRUPTED'))
    await writer.addArticle(article({ id: 'd', title: 'second d', abstract: '', keywords: [] }))
    await writer.deleteArticle('b')
    await writer.commit()
    await writer.close()
    const later = await openIndex(dir, { reuse: earlier })
    expect(later.generation).toBe(earlier.generation + 1)
    expect(later).toMatchObject({ docCount: 3, deletedCount: 1, maxDoc: 4 })
    expect(later.segments.map((s) => s.name)).toEqual([first!.name, expect.any(String)])
    expect(later.docNumber('b')).toBeUndefined()
    expect(earlier.docNumber('b')).toBe(1) // the earlier reader keeps its own deletions
    expect(later.stored(later.docNumber('d')!).title).toBe('second d')
    expect(later.liveDocFreq('title', 'first')).toBe(2)
    expect(later.liveDocFreq('title', 'second')).toBe(1)
    // a reader of another directory is not reused: the damaged segment is read and refused
    const copy = await tempDir()
    await cp(dir, copy, { recursive: true })
    await expect(openIndex(copy, { reuse: earlier })).rejects.toSatisfy((error: unknown) => isPubmatchError(error, 'INDEX_CORRUPTED'))
  })

  it('reads a segment again when the later commit lists other files under its name', async () => {
    // two directories whose first segments share a name but not their bytes
    const [one, two] = [await tempDir(), await tempDir()]
    for (const [dir, title] of [[one, 'alpha'], [two, 'beta']] as const) {
      const writer = await createIndexWriter(dir, testConfig())
      await writer.addArticle(article({ id: 'x', title, abstract: '', keywords: [] }))
      await writer.close()
    }
    const earlier = await openIndex(one)
    await rm(one, { recursive: true })
    await cp(two, one, { recursive: true })
    const later = await openIndex(one, { reuse: earlier })
    expect(later.segments.map((s) => s.name)).toEqual(earlier.segments.map((s) => s.name))
    expect(later.stored(0).title).toBe('beta')
    expect(later.liveDocFreq('title', 'alpha')).toBe(0)
  })
})
