import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sharedDataPath } from '@pubmatch/core/testing'
import { samplePath } from '@pubmatch/sample-data'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openCorpus, type CorpusStore } from '../store/corpus-store.ts'
import { detectFormat } from './detect-format.ts'
import { emptySummary, ingestFiles, ingestOutcome, type IngestEvent } from './ingest-files.ts'
import { defaultReaders } from './readers.ts'

let dir: string
let store: CorpusStore

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pubmatch-files-'))
  store = await openCorpus(join(dir, 'corpus'), { create: true })
})
afterEach(async () => {
  await store.close()
  await rm(dir, { recursive: true, force: true })
})

const readers = defaultReaders()
/** A file committed with the tests (`test/fixtures`). */
const fixture = (path: string): string => fileURLToPath(new URL(`../../test/fixtures/${path}`, import.meta.url))

describe('detectFormat', () => {
  it('recognises the article formats of the sample corpus and the committed files from content, not names', async () => {
    const cases: Array<[string, string, string | null]> = [
      ['medline16n0902.xml.gz', samplePath('pubmed', 'medline16n0902.xml.gz'), 'pubmed-xml'],
      ['medsamp2006.xml', samplePath('pubmed', 'medsamp2006.xml'), 'pubmed-xml'],
      ['pmid_9500320.xml', samplePath('pubmed', 'pmid_9500320.xml'), 'pubmed-xml'],
      ['PMC10142442.json', samplePath('bioc', 'PMC10142442.json'), 'bioc-json'],
      ['collection.xml', fixture('bioc-format/ncbi-nlp-BioC-JSON/xml/collection.xml'), 'bioc-xml'],
      ['pone.0000217.nxml', fixture('jats/pone.0000217.nxml'), 'jats'],
      ['desc-samples.xml', samplePath('mesh', 'desc-samples.xml'), 'mesh-descriptors'],
      ['qual2014.xml', samplePath('mesh', 'qual2014.xml'), 'mesh-qualifiers'],
      ['supp-samples.xml', samplePath('mesh', 'supp-samples.xml'), 'mesh-supplementary'],
      ['pubmed_result1.txt', fixture('medline-text/pubmed_result1.txt'), 'medline-text'],
      ['esearch1.xml', fixture('eutils/biopython/esearch1.xml'), null],
      ['SOURCE.factoid.md', samplePath('pubmed', 'SOURCE.factoid.md'), null],
    ]
    for (const [name, path, format] of cases) {
      expect([name, (await detectFormat(path)).format]).toEqual([name, format])
    }
  })

  it('recognises every article format of the real data set from content, not names', { tags: ['real-data'] }, async () => {
    const cases: Array<[string, string | null]> = [
      ['pubmed-xml/medline16n0902.xml.gz', 'pubmed-xml'],
      ['pubmed-xml/medsamp2006.xml', 'pubmed-xml'],
      ['pubmed-xml/pmid_9500320.xml', 'pubmed-xml'],
      ['eutils/klortho/efetch.pubmedbook.xml', 'pubmed-xml'],
      ['pmc/bioc-json/PMC10020673.json', 'bioc-json'],
      ['pmc/pubtator-bioc-json/pubtator_8.json', 'bioc-json'],
      ['pmc/bioc-format/ncbi-nlp-BioC-JSON/xml/collection.xml', 'bioc-xml'],
      ['mesh/desc-samples.xml', 'mesh-descriptors'],
      ['mesh/qual2014.xml', 'mesh-qualifiers'],
      ['mesh/supp-samples.xml', 'mesh-supplementary'],
      ['medline-text/pubmed_result1.txt', 'medline-text'],
      ['nfcorpus/corpus.docs', 'nfcorpus'],
      ['eutils/klortho/esearch.pubmed.xml', null],
      ['nfcorpus/dev/s-3.qrel', null],
      ['nfcorpus/dev/q-titles.queries', null],
    ]
    for (const [path, format] of cases) {
      expect([path, (await detectFormat(sharedDataPath(...path.split('/')))).format]).toEqual([path, format])
    }
  })
})

