import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { isPubmatchError, type FullTextDocument, type PubmatchError } from '@pubmatch/core'
import { sharedDataPath } from '@pubmatch/core/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readBiocFile } from '../bioc/read-bioc.ts'
import { detectFormat } from '../pipeline/detect-format.ts'
import { ingestFiles } from '../pipeline/ingest-files.ts'
import { defaultReaders } from '../pipeline/readers.ts'
import type { IngestRecord } from '../records.ts'
import { openCorpus } from '../store/corpus-store.ts'
import { parseJatsXml, readJatsXml } from './reader.ts'

/** The real data set's 8 PMC OA articles and the JATS/BioC pair (only in suites tagged `real-data`). */
const jatsDir = sharedDataPath('pmc', 'jats')
const pairDir = sharedDataPath('pmc', 'jats-bioc-pairs')
/** One of the 8 articles (PMC1790863), committed with the tests (see its SOURCE.md). */
const committed = fileURLToPath(
  new URL('../../test/fixtures/jats/pone.0000217.nxml', import.meta.url),
)
const tmp = mkdtempSync(join(tmpdir(), 'pubmatch-jats-'))

async function collect(records: AsyncIterable<IngestRecord>): Promise<IngestRecord[]> {
  const out: IngestRecord[] = []
  for await (const record of records) {
    out.push(record)
  }
  return out
}

function onlyDocument(records: readonly IngestRecord[]): FullTextDocument {
  expect(records.map((record) => record.kind)).toEqual(['fulltext'])
  const [record] = records
  if (record?.kind !== 'fulltext') {
    throw new Error('expected a fulltext record')
  }
  return record.document
}

async function readFailure(
  path: string,
): Promise<{ records: IngestRecord[]; error: PubmatchError }> {
  const records: IngestRecord[] = []
  try {
    for await (const record of readJatsXml(path)) {
      records.push(record)
    }
  } catch (error) {
    if (isPubmatchError(error)) {
      return { records, error }
    }
    throw error
  }
  throw new Error('expected a PubmatchError')
}

function write(name: string, text: string | Buffer): string {
  const path = join(tmp, name)
  writeFileSync(path, text)
  return path
}

/** A real `.nxml` without its XML declaration and DOCTYPE, to embed in a `<pmc-articleset>`. */
function articleOf(path: string): string {
  return readFileSync(path, 'utf8')
    .replace(/^<\?xml[^>]*\?>/, '')
    .replace(/^\s*<!DOCTYPE[^>]*>/, '')
    .trim()
}

/** Scored passages: those with one of the 13 section types. */
const scored = (document: FullTextDocument) =>
  document.passages.filter((p) => p.sectionType !== null)
/** Text compared without white space (see the pair test for why). */
const squeeze = (text: string): string => text.replace(/\s+/g, '')

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true })
})

describe('readJatsXml on the committed PMC OA article (pone.0000217.nxml)', () => {
  let document: FullTextDocument

  beforeAll(async () => {
    document = onlyDocument(await collect(readJatsXml(committed)))
  })

  // The same values as for this file in the suite over the 8 real articles below.
  it('reads ids, title and licence from the front matter', () => {
    expect([
      document.pmcid,
      document.pmid,
      document.doi,
      document.license,
      document.sourceId,
    ]).toEqual(['PMC1790863', '17299597', '10.1371/journal.pone.0000217', 'CC BY', 'PMC1790863'])
    expect(document.title).toBe(
      'Quantifying Organismal Complexity using a Population Genetic Approach',
    )
    expect(document.passages[0]).toMatchObject({
      role: 'front',
      passageType: 'front',
      sectionType: null,
      text: document.title,
    })
  })

  it('gives the top-level section types in order, and no empty passage except references', () => {
    const order = [
      ...new Set(
        scored(document)
          .map((p) => p.sectionType!)
          .filter((type) => type !== 'TITLE' && type !== 'CAPTION'),
      ),
    ]
    expect(order).toEqual(['ABSTRACT', 'INTRO', 'RESULTS', 'DISCUSS', 'METHODS'])
    for (const [k, p] of document.passages.entries()) {
      if (p.role !== 'reference') {
        expect(p.text.trim().length).toBeGreaterThan(0)
      }
      const next = document.passages[k + 1]
      if (next !== undefined) {
        expect(next.offset).toBe(p.offset + Buffer.byteLength(p.text, 'utf8') + 1)
      }
    }
    // 33 <ref>s and the "References" title (SOURCE.md of the JATS/BioC pair)
    expect(document.passages.filter((p) => p.role === 'reference')).toHaveLength(34)
  })

  it('parses the same from memory (parseJatsXml) as from the file', () => {
    const fromMemory = onlyDocument(
      parseJatsXml(readFileSync(committed, 'utf8'), { file: committed }),
    )
    expect(fromMemory).toEqual(document)
  })
})

