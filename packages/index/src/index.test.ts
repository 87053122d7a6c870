import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { article, bruteForce, livePostings, sortedModel, tempDir, testConfig, type TestDoc } from '../test/helpers.ts'
import { createIndexWriter } from './index-writer.ts'
import { openIndex } from './index-reader.ts'
import { NO_MERGES, logMergePolicy } from './merge/merge-policy.ts'
import { NO_MORE_DOCS } from './postings/postings-format.ts'
import type { CodecName } from './codec/block-codec.ts'
import type { Article } from '@pubmatch/core'

const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'eps', 'zeta', 'eta', 'theta', '日本', 'x\u{1F600}')
const text = fc.array(word, { maxLength: 10 }).map((ws) => ws.join(' '))
const docArb: fc.Arbitrary<TestDoc> = fc.record(
  {
    id: fc.integer({ min: 0, max: 25 }).map((i) => `D${i}`),
    title: text,
    abstract: text,
    keywords: fc.array(fc.array(word, { minLength: 1, maxLength: 3 }).map((ws) => ws.join(' ')), { maxLength: 3 }),
    year: fc.integer({ min: 1950, max: 2030 }),
  },
  { requiredKeys: ['id', 'title', 'abstract', 'keywords'] },
)
type Op = { kind: 'add'; doc: TestDoc } | { kind: 'delete'; id: string } | { kind: 'commit' }
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: docArb.map((doc) => ({ kind: 'add' as const, doc })) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 25 }).map((i) => ({ kind: 'delete' as const, id: `D${i}` })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'commit' as const }) },
)
interface Settings {
  maxBufferedDocs: number
  merging: string
  codec: CodecName
}
const settingsArb: fc.Arbitrary<Settings> = fc.record({
  maxBufferedDocs: fc.integer({ min: 1, max: 9 }),
  merging: fc.constantFrom('none', 'log2', 'log3'),
  codec: fc.constantFrom<CodecName>('vbyte', 'bitpack'),
})

function mergePolicyOf(merging: string): ReturnType<typeof logMergePolicy> {
  return merging === 'none' ? NO_MERGES : logMergePolicy({ mergeFactor: merging === 'log2' ? 2 : 3, minMergeDocs: 1 })
}

/** Applies the ops to a model: the live articles, in the order of their last add. */
function model(ops: readonly Op[]): Article[] {
  const live = new Map<string, Article>()
  for (const op of ops) {
    if (op.kind === 'add') {
      live.delete(op.doc.id)
      live.set(op.doc.id, article(op.doc))
    } else if (op.kind === 'delete') {
      live.delete(op.id)
    }
  }
  return [...live.values()]
}

async function applyOps(dir: string, ops: readonly Op[], settings: Settings): Promise<void> {
  const writer = await createIndexWriter(dir, testConfig({ codec: settings.codec, mergePolicy: mergePolicyOf(settings.merging) }), {
    maxBufferedDocs: settings.maxBufferedDocs,
  })
  for (const op of ops) {
    if (op.kind === 'add') {
      await writer.addArticle(article(op.doc))
    } else if (op.kind === 'delete') {
      await writer.deleteArticle(op.id)
    } else {
      await writer.commit()
    }
  }
  await writer.close()
}

async function segmentBytes(dir: string): Promise<Record<string, string>> {
  const files = (await readdir(dir)).filter((f) => /^_[0-9a-z]+\.(tdx|pst|pos|nrm|dv|sto|ids)$/.test(f))
  const out: Record<string, string> = {}
  for (const file of files) {
    out[file.slice(file.indexOf('.'))] = (await readFile(join(dir, file))).toString('base64')
  }
  return out
}

