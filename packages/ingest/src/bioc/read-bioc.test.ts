import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FullTextDocument } from '@pubmatch/core'
import { sharedDataPath } from '@pubmatch/core/testing'
import { samplePath } from '@pubmatch/sample-data'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { IngestRecord } from '../records.ts'
import { parseBiocJson, readBiocFile } from './read-bioc.ts'

/** The real data set's 267 PMC BioC JSON files and PubTator files (only in suites tagged `real-data`). */
const biocJsonDir = sharedDataPath('pmc', 'bioc-json')
const pubtatorDir = sharedDataPath('pmc', 'pubtator-bioc-json')
/** One of the five PMC BioC JSON files of the sample corpus (older API generation). */
const sampleFile = samplePath('bioc', 'PMC10142442.json')

async function collect(records: AsyncIterable<IngestRecord>): Promise<IngestRecord[]> {
  const out: IngestRecord[] = []
  for await (const record of records) {
    out.push(record)
  }
  return out
}

function fullTexts(records: readonly IngestRecord[]): FullTextDocument[] {
  return records.flatMap((record) => (record.kind === 'fulltext' ? [record.document] : []))
}

function sectionCounts(document: FullTextDocument): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const passage of document.passages) {
    const key = `${passage.sectionType ?? 'null'}/${passage.role}`
    counts[key] = (counts[key] ?? 0) + 1
  }
  return counts
}

function onlyDocument(records: readonly IngestRecord[]): FullTextDocument {
  const [record] = records
  expect(records).toHaveLength(1)
  if (record?.kind !== 'fulltext') {
    throw new Error(`expected a fulltext record, got ${JSON.stringify(record)}`)
  }
  return record.document
}

describe('readBiocFile on the sample corpus (five PMC BioC JSON files)', () => {
  const files = [
    'PMC10142442.json',
    'PMC10370681.json',
    'PMC10719374.json',
    'PMC11233762.json',
    'PMC11500582.json',
  ]
  let documents: FullTextDocument[] = []

  beforeAll(async () => {
    expect(readdirSync(samplePath('bioc')).filter((name) => name.endsWith('.json'))).toEqual(files)
    const records = (
      await Promise.all(files.map((file) => collect(readBiocFile(samplePath('bioc', file)))))
    ).flat()
    expect(records.filter((record) => record.kind === 'error')).toEqual([])
    documents = fullTexts(records)
  })

  // Every value below was read off the raw JSON independently (Python's json module): the
  // document ids, the front passage's article-id infons and text, the passage counts, and the
  // passages whose section_type infon is REF.
  it('reads both API generations, one document per file, with the ids of the front passage', () => {
    expect(
      documents.map((document) => [
        document.pmcid,
        document.sourceId,
        document.pmid ?? null,
        document.doi,
      ]),
    ).toEqual([
      ['PMC10142442', '10142442', '37112839', '10.3390/v15040859'],
      ['PMC10370681', '10370681', '37494371', '10.1371/journal.pone.0288290'],
      ['PMC10719374', '10719374', '38092777', '10.1038/s41526-023-00337-5'],
      ['PMC11233762', 'PMC11233762', '38989048', '10.3389/fphys.2024.1417719'],
      ['PMC11500582', 'PMC11500582', null, '10.5511/plantbiotechnology.23.1214a'],
    ])
    expect(documents.map((document) => document.title)).toEqual([
      'Inhibition of Cytomegalovirus by Pentacta pygmaea Fucosylated Chondroitin Sulfate Depends on Its Molecular Weight',
      'Wild mouse gut microbiota limits initial tuberculosis infection in BALB/c mice',
      'Explainable machine learning identifies multi-omics signatures of muscle response to spaceflight in mice',
      'Upregulation of Amy1 in the salivary glands of mice exposed to a lunar gravity environment using the multiple artificial gravity research system',
      'Identification of a novel Golgi-localized putative glycosyltransferase protein in Arabidopsis thaliana',
    ])
  })

  it('keeps every passage, the front passage first, and marks the REF passages as references', () => {
    expect(documents.map((document) => document.passages.length)).toEqual([105, 104, 120, 94, 136])
    for (const document of documents) {
      expect(document.passages[0]?.role).toBe('front')
      expect(document.passages[0]?.text.trim()).toBe(document.title)
    }
    expect(
      documents.map(
        (document) => document.passages.filter((passage) => passage.role === 'reference').length,
      ),
    ).toEqual([46, 50, 39, 26, 58])
  })
})

