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
import { BEST_MATCH_SCHEMA, MEMORY_FEATURES, type LabelledQuery } from '@pubmatch/ltr'
import { samplePath } from '@pubmatch/sample-data'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { javaBuilt } from '../src/cluster.ts'
import {
  runParityCheck,
  writeParityCase,
  type ParityCase,
  type ParityMemory,
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

/**
 * A query memory of known-item queries over the sample (as `packages/ltr/test/sample.ts` builds
 * them): the title of each of the first 120 citations with MeSH headings, judging the citation 2
 * and every citation sharing at least two of its descriptors 1, and for every second one a variant
 * (`S<PMID>#1`, its descriptor names) with the same judgements.
 */
function sampleMemory(articles: readonly Article[]): ParityMemory {
  const indexed = articles.filter((article) => article.mesh.length > 0)
  const names = (article: Article): string[] =>
    article.mesh.map((heading) => heading.descriptorName)
  const titles: LabelledQuery[] = []
  const variants: LabelledQuery[] = []
  for (const [i, article] of indexed.slice(0, 120).entries()) {
    const own = names(article)
    const judgements = new Map<string, number>([[article.id, 2]])
    for (const other of indexed) {
      if (
        other.id !== article.id &&
        names(other).filter((name) => own.includes(name)).length >= 2
      ) {
        judgements.set(other.id, 1)
      }
    }
    titles.push({ id: `S${article.id}`, text: article.title, judgements })
    if (i % 2 === 0) {
      variants.push({ id: `S${article.id}#1`, text: own.join(' '), judgements })
    }
  }
  return { queries: [...titles, ...variants], k: 20 }
}

/** Known-item queries of remembered citations that leave themselves (or a variant) out, as training does. */
function knownItemQueries(memory: ParityMemory): ParityQuery[] {
  return [0, 2, 7].map((i) => {
    const query = memory.queries[i]!
    return {
      id: `k${i}`,
      text: query.text,
      syntax: 'plain' as const,
      exclude: i === 7 ? `${query.id}#1` : query.id,
    }
  })
}

/** A query file's judgements (`QID 0 DOC GRADE` lines), in file order. */
function readQrels(file: string): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>()
  for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const [q, , d, g] = line.split(/\s+/) as [string, string, string, string]
    const map = out.get(q) ?? new Map<string, number>()
    map.set(d, Number(g))
    out.set(q, map)
  }
  return out
}

/** Checks a report and returns the largest relative difference of each real-valued column. */
/** Java's columns are BEST_MATCH_SCHEMA's (names and neutral values), then M1–M3 when a memory was given. */
function expectSchema(report: ParityReport): void {
  const features = [
    ...BEST_MATCH_SCHEMA.features,
    ...(report.names.length > 179 ? MEMORY_FEATURES : []),
  ]
  expect(report.names).toEqual(features.map((feature) => feature.name))
  expect(report.neutral).toEqual(features.map((feature) => feature.neutral))
}

/** The report's id of a column: `F1` … `F179`, then `M1` … `M3`. */
function columnId(column: number): string {
  return column < 179 ? `F${column + 1}` : `M${column - 178}`
}

/**
 * Checks a report: counts equal in every row, reals within 1e-9 relative, and each `exercised`
 * column taking more than one value in the case (so the case reaches that code path). Returns the
 * largest relative difference of each real-valued column.
 */
function expectParity(
  report: ParityReport,
  written: ParityCase,
  exercised: readonly string[],
): Map<string, number> {
  expectSchema(report)
  expect(report.rows).toBe(written.rows.length)
  const out = new Map<string, number>()
  for (const column of report.columns) {
    const label = `${columnId(column.column)} ${column.name}: ${JSON.stringify(column.worst)}`
    if (column.count) {
      expect(column.identical, label).toBe(report.rows)
    } else {
      expect(column.maxRel, label).toBeLessThanOrEqual(1e-9)
      out.set(`${columnId(column.column)} ${column.name}`, column.maxRel)
    }
  }
  expect(report.failures).toBe(0)
  for (const id of exercised) {
    const c = id.startsWith('M') ? 178 + Number(id.slice(1)) : Number(id.slice(1)) - 1
    expect(new Set(written.rows.map((row) => row[c])).size, id).toBeGreaterThan(1)
  }
  return out
}