describe('index (property-based, against a brute-force model)', () => {
  it('holds exactly the live documents: postings sorted, positions, df = postings count, stats', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 40 }), settingsArb, async (ops, settings) => {
        const dir = await tempDir()
        await applyOps(dir, ops, settings)
        const expected = model(ops)
        const reader = await openIndex(dir)
        expect(reader.docCount).toBe(expected.length)
        expect(sortedModel(livePostings(reader))).toEqual(sortedModel(bruteForce(expected)))
        const truth = bruteForce(expected)
        for (const field of reader.schema.fields) {
          for (const [term, docs] of truth.get(field.name) ?? []) {
            expect(reader.liveDocFreq(field.name, term)).toBe(docs.size)
            // Lucene semantics: df counts deleted documents until they are merged away.
            expect(reader.docFreq(field.name, term)).toBeGreaterThanOrEqual(docs.size)
          }
          const stats = reader.fieldStats(field.name)
          const lengths = expected.map((a) => {
            let n = 0
            for (const docs of truth.get(field.name)?.values() ?? []) {
              n += docs.get(a.id)?.length ?? 0
            }
            return n
          })
          expect(stats.sumLength).toBe(lengths.reduce((x, y) => x + y, 0))
          expect(stats.docsWithField).toBe(lengths.filter((n) => n > 0).length)
          expected.forEach((a, i) => {
            const doc = reader.docNumber(a.id)!
            expect(reader.fieldLength(field.name, doc)).toBe(lengths[i])
          })
        }
        for (const a of expected) {
          const doc = reader.docNumber(a.id)!
          expect(reader.isLive(doc)).toBe(true)
          expect(reader.externalId(doc)).toBe(a.id)
          expect(reader.numericValue('year', doc)).toBe(a.pubDate?.year)
          expect(reader.numericValue('keyword_count', doc)).toBe(a.keywords.length)
          expect(reader.stored(doc).title).toBe(a.title)
        }
      }),
      { numRuns: 40 },
    )
  })

  it('merges into the same bytes as a rebuild from the live documents, with exact df', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 40 }), settingsArb, async (ops, settings) => {
        const expected = model(ops)
        fc.pre(expected.length > 0)
        const dir = await tempDir()
        await applyOps(dir, ops, settings)
        const writer = await createIndexWriter(dir, testConfig({ codec: settings.codec }))
        const info = await writer.forceMerge()
        await writer.close()
        expect(info).toMatchObject({ segments: 1, docCount: expected.length, deletedCount: 0 })
        const rebuilt = await tempDir()
        const fresh = await createIndexWriter(rebuilt, testConfig({ codec: settings.codec }), { maxBufferedDocs: 1000 })
        for (const a of expected) {
          await fresh.addArticle(a)
        }
        await fresh.close()
        expect(await segmentBytes(dir)).toEqual(await segmentBytes(rebuilt))
        const reader = await openIndex(dir)
        expect(reader.maxDoc).toBe(expected.length)
        for (const field of reader.schema.fields) {
          for (const entry of reader.terms(field.name)) {
            expect(entry.docFreq).toBe(reader.liveDocFreq(field.name, entry.term))
          }
        }
      }),
      { numRuns: 30 },
    )
  })

  it('merges stored records block by block (copied, or record by record around a deletion) into the bytes of a rebuild', async () => {
    // Segments of 32, 32 and 21 documents: blocks of 16 stored records line up with the merged
    // segment's, so whole compressed blocks are copied, except block 1 of the first segment,
    // which loses document 20 and is re-encoded record by record; from there every later
    // record is one place earlier, so the blocks of the other segments are re-encoded too.
    const docs = Array.from({ length: 85 }, (_, i) =>
      article({ id: `d${i}`, title: `title ${i % 7} word${i}`, abstract: `abstract ${i % 5}`, keywords: [`k${i % 3}`], year: 1990 + (i % 30) }),
    )
    for (const deleted of [null, 'd20']) {
      const dir = await tempDir()
      const writer = await createIndexWriter(dir, testConfig({ mergePolicy: NO_MERGES }), { maxBufferedDocs: 32 })
      for (const a of docs) {
        await writer.addArticle(a)
      }
      if (deleted !== null) {
        await writer.deleteArticle(deleted)
      }
      await writer.commit()
      await writer.forceMerge()
      await writer.close()
      const rebuilt = await tempDir()
      const fresh = await createIndexWriter(rebuilt, testConfig(), { maxBufferedDocs: 1000 })
      for (const a of docs.filter((d) => d.id !== deleted)) {
        await fresh.addArticle(a)
      }
      await fresh.close()
      expect(await segmentBytes(dir)).toEqual(await segmentBytes(rebuilt))
      const reader = await openIndex(dir)
      expect(reader.stored(reader.docNumber('d84')!).title).toBe('title 0 word84')
    }
  })

  it('drops deleted documents and their terms on merge', async () => {
    const dir = await tempDir()
    const writer = await createIndexWriter(dir, testConfig({ mergePolicy: NO_MERGES }), { maxBufferedDocs: 2 })
    await writer.addArticle(article({ id: 'a', title: 'shared only-a', abstract: '', keywords: ['k a'] }))
    await writer.addArticle(article({ id: 'b', title: 'shared only-b', abstract: 'x', keywords: [] }))
    await writer.addArticle(article({ id: 'c', title: 'shared', abstract: '', keywords: [] }))
    await writer.commit()
    expect(await writer.deleteArticle('a')).toBe(true)
    expect(await writer.deleteArticle('a')).toBe(false)
    expect(await writer.deleteArticle('zzz')).toBe(false)
    await writer.commit()
    let reader = await openIndex(dir)
    expect(reader).toMatchObject({ docCount: 2, deletedCount: 1, maxDoc: 3 })
    expect(reader.docNumber('a')).toBeUndefined()
    expect(reader.docFreq('title', 'only-a')).toBe(1) // not merged yet
    expect(reader.liveDocFreq('title', 'only-a')).toBe(0)
    expect(reader.postings('title', 'only-a')!.nextDoc()).toBe(NO_MORE_DOCS)
    expect(reader.fieldStats('title')).toMatchObject({ docCount: 2, sumLength: 3, avgLength: 1.5, docsWithField: 2 })
    await writer.forceMerge()
    await writer.close()
    reader = await openIndex(dir)
    expect(reader).toMatchObject({ docCount: 2, deletedCount: 0, maxDoc: 2 })
    expect(reader.docFreq('title', 'only-a')).toBe(0)
    expect([...reader.terms('title')].map((t) => t.term)).toEqual(['only-b', 'shared'])
    expect(reader.docFreq('title', 'shared')).toBe(2)
    expect(reader.postings('tag', 'k a')).toBeNull()
  })

  it('replaces a document when its id is added again (update)', async () => {
    const dir = await tempDir()
    const writer = await createIndexWriter(dir, testConfig(), { maxBufferedDocs: 1 })
    await writer.addArticle(article({ id: '123', title: 'old version', abstract: '', keywords: [], year: 2001 }))
    await writer.commit()
    await writer.addArticle(article({ id: '123', title: 'new version', abstract: '', keywords: [], year: 2002 }))
    await writer.addArticle(article({ id: '123', title: 'newest version', abstract: '', keywords: [], year: 2003 }))
    await writer.close()
    const reader = await openIndex(dir)
    expect(reader.docCount).toBe(1)
    const doc = reader.docNumber('123')!
    expect(reader.stored(doc).title).toBe('newest version')
    expect(reader.numericValue('year', doc)).toBe(2003)
    expect(reader.liveDocFreq('title', 'old')).toBe(0)
    expect(reader.liveDocFreq('title', 'new')).toBe(0)
    expect(reader.liveDocFreq('title', 'version')).toBe(1)
  })

  it('counts a term once per document over several fields (BM25F n(t))', async () => {
    const dir = await tempDir()
    const writer = await createIndexWriter(dir, testConfig({ mergePolicy: NO_MERGES }), { maxBufferedDocs: 2 })
    await writer.addArticle(article({ id: '1', title: 'cancer', abstract: 'cancer risk', keywords: [] }))
    await writer.addArticle(article({ id: '2', title: 'diet', abstract: 'cancer', keywords: [] }))
    await writer.addArticle(article({ id: '3', title: 'cancer', abstract: 'diet', keywords: [] }))
    await writer.addArticle(article({ id: '4', title: 'diet', abstract: 'diet', keywords: ['cancer'] }))
    await writer.commit()
    await writer.deleteArticle('3')
    await writer.close()
    const reader = await openIndex(dir)
    expect(reader.segments).toHaveLength(2)
    expect(reader.docFreqAny('cancer', ['title', 'abstract'])).toBe(3) // 1, 2 and deleted 3
    expect(reader.docFreqAny('cancer', ['title', 'abstract'], true)).toBe(2)
    expect(reader.docFreqAny('cancer', ['title', 'abstract', 'kw'], true)).toBe(3)
    expect(reader.docFreqAny('cancer', ['title'])).toBe(2)
    expect(() => reader.docFreqAny('cancer', ['nope'])).toThrow(/unknown field "nope"/)
  })

  it('counts n(t) over several fields exactly across many blocks, segments and deletions', async () => {
    // 700 documents in 3 segments (5–6 blocks of 128 per field list); a fixed pseudo-random draw
    // puts "cancer" in the title of about 1 in 8, the abstract of 1 in 2, the keywords of 1 in 16
    let seed = 7
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
    const dir = await tempDir()
    const writer = await createIndexWriter(dir, testConfig({ mergePolicy: NO_MERGES }), { maxBufferedDocs: 300 })
    const docs: Array<{ id: string; fields: Set<string> }> = []
    for (let i = 0; i < 700; i++) {
      const fields = new Set<string>()
      const pick = (field: string, p: number): string => (next() < p ? (fields.add(field), 'cancer') : 'diet')
      const title = pick('title', 1 / 8)
      const abstract = pick('abstract', 1 / 2)
      const keyword = pick('kw', 1 / 16)
      docs.push({ id: `d${i}`, fields })
      await writer.addArticle(article({ id: `d${i}`, title, abstract, keywords: [keyword] }))
    }
    await writer.commit()
    const deleted = new Set(docs.filter((_, i) => i % 7 === 3).map((doc) => doc.id))
    for (const id of deleted) {
      await writer.deleteArticle(id)
    }
    await writer.close()
    const reader = await openIndex(dir)
    expect(reader.segments).toHaveLength(3)
    for (const fields of [['title', 'abstract'], ['abstract', 'title'], ['title', 'kw'], ['title', 'abstract', 'kw'], ['kw']]) {
      const having = docs.filter((doc) => fields.some((field) => doc.fields.has(field)))
      expect(reader.docFreqAny('cancer', fields)).toBe(having.length)
      expect(reader.docFreqAny('cancer', fields, true)).toBe(having.filter((doc) => !deleted.has(doc.id)).length)
    }
  })

  it('enumerates terms by prefix across segments with summed statistics', async () => {
    const dir = await tempDir()
    const writer = await createIndexWriter(dir, testConfig({ mergePolicy: NO_MERGES }), { maxBufferedDocs: 1 })
    await writer.addArticle(article({ id: '1', title: 'cardiac cardio', abstract: '', keywords: [] }))
    await writer.addArticle(article({ id: '2', title: 'cardiac carbon care', abstract: '', keywords: [] }))
    await writer.addArticle(article({ id: '3', title: 'cardiac cardiac', abstract: '', keywords: [] }))
    await writer.close()
    const reader = await openIndex(dir)
    expect([...reader.terms('title', 'card')]).toEqual([
      { term: 'cardiac', docFreq: 3, totalTermFreq: 4 },
      { term: 'cardio', docFreq: 1, totalTermFreq: 1 },
    ])
    expect([...reader.terms('title', 'x')]).toEqual([])
    expect([...reader.terms('title')].map((t) => t.term)).toEqual(['carbon', 'cardiac', 'cardio', 'care'])
  })
})
