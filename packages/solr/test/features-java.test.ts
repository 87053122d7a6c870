/**
 * The Java port of Best Match's 179 features (`org.pubmatch.solr.features`) against the
 * TypeScript extractor of `@pubmatch/ltr` (the reference): both compute the rows of the same
 * first-stage candidates from the same inputs, and `FeatureParityCheck` compares them column by
 * column — counts exactly, reals within 1e-9 relative.
 */
import { readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { readNfcorpusDocs, readQueries, parsePubmedXmlString } from '@pubmatch/ingest'
import type { Article } from '@pubmatch/core'
import { REAL_DATA_TAG, sharedDataPath } from '@pubmatch/core/testing'
import { defaultPubmedFields, testCollectionFields } from '@pubmatch/index'
import { BEST_MATCH_SCHEMA } from '@pubmatch/ltr'
import { samplePath } from '@pubmatch/sample-data'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { javaBuilt } from '../src/cluster.ts'
import {
  runParityCheck,
  writeParityCase,
  type ParityCase,
  type ParityQuery,
  type ParityReport,
} from './feature-parity-case.ts'

/**
 * F-ids of the columns whose values must vary across a PubMed case (so every code path runs), the
 * 19 span columns F149–F167 too except F157: a span made of stop words only needs a query term
 * that is a stop word, which only an index analyzer keeping stop words has (the whitespace case).
 */
const EXERCISED = [
  'F1',
  'F8',
  'F39',
  'F78',
  'F79',
  'F94',
  'F141',
  'F142',
  'F143',
  'F144',
  'F145',
  'F146',
  'F147',
  'F148',
  'F168',
  'F169',
  'F170',
  'F171',
  'F172',
  'F173',
  'F174',
  'F175',
  'F176',
  'F177',
  'F178',
  'F179',
]

/**
 * Typical biomedical searches over the topics of the sample's MEDLINE citations: plain text (the
 * question words dropped by both stages) and PubMed syntax, with punctuation, hyphenated
 * compounds (`COX-2`, `non-small`), stop words, repeated words and Greek letters.
 */
const SAMPLE_QUERIES: ParityQuery[] = [
  { id: 's1', text: 'non-small cell lung cancer apoptosis', syntax: 'plain' },
  { id: 's2', text: 'What is the risk of bias in systematic reviews?', syntax: 'plain' },
  { id: 's3', text: 'insomnia short sleep duration hypertension', syntax: 'plain' },
  { id: 's4', text: 'breast cancer screening efficacy and adverse effects', syntax: 'plain' },
  { id: 's5', text: 'schizophrenia cognitive enhancement BDNF biomarker', syntax: 'plain' },
  { id: 's6', text: 'cataract surgery intraocular lens refractive outcome', syntax: 'plain' },
  {
    id: 's7',
    text: 'human papillomavirus oropharyngeal cancer survival recurrence',
    syntax: 'plain',
  },
  { id: 's8', text: 'drug combinations systems biology', syntax: 'plain' },
  { id: 's9', text: 'COX-2 inhibitors and cardiovascular risk', syntax: 'plain' },
  { id: 's10', text: 'prion protein copper binding', syntax: 'plain' },
  { id: 's11', text: 'RNA polymerase replication error-prone (RNA virus)', syntax: 'plain' },
  { id: 's12', text: 'Leishmania infection in hedgehogs: Algeria', syntax: 'plain' },
  { id: 's13', text: 'nanoparticles oral bioavailability PLGA', syntax: 'plain' },
  { id: 's14', text: 'phase II trial diffuse large B-cell lymphoma R-CHOP', syntax: 'plain' },
  { id: 's15', text: 'δ-opioid receptor allosteric modulators', syntax: 'plain' },
  {
    id: 's16',
    text: 'how does the immune response protect mice against infection in the lung',
    syntax: 'plain',
  },
  { id: 's17', text: 'pacemaker heart block AND shortness of breath', syntax: 'pubmed' },
  { id: 's18', text: 'tumor cells OR tumour cells', syntax: 'pubmed' },
  { id: 's19', text: 'children tetralogy of fallot africa', syntax: 'pubmed' },
  { id: 's20', text: 'cancer cancer therapy patients patients', syntax: 'pubmed' },
]

/** The citations of the sample corpus's two MEDLINE files, as the PubMed reader reads them. */
function sampleArticles(): Article[] {
  const files = [
    [
      'medline16n0902.xml',
      gunzipSync(readFileSync(samplePath('pubmed', 'medline16n0902.xml.gz'))).toString('utf8'),
    ],
    ['medsamp2006.xml', readFileSync(samplePath('pubmed', 'medsamp2006.xml'), 'utf8')],
  ] as const
  const articles = new Map<string, Article>()
  for (const [file, xml] of files) {
    for (const record of parsePubmedXmlString(xml, { file })) {
      if (record.kind === 'article') {
        articles.set(record.article.id, record.article)
      }
    }
  }
  return [...articles.values()]
}

/** Checks a report and returns the largest relative difference of each real-valued column. */
function expectParity(
  report: ParityReport,
  written: ParityCase,
  exercised: readonly string[],
): Map<string, number> {
  expect(report.names).toEqual(BEST_MATCH_SCHEMA.features.map((feature) => feature.name))
  expect(report.neutral).toEqual(BEST_MATCH_SCHEMA.features.map((feature) => feature.neutral))
  expect(report.rows).toBe(written.rows.length)
  const out = new Map<string, number>()
  for (const column of report.columns) {
    const id = `F${column.column + 1}`
    if (column.count) {
      expect(column.identical, `${id} ${column.name}: ${JSON.stringify(column.worst)}`).toBe(
        report.rows,
      )
    } else {
      expect(
        column.maxRel,
        `${id} ${column.name}: ${JSON.stringify(column.worst)}`,
      ).toBeLessThanOrEqual(1e-9)
      out.set(`${id} ${column.name}`, column.maxRel)
    }
  }
  expect(report.failures).toBe(0)
  // The case reaches every feature group: each listed column takes more than one value.
  for (const id of exercised) {
    const c = Number(id.slice(1)) - 1
    expect(new Set(written.rows.map((row) => row[c])).size, id).toBeGreaterThan(1)
  }
  return out
}

function summary(label: string, report: ParityReport, maxRel: Map<string, number>): string {
  const identical = report.columns.filter((column) => column.identical === report.rows).length
  const inexact = [...maxRel].filter(([, rel]) => rel > 0)
  return [
    `${label}: ${report.queries} queries, ${report.rows} rows; ${identical}/179 columns bit-identical in every row`,
    ...(inexact.length === 0
      ? []
      : inexact.map(([name, rel]) => `  ${name}: max relative difference ${rel.toExponential(2)}`)),
  ].join('\n')
}

describe.runIf(javaBuilt() || process.env.CI !== undefined)(
  'BestMatchFeatures (Java) against the TypeScript extractor',
  () => {
    let dir: string

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'solr-features-'))
    })

    afterAll(async () => {
      await rm(dir, { recursive: true, force: true })
    })

    it('computes the same 179 features on the sample corpus (20 queries, top 100)', async () => {
      const articles = sampleArticles()
      expect(articles.length).toBeGreaterThan(600)
      const written = await writeParityCase(
        join(dir, 'sample'),
        articles,
        defaultPubmedFields(),
        SAMPLE_QUERIES,
        100,
      )
      const report = await runParityCheck(written.file)
      const spans = Array.from({ length: 19 }, (_, i) => `F${149 + i}`).filter(
        (id) => id !== 'F157',
      )
      const maxRel = expectParity(report, written, [...EXERCISED, ...spans])
      console.info(summary('sample corpus', report, maxRel))

      // The check itself: one count off by 1 and one real off by 1e-6 (relative) are both reported.
      const tampered = JSON.parse(await readFile(written.file, 'utf8')) as {
        queries: { features: number[][] }[]
      }
      const row = tampered.queries[0]!.features[0]!
      row[167] = row[167]! + 1 // F168 title_matches
      row[142] = row[142]! * (1 + 1e-6) // F143 first_stage_score
      await writeFile(written.file, JSON.stringify(tampered))
      const caught = await runParityCheck(written.file)
      expect(caught.failures).toBe(2)
      expect(caught.columns.filter((column) => column.failed).map((column) => column.name)).toEqual(
        ['first_stage_score', 'title_matches'],
      )
    })

    it('computes the same features over an index that keeps stop words (whitespace analyzer)', async () => {
      // Stop words are index terms here: they match query words, carry the stop-word flag, and
      // can make a span of stop words only (F157).
      const articles = sampleArticles()
      const written = await writeParityCase(
        join(dir, 'whitespace'),
        articles,
        defaultPubmedFields({ analyzer: 'whitespace' }),
        SAMPLE_QUERIES,
        100,
      )
      const report = await runParityCheck(written.file)
      const maxRel = expectParity(report, written, [...EXERCISED, 'F154', 'F155', 'F156', 'F157'])
      console.info(summary('sample corpus, whitespace analyzer', report, maxRel))
    })

    describe('NFCorpus dev', { tags: [REAL_DATA_TAG] }, () => {
      it('computes the same 179 features for 30 dev title queries (top 100)', async () => {
        const articles: Article[] = []
        for await (const record of readNfcorpusDocs(sharedDataPath('nfcorpus', 'corpus.docs'))) {
          if (record.kind === 'article') {
            articles.push(record.article)
          }
        }
        const queries = (
          await readQueries(sharedDataPath('nfcorpus', 'dev', 'q-titles.queries'))
        ).slice(0, 30)
        const written = await writeParityCase(
          join(dir, 'nfcorpus'),
          articles,
          testCollectionFields({ analyzer: 'biomedical' }),
          queries.map((query) => ({ id: query.id, text: query.text, syntax: 'plain' })),
          100,
        )
        const report = await runParityCheck(written.file)
        // NFCorpus has no year, publication types, languages or MeSH: only the text columns vary.
        expect(report.names).toEqual(BEST_MATCH_SCHEMA.features.map((feature) => feature.name))
        expect(report.rows).toBe(written.rows.length)
        const maxRel = new Map<string, number>()
        for (const column of report.columns) {
          const id = `F${column.column + 1}`
          if (column.count) {
            expect(column.identical, `${id} ${column.name}: ${JSON.stringify(column.worst)}`).toBe(
              report.rows,
            )
          } else {
            expect(
              column.maxRel,
              `${id} ${column.name}: ${JSON.stringify(column.worst)}`,
            ).toBeLessThanOrEqual(1e-9)
            maxRel.set(`${id} ${column.name}`, column.maxRel)
          }
        }
        expect(report.failures).toBe(0)
        console.info(summary('NFCorpus dev', report, maxRel))
      })
    })
  },
)
