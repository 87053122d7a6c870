/**
 * The TypeScript side of the Java feature parity check: builds an index and a forward store over
 * articles, runs queries through the first stage, computes Best Match's 179 features with
 * `@pubmatch/ltr`'s extractor, and writes a case file holding exactly what the Java extractor
 * (`org.pubmatch.solr.features.FeatureParityCheck`) takes as input, with the TypeScript rows.
 */
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { isJoinedToken } from '@pubmatch/analysis'
import { createSearcher, QUESTION_STOPWORDS } from '@pubmatch/bm25f'
import { abstractText, type Article } from '@pubmatch/core'
import { createIndexWriter, openIndex, type FieldConfig } from '@pubmatch/index'
import { bestMatchExtractor, buildForwardIndex, type LabelledQuery } from '@pubmatch/ltr'
import { createQueryMemory } from '@pubmatch/ltr/internal'

const target = fileURLToPath(new URL('../java/target/', import.meta.url))

/** A query of a parity case and how the first stage reads it. */
export interface ParityQuery {
  readonly id: string
  readonly text: string
  /** `plain` drops the first stage's question stop words in both stages; `pubmed` parses PubMed syntax. */
  readonly syntax: 'plain' | 'pubmed'
  /** With a query memory: a remembered query id whose judgements (and variants') it must not see. */
  readonly exclude?: string
}

/** A query memory to check M1–M3 with: the remembered queries and how many neighbours count. */
export interface ParityMemory {
  readonly queries: readonly LabelledQuery[]
  readonly k: number
}

/** One token stream as the Java side takes it: index terms (`null`: none) and flag bits. */
interface JavaStream {
  readonly terms: (string | null)[]
  readonly flags: number[]
}

/** What the Java check reports per column. */
export interface ColumnReport {
  readonly column: number
  readonly name: string
  readonly count: boolean
  readonly identical: number
  readonly maxAbs: number
  readonly maxRel: number
  readonly failed: boolean
  readonly worst?: {
    readonly query: string
    readonly doc: string
    readonly expected: number
    readonly actual: number
  }
}

/** The Java check's report. */
export interface ParityReport {
  readonly rows: number
  readonly queries: number
  readonly names: string[]
  readonly neutral: number[]
  readonly columns: ColumnReport[]
  /** The rows computed again from the docValues encoding: how many were identical, the mean size. */
  readonly failures: number
}

/** A written case: its file and the TypeScript rows it holds (the 179, then M1–M3 with a memory). */
export interface ParityCase {
  readonly file: string
  readonly rows: number[][]
}

/**
 * Indexes `articles`, runs every query (top `limit`, `match: 'any'`), and writes the case file;
 * with `memory`, also M1–M3 of a query memory over the index's title analyzer (as `trainBestMatch`
 * builds it).
 * @param dir - a scratch folder (the index goes to `dir/index`, the case to `dir/case.json`)
 * @param articles - the corpus
 * @param fields - the index's field set
 * @param queries - the queries
 * @param limit - first-stage depth
 */