describe('detectFormat in other encodings', () => {
  it('reads UTF-16 XML, with or without a byte-order mark, as the XML reader does', async () => {
    const xml = '<?xml version="1.0" encoding="UTF-16"?>\n<PubmedArticleSet></PubmedArticleSet>\n'
    const le = Buffer.from(xml, 'utf16le')
    const be = Buffer.from(xml, 'utf16le').swap16()
    const cases: Array<[string, Buffer]> = [
      ['le-bom.xml', Buffer.concat([Buffer.from([0xff, 0xfe]), le])],
      ['be-bom.xml', Buffer.concat([Buffer.from([0xfe, 0xff]), be])],
      ['le.xml', le],
      ['be.xml', be],
    ]
    for (const [name, bytes] of cases) {
      await writeFile(join(dir, name), bytes)
      expect([name, await detectFormat(join(dir, name))]).toEqual([name, { format: 'pubmed-xml' }])
    }
  })

  it('names an encoding it cannot decode instead of calling the file binary', async () => {
    await writeFile(join(dir, 'x.xml'), '<?xml version="1.0" encoding="X-NO-SUCH-CHARSET"?><PubmedArticleSet/>')
    expect(await detectFormat(join(dir, 'x.xml'))).toEqual({
      format: null,
      reason: 'XML in the encoding "X-NO-SUCH-CHARSET", which pubmatch cannot decode',
      known: false,
    })
  })
})

describe('ingestOutcome', () => {
  it('is complete, partial, failed or empty by what was stored and what failed', () => {
    expect(ingestOutcome({ ...emptySummary(), added: 3 })).toBe('complete')
    expect(ingestOutcome({ ...emptySummary(), resumed: 2 })).toBe('complete')
    expect(ingestOutcome({ ...emptySummary(), added: 3, errors: 1, failedSources: 1 })).toBe('partial')
    expect(ingestOutcome({ ...emptySummary(), mesh: 1, errors: 2 })).toBe('partial')
    expect(ingestOutcome({ ...emptySummary(), errors: 1, failedSources: 1 })).toBe('failed')
    expect(ingestOutcome({ ...emptySummary(), skipped: 4 })).toBe('empty')
  })
})