describe('readJatsXml on the 8 real PMC OA articles', { tags: ['real-data'] }, () => {
  let files: string[] = []
  const documents = new Map<string, FullTextDocument>()

  beforeAll(async () => {
    files = readdirSync(jatsDir)
      .filter((name) => name.endsWith('.nxml'))
      .sort()
    expect(files).toHaveLength(8)
    for (const file of files) {
      documents.set(file, onlyDocument(await collect(readJatsXml(join(jatsDir, file)))))
    }
  })

  it('reads ids, title and licence from the front matter', () => {
    const ids = files.map((file) => {
      const d = documents.get(file)!
      return [file, d.pmcid, d.pmid, d.doi, d.license, d.sourceId === d.pmcid]
    })
    expect(ids).toEqual([
      [
        '1471-2180-11-174.nxml',
        'PMC3166277',
        '21810267',
        '10.1186/1471-2180-11-174',
        'CC BY',
        true,
      ],
      ['1472-6831-8-11.nxml', 'PMC2329613', '18405359', '10.1186/1472-6831-8-11', 'CC BY', true],
      ['6605965a.nxml', 'PMC2994229', '21045829', '10.1038/sj.bjc.6605965', 'NO-CC CODE', true],
      ['ehp-116-1694.nxml', 'PMC2599765', '19079722', '10.1289/ehp.11570', 'NO-CC CODE', true],
      ['mds526.nxml', 'PMC3574550', '23149571', '10.1093/annonc/mds526', 'CC BY-NC', true],
      [
        'pntd.0002065.nxml',
        'PMC3585041',
        '23469300',
        '10.1371/journal.pntd.0002065',
        'CC BY',
        true,
      ],
      [
        'pone.0000217.nxml',
        'PMC1790863',
        '17299597',
        '10.1371/journal.pone.0000217',
        'CC BY',
        true,
      ],
      [
        'pone.0046493.nxml',
        'PMC3460867',
        '23029536',
        '10.1371/journal.pone.0046493',
        'CC BY',
        true,
      ],
    ])
    for (const d of documents.values()) {
      expect(d.passages[0]).toMatchObject({
        role: 'front',
        passageType: 'front',
        sectionType: null,
      })
      expect(d.title).toBe(d.passages[0]!.text)
      expect(d.title!.length).toBeGreaterThan(40)
    }
  })

  it('gives sensible sections: the top-level section types in order, and the counts', () => {
    // The distinct body section types (TITLE headings and CAPTIONs left out) in order of
    // appearance, as the files' headings read.
    const order = (d: FullTextDocument): string[] => [
      ...new Set(
        scored(d)
          .map((p) => p.sectionType!)
          .filter((type) => type !== 'TITLE' && type !== 'CAPTION'),
      ),
    ]
    expect(Object.fromEntries(files.map((file) => [file, order(documents.get(file)!)]))).toEqual({
      // Background, Results, Discussion, Conclusions, Appendix A/B, Methods, …, Supplementary Material
      '1471-2180-11-174.nxml': [
        'ABSTRACT',
        'INTRO',
        'RESULTS',
        'DISCUSS',
        'CONCL',
        'APPENDIX',
        'METHODS',
        'SUPPL',
      ],
      '1472-6831-8-11.nxml': ['ABSTRACT', 'INTRO', 'METHODS', 'RESULTS', 'DISCUSS', 'CONCL'],
      // body paragraphs before the first <sec> are INTRO; keywords after the abstract
      '6605965a.nxml': ['ABSTRACT', 'KEYWORD', 'INTRO', 'METHODS', 'RESULTS', 'DISCUSS'],
      'ehp-116-1694.nxml': ['ABSTRACT', 'KEYWORD', 'INTRO', 'METHODS', 'RESULTS', 'DISCUSS'],
      'mds526.nxml': ['ABSTRACT', 'KEYWORD', 'INTRO', 'METHODS', 'RESULTS', 'DISCUSS', 'SUPPL'],
      'pntd.0002065.nxml': ['ABSTRACT', 'INTRO', 'METHODS', 'RESULTS', 'DISCUSS'],
      'pone.0000217.nxml': ['ABSTRACT', 'INTRO', 'RESULTS', 'DISCUSS', 'METHODS'],
      'pone.0046493.nxml': ['ABSTRACT', 'INTRO', 'METHODS', 'RESULTS', 'DISCUSS', 'SUPPL'],
    })
    const counts = (d: FullTextDocument): Record<string, number> => {
      const out: Record<string, number> = {}
      for (const p of d.passages) {
        const key = `${p.sectionType ?? 'null'}/${p.role}`
        out[key] = (out[key] ?? 0) + 1
      }
      return out
    }
    expect(counts(documents.get('1471-2180-11-174.nxml')!)).toEqual({
      'null/front': 1,
      'TITLE/heading': 24,
      'ABSTRACT/body': 3,
      'INTRO/body': 7,
      'CAPTION/body': 15,
      'RESULTS/body': 11,
      'DISCUSS/body': 7,
      'CONCL/body': 1,
      'APPENDIX/body': 6,
      'METHODS/body': 6,
      // Competing interests, Authors' contributions (body sections), Acknowledgements
      'null/boilerplate': 6,
      'SUPPL/body': 2,
      'null/reference': 64,
    })
    expect(counts(documents.get('pntd.0002065.nxml')!)).toEqual({
      'null/front': 1,
      'ABSTRACT/body': 2,
      'TITLE/heading': 14,
      'INTRO/body': 5,
      'METHODS/body': 10,
      'CAPTION/body': 25,
      'RESULTS/body': 5,
      'DISCUSS/body': 7,
      'null/boilerplate': 1,
      'null/reference': 33,
    })
    // The abstract's "Author Summary" (abstract-type="summary") is an ABSTRACT heading.
    expect(
      documents.get('pntd.0002065.nxml')!.passages.find((p) => p.passageType === 'abstract_title_1')
        ?.text,
    ).toBe('Author Summary')
  })

  it('has no empty passage except references, and offsets as the BioC API counts them', () => {
    for (const [file, d] of documents) {
      for (const [k, p] of d.passages.entries()) {
        if (p.role !== 'reference') {
          expect([file, p.text.trim().length > 0]).toEqual([file, true])
        }
        if (p.passageType !== 'table') {
          expect(p.text).toBe(p.text.trim()) // table rows may end with empty cells
        }
        const next = d.passages[k + 1]
        if (next !== undefined) {
          expect(next.offset).toBe(p.offset + Buffer.byteLength(p.text, 'utf8') + 1)
        }
      }
    }
  })

  it('keeps reference text out of the scored passages and drops citation markers', () => {
    for (const [file, d] of documents) {
      const references = d.passages.filter((p) => p.role === 'reference' && p.passageType === 'ref')
      expect([file, references.length > 25]).toEqual([file, true])
      const titles = references.map((p) => p.text).filter((text) => text.length >= 30)
      for (const p of scored(d)) {
        expect(p.rawSectionType).not.toBe('REF')
        for (const title of titles) {
          expect([file, p.text.includes(title)]).toEqual([file, false])
        }
        // numbered citations ("[12]", "[3], [4]", "[5]–[8]") are gone, as in the BioC text
        expect([file, /(?:^|\s)\[\d+(?:[,–-]\s*\d+)*\]/.test(p.text)]).toEqual([file, false])
      }
    }
    // Wang <italic>et al. </italic>[<xref ref-type="bibr">28</xref>], Ryan … → no stray space
    const bmc = documents.get('1471-2180-11-174.nxml')!
    expect(
      bmc.passages.some((p) => p.text.includes('described by Wang et al., Ryan and Rutenberg')),
    ).toBe(true)
  })

  it('maps back matter to boilerplate and references as the BioC reader does', () => {
    const mds = documents.get('mds526.nxml')!
    const boiler = mds.passages
      .filter((p) => p.role === 'boilerplate')
      .map((p) => [p.rawSectionType, p.passageType, p.text.slice(0, 20)])
    expect(boiler).toEqual([
      ['ACK_FUND', 'title_1', 'funding'],
      ['ACK_FUND', 'paragraph', expect.any(String)],
      ['COMP_INT', 'title_1', 'disclosure'],
      ['COMP_INT', 'paragraph', expect.any(String)],
      ['ACK_FUND', 'title', 'acknowledgements'],
      ['ACK_FUND', 'paragraph', expect.any(String)],
    ])
    const ehp = documents.get('ehp-116-1694.nxml')!
    // <fn-group> footnotes: classified by their content, boilerplate whatever the class
    expect(
      ehp.passages
        .filter((p) => p.passageType === 'footnote')
        .map((p) => [p.rawSectionType, p.role]),
    ).toEqual([
      ['SUPPL', 'boilerplate'],
      ['ACK_FUND', 'boilerplate'],
      ['ACK_FUND', 'boilerplate'],
    ])
    const refs = ehp.passages.filter((p) => p.role === 'reference')
    expect(refs[0]).toMatchObject({
      rawSectionType: 'REF',
      passageType: 'title',
      text: 'References',
      sectionType: null,
    })
    expect(refs[1]?.infons.year).toMatch(/^\d{4}$/)
    expect(refs[1]?.infons.source).toMatch(/\w/)
  })

  it('parses the same from memory (parseJatsXml) as from the file', () => {
    const file = 'pone.0046493.nxml'
    const fromMemory = onlyDocument(
      parseJatsXml(readFileSync(join(jatsDir, file), 'utf8'), { file }),
    )
    expect(fromMemory).toEqual(documents.get(file))
  })
})