describe('readBiocFile on the real PMC BioC JSON files', { tags: ['real-data'] }, () => {
  let files: string[] = []
  let records: { file: string; records: IngestRecord[] }[] = []

  beforeAll(async () => {
    files = readdirSync(biocJsonDir)
      .filter((name) => name.endsWith('.json'))
      .sort()
    expect(files).toHaveLength(267)
    records = await Promise.all(
      files.map(async (file) => ({
        file,
        records: await collect(readBiocFile(join(biocJsonDir, file))),
      })),
    )
  })

  it('parses all 267 files into 268 documents and 38,136 passages without errors', () => {
    const all = records.flatMap((entry) => entry.records)
    expect(all.filter((record) => record.kind === 'error')).toEqual([])
    const documents = fullTexts(all)
    expect(documents).toHaveLength(268)
    // PMC11484870.json holds the same collection twice (each copy is yielded), and
    // bioc_output_1_PMC4136787.json is the same document as PMC4136787.json.
    expect(new Set(documents.map((document) => document.pmcid)).size).toBe(266)
    expect(documents.reduce((sum, document) => sum + document.passages.length, 0)).toBe(38_136)
    for (const document of documents) {
      expect(document.pmcid).toMatch(/^PMC\d+$/)
      expect(document.passages[0]?.role).toBe('front')
      expect(document.title).toBe(document.passages[0]?.text.trim())
    }
    // 239 front passages carry article-id_pmid, 265 article-id_doi (counted in exploration).
    expect(documents.filter((document) => document.pmid !== undefined)).toHaveLength(239)
    expect(documents.filter((document) => document.doi !== undefined)).toHaveLength(265)
  })

  it('reads both API generations, with and without the PMC prefix on ids', () => {
    const documents = fullTexts(records.flatMap((entry) => entry.records))
    // Newer generation: bioctype keys, id mostly "PMC…"; older: no bioctype, id digits only.
    expect(documents.filter((document) => document.sourceId.startsWith('PMC'))).toHaveLength(200)
    expect(documents.filter((document) => /^\d+$/.test(document.sourceId))).toHaveLength(68)
    for (const document of documents) {
      expect(document.pmcid).toBe(`PMC${document.sourceId.replace(/^PMC/, '')}`)
    }
  })

  it('counts passages per normalised section type over the whole set', () => {
    const counts: Record<string, number> = {}
    for (const document of fullTexts(records.flatMap((entry) => entry.records))) {
      for (const [key, count] of Object.entries(sectionCounts(document))) {
        counts[key] = (counts[key] ?? 0) + count
      }
    }
    console.log('passages per normalised section type / role (267 files):', counts)
    // Cross-checked with an independent Python count of the raw (section_type, type) pairs.
    expect(counts).toEqual({
      'null/reference': 17_436,
      'TITLE/heading': 5_013,
      'CAPTION/body': 3_183,
      'METHODS/body': 2_938,
      'RESULTS/body': 2_700,
      'INTRO/body': 2_050,
      'DISCUSS/body': 1_870,
      'null/boilerplate': 1_276,
      'ABBR/body': 485,
      'ABSTRACT/body': 441,
      'SUPPL/body': 283,
      'null/front': 268,
      'CONCL/body': 186,
      'CASE/body': 4,
      'KEYWORD/body': 3,
    })
  })

  it('reads PMC10793275 (older generation) as checked by hand', () => {
    const document = onlyDocument(
      records.find((entry) => entry.file === 'PMC10793275.json')!.records,
    )
    expect({ ...document, passages: document.passages.length }).toEqual({
      pmcid: 'PMC10793275',
      sourceId: '10793275',
      pmid: '38038463',
      doi: '10.1128/MRA.00345-23',
      license: 'CC BY',
      title:
        'Draft genome sequence of Sphingomonas paucimobilis strain Sph5, isolated from tap water filtration membrane',
      passages: 40,
    })
    expect(sectionCounts(document)).toEqual({
      'null/front': 1, // 0
      'TITLE/heading': 3, // 1 "ABSTRACT", 3 "ANNOUNCEMENT", 17 "DATA AVAILABILITY"
      'ABSTRACT/body': 1, // 2
      'INTRO/body': 10, // 4–11, 14, 16
      'CAPTION/body': 3, // 12 table_caption, 13 table, 15 fig_caption
      'SUPPL/body': 1, // 18
      'null/reference': 21, // 19 "REFERENCES" and 20–39
    })
    const [front, abstractTitle, abstract] = document.passages
    expect(front).toMatchObject({
      offset: 0,
      sectionType: null,
      role: 'front',
      rawSectionType: 'TITLE',
      passageType: 'front',
    })
    expect(front?.infons).toMatchObject({
      'article-id_pmid': '38038463',
      volume: '13',
      year: '2023',
    })
    expect(front?.infons).not.toHaveProperty('section_type')
    expect(front?.infons).not.toHaveProperty('type')
    expect(abstractTitle).toEqual({
      offset: 108,
      text: 'ABSTRACT',
      sectionType: 'TITLE',
      rawSectionType: 'ABSTRACT',
      passageType: 'abstract_title_1',
      role: 'heading',
      infons: {},
    })
    expect(abstract).toMatchObject({ offset: 117, sectionType: 'ABSTRACT', role: 'body' })
    expect(abstract?.text.startsWith('Sphingomonadaceae are common membrane colonizers')).toBe(true)
    // Offsets are kept as given; the API counts UTF-8 bytes: passage 6 has 341 UTF-16 code
    // units but 343 bytes, and passage 7 starts at 1403 + 343 + 1.
    const [sixth, seventh] = [document.passages[6]!, document.passages[7]!]
    expect([
      sixth.offset,
      sixth.text.length,
      Buffer.byteLength(sixth.text),
      seventh.offset,
    ]).toEqual([1403, 341, 343, 1747])
    expect(document.passages[13]).toMatchObject({
      offset: 3181,
      passageType: 'table',
      sectionType: 'CAPTION',
    })
    expect(document.passages[19]).toMatchObject({
      offset: 4991,
      text: 'REFERENCES',
      role: 'reference',
      sectionType: null,
    })
  })

  it('reads PMC11167097 (newer generation) as checked by hand', () => {
    const document = onlyDocument(
      records.find((entry) => entry.file === 'PMC11167097.json')!.records,
    )
    expect({ ...document, passages: document.passages.length }).toEqual({
      pmcid: 'PMC11167097',
      sourceId: 'PMC11167097',
      pmid: '38862512',
      doi: '10.1038/s41467-024-48633-2',
      license: 'CC BY',
      title: 'Biological horizons: pioneering open science in the cosmos',
      passages: 20,
    })
    expect(sectionCounts(document)).toEqual({
      'null/front': 1, // 0
      'INTRO/body': 4, // 1–4
      'null/boilerplate': 5, // 5 publisher's-note footnote, 6–7 AUTH_CONT, 8–9 COMP_INT
      'null/reference': 10, // 10 "References" and 11–19
    })
    expect(document.passages[5]).toMatchObject({
      offset: 4665,
      rawSectionType: 'INTRO',
      passageType: 'footnote',
      sectionType: null,
      role: 'boilerplate',
    })
    expect(document.passages[5]?.text.startsWith('Publisher’s note Springer Nature')).toBe(true)
  })

  it('drops null infon values (PMC3509447 has "file": null on table captions)', () => {
    const document = onlyDocument(
      records.find((entry) => entry.file === 'PMC3509447.json')!.records,
    )
    expect(document.passages[15]).toMatchObject({
      offset: 9736,
      passageType: 'table_title_caption',
      sectionType: 'CAPTION',
      infons: { id: 't01' },
    })
    expect(document.passages[15]?.infons).not.toHaveProperty('file')
  })
})

