import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { crc32 } from 'node:zlib'
import { isPubmatchError } from '@pubmatch/core'
import { describe, expect, it } from 'vitest'
import { article, tempDir, testConfig, testFields } from '../../test/helpers.ts'
import { createIndexWriter } from '../index-writer.ts'
import { openIndex } from '../index-reader.ts'
import { MANIFEST_FILE, readManifest } from './manifest.ts'

/** Two documents in two segments. */
async function smallIndex(dir: string): Promise<void> {
  const writer = await createIndexWriter(dir, testConfig(), { maxBufferedDocs: 1 })
  await writer.addArticle(article({ id: '1', title: 'statin breast cancer', abstract: 'risk', keywords: [] }))
  await writer.addArticle(article({ id: '2', title: 'diet', abstract: 'cancer', keywords: [] }))
  await writer.close()
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection')
}

describe('commit protocol', () => {
  it('writes an empty index on close, and a new generation per commit', async () => {
    const dir = await tempDir()
    const writer = await createIndexWriter(dir, testConfig())
    await writer.close()
    expect((await openIndex(dir)).docCount).toBe(0)
    const again = await createIndexWriter(dir, testConfig())
    await again.addArticle(article({ id: '1', title: 't', abstract: '', keywords: [] }))
    expect((await again.commit()).generation).toBe(2)
    expect((await again.commit()).generation).toBe(3)
    await again.close()
    expect((await readManifest(dir))?.generation).toBe(3)
  })

  it('keeps uncommitted changes invisible to readers, and rollback discards them with their files', async () => {
    const dir = await tempDir()
    await smallIndex(dir)
    const before = (await readdir(dir)).sort()
    const writer = await createIndexWriter(dir, testConfig(), { maxBufferedDocs: 1 })
    await writer.addArticle(article({ id: '3', title: 'flushed but not committed', abstract: '', keywords: [] }))
    await writer.addArticle(article({ id: '4', title: 'another', abstract: '', keywords: [] }))
    await writer.deleteArticle('1')
    expect((await readdir(dir)).length).toBeGreaterThan(before.length) // a segment was flushed
    const reader = await openIndex(dir)
    expect(reader.docCount).toBe(2)
    expect(reader.docNumber('1')).toBeDefined()
    expect(reader.docNumber('3')).toBeUndefined()
    await writer.rollback()
    expect((await readdir(dir)).sort()).toEqual(before)
    expect((await openIndex(dir)).docCount).toBe(2)
  })

  it('ignores files of an interrupted commit and lets the next writer remove them', async () => {
    const dir = await tempDir()
    await smallIndex(dir)
    const committed = (await readdir(dir)).sort()
    // A crash after segment files were written but before the manifest was renamed:
    await writeFile(join(dir, '_zz.pst'), 'partial')
    await writeFile(join(dir, '.tmp-INDEX.json-1-abcd'), '{"half')
    expect((await openIndex(dir)).docCount).toBe(2)
    const writer = await createIndexWriter(dir, testConfig())
    await writer.close()
    expect((await readdir(dir)).sort()).toEqual(committed)
  })

  it('reports a damaged segment as INDEX_CORRUPTED, never using it', async () => {
    const dir = await tempDir()
    await smallIndex(dir)
    const pst = (await readdir(dir)).find((f) => f.endsWith('.pst'))!
    const bytes = await readFile(join(dir, pst))
    bytes[14]! ^= 0x40
    await writeFile(join(dir, pst), bytes)
    const error = await rejection(openIndex(dir))
    expect(isPubmatchError(error, 'INDEX_CORRUPTED')).toBe(true)
    expect((error as Error).message).toMatch(new RegExp(`^${pst}: checksum mismatch`))
    // A writer reads only ids and deletions at open; a merge that would copy the segment fails.
    const writer = await createIndexWriter(dir, testConfig())
    expect(isPubmatchError(await rejection(writer.forceMerge()), 'INDEX_CORRUPTED')).toBe(true)
    await writer.rollback()
  })

  it('reports a missing or truncated file as INDEX_CORRUPTED', async () => {
    const dir = await tempDir()
    await smallIndex(dir)
    const files = await readdir(dir)
    const sto = files.find((f) => f.endsWith('.sto'))!
    const bytes = await readFile(join(dir, sto))
    await writeFile(join(dir, sto), bytes.subarray(0, bytes.length - 3))
    expect((await rejection(openIndex(dir)) as Error).message).toMatch(/size \d+ bytes, the manifest says \d+/)
    const { rm } = await import('node:fs/promises')
    await rm(join(dir, sto))
    const error = await rejection(openIndex(dir))
    expect(isPubmatchError(error, 'INDEX_CORRUPTED')).toBe(true)
    expect((error as Error).message).toContain('listed in the manifest but cannot be read (ENOENT)')
  })

  it('reports a damaged manifest as INDEX_CORRUPTED', async () => {
    const dir = await tempDir()
    await smallIndex(dir)
    const text = await readFile(join(dir, MANIFEST_FILE), 'utf8')
    await writeFile(join(dir, MANIFEST_FILE), text.replace('"generation":1', '"generation":7'))
    expect((await rejection(openIndex(dir)) as Error).message).toMatch(/INDEX\.json: checksum mismatch$/)
    await writeFile(join(dir, MANIFEST_FILE), text.slice(0, 40))
    const error = await rejection(openIndex(dir))
    expect(isPubmatchError(error, 'INDEX_CORRUPTED')).toBe(true)
    expect((error as Error).message).toContain('INDEX.json is not valid JSON')
  })

  it('reports a manifest of another shape (under a valid checksum) as INDEX_CORRUPTED naming the field', async () => {
    const dir = await tempDir()
    await smallIndex(dir)
    const { manifest } = JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8')) as { manifest: { segments: Array<Record<string, unknown>> } }
    const rewrite = async (changed: unknown): Promise<string> => {
      const json = JSON.stringify(changed)
      await writeFile(join(dir, MANIFEST_FILE), `{"crc32":${crc32(json)},"manifest":${json}}\n`)
      const error = await rejection(openIndex(dir))
      expect(error).toMatchObject({ code: 'INDEX_CORRUPTED', details: { file: join(dir, MANIFEST_FILE) } })
      return (error as Error).message.replace(dir, '<dir>')
    }
    expect(await rewrite({ ...manifest, segments: [{ ...manifest.segments[0], docCount: '3' }] })).toMatchInlineSnapshot(
      `"<dir>/INDEX.json: manifest.segments[0].docCount is "3", expected a non-negative integer"`,
    )
    expect(await rewrite({ ...manifest, segments: [{ ...manifest.segments[0], codec: 'zstd' }] })).toMatchInlineSnapshot(
      `"<dir>/INDEX.json: manifest.segments[0].codec is "zstd", expected "vbyte" or "bitpack""`,
    )
    expect(await rewrite({ ...manifest, schema: undefined })).toMatchInlineSnapshot(`"<dir>/INDEX.json: manifest.schema is missing, expected an object"`)
    expect(await rewrite({ ...manifest, format: 'pubmatch-corpus' })).toMatchInlineSnapshot(
      `"<dir>/INDEX.json: manifest.format is "pubmatch-corpus", expected "pubmatch-index""`,
    )
  })

  it('rejects a config with another schema, a second writer, and a missing index', async () => {
    const dir = await tempDir()
    await smallIndex(dir)
    const other = { fields: testFields().slice(0, 2) }
    expect(isPubmatchError(await rejection(createIndexWriter(dir, other)), 'SCHEMA_MISMATCH')).toBe(true)
    const writer = await createIndexWriter(dir, testConfig())
    expect((await rejection(createIndexWriter(dir, testConfig())) as Error).message).toMatch(/is locked by another index writer/)
    await writer.close()
    const next = await createIndexWriter(dir, testConfig())
    await next.close()
    expect(isPubmatchError(await rejection(openIndex(join(dir, 'nope'))), 'NOT_FOUND')).toBe(true)
  })

  it('takes over the lock of a process that no longer runs', async () => {
    const dir = await tempDir()
    await smallIndex(dir)
    await writeFile(join(dir, 'write.lock'), '999999999')
    const writer = await createIndexWriter(dir, testConfig())
    await writer.close()
  })
})