describe(
  'the JATS/BioC pair PMC1790863 (same article as .nxml and as BioC API XML)',
  { tags: ['real-data'] },
  () => {
    let jats: FullTextDocument
    let bioc: FullTextDocument

    beforeAll(async () => {
      jats = onlyDocument(await collect(readJatsXml(join(pairDir, 'PMC1790863.nxml'))))
      bioc = onlyDocument(await collect(readBiocFile(join(pairDir, 'PMC1790863.bioc.xml'))))
    })

    it('gives the same ids, title and licence code', () => {
      for (const d of [jats, bioc]) {
        expect(d).toMatchObject({
          pmcid: 'PMC1790863',
          pmid: '17299597',
          doi: '10.1371/journal.pone.0000217',
          license: 'CC BY',
          title: 'Quantifying Organismal Complexity using a Population Genetic Approach',
        })
      }
      // SOURCE.md: the older API generation has no PMC prefix on the document id.
      expect([jats.sourceId, bioc.sourceId]).toEqual(['PMC1790863', '1790863'])
      // Same front infons, except the licence sentence (the BioC file has a later wording).
      const { license: jatsLicense, ...jatsFront } = jats.passages[0]!.infons
      const { license: biocLicense, ...biocFront } = bioc.passages[0]!.infons
      expect(jatsFront).toEqual(biocFront)
      expect(jatsLicense).toContain('provided the original author and source are credited.')
      expect(biocLicense).toContain(
        'provided the original author and source are properly credited.',
      )
    })

    it('gives the same sequence of (sectionType, text) for the 84 scored passages, but for the known differences', () => {
      const j = scored(jats)
      const b = scored(bioc)
      expect([j.length, b.length]).toEqual([84, 84])

      // Known difference 1 (SOURCE.md): the two Discussion paragraphs after the last figure
      // ("Conclusions" subsection) are section_type FIG / type paragraph in the BioC file, so
      // the BioC reader makes them CAPTION; the JATS reader keeps them in DISCUSS.
      const typeDiffs = j.flatMap((p, k) => (p.sectionType === b[k]!.sectionType ? [] : [k]))
      expect(typeDiffs).toEqual([62, 63])
      for (const k of typeDiffs) {
        expect([
          j[k]!.sectionType,
          j[k]!.passageType,
          b[k]!.sectionType,
          b[k]!.rawSectionType,
          b[k]!.passageType,
        ]).toEqual(['DISCUSS', 'paragraph', 'CAPTION', 'FIG', 'paragraph'])
      }
      expect(j[61]).toMatchObject({
        sectionType: 'TITLE',
        text: 'Conclusions',
        rawSectionType: 'DISCUSS',
      })

      // Known difference 2 (found here, not in SOURCE.md): that converter generation puts a
      // space between two adjacent inline elements (`<italic>x</italic><sub>1</sub>` → "x 1",
      // `x<sub>i</sub><sup>Q</sup>` → "xi Q", `(<xref><bold>Fig. 3</bold></xref>)` → "( Fig. 3 )");
      // the JATS reader joins them as written. So texts are compared without white space, and
      // the passages where only white space differs are pinned.
      const spaceDiffs = j.flatMap((p, k) =>
        p.text.replace(/\s+/g, ' ') === b[k]!.text.replace(/\s+/g, ' ').trim() ? [] : [k],
      )
      expect(spaceDiffs).toEqual([31, 43, 69, 70, 71, 75, 77, 82])
      expect(b[77]!.text).toContain('(x 1,x 2,…,x n)')
      expect(j[77]!.text).toContain('(x1,x2,…,xn)')

      // Everything else is identical: same types, same text (citations dropped on both sides:
      // "evolution [1]–[5]. Although" is "evolution. Although" in both).
      expect(j.map((p) => [p.sectionType, squeeze(p.text)])).toEqual(
        b.map((p, k) => [typeDiffs.includes(k) ? 'DISCUSS' : p.sectionType, squeeze(p.text)]),
      )
      expect(j[0]!.text).toBe('Background')
      expect(j.find((p) => p.text.startsWith('A persistent question'))!.text).toContain(
        'through the course of evolution. Although significant progress',
      )
      // Display formulas that are only graphics leave no text, as in the BioC file.
      expect(j.find((p) => p.text.startsWith('Sella and Hirsh showed'))!.text).toContain(
        'could be writtenin which',
      )
    })

    it('has the same offsets as the BioC file until the first passage whose text differs', () => {
      // Offsets count UTF-8 bytes with one separator byte after each passage. The JATS reader
      // follows the rule everywhere; the BioC file follows it too, except that its offsets run
      // ahead by about one byte per "Φ" in 8 of its 120 passages (an artefact of that converter).
      const breaks = (d: FullTextDocument): number[] =>
        d.passages.flatMap((p, k) => {
          const before = d.passages[k - 1]
          return before === undefined ||
            p.offset === before.offset + Buffer.byteLength(before.text, 'utf8') + 1
            ? []
            : [k]
        })
      expect(breaks(jats)).toEqual([])
      expect(breaks(bioc)).toEqual([36, 37, 38, 44, 47, 59, 60, 62])
      expect(breaks(bioc).every((k) => bioc.passages[k - 1]!.text.includes('Φ'))).toBe(true)
      let same = 0
      while (
        same < jats.passages.length &&
        jats.passages[same]!.text === bioc.passages[same]!.text
      ) {
        expect(jats.passages[same]!.offset).toBe(bioc.passages[same]!.offset)
        same++
      }
      // Passage 19 is the first whose text differs: the BioC text keeps the space before a
      // display formula that ends the paragraph ("… can be written as "); the JATS reader trims.
      expect(same).toBe(19)
      expect(bioc.passages[19]!.text).toBe(`${jats.passages[19]!.text} `)
    })

    it('differs outside the scored passages only as SOURCE.md says', () => {
      const rest = (d: FullTextDocument) =>
        d.passages
          .filter((p) => p.sectionType === null && p.role !== 'front')
          .map((p) => [p.role, p.rawSectionType, p.passageType])
      const j = rest(jats)
      const b = rest(bioc)
      // Known difference 3: the JATS <ack> is missing from the BioC document.
      expect(j[0]).toEqual(['boilerplate', 'ACK_FUND', 'paragraph'])
      expect(jats.passages.find((p) => p.rawSectionType === 'ACK_FUND')!.text).toMatch(
        /^We would like to thank Art Poon/,
      )
      expect(bioc.passages.some((p) => p.text.startsWith('We would like to thank'))).toBe(false)
      // Known difference 4: the <fn-group> footnotes (Competing Interests, Funding) are
      // METHODS/footnote in the BioC file (before the references); the JATS reader names them
      // COMP_INT and ACK_FUND (after the references, in document order). Footnotes are
      // boilerplate either way, so scoring skips both.
      expect(b.slice(0, 2)).toEqual([
        ['boilerplate', 'METHODS', 'footnote'],
        ['boilerplate', 'METHODS', 'footnote'],
      ])
      expect(j.slice(-2)).toEqual([
        ['boilerplate', 'COMP_INT', 'footnote'],
        ['boilerplate', 'ACK_FUND', 'footnote'],
      ])
      const footnotes = (d: FullTextDocument) =>
        d.passages.filter((p) => p.passageType === 'footnote').map((p) => p.text)
      expect(footnotes(jats)).toEqual(footnotes(bioc))
      // The reference list: the same 33 references (article titles) under the same heading.
      const refs = (d: FullTextDocument) =>
        d.passages.filter((p) => p.role === 'reference').map((p) => [p.passageType, p.text])
      expect(refs(jats)).toEqual(refs(bioc))
      expect(refs(jats)).toHaveLength(34)
    })
  },
)