export async function writeParityCase(
  dir: string,
  articles: readonly Article[],
  fields: FieldConfig[],
  queries: readonly ParityQuery[],
  limit: number,
  memory?: ParityMemory,
): Promise<ParityCase> {
  const writer = await createIndexWriter(join(dir, 'index'), { fields })
  for (const article of articles) {
    await writer.addArticle(article)
  }
  await writer.commit()
  await writer.close()
  const reader = await openIndex(join(dir, 'index'))
  const analyzer = reader.analyzer('title')
  const forward = buildForwardIndex(
    articles.map((article) => ({
      id: article.id,
      title: article.title,
      abstract: abstractText(article),
      mesh: article.mesh.map((heading) => heading.descriptorName),
    })),
    { analyzer },
  )
  const years = reader.schema.numericDocValues.includes('year')
    ? reader.numericValues('year')
    : null
  const hasPubtypes = reader.schema.sortedSetDocValues.includes('pubtype')
  const hasLanguages = reader.schema.sortedSetDocValues.includes('language')
  const stream = (name: 'title' | 'abstract' | 'mesh', fdoc: number): JavaStream => {
    const field = forward.field(name)
    const terms: (string | null)[] = []
    const flags: number[] = []
    for (let k = field.offsets[fdoc]!; k < field.offsets[fdoc + 1]!; k++) {
      const t = field.terms[k]!
      terms.push(t < 0 ? null : forward.term(t))
      flags.push(field.flags[k]!)
    }
    return { terms, flags }
  }

  const documents: Record<string, unknown> = {}
  const terms: Record<string, [number, number, number]> = {}
  const out: unknown[] = []
  const rows: number[][] = []
  const tiab = ['title', 'abstract'].filter((field) => reader.hasField(field))
  const queryMemory =
    memory === undefined
      ? undefined
      : createQueryMemory({ queries: memory.queries, analyzer, k: memory.k })
  const javaTokens = (text: string): { term: string; original: string | null; joined: boolean }[] =>
    analyzer.analyze(text).map((token) => ({
      term: token.term,
      original: token.original ?? null,
      joined: isJoinedToken(token),
    }))
  // Both syntaxes in one case: the Java side drops the question stop words of the plain queries
  // only, so `plain` queries carry them and `pubmed` queries an empty list.
  for (const query of queries) {
    const extractor = bestMatchExtractor({ reader, forward, syntax: query.syntax })
    const result = createSearcher(reader, { match: 'any', syntax: query.syntax, limit }).search(
      query.text,
    )
    const matrix = extractor.extract(query.text, result)
    const tokens = javaTokens(query.text)
    for (const { term } of tokens) {
      terms[term] ??= [
        reader.hasField('title') ? reader.docFreq('title', term) : 0,
        reader.hasField('abstract') ? reader.docFreq('abstract', term) : 0,
        tiab.length === 0 ? 0 : reader.docFreqAny(term, tiab),
      ]
    }
    for (const hit of result.hits) {
      if (documents[hit.id] !== undefined) {
        continue
      }
      const fdoc = forward.docIndex(hit.id)
      const year = years === null ? Number.NaN : years[hit.docNumber]!
      documents[hit.id] = {
        year: Number.isNaN(year) ? null : year,
        pubtypes: hasPubtypes ? reader.sortedSetValues('pubtype', hit.docNumber) : [],
        languages: hasLanguages ? reader.sortedSetValues('language', hit.docNumber) : [],
        title: stream('title', fdoc),
        abstract: stream('abstract', fdoc),
        mesh: stream('mesh', fdoc),
      }
    }
    const features: number[][] = []
    for (let r = 0; r < matrix.numRows; r++) {
      features.push([...matrix.data.subarray(r * matrix.numFeatures, (r + 1) * matrix.numFeatures)])
    }
    const memoryRows: number[][] = []
    if (queryMemory !== undefined) {
      const evidence = queryMemory.evidence(query.text, matrix.ids, query.exclude)
      for (let r = 0; r < matrix.numRows; r++) {
        memoryRows.push([...evidence.subarray(r * 3, r * 3 + 3)])
      }
    }
    rows.push(
      ...features.map((row, r) => (queryMemory === undefined ? row : [...row, ...memoryRows[r]!])),
    )
    out.push({
      ...(queryMemory === undefined ? {} : { exclude: query.exclude ?? null, memory: memoryRows }),
      id: query.id,
      text: query.text,
      queryStopwords: query.syntax === 'plain' ? QUESTION_STOPWORDS : [],
      tokens,
      total: result.total,
      hits: result.hits.map((hit) => ({ id: hit.id, score: hit.score })),
      features,
    })
  }
  const file = join(dir, 'case.json')
  const stats = {
    docCount: reader.docCount,
    hasTitle: reader.hasField('title'),
    hasAbstract: reader.hasField('abstract'),
    terms,
  }
  const remembered =
    memory === undefined
      ? {}
      : {
          memory: {
            k: memory.k,
            queries: memory.queries.map((query) => ({
              id: query.id,
              tokens: javaTokens(query.text),
              judgements: [...query.judgements],
            })),
          },
        }
  await writeFile(file, JSON.stringify({ stats, documents, queries: out, ...remembered }))
  return { file, rows }
}

/**
 * Runs `FeatureParityCheck` on a case file and returns its report (also when it exits 1, i.e.
 * found columns out of tolerance: the caller's assertions name them).
 * @param file - the case file
 */
export async function runParityCheck(file: string): Promise<ParityReport> {
  const classpath = `${target}pubmatch-solr-0.1.0.jar:${readFileSync(`${target}classpath.txt`, 'utf8').trim()}`
  const args = ['-cp', classpath, 'org.pubmatch.solr.features.FeatureParityCheck', file]
  let stdout: string
  try {
    ;({ stdout } = await promisify(execFile)('java', args, { maxBuffer: 1 << 24 }))
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string }
    if (failed.code !== 1 || failed.stdout === undefined) {
      throw error
    }
    stdout = failed.stdout
  }
  return JSON.parse(stdout) as ParityReport
}
