import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PubmatchError, emptyArticle, type Article } from '@pubmatch/core'
import type { IngestRecord } from '../records.ts'
import { MANIFEST_FILE, openCorpus, type CorpusStore } from './corpus-store.ts'

const article = (id: string, title: string, version = 1): Article => ({
  ...emptyArticle(id),
  version,
  title,
})
const put = (a: Article): IngestRecord => ({ kind: 'article', article: a })

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const item of items) {
    out.push(item)
  }
  return out
}

describe('openCorpus', () => {
  let dir: string
  let store: CorpusStore | undefined

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pubmatch-corpus-'))
  })
  afterEach(async () => {
    await store?.close()
    store = undefined
    await rm(dir, { recursive: true, force: true })
  })

  it('refuses to open a directory without a corpus unless asked to create one', async () => {
    await expect(openCorpus(join(dir, 'none'))).rejects.toMatchObject({ code: 'NOT_FOUND' })
    store = await openCorpus(join(dir, 'new'), { create: true })
    expect(store.stats()).toMatchObject({ articles: 0, segments: 0 })
  })

  it('stores articles, counts them, and reads them back after reopening', async () => {
    store = await openCorpus(dir, { create: true })
    const entry = await store.writeSource({ key: 'a.xml', fingerprint: 'f1' }, [
      put(article('1', 'one')),
      put(article('2', 'two')),
    ])
    expect(entry.counts).toMatchObject({ added: 2, updated: 0, unchanged: 0 })
    await store.close()
    store = await openCorpus(dir)
    expect(store.stats()).toMatchObject({ articles: 2, segments: 1, sources: 1 })
    expect((await collect(store.articles())).map((a) => a.title)).toEqual(['one', 'two'])
    expect((await store.getArticle('2'))?.title).toBe('two')
    expect(await store.getArticle('3')).toBeUndefined()
  })

  it('is idempotent: the same records again change nothing and write no segment', async () => {
    store = await openCorpus(dir, { create: true })
    const records = [put(article('1', 'one')), put(article('2', 'two'))]
    await store.writeSource({ key: 'a.xml', fingerprint: 'f1' }, records)
    const again = await store.writeSource({ key: 'b.xml', fingerprint: 'f2' }, records)
    expect(again.counts).toMatchObject({ added: 0, updated: 0, unchanged: 2 })
    expect(again.segment).toBeNull()
    expect(store.stats()).toMatchObject({ articles: 2, segments: 1 })
    expect(store.completedSource('a.xml', 'f1')).toBeDefined()
    expect(store.completedSource('a.xml', 'other')).toBeUndefined()
  })

  it('replaces an article by a newer version or revised content and ignores older versions', async () => {
    store = await openCorpus(dir, { create: true })
    await store.writeSource({ key: 's1', fingerprint: 'x' }, [put(article('1', 'v1')), put(article('2', 'old'))])
    const second = await store.writeSource({ key: 's2', fingerprint: 'x' }, [
      put(article('1', 'v2', 2)),
      put(article('2', 'revised')),
    ])
    expect(second.counts).toMatchObject({ added: 0, updated: 2 })
    const third = await store.writeSource({ key: 's3', fingerprint: 'x' }, [put(article('1', 'v1 again', 1))])
    expect(third.counts).toMatchObject({ stale: 1 })
    const titles = Object.fromEntries((await collect(store.articles())).map((a) => [a.id, a.title]))
    expect(titles).toEqual({ '1': 'v2', '2': 'revised' })
  })

  it('removes deleted citations and remembers deletions of ids it never held', async () => {
    store = await openCorpus(dir, { create: true })
    await store.writeSource({ key: 's1', fingerprint: 'x' }, [put(article('1', 'a')), put(article('2', 'b'))])
    const entry = await store.writeSource({ key: 's2', fingerprint: 'x' }, [
      { kind: 'delete', deleted: [{ id: '1' }, { id: '99' }] },
    ])
    expect(entry.counts).toMatchObject({ deleted: 1, deletedUnknown: 1 })
    expect(store.stats()).toMatchObject({ articles: 1, deleted: 2 })
    await store.close()
    store = await openCorpus(dir)
    expect(store.has('1')).toBe(false)
    expect((await collect(store.articles())).map((a) => a.id)).toEqual(['2'])
  })

  it('keeps per-record errors with the source that produced them', async () => {
    store = await openCorpus(dir, { create: true })
    const error = new PubmatchError('MISSING_FIELD', 'record #3 has no PMID', {
      details: { file: 'x.xml', record: '#3' },
    })
    const entry = await store.writeSource({ key: 'x.xml', fingerprint: 'f' }, [
      put(article('1', 'a')),
      { kind: 'error', error },
    ])
    expect(entry.counts.errors).toBe(1)
    expect(await collect(store.errors())).toEqual([
      { source: 'x.xml', code: 'MISSING_FIELD', message: error.message, details: { file: 'x.xml', record: '#3' } },
    ])
  })

  it('stores full texts by PMCID', async () => {
    store = await openCorpus(dir, { create: true })
    const document = { pmcid: 'PMC1', sourceId: '1', passages: [] }
    await store.writeSource({ key: 'b.json', fingerprint: 'f' }, [{ kind: 'fulltext', document }])
    expect(store.stats().fullTexts).toBe(1)
    expect(await collect(store.fullTexts())).toEqual([document])
  })

  it('leaves the store unchanged when a source fails midway, with no temporary files left', async () => {
    store = await openCorpus(dir, { create: true })
    await store.writeSource({ key: 's1', fingerprint: 'x' }, [put(article('1', 'kept'))])
    async function* failing(): AsyncGenerator<IngestRecord> {
      yield put(article('2', 'lost'))
      yield put(article('1', 'changed'))
      await Promise.resolve()
      throw new Error('interrupted')
    }
    await expect(store.writeSource({ key: 's2', fingerprint: 'x' }, failing())).rejects.toThrow('interrupted')
    expect(store.stats()).toMatchObject({ articles: 1, segments: 1, sources: 1 })
    expect(store.completedSource('s2', 'x')).toBeUndefined()
    expect((await readdir(join(dir, 'segments'))).filter((n) => n.startsWith('.tmp-'))).toEqual([])
    expect((await store.getArticle('1'))?.title).toBe('kept')
  })

  it('sweeps temporary files a crashed writer left behind', async () => {
    store = await openCorpus(dir, { create: true })
    await store.close()
    await writeFile(join(dir, 'segments', '.tmp-000001.jsonl.gz-123-abcd'), 'partial')
    store = await openCorpus(dir)
    expect(await readdir(join(dir, 'segments'))).toEqual([])
  })

  it('reports a segment whose bytes no longer match the manifest checksum', async () => {
    store = await openCorpus(dir, { create: true })
    await store.writeSource({ key: 's1', fingerprint: 'x' }, [put(article('1', 'a'))])
    await store.close()
    store = undefined
    const manifest = JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8')) as {
      segments: Array<{ sha256: string }>
    }
    manifest.segments[0]!.sha256 = '0'.repeat(64)
    await writeFile(join(dir, MANIFEST_FILE), JSON.stringify(manifest))
    await expect(openCorpus(dir)).rejects.toMatchObject({ code: 'CORPUS_CORRUPTED' })
  })

  it('rejects a damaged manifest with a clear code', async () => {
    await writeFile(join(dir, MANIFEST_FILE), '{ not json')
    await expect(openCorpus(dir)).rejects.toMatchObject({ code: 'CORPUS_CORRUPTED' })
    await writeFile(join(dir, MANIFEST_FILE), JSON.stringify({ format: 'pubmatch-corpus', version: 99, segments: [], sources: [] }))
    await expect(openCorpus(dir)).rejects.toMatchObject({ code: 'SCHEMA_MISMATCH' })
  })

  it('rejects a manifest of another shape, naming the file and the field', async () => {
    store = await openCorpus(dir, { create: true })
    await store.writeSource({ key: 's1', fingerprint: 'x' }, [put(article('1', 'a'))])
    await store.close()
    store = undefined
    const good = JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8')) as { segments: Array<Record<string, unknown>>; sources: Array<Record<string, unknown>> }
    const message = async (manifest: unknown): Promise<string> => {
      await writeFile(join(dir, MANIFEST_FILE), JSON.stringify(manifest))
      const error = await openCorpus(dir).catch((e: unknown) => e)
      expect(error).toMatchObject({ code: 'CORPUS_CORRUPTED', details: { file: join(dir, MANIFEST_FILE) } })
      return (error as Error).message.replace(dir, '<dir>')
    }
    expect(await message({ ...good, segments: [{ ...good.segments[0], operations: '1' }] })).toMatchInlineSnapshot(
      `"<dir>/CORPUS.json: segments[0].operations is "1", expected a non-negative integer"`,
    )
    expect(await message({ ...good, sources: [{ ...good.sources[0], counts: undefined }] })).toMatchInlineSnapshot(
      `"<dir>/CORPUS.json: sources[0].counts is missing, expected an object"`,
    )
    expect(await message({ ...good, format: 'pubmatch-index' })).toMatchInlineSnapshot(
      `"<dir>/CORPUS.json: format is "pubmatch-index", expected "pubmatch-corpus""`,
    )
    expect(await message(['pubmatch-corpus', 1])).toMatchInlineSnapshot(`"<dir>/CORPUS.json holds ["pubmatch-corpus",1], expected an object"`)
  })

  it('locks the corpus against a second writer but takes over a stale lock', async () => {
    store = await openCorpus(dir, { create: true })
    const readOnly = await openCorpus(dir, { readOnly: true })
    expect(readOnly.stats().articles).toBe(0)
    await store.close()
    store = undefined
    // a lock held by a live process that is not us (pid 1 is always alive)
    await writeFile(join(dir, '.lock'), '1')
    await expect(openCorpus(dir)).rejects.toMatchObject({ code: 'IO' })
    // a lock left by a process that no longer exists
    await writeFile(join(dir, '.lock'), '2147483646')
    store = await openCorpus(dir)
    expect(store.stats().articles).toBe(0)
  })

  it('compacts many segments into one with the same live content', async () => {
    store = await openCorpus(dir, { create: true })
    await store.writeSource({ key: 's1', fingerprint: 'x' }, [put(article('1', 'a')), put(article('2', 'b'))])
    await store.writeSource({ key: 's2', fingerprint: 'x' }, [put(article('2', 'b2', 2)), put(article('3', 'c'))])
    await store.writeSource({ key: 's3', fingerprint: 'x' }, [{ kind: 'delete', deleted: [{ id: '1' }] }])
    const before = await collect(store.articles())
    await store.compact()
    expect(store.stats()).toMatchObject({ articles: 2, segments: 1, deleted: 1 })
    expect(await collect(store.articles())).toEqual(before)
    expect(await readdir(join(dir, 'segments'))).toEqual(['000004.jsonl.gz'])
    // the sources stay known, so re-ingesting them is still skipped
    expect(store.completedSource('s2', 'x')).toBeDefined()
  })
})