describe('readBiocFile on PubTator BioC JSON', { tags: ['real-data'] }, () => {
  it('reads the passages, ignores annotations and reports documents without a PMC id', async () => {
    const files = readdirSync(pubtatorDir)
      .filter((name) => name.endsWith('.json'))
      .sort()
    expect(files).toHaveLength(8)
    const records = (
      await Promise.all(files.map((file) => collect(readBiocFile(join(pubtatorDir, file)))))
    ).flat()
    expect(records).toHaveLength(8)
    const errors = records.flatMap((record) => (record.kind === 'error' ? [record.error] : []))
    expect(errors.map((error) => [error.code, error.details])).toEqual([
      [
        'MISSING_FIELD',
        { file: '10.1016_j.molcel.2024.01.007.json', record: '10.1016/j.molcel.2024.01.007' },
      ],
      [
        'MISSING_FIELD',
        { file: '10.1038_s41556-021-00642-9.json', record: '10.1038/s41556-021-00642-9' },
      ],
    ])
    expect(errors[0]?.message).toMatchInlineSnapshot(
      `"10.1016_j.molcel.2024.01.007.json, document 10.1016/j.molcel.2024.01.007: BioC document has no PMC id (no article-id_pmc infon, document id is not a PMCID)"`,
    )
    const documents = fullTexts(records)
    expect(
      documents.map((document) => [document.pmcid, document.pmid, document.doi ?? null]),
    ).toEqual([
      ['PMC5218896', '28041912', '10.1016/j.molcel.2016.11.034'],
      ['PMC6555648', '31003867', '10.1016/j.molcel.2019.03.023'],
      ['PMC6737939', '31053471', '10.1016/j.molcel.2019.04.005'],
      ['PMC8734558', '34546791', '10.1126/scisignal.abf3535'],
      ['PMC10425847', '37317646', '10.15252/embj.2023113616'],
      // pubtator_8's "doi" infon is "24633240 from pubtator", not a DOI.
      ['PMC4017589', '24633240', null],
    ])
    for (const document of documents) {
      expect(document.passages.map((passage) => [passage.role, passage.sectionType])).toEqual([
        ['front', null],
        ['body', 'ABSTRACT'],
      ])
    }
    expect(documents[0]?.title).toBe(
      'A Constitutive Intrinsic Inflammatory Signaling Circuit Composed of miR-196b, Meis2, PPP3CC, and p65 Drives Prostate Cancer Castration Resistance.',
    )
    expect(documents[0]?.passages[1]).toMatchObject({
      offset: 147,
      passageType: 'abstract',
      infons: {},
    })
  })
})

