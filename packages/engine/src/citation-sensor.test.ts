import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { samplePath } from '@pubmatch/sample-data'
import { ingest, sampleIndex } from '../test/sample.ts'
import { encodeCitationTable, openCitationTable } from '@pubmatch/bm25f/internal'
import { MANIFEST_FILE } from '@pubmatch/ingest'
import { CITATION_TABLE_FILE, CITATIONS_CACHE_FILE } from './corpus-data.ts'
import { engineInternals, openSearch, reopenSearch, type SearchEngine } from './search-engine.ts'
import { updateIndex } from './update-index.ts'

// NLM's medsamp2006.xml (bundled): PMID 10540283 is Saunders NF et al., Mol Microbiol
// 1999;34(1):24-36, "Transcription regulation of the nir gene cluster encoding nitrite reductase
// of Paracoccus denitrificans involves NNR and NirI, a novel type of membrane protein."
const SAUNDERS = '10540283'
const TITLE =
  'Transcription regulation of the nir gene cluster encoding nitrite reductase of Paracoccus denitrificans involves NNR and NirI, a novel type of membrane protein.'

describe('the citation sensor over the bundled PubMed sample', () => {
  let dir: string
  let index: string
  let engine: SearchEngine
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'engine-citation-'))
    index = (await sampleIndex(dir)).index
    // a new PubMed index has its citation table before it is first opened
    expect(existsSync(join(index, CITATION_TABLE_FILE))).toBe(true)
    engine = await openSearch({ index })
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('puts the article a journal-volume-page citation names first, and says what matched', () => {
    const result = engine.search('Mol Microbiol 1999;34(1):24-36')
    expect(result.citationMatch).toEqual({
      id: SAUNDERS,
      form: 'citation',
      matched: { journal: 'mol microbiol', year: '1999', volume: '34', issue: '1', page: '24-36' },
    })
    expect(result.hits[0]).toMatchObject({ id: SAUNDERS, rank: 1 })
    // the query's words all in one article: the first stage finds none, the sensor adds it
    const plain = engine.search('Mol Microbiol 1999;34(1):24-36', { citation: false })
    expect(plain.citationMatch).toBeUndefined()
    expect(result.total).toBe(plain.total + (plain.hits.some((hit) => hit.id === SAUNDERS) ? 0 : 1))
    if (!plain.hits.some((hit) => hit.id === SAUNDERS)) {
      expect(Number.isNaN(result.hits[0]!.firstStage.rank)).toBe(true)
    }
  })

  it('recognises author year journal and a title pasted whole', () => {
    expect(engine.search('Saunders NF 1999 Mol Microbiol').hits[0]?.id).toBe(SAUNDERS)
    const titled = engine.search(TITLE.slice(0, -1))
    expect(titled.citationMatch).toMatchObject({ id: SAUNDERS, form: 'title' })
    expect(titled.hits[0]?.id).toBe(SAUNDERS)
  })

  it('answers a citation that is not valid PubMed syntax with the cited article alone, and a warning', () => {
    // medsamp2006: PMID 13072632, Wirth W, a translated title in MEDLINE's brackets
    const query =
      '[Pharmacology of phosphoric acid esters; diethylthiophosphoric acid ester of ethylthioglycol.]'
    expect(() => engine.search(query, { citation: false })).toThrow(
      expect.objectContaining({ code: 'QUERY_SYNTAX' }),
    )
    const result = engine.search(query)
    expect(result).toMatchObject({ total: 1, citationMatch: { id: '13072632', form: 'title' } })
    expect(result.hits.map((hit) => hit.id)).toEqual(['13072632'])
    expect(result.warnings.map((w) => w.code)).toEqual(['CITATION_ONLY'])
    expect(engine.search(query, { offset: 1 }).hits).toEqual([])
  })

  it('pages the ranking with the cited article first and the rest in their order', () => {
    const query = 'Saunders 1999 Mol Microbiol'
    const rest = engine
      .search(query, { citation: false, limit: 30 })
      .hits.filter((hit) => hit.id !== SAUNDERS)
    const all = engine.search(query, { limit: 30 })
    expect(all.hits.map((hit) => hit.id)).toEqual(
      [SAUNDERS, ...rest.map((hit) => hit.id)].slice(0, 30),
    )
    const first = engine.search(query, { limit: 1 })
    const second = engine.search(query, { offset: 1, limit: 29 })
    expect([...first.hits, ...second.hits].map((hit) => hit.id)).toEqual(
      all.hits.map((hit) => hit.id),
    )
    expect(all.hits.map((hit) => hit.rank)).toEqual(all.hits.map((_, i) => i + 1))
  })

  it('leaves topical queries, PubMed syntax, date sorts and filtered searches alone', () => {
    for (const query of [
      'nitrite reductase',
      'cell OR patients',
      'Mol Microbiol[ta] AND 1999[dp]',
      'membrane protein 1999',
    ]) {
      const sensed = engine.search(query, { limit: 50 })
      const plain = engine.search(query, { limit: 50, citation: false })
      expect(sensed.citationMatch, query).toBeUndefined()
      expect(sensed.hits.map((hit) => hit.id)).toEqual(plain.hits.map((hit) => hit.id))
    }
    expect(
      engine.search('Mol Microbiol 1999;34:24', { sort: 'date' }).citationMatch,
    ).toBeUndefined()
    expect(
      engine.search('Mol Microbiol 1999;34:24', { filters: { years: [1990, 2000] } }).citationMatch,
    ).toBeUndefined()
  })

  it('keeps the citation table beside the index, and is off when not asked for', async () => {
    expect(existsSync(join(index, CITATION_TABLE_FILE))).toBe(true)
    expect(existsSync(join(index, CITATIONS_CACHE_FILE))).toBe(false)
    const without = await openSearch({ index, citations: false })
    expect(without.search('Mol Microbiol 1999;34:24').citationMatch).toBeUndefined()
  })

  it('opens an index that has the citation records of an older pubmatch, and writes the table from them', async () => {
    const table = openCitationTable(await readFile(join(index, CITATION_TABLE_FILE)))
    // an older pubmatch's citations.json, with a record changed so that only it can explain the answer
    const manifest = JSON.parse(await readFile(join(dir, 'corpus', MANIFEST_FILE), 'utf8')) as {
      segments: unknown[]
    }
    const corpusSegments = createHash('sha256')
      .update(JSON.stringify(manifest.segments))
      .digest('hex')
    const records = [
      {
        id: SAUNDERS,
        title: 'x',
        journal: { medlineTa: 'Old Cache J' },
        year: 1999,
        volume: '77',
        pagination: '5',
      },
    ]
    await writeFile(join(index, CITATIONS_CACHE_FILE), JSON.stringify({ corpusSegments, records }))
    await rm(join(index, CITATION_TABLE_FILE))
    const old = await openSearch({ index })
    expect(old.search('Old Cache J 1999;77:5').citationMatch?.id).toBe(SAUNDERS)
    expect(existsSync(join(index, CITATIONS_CACHE_FILE))).toBe(false)
    expect(openCitationTable(await readFile(join(index, CITATION_TABLE_FILE))).size).toBe(1)
    // a table of another generation or corpus state is rebuilt from the corpus
    await writeFile(
      join(index, CITATION_TABLE_FILE),
      encodeCitationTable(records, { tag: 'another corpus' }),
    )
    const rebuilt = await openSearch({ index })
    expect(rebuilt.search('Old Cache J 1999;77:5').citationMatch).toBeUndefined()
    expect(rebuilt.search('Mol Microbiol 1999;34(1):24-36').citationMatch?.id).toBe(SAUNDERS)
    expect(openCitationTable(await readFile(join(index, CITATION_TABLE_FILE))).size).toBe(
      table.size,
    )
    // a damaged table too
    await writeFile(join(index, CITATION_TABLE_FILE), 'not a table')
    expect(
      (await openSearch({ index })).search('Mol Microbiol 1999;34(1):24-36').citationMatch?.id,
    ).toBe(SAUNDERS)
    expect(openCitationTable(await readFile(join(index, CITATION_TABLE_FILE))).size).toBe(
      table.size,
    )
  })

  it('brings the citation table up to date when the index follows the corpus', async () => {
    // pmid_9500320.xml (bundled): a PubMed efetch record added to the corpus
    const before = openCitationTable(await readFile(join(index, CITATION_TABLE_FILE))).size
    // while the index has not moved on, a reload reads nothing of it again
    expect(engineInternals(await reopenSearch(engine, {})).reader).toBe(
      engineInternals(engine).reader,
    )
    await ingest(join(dir, 'corpus'), [samplePath('pubmed', 'pmid_9500320.xml')])
    await updateIndex({ corpus: join(dir, 'corpus'), index })
    const reopened = await reopenSearch(engine, {})
    expect(reopened.generation).toBe(engine.generation + 1)
    expect(reopened.document('9500320')).toBeDefined()
    // it shares the segments the new generation still has with the served engine, and answers
    // as an engine opened afresh
    expect(engineInternals(reopened).reader.segments[0]!.name).toBe(engineInternals(engine).reader.segments[0]!.name)
    const fresh = await openSearch({ index })
    for (const query of ['Mol Microbiol 1999;34(1):24-36', 'protein', 'cell membrane']) {
      const { tookMs: _a, ...shared } = reopened.search(query)
      const { tookMs: _b, ...afresh } = fresh.search(query)
      expect(shared).toEqual(afresh)
    }
    const table = openCitationTable(await readFile(join(index, CITATION_TABLE_FILE)))
    expect(table.size).toBe(before + 1)
    expect(table.size).toBe(693)
    expect(table.tag).toMatch(/generation 2, 693 documents$/)
    // a rebuild swaps in another index of the same generation as the first one: opened again
    await updateIndex({ corpus: join(dir, 'corpus'), index, rebuild: true })
    const rebuilt = await reopenSearch(engine, {})
    expect(rebuilt.generation).toBe(engine.generation)
    expect(engineInternals(rebuilt).reader).not.toBe(engineInternals(engine).reader)
    expect(engine.document('9500320')).toBeUndefined()
    expect(rebuilt.document('9500320')).toBeDefined()
  })
})
