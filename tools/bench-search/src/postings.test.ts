import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { emptyArticle } from '@pubmatch/core'
import { buildIndex, openIndex, testCollectionFields } from '@pubmatch/index'
import { describe, expect, it } from 'vitest'
import { readPostings } from './postings.ts'

describe('readPostings', () => {
  it('reads every posting both ways with the same checksum', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-search-postings-'))
    try {
      // "cancer": documents 0 (twice) and 2 in the title; "diet": document 1
      const titles = ['cancer and cancer', 'diet', 'cancer']
      await buildIndex(
        titles.map((title, i) => ({ ...emptyArticle(String(i), 'test-collection'), title })),
        dir,
        { fields: testCollectionFields() },
      )
      const reader = await openIndex(dir)
      const terms = [
        { field: 'title', term: 'cancer' },
        { field: 'title', term: 'diet' },
        { field: 'title', term: 'absent' },
      ]
      // Σ (doc · 31 + freq): (0 + 2) + (62 + 1) + (31 + 1) = 97
      for (const read of ['nextDocs', 'nextDoc+freq'] as const) {
        expect(readPostings(reader, terms, read)).toEqual({ postings: 3, checksum: 97 })
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