describe('readJatsXml on a <pmc-articleset> (EFetch db=pmc)', () => {
  it('reads every article, and reports a broken one as a per-record error naming the file and the article', async () => {
    const broken = articleOf(committed).replace('</title>', '') // one unclosed <title>
    const set =
      '<?xml version="1.0"?>\n<!DOCTYPE pmc-articleset PUBLIC "-//NLM//DTD ARTICLE SET 2.0//EN" "https://dtd.nlm.nih.gov/ncbi/pmc/articleset/nlm-articleset-2.0.dtd">\n' +
      `<pmc-articleset>${articleOf(committed)}\n${broken}\n${articleOf(committed)}</pmc-articleset>`
    const path = write('articleset-committed.xml', set)
    const records = await collect(readJatsXml(path))
    expect(records.map((r) => (r.kind === 'fulltext' ? r.document.pmcid : r.kind))).toEqual([
      'PMC1790863',
      'error',
      'PMC1790863',
    ])
    const error = records[1]!.kind === 'error' ? records[1]!.error : undefined
    expect(error?.code).toBe('MALFORMED_XML')
    expect(error?.message).toContain('articleset-committed.xml')
    expect(error?.message).toContain('PMCID PMC1790863 (#2)')
    expect(error?.details).toMatchObject({ file: path, record: 'PMC1790863' })
    // The articles in the set read exactly as the single file does.
    const [single] = await collect(readJatsXml(committed))
    expect(records[0]).toEqual(single)
    expect(records[2]).toEqual(single)
  })

  it(
    'reads every article of three real ones, and reports a broken one as a per-record error',
    { tags: ['real-data'] },
    async () => {
      const broken = articleOf(join(jatsDir, '1472-6831-8-11.nxml')).replace('</title>', '') // one unclosed <title>
      const set =
        '<?xml version="1.0"?>\n<!DOCTYPE pmc-articleset PUBLIC "-//NLM//DTD ARTICLE SET 2.0//EN" "https://dtd.nlm.nih.gov/ncbi/pmc/articleset/nlm-articleset-2.0.dtd">\n' +
        `<pmc-articleset>${articleOf(join(jatsDir, 'pone.0000217.nxml'))}\n${broken}\n${articleOf(join(jatsDir, 'pntd.0002065.nxml'))}</pmc-articleset>`
      const path = write('articleset.xml', set)
      const records = await collect(readJatsXml(path))
      expect(records.map((r) => (r.kind === 'fulltext' ? r.document.pmcid : r.kind))).toEqual([
        'PMC1790863',
        'error',
        'PMC3585041',
      ])
      const error = records[1]!.kind === 'error' ? records[1]!.error : undefined
      expect(error?.code).toBe('MALFORMED_XML')
      expect(error?.message).toContain('articleset.xml')
      expect(error?.message).toContain('PMCID PMC2329613 (#2)')
      expect(error?.details).toMatchObject({ file: path, record: 'PMC2329613' })
      // The articles in the set read exactly as the single files do.
      const [single] = await collect(readJatsXml(join(jatsDir, 'pone.0000217.nxml')))
      expect(records[0]).toEqual(single)
      // In memory, too.
      expect(parseJatsXml(set, { file: 'articleset.xml' }).map((r) => r.kind)).toEqual([
        'fulltext',
        'error',
        'fulltext',
      ])
    },
  )

  it('reports an article without a PMC id, and a child that is not an article, and goes on', () => {
    const records = parseJatsXml(
      '<pmc-articleset><article><front><article-meta><title-group><article-title>No id</article-title></title-group></article-meta></front></article>' +
        '<error>ID list is empty</error>' +
        `${articleOf(committed)}</pmc-articleset>`,
      { file: 'set.xml' },
    )
    expect(records.map((r) => (r.kind === 'error' ? r.error.code : r.kind))).toEqual([
      'MISSING_FIELD',
      'UNSUPPORTED_FORMAT',
      'fulltext',
    ])
    expect(records[0]!.kind === 'error' && records[0]!.error.message).toBe(
      'set.xml, article #1: JATS article has no PMC id (no <article-id pub-id-type="pmc">)',
    )
  })

  it('yields the articles before a cut, then TRUNCATED_INPUT', async () => {
    const set = `<pmc-articleset>${articleOf(committed)}${articleOf(committed)}</pmc-articleset>`
    const cut = gzipSync(Buffer.from(set.slice(0, set.length - 5000), 'utf8'))
    const records = await collect(readJatsXml(write('cut.xml.gz', cut)))
    expect(records.map((r) => (r.kind === 'error' ? r.error.code : r.kind))).toEqual([
      'fulltext',
      'TRUNCATED_INPUT',
    ])
  })

  it('refuses another vocabulary as a whole-input error', async () => {
    const { error, records } = await readFailure(
      write('pubmed.xml', '<PubmedArticleSet></PubmedArticleSet>'),
    )
    expect(records).toEqual([])
    expect(error.code).toBe('UNSUPPORTED_FORMAT')
    expect(error.message).toContain('<PubmedArticleSet> is not JATS')
  })
})