describe('parseBiocJson', () => {
  const real = readFileSync(sampleFile, 'utf8')

  it('turns a truncated file into one MALFORMED_JSON record naming the file', () => {
    const records = parseBiocJson(real.slice(0, real.length / 2), { file: 'PMC10142442.json' })
    expect(records).toHaveLength(1)
    const [record] = records
    expect(record?.kind).toBe('error')
    if (record?.kind === 'error') {
      expect(record.error.code).toBe('MALFORMED_JSON')
      expect(record.error.details).toEqual({ file: 'PMC10142442.json' })
      expect(record.error.message).toMatch(
        /^PMC10142442\.json: not valid BioC JSON \(.+\): ".{1,200}"$/,
      )
    }
  })

  it('accepts a bare collection object as well as an array of collections', () => {
    const [collection] = JSON.parse(real) as unknown[]
    const fromObject = parseBiocJson(JSON.stringify(collection))
    expect(fromObject).toEqual(parseBiocJson(real))
    expect(fromObject[0]?.kind).toBe('fulltext')
  })

  it('reports a document without a PMC id, naming file and document', () => {
    const text = JSON.stringify({
      source: 'PubMed',
      documents: [
        {
          id: '21951408',
          infons: {},
          passages: [{ offset: 0, infons: { type: 'title' }, text: 'T' }],
        },
      ],
    })
    const [record] = parseBiocJson(text, { file: 'pubmed.json' })
    expect(record?.kind === 'error' && record.error.message).toMatchInlineSnapshot(
      `"pubmed.json, document 21951408: BioC document has no PMC id (no article-id_pmc infon, document id is not a PMCID)"`,
    )
  })

  it('takes digit-only document ids as PMC ids only in collections whose source is PMC', () => {
    const passages = [
      { offset: 0, infons: { type: 'front', section_type: 'TITLE' }, text: 'A title' },
    ]
    const [pmc] = parseBiocJson(
      JSON.stringify([{ source: 'PMC', documents: [{ id: '123', passages }] }]),
    )
    expect(pmc?.kind === 'fulltext' && pmc.document.pmcid).toBe('PMC123')
    const [other] = parseBiocJson(
      JSON.stringify([{ source: 'PubMed', documents: [{ id: '123', passages }] }]),
    )
    expect(other?.kind).toBe('error')
    const [prefixed] = parseBiocJson(
      JSON.stringify([{ source: 'X', documents: [{ id: 'pmc77', passages }] }]),
    )
    expect(prefixed?.kind === 'fulltext' && prefixed.document.pmcid).toBe('PMC77')
  })

  it('keeps going after a malformed document and reports it with its problems', () => {
    const good = {
      id: 'PMC1',
      infons: {},
      passages: [{ offset: 0, infons: { type: 'front' }, text: 'Good' }],
    }
    const bad = { id: 'PMC2', passages: [{ offset: 'x', text: 'no offset' }, 7] }
    const records = parseBiocJson(JSON.stringify({ documents: [bad, good] }), {
      file: 'mixed.json',
    })
    expect(records.map((record) => record.kind)).toEqual(['error', 'fulltext'])
    const [first] = records
    expect(first?.kind === 'error' && first.error.code).toBe('MALFORMED_JSON')
    expect(first?.kind === 'error' && first.error.message).toMatchInlineSnapshot(
      `"mixed.json, document PMC2: malformed BioC document: passage #1 has no valid offset ("x"); passage #2 is not an object"`,
    )
  })

  it('reports top-level values that are neither collections nor documents', () => {
    const records = parseBiocJson('[42, {"documents": []}]', { file: 'odd.json' })
    expect(records).toHaveLength(1)
    expect(
      records[0]?.kind === 'error' && [records[0].error.code, records[0].error.details],
    ).toEqual(['MALFORMED_JSON', { file: 'odd.json', record: '#1' }])
    expect(parseBiocJson('"just a string"')[0]?.kind).toBe('error')
    expect(parseBiocJson('null')[0]?.kind).toBe('error')
  })

  it('rebuilds the text of a passage that has only sentences', () => {
    const document = {
      id: 'PMC9',
      passages: [
        { offset: 0, infons: { type: 'front' }, text: 'Title' },
        {
          offset: 6,
          infons: { section_type: 'INTRO', type: 'paragraph' },
          text: '',
          sentences: [
            { offset: 6, text: 'First.' },
            { offset: 13, text: 'Second.' },
          ],
        },
      ],
    }
    const [record] = parseBiocJson(JSON.stringify(document))
    expect(record?.kind === 'fulltext' && record.document.passages[1]?.text).toBe('First. Second.')
  })
})

describe('readBiocFile', () => {
  let dir = ''
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pubmatch-bioc-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('yields one error record for a truncated real file', async () => {
    const real = readFileSync(sampleFile, 'utf8')
    const path = join(dir, 'truncated.json')
    await writeFile(path, real.slice(0, 5000))
    const records = await collect(readBiocFile(path))
    expect(
      records.map((record) => record.kind === 'error' && [record.error.code, record.error.details]),
    ).toEqual([['MALFORMED_JSON', { file: 'truncated.json' }]])
  })

  it('throws for empty, unreadable and non-BioC files', async () => {
    await writeFile(join(dir, 'empty.json'), ' \n')
    await writeFile(join(dir, 'text.txt'), 'PMID- 1\n')
    await expect(collect(readBiocFile(join(dir, 'empty.json')))).rejects.toMatchObject({
      code: 'EMPTY_INPUT',
    })
    await expect(collect(readBiocFile(join(dir, 'text.txt')))).rejects.toMatchObject({
      code: 'UNSUPPORTED_FORMAT',
    })
    await expect(collect(readBiocFile(join(dir, 'missing.json')))).rejects.toMatchObject({
      code: 'IO',
    })
  })
})
