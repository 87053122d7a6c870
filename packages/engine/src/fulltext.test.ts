import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SAMPLE_BIOC, SAMPLE_PUBMED, sampleIndex } from '../test/sample.ts'
import { openFulltext, updateFulltext } from './fulltext.ts'
import { openSearch, type SearchEngine } from './search-engine.ts'
import { fulltextDir, sectionModelFile } from './section-features.ts'

describe('the full-text side of an engine (bundled PMC BioC full texts)', () => {
  let dir: string
  let engine: SearchEngine
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'engine-fulltext-'))
    const { index } = await sampleIndex(dir, [...SAMPLE_PUBMED, ...SAMPLE_BIOC])
    engine = await openSearch({ index })
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('indexes the corpus’s full texts by section beside the index, and ranks them by BM25 without a section model', async () => {
    await expect(openFulltext(engine)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    const built = await updateFulltext({ index: engine.indexDir })
    expect(built.articles).toBe(5)
    expect(built.passages).toBeGreaterThan(100)
    expect(existsSync(fulltextDir(engine.indexDir))).toBe(true)
    expect(existsSync(sectionModelFile(engine.indexDir))).toBe(false)
    const fulltext = await openFulltext(engine)
    expect(fulltext.model).toBeUndefined()
    const found = fulltext.search('tuberculosis infection in mice', 'merged', { limit: 3 })
    expect(found.total).toBeGreaterThan(0)
    // the one full text about tuberculosis (PMC10370681): the PubMed sample does not hold its citation, so the
    // index holds the record derived from the full text's own front matter
    expect(found.hits[0]!.document.title).toMatch(/tuberculosis/i)
    expect(engine.document(found.hits[0]!.id)).toMatchObject({ pmcid: 'PMC10370681', derivedFrom: 'bioc' })
    expect(found.hits.map((hit) => hit.rank)).toEqual(found.hits.map((_, i) => i + 1))
    const page2 = fulltext.search('tuberculosis infection in mice', 'merged', { offset: 1, limit: 2 })
    expect(page2.hits.map((hit) => hit.id)).toEqual(found.hits.slice(1).map((hit) => hit.id))
    expect(() => fulltext.search('tuberculosis', 'sum-logodds')).toThrowError(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
  })
})
