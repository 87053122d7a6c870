import { existsSync, readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { SAMPLE_CORPUS_DIR, samplePath } from './index.ts'

describe('sample corpus', () => {
  it('holds PubMed XML, BioC and JATS full texts and MeSH, each folder with its source', () => {
    expect(readdirSync(SAMPLE_CORPUS_DIR).sort()).toEqual(['README.md', 'bioc', 'jats', 'mesh', 'pubmed'])
    expect(existsSync(samplePath('pubmed', 'medsamp2006.xml'))).toBe(true)
    expect(readdirSync(samplePath('bioc')).filter((name) => name.endsWith('.json'))).toHaveLength(5)
    expect(readdirSync(samplePath('jats')).filter((name) => name.endsWith('.nxml')).sort()).toEqual(['1472-6831-8-11.nxml', 'ehp-116-1694.nxml', 'pone.0000217.nxml'])
    for (const folder of ['bioc', 'jats', 'mesh']) {
      expect(existsSync(samplePath(folder, 'SOURCE.md')), folder).toBe(true)
    }
  })
})