describe('hostile JATS', () => {
  let server: Server
  let requests = 0
  let origin = ''

  beforeAll(async () => {
    server = createServer((_request, response) => {
      requests++
      response.end('<!ENTITY leaked "SECRET">')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })

  it('never fetches the external DTD that names a loopback server', async () => {
    const path = write(
      'external-dtd.nxml',
      `<?xml version="1.0"?>\n<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Archiving and Interchange DTD v1.0 20120330//EN" "${origin}/JATS-archivearticle1.dtd">\n` +
        articleOf(committed),
    )
    const document = onlyDocument(await collect(readJatsXml(path)))
    expect(document.pmcid).toBe('PMC1790863')
    expect(requests).toBe(0)
  })

  it('refuses a used external entity with EXTERNAL_ENTITY and fetches nothing', async () => {
    const article = articleOf(committed).replace('<article-title>', '<article-title>&xxe; ')
    const path = write(
      'xxe.nxml',
      `<?xml version="1.0"?><!DOCTYPE article [<!ENTITY xxe SYSTEM "${origin}/secret">]>${article}`,
    )
    const { error, records } = await readFailure(path)
    expect(records).toEqual([])
    expect(error.code).toBe('EXTERNAL_ENTITY')
    expect(error.details).toMatchObject({ entity: 'xxe', systemId: `${origin}/secret` })
    expect(requests).toBe(0)
  })

  it('fails a billion-laughs set with ENTITY_EXPANSION_LIMIT without building the expansion', async () => {
    const entities = ['<!ENTITY lol "lol">']
    for (let k = 1; k <= 9; k++) {
      entities.push(`<!ENTITY lol${k} "${`&lol${k === 1 ? '' : k - 1};`.repeat(10)}">`)
    }
    const article = articleOf(committed).replace('<article-title>', '<article-title>&lol9; ')
    const path = write(
      'laughs.xml',
      `<?xml version="1.0"?>\n<!DOCTYPE pmc-articleset [\n${entities.join('\n')}\n]>\n<pmc-articleset>${article}</pmc-articleset>`,
    )
    const { error, records } = await readFailure(path)
    expect(records).toEqual([])
    expect(error.code).toBe('ENTITY_EXPANSION_LIMIT')
    expect(error.details).toMatchObject({
      entity: 'lol9',
      expandedLength: 3_000_000_000,
      limit: 1_000_000,
    })
    expect(error.message).toContain('laughs.xml')
    expect(requests).toBe(0)
  })
})

describe('detection and ingestion', () => {
  it('detects a JATS article and a gzipped copy as jats, and not an <article> of another vocabulary', async () => {
    expect(await detectFormat(committed)).toEqual({ format: 'jats' })
    const gz = write('PMC1790863.nxml.gz', gzipSync(readFileSync(committed)))
    expect(await detectFormat(gz)).toEqual({ format: 'jats' })
    expect(onlyDocument(await collect(readJatsXml(gz))).pmcid).toBe('PMC1790863')
    expect(await detectFormat(write('set.xml', '<pmc-articleset></pmc-articleset>'))).toEqual({
      format: 'jats',
    })
    expect(
      await detectFormat(
        write('docbook.xml', '<article><title>DocBook</title><para>x</para></article>'),
      ),
    ).toMatchObject({
      format: null,
      known: true,
    })
  })

  it('detects the 8 real files as jats', { tags: ['real-data'] }, async () => {
    for (const file of readdirSync(jatsDir).filter((name) => name.endsWith('.nxml'))) {
      expect([file, await detectFormat(join(jatsDir, file))]).toEqual([file, { format: 'jats' }])
    }
  })

  it('ingestFiles stores the full text of a folder with the committed article', async () => {
    const folder = join(tmp, 'jats-folder')
    mkdirSync(folder)
    writeFileSync(join(folder, 'pone.0000217.nxml'), readFileSync(committed))
    const store = await openCorpus(join(tmp, 'corpus-committed'), { create: true })
    try {
      const summary = await ingestFiles(store, [folder], { readers: defaultReaders() })
      expect(summary).toMatchObject({ sources: 1, fullTexts: 1, errors: 0, skipped: 0 })
      const stored: string[] = []
      for await (const document of store.fullTexts()) {
        stored.push(document.pmcid)
      }
      expect(stored).toEqual(['PMC1790863'])
    } finally {
      await store.close()
    }
  })

  it(
    'ingestFiles stores the 8 full texts of the jats folder',
    { tags: ['real-data'] },
    async () => {
      const store = await openCorpus(join(tmp, 'corpus'), { create: true })
      try {
        const summary = await ingestFiles(store, [jatsDir], { readers: defaultReaders() })
        expect(summary).toMatchObject({ sources: 8, fullTexts: 8, errors: 0, skipped: 0 })
        const stored: string[] = []
        for await (const document of store.fullTexts()) {
          stored.push(document.pmcid)
        }
        expect(stored.sort()).toEqual([
          'PMC1790863',
          'PMC2329613',
          'PMC2599765',
          'PMC2994229',
          'PMC3166277',
          'PMC3460867',
          'PMC3574550',
          'PMC3585041',
        ])
      } finally {
        await store.close()
      }
    },
  )
})
