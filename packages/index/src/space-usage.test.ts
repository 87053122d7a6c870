import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { emptyArticle, type Article } from '@pubmatch/core'
import { buildIndex } from './build/build-index.ts'
import { FOOTER_BYTES, HEADER_BYTES } from './io/file-format.ts'
import { testCollectionFields } from './schema/pubmed-fields.ts'
import { indexSpaceUsage } from './space-usage.ts'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) {
    rmSync(dir, { recursive: true, force: true })
  }
})

const article = (id: string, title: string, abstract: string): Article => ({
  ...emptyArticle(id, 'test-collection'),
  title,
  abstract: [{ text: abstract }],
})

describe('indexSpaceUsage', () => {
  it('splits the postings, positions and term dictionary files by field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pubmatch-space-'))
    dirs.push(dir)
    const config = { fields: testCollectionFields({ analyzer: 'whitespace' }) }
    await buildIndex([article('A', 'x y', 'x x z'), article('B', 'y', 'z w')], dir, config, {
      maxBufferedDocs: 1,
    })
    const usage = await indexSpaceUsage(dir)
    expect(usage.fields.map((f) => f.field)).toEqual(['title', 'abstract'])
    // Two segments (one document each): every file kind twice.
    const size = (file: string): number => statSync(join(dir, file)).size
    expect(usage.files.pst).toBe(size('_0.pst') + size('_1.pst'))
    const sum = (key: 'postingsBytes' | 'positionsBytes' | 'termsBytes'): number =>
      usage.fields.reduce((total, f) => total + f[key], 0)
    // .pst and .pos hold the terms' postings and positions back to back between header and footer.
    expect(sum('postingsBytes')).toBe(usage.files.pst - 2 * (HEADER_BYTES + FOOTER_BYTES))
    expect(sum('positionsBytes')).toBe(usage.files.pos - 2 * (HEADER_BYTES + FOOTER_BYTES))
    // .tdx: header, u32 field count, one u32 offset per field, the sections, footer.
    expect(sum('termsBytes')).toBe(usage.files.tdx - 2 * (HEADER_BYTES + 4 + 2 * 4 + FOOTER_BYTES))
    // Positions are vint(2·Δposition), one byte each here: title "x y" and "y" have 3
    // occurrences, abstract "x x z" and "z w" 5.
    expect(usage.fields.map((f) => f.positionsBytes)).toEqual([3, 5])
    expect(usage.files.del).toBe(0)
  })

  it('says NOT_FOUND for a directory without an index', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pubmatch-space-'))
    dirs.push(dir)
    await expect(indexSpaceUsage(dir)).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})