function summary(label: string, report: ParityReport, maxRel: Map<string, number>): string {
  const identical = report.columns.filter((column) => column.identical === report.rows).length
  const inexact = [...maxRel].filter(([, rel]) => rel > 0)
  return [
    `${label}: ${report.queries} queries, ${report.rows} rows; ${identical}/${report.columns.length} columns bit-identical in every row`,
    ...inexact.map(([name, rel]) => `  ${name}: max relative difference ${rel.toExponential(2)}`),
  ].join('\n')
}

/** The 19 span columns but F157 (see {@link EXERCISED}). */
const SPANS = Array.from({ length: 19 }, (_, i) => `F${149 + i}`).filter((id) => id !== 'F157')

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

    it('computes the same 179 features and M1–M3 on the sample corpus (23 queries, top 100)', async () => {
      const articles = sampleArticles()
      expect(articles.length).toBe(692)
      const memory = sampleMemory(articles)
      const queries = [...SAMPLE_QUERIES, ...knownItemQueries(memory)]
      const written = await writeParityCase(
        join(dir, 'sample'),
        articles,
        defaultPubmedFields(),
        queries,
        100,
        memory,
      )
      const report = await runParityCheck(written.file)
      const maxRel = expectParity(report, written, [...EXERCISED, ...SPANS, 'M1', 'M2', 'M3'])
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

    it('computes the same 179 features over an index that keeps stop words (whitespace analyzer)', async () => {
      // Stop words are index terms here: they match query words, carry the stop-word flag, and
      // can make a span of stop words only (F157).
      const written = await writeParityCase(
        join(dir, 'whitespace'),
        sampleArticles(),
        defaultPubmedFields({ analyzer: 'whitespace' }),
        SAMPLE_QUERIES,
        100,
      )
      const report = await runParityCheck(written.file)
      const maxRel = expectParity(report, written, [...EXERCISED, 'F154', 'F155', 'F156', 'F157'])
      console.info(summary('sample corpus, whitespace analyzer', report, maxRel))
    })

    describe('NFCorpus dev', { tags: [REAL_DATA_TAG] }, () => {
      it('computes the same 179 features and M1–M3 for 30 dev title queries (top 100), the memory holding train', async () => {
        const articles: Article[] = []
        for await (const record of readNfcorpusDocs(sharedDataPath('nfcorpus', 'corpus.docs'))) {
          if (record.kind === 'article') {
            articles.push(record.article)
          }
        }
        // The memory as trainBestMatch builds it on NFCorpus: the training title queries with their
        // judgements, then their video-title variants (`<id>#1`).
        const qrels = readQrels(sharedDataPath('nfcorpus', 'train', 's-3.qrel'))
        const labelled = async (file: string, suffix: string): Promise<LabelledQuery[]> =>
          (await readQueries(sharedDataPath('nfcorpus', 'train', file)))
            .filter((query) => qrels.has(query.id))
            .map((query) => ({
              id: `${query.id}${suffix}`,
              text: query.text,
              judgements: qrels.get(query.id)!,
            }))
        const memory: ParityMemory = {
          queries: [
            ...(await labelled('q-titles.queries', '')),
            ...(await labelled('q-vidtitles.queries', '#1')),
          ],
          k: 20,
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
          memory,
        )
        const report = await runParityCheck(written.file)
        // No year, publication types, languages or MeSH in NFCorpus, and its text has no stop
        // words (no articles or stop words in spans, F154–F157): the other text columns vary.
        const maxRel = expectParity(report, written, [
          'F78',
          'F79',
          'F143',
          'F144',
          'F145',
          'F147',
          'F148',
          ...SPANS.filter((id) => !['F154', 'F155', 'F156'].includes(id)),
          'F171',
          'F172',
          'F173',
          'F174',
          'F176',
          'M1',
          'M2',
          'M3',
        ])
        console.info(summary('NFCorpus dev', report, maxRel))
      })
    })
  },
)