describe('CorpusStore.changes', () => {
  it('replays the writes and deletions after a segment, in order', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pubmatch-changes-'))
    const store = await openCorpus(dir, { create: true })
    try {
      await store.writeSource({ key: 's1', fingerprint: 'x' }, [put(article('1', 'a')), put(article('2', 'b'))])
      const mark = store.lastSegment()
      await store.writeSource({ key: 's2', fingerprint: 'x' }, [
        put(article('2', 'b2', 2)),
        { kind: 'delete', deleted: [{ id: '1', version: 1 }] },
      ])
      const all = (await collect(store.changes())).map((c) => (c.kind === 'article' ? `+${c.article.id}` : `-${c.id}`))
      expect(all).toEqual(['+1', '+2', '+2', '-1'])
      const since = await collect(store.changes(mark))
      expect(since.map((c) => (c.kind === 'article' ? `+${c.article.id}:${c.article.version}` : `-${c.id}:${c.version}`))).toEqual([
        '+2:2',
        '-1:1',
      ])
      expect(mark).toBe('000001.jsonl.gz')
      expect(store.lastSegment()).toBe('000002.jsonl.gz')
    } finally {
      await store.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('records derived from full texts', () => {
  let dir: string
  let store: CorpusStore | undefined
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pubmatch-derived-'))
  })
  afterEach(async () => {
    await store?.close()
    store = undefined
    await rm(dir, { recursive: true, force: true })
  })

  /** A full text and the record derived from it; `pmid` undefined keys the record by its PMCID. */
  const fullText = (pmcid: string, pmid: string | undefined, title: string): IngestRecord => ({
    kind: 'fulltext',
    document: { pmcid, ...(pmid === undefined ? {} : { pmid }), sourceId: pmcid, title, passages: [] },
    article: {
      ...emptyArticle(pmid ?? pmcid, 'pmc'),
      title,
      articleIds: [...(pmid === undefined ? [] : [{ type: 'pubmed', value: pmid }]), { type: 'pmc', value: pmcid }],
      derivedFrom: 'jats',
    },
  })
  const citation = (id: string, title: string, pmcid?: string): IngestRecord =>
    put({ ...article(id, title), articleIds: [{ type: 'pubmed', value: id }, ...(pmcid === undefined ? [] : [{ type: 'pmc', value: pmcid }])] })
  const live = async (s: CorpusStore): Promise<Record<string, string>> =>
    Object.fromEntries((await collect(s.articles())).map((a) => [a.id, `${a.source}:${a.title}`]))

  it('keeps a full text’s own record while no citation is there, and lets a later citation replace it', async () => {
    store = await openCorpus(dir, { create: true })
    const first = await store.writeSource({ key: 'pmc', fingerprint: 'x' }, [fullText('PMC10', '100', 'from the full text')])
    expect(first.counts).toMatchObject({ fullTexts: 1, derived: 1, added: 0 })
    expect(store.stats()).toMatchObject({ articles: 1, derived: 1, fullTexts: 1 })
    expect(await store.getArticle('100')).toMatchObject({ source: 'pmc', derivedFrom: 'jats' })
    const second = await store.writeSource({ key: 'pubmed', fingerprint: 'x' }, [citation('100', 'from PubMed')])
    expect(second.counts).toMatchObject({ added: 1, updated: 0, derived: 0 })
    expect(await live(store)).toEqual({ '100': 'pubmed:from PubMed' })
    expect(store.stats()).toMatchObject({ articles: 1, derived: 0 })
    // the full text again (changed or not) leaves the citation alone
    const again = await store.writeSource({ key: 'pmc2', fingerprint: 'x' }, [fullText('PMC10', '100', 'revised full text')])
    expect(again.counts).toMatchObject({ fullTexts: 1, derived: 0, added: 0, updated: 0 })
    expect(await live(store)).toEqual({ '100': 'pubmed:from PubMed' })
  })

  it('gives the same corpus whichever comes first, and survives reopening and compaction', async () => {
    store = await openCorpus(join(dir, 'a'), { create: true })
    await store.writeSource({ key: 'pubmed', fingerprint: 'x' }, [citation('100', 'from PubMed')])
    const after = await store.writeSource({ key: 'pmc', fingerprint: 'x' }, [fullText('PMC10', '100', 'from the full text'), fullText('PMC11', '101', 'alone')])
    expect(after.counts).toMatchObject({ fullTexts: 2, derived: 1 })
    const citationFirst = await live(store)
    await store.close()
    store = await openCorpus(join(dir, 'b'), { create: true })
    await store.writeSource({ key: 'pmc', fingerprint: 'x' }, [fullText('PMC10', '100', 'from the full text'), fullText('PMC11', '101', 'alone')])
    await store.writeSource({ key: 'pubmed', fingerprint: 'x' }, [citation('100', 'from PubMed')])
    expect(await live(store)).toEqual(citationFirst)
    expect(citationFirst).toEqual({ '100': 'pubmed:from PubMed', '101': 'pmc:alone' })
    await store.close()
    store = await openCorpus(join(dir, 'b'))
    expect(store.stats()).toMatchObject({ articles: 2, derived: 1, fullTexts: 2 })
    await store.compact()
    expect(store.stats()).toMatchObject({ articles: 2, derived: 1, segments: 1 })
    expect(await live(store)).toEqual(citationFirst)
  })

  it('keys a record by its PMCID when the full text names no PMID, and drops it for a citation that names that PMCID', async () => {
    store = await openCorpus(dir, { create: true })
    await store.writeSource({ key: 'pmc', fingerprint: 'x' }, [fullText('PMC20', undefined, 'no PMID')])
    expect(await live(store)).toEqual({ PMC20: 'pmc:no PMID' })
    const mark = store.lastSegment()
    const cited = await store.writeSource({ key: 'pubmed', fingerprint: 'x' }, [citation('200', 'cited', 'PMC20')])
    expect(cited.counts).toMatchObject({ added: 1, deleted: 0 })
    expect(await live(store)).toEqual({ '200': 'pubmed:cited' })
    // an index following the corpus removes the derived record
    expect((await collect(store.changes(mark))).map((c) => (c.kind === 'article' ? `+${c.article.id}` : `-${c.id}`))).toEqual(['+200', '-PMC20'])
    // not a DeleteCitation: no tombstone
    expect(store.stats()).toMatchObject({ articles: 1, derived: 0, deleted: 0 })
    // and the full text again does not bring it back, before or after reopening
    await store.writeSource({ key: 'pmc2', fingerprint: 'x' }, [fullText('PMC20', undefined, 'no PMID, revised')])
    await store.close()
    store = await openCorpus(dir)
    await store.writeSource({ key: 'pmc3', fingerprint: 'x' }, [fullText('PMC20', undefined, 'no PMID, revised again')])
    expect(await live(store)).toEqual({ '200': 'pubmed:cited' })
  })

  it('writes no PMCID-keyed record for a full text whose PMCID a citation already names', async () => {
    store = await openCorpus(dir, { create: true })
    await store.writeSource({ key: 'pubmed', fingerprint: 'x' }, [citation('200', 'cited', 'pmc20')])
    const entry = await store.writeSource({ key: 'pmc', fingerprint: 'x' }, [fullText('PMC20', undefined, 'no PMID')])
    expect(entry.counts).toMatchObject({ fullTexts: 1, derived: 0 })
    expect(await live(store)).toEqual({ '200': 'pubmed:cited' })
  })

  it('does not bring back a citation that a DeleteCitation removed', async () => {
    store = await openCorpus(dir, { create: true })
    await store.writeSource({ key: 'pubmed', fingerprint: 'x' }, [citation('100', 'from PubMed'), { kind: 'delete', deleted: [{ id: '100' }] }])
    const entry = await store.writeSource({ key: 'pmc', fingerprint: 'x' }, [fullText('PMC10', '100', 'from the full text')])
    expect(entry.counts).toMatchObject({ fullTexts: 1, derived: 0 })
    expect(await live(store)).toEqual({})
  })

  it('reads a manifest written before records were derived (its counts have no `derived`) as 0 derived', async () => {
    store = await openCorpus(dir, { create: true })
    await store.writeSource({ key: 'pubmed', fingerprint: 'x' }, [citation('100', 'from PubMed')])
    await store.close()
    const manifest = JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8')) as { sources: Array<{ counts: Record<string, number> }> }
    for (const source of manifest.sources) {
      delete source.counts['derived']
    }
    await writeFile(join(dir, MANIFEST_FILE), JSON.stringify(manifest))
    store = await openCorpus(dir)
    expect(store.sources().map((source) => source.counts)).toEqual([expect.objectContaining({ added: 1, derived: 0 })])
  })

  it('writes the record of a full text stored before records were derived when it is ingested again', async () => {
    store = await openCorpus(dir, { create: true })
    const old = fullText('PMC10', '100', 'title')
    const document = old.kind === 'fulltext' ? old.document : undefined
    await store.writeSource({ key: 'old', fingerprint: 'x' }, [{ kind: 'fulltext', document: document! }])
    expect(store.stats()).toMatchObject({ articles: 0, fullTexts: 1 })
    const again = await store.writeSource({ key: 'old', fingerprint: 'y' }, [old])
    expect(again.counts).toMatchObject({ unchanged: 1, fullTexts: 0, derived: 1 })
    expect(await live(store)).toEqual({ '100': 'pmc:title' })
    const unchanged = await store.writeSource({ key: 'old', fingerprint: 'z' }, [old])
    expect(unchanged.counts).toMatchObject({ unchanged: 1, derived: 0 })
    expect(unchanged.segment).toBeNull()
  })
})
