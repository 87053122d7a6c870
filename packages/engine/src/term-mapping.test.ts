import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sampleIndex } from '../test/sample.ts'
import { openSearch, type SearchEngine } from './search-engine.ts'

// The bundled sample's MeSH descriptors (desc-samples.xml): "Homo sapiens" is an entry term of
// D006801 Humans, "Paracetamol" of D000082 Acetaminophen, "Tumors" of D009369 Neoplasms
describe('automatic term mapping over the bundled PubMed sample', () => {
  let dir: string
  let index: string
  let plain: SearchEngine
  let mapped: SearchEngine
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'engine-atm-'))
    index = (await sampleIndex(dir)).index
    plain = await openSearch({ index })
    mapped = await openSearch({ index, ranking: { termMapping: true } })
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('searches an entry term as its descriptor too, and shows the translation', () => {
    const result = mapped.search('homo sapiens', { limit: 50 })
    expect(result.translation).toEqual({
      query: '"Humans"[mh] OR Humans OR homo sapiens',
      mappings: [{ text: 'homo sapiens', kind: 'mesh', to: ['Humans'] }],
    })
    // exactly the translation's matches, which the words alone miss
    const spelled = plain.search('"Humans"[mh] OR Humans OR homo sapiens', { limit: 50 })
    expect(result.total).toBe(spelled.total)
    expect(result.hits.map((hit) => hit.id)).toEqual(spelled.hits.map((hit) => hit.id))
    expect(result.total).toBeGreaterThan(plain.search('homo sapiens').total)
    expect(plain.search('homo sapiens').translation).toBeUndefined()
  })

  it('maps runs of words inside a longer term and leaves the rest', () => {
    expect(mapped.search('paracetamol toxicity').translation?.query).toBe(
      '("Acetaminophen"[mh] OR Acetaminophen OR paracetamol) AND toxicity',
    )
    expect(mapped.search('transcription regulation').translation).toEqual({
      query: 'transcription regulation',
      mappings: [],
    })
  })

  it('maps a whole term that names a journal of the corpus to it', () => {
    const result = mapped.search('molecular microbiology')
    expect(result.translation?.mappings).toEqual([
      { text: 'molecular microbiology', kind: 'journal', to: ['Mol Microbiol'] },
    ])
    expect(result.total).toBe(plain.search('"Mol Microbiol"[ta] OR molecular microbiology').total)
  })

  it('maps a term written as an author of the index to the author', () => {
    // medsamp2006: Saunders NF is the first author of PMID 10540283
    const full = mapped.search('saunders nf')
    expect(full.translation).toEqual({
      query: 'saunders nf[au]',
      mappings: [{ text: 'saunders nf', kind: 'author', to: ['saunders nf'] }],
    })
    expect(full.hits.map((hit) => hit.id)).toContain('10540283')
    // only as the [au] search finds it
    expect(mapped.search('saunders n').translation?.mappings).toEqual([])
    expect(mapped.search('saunders xy').translation?.mappings).toEqual([])
  })

  it('refuses a model, whose first stage was recorded without it', async () => {
    await expect(
      openSearch({ index, model: join(dir, 'none'), ranking: { termMapping: true } }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' })
  })
})
