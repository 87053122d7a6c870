import { existsSync, readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { SAMPLE_CORPUS_DIR, samplePath } from './index.ts'

describe('sample corpus', () => {
  it('holds PubMed XML, BioC full texts and MeSH, each folder with its source', () => {
    expect(readdirSync(SAMPLE_CORPUS_DIR).sort()).toEqual(['README.md', 'bioc', 'mesh', 'pubmed'])
    expect(existsSync(samplePath('pubmed', 'medsamp2006.xml'))).toBe(true)
    expect(readdirSync(samplePath('bioc')).filter((name) => name.endsWith('.json'))).toHaveLength(5)
    for (const folder of ['bioc', 'mesh']) {
      expect(existsSync(samplePath(folder, 'SOURCE.md')), folder).toBe(true)
    }
  })
})