describe('ingestFiles', () => {
  it('counts a well-formed file without records (an empty <PubmedArticleSet>) as skipped, and skips it next time', async () => {
    const file = join(dir, 'empty-set.xml')
    await writeFile(file, '<?xml version="1.0" ?>\n<PubmedArticleSet></PubmedArticleSet>\n')
    const first = await ingestFiles(store, [file], { readers })
    expect(first).toMatchObject({ sources: 0, skipped: 1, errors: 0, failedSources: 0 })
    expect(ingestOutcome(first)).toBe('empty')
    const again = await ingestFiles(store, [file], { readers })
    expect(again).toMatchObject({ sources: 0, skipped: 0, resumed: 1 })
  })

  it('ingests a directory of real files of several formats and skips non-article files', async () => {
    const src = join(dir, 'in')
    await mkdir(src)
    for (const file of ['pubmed/medsamp2006.xml', 'bioc/PMC10142442.json', 'mesh/desc-samples.xml', 'pubmed/SOURCE.factoid.md']) {
      await copyFile(samplePath(file), join(src, file.split('/').pop()!))
    }
    const events: IngestEvent[] = []
    const summary = await ingestFiles(store, [src], { readers, onEvent: (e) => events.push(e) })
    expect(summary).toMatchObject({ added: 88, fullTexts: 1, mesh: 43, sources: 3, skipped: 1, failedSources: 0 })
    expect(events.filter((e) => e.type === 'source-skipped').map((e) => e.type === 'source-skipped' && e.reason)).toEqual([
      'text in no format pubmatch ingests',
    ])
  })

  it('skips files already ingested with the same content and re-reads changed ones', async () => {
    const file = join(dir, 'medsamp.xml')
    await copyFile(samplePath('pubmed', 'medsamp2006.xml'), file)
    await ingestFiles(store, [file], { readers })
    const again = await ingestFiles(store, [file], { readers })
    expect(again).toMatchObject({ resumed: 1, sources: 0, added: 0 })
    const forced = await ingestFiles(store, [file], { readers, force: true })
    expect(forced).toMatchObject({ sources: 1, added: 0, unchanged: 88 })
    // the same content under another name is read, but nothing changes
    const copy = join(dir, 'copy.xml')
    await copyFile(file, copy)
    expect(await ingestFiles(store, [copy], { readers })).toMatchObject({ sources: 1, added: 0, unchanged: 88 })
  })

  it('applies a DeleteCitation from a later file to an article stored from an earlier one', async () => {
    const base = join(dir, 'base.xml')
    await copyFile(samplePath('pubmed', 'pmid_9500320.xml'), base)
    await ingestFiles(store, [base], { readers })
    expect(store.has('9500320')).toBe(true)
    const update = join(dir, 'update.xml')
    await writeFile(
      update,
      '<?xml version="1.0"?>\n<PubmedArticleSet><DeleteCitation><PMID Version="1">9500320</PMID></DeleteCitation></PubmedArticleSet>\n',
    )
    const summary = await ingestFiles(store, [update], { readers })
    expect(summary).toMatchObject({ deleted: 1 })
    expect(store.has('9500320')).toBe(false)
  })

  it('keeps the good files and records of a batch with hostile and broken files', async () => {
    const src = join(dir, 'in')
    await mkdir(src)
    const gz = await readFile(samplePath('pubmed', 'medline16n0902.xml.gz'))
    await writeFile(join(src, 'a-truncated.xml.gz'), gz.subarray(0, Math.floor(gz.length / 2)))
    await writeFile(join(src, 'b-empty.xml'), '')
    await writeFile(join(src, 'c-not-xml.xml'), 'this is not XML at all\n')
    await writeFile(
      join(src, 'd-laughs.xml'),
      `<?xml version="1.0"?>\n<!DOCTYPE PubmedArticleSet [\n${Array.from({ length: 10 }, (_, i) =>
        i === 0 ? '<!ENTITY l0 "lol">' : `<!ENTITY l${i} "${`&l${i - 1};`.repeat(10)}">`,
      ).join('\n')}\n]>\n<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID>1</PMID><Article><ArticleTitle>&l9;</ArticleTitle></Article></MedlineCitation></PubmedArticle></PubmedArticleSet>\n`,
    )
    await copyFile(samplePath('pubmed', 'medsamp2006.xml'), join(src, 'e-good.xml'))
    const failed: string[] = []
    const summary = await ingestFiles(store, [src], {
      readers,
      onEvent: (e) => {
        if (e.type === 'source-failed') {
          failed.push(`${e.key.split('/').pop()}: ${e.error.code}`)
        }
      },
    })
    // whole-file failures: the entity bomb is refused from its DOCTYPE, before any expansion
    expect(failed).toEqual([
      'b-empty.xml: EMPTY_INPUT',
      'c-not-xml.xml: UNSUPPORTED_FORMAT',
      'd-laughs.xml: ENTITY_EXPANSION_LIMIT',
    ])
    // the truncated file keeps the citations before the cut and reports the truncation
    const codes: string[] = []
    for await (const error of store.errors()) {
      codes.push(`${String(error.details.file).split('/').pop()}: ${error.code}`)
    }
    expect(codes).toContain('a-truncated.xml.gz: TRUNCATED_INPUT')
    expect(summary).toMatchObject({ failedSources: 3, sources: 2 })
    // all 88 good citations, plus the truncated file's citations before the cut
    expect(summary.added).toBeGreaterThan(88 + 100)
    expect(store.stats().articles).toBe(summary.added)
  })

  it('resumes at the file it was writing when interrupted', async () => {
    const src = join(dir, 'in')
    await mkdir(src)
    for (const file of ['pmid_151222.xml', 'pmid_30078747.xml', 'pmid_9500320.xml']) {
      await copyFile(samplePath('pubmed', file), join(src, file))
    }
    const controller = new AbortController()
    await expect(
      ingestFiles(store, [src], {
        readers,
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type === 'source-done') {
            controller.abort()
          }
        },
      }),
    ).rejects.toMatchObject({ code: 'ABORTED' })
    expect(store.stats().articles).toBe(1)
    const resumed = await ingestFiles(store, [src], { readers })
    expect(resumed).toMatchObject({ resumed: 1, sources: 2, added: 2 })
  })

  it('names a missing path', async () => {
    await expect(ingestFiles(store, [join(dir, 'nope.xml')], { readers })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})
