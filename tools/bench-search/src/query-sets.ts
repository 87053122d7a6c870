import { join } from 'node:path'
import { PUBMED_STOPWORDS } from '@pubmatch/analysis'
import { QUESTION_STOPWORDS, type SearchOptions } from '@pubmatch/bm25f'
import type { Query } from '@pubmatch/core'
import { readQueries } from '@pubmatch/ingest'
import { queryTerms, sampleQueries } from '@pubmatch/synth'
import type { FieldSet } from './corpora.ts'

/**
 * The query sets:
 * - `nfcorpus-dev`: NFCorpus's 325 dev title queries as natural-language text (the CLI's
 *   test-collection profile: `syntax: 'plain'`, `match: 'any'`);
 * - `log-pubmed`: 1–5-term queries of NCBI's real PubMed query log (`sampleQueries` of
 *   tools/synth) as typed, with PubMed semantics (`syntax: 'pubmed'`, recovering from typos);
 * - `log-bag`: the same log queries reduced to their content words (`queryTerms`: field tags,
 *   booleans, quotes and stop words removed), for the like-with-like comparison with the
 *   anchors (tantivy, PISA, Xapian).
 */
export type QuerySetName = 'nfcorpus-dev' | 'log-pubmed' | 'log-bag'

/** The queries of one set: measured ones and a disjoint warm-up list. */
export interface QuerySet {
  readonly name: QuerySetName
  readonly measured: readonly Query[]
  /** Run before the clock starts (JIT, caches); never measured. */
  readonly warmup: readonly Query[]
}

/** How many log queries are measured and warmed up with. */
export interface LogSampleSize {
  /** Measured queries. */
  readonly measured: number
  /** Warm-up queries, drawn in the same sample so they are distinct from the measured ones. */
  readonly warmup: number
}

/** The seed of the log-query sample. */
export const LOG_QUERY_SEED = 1

/**
 * Samples real 1–5-term queries from the PubMed log (`sampleQueries({ minTerms: 1, maxTerms: 5 })`
 * of tools/synth, seed {@link LOG_QUERY_SEED}): the first `warmup` of the sample warm up, the
 * next `measured` are measured. The log has 918 such queries, so up to 918 in all are distinct.
 * @param size - see {@link LogSampleSize}
 */
export function logQuerySample(size: LogSampleSize): { measured: Query[]; warmup: Query[] } {
  const sample = sampleQueries({
    count: size.measured + size.warmup,
    seed: LOG_QUERY_SEED,
    minTerms: 1,
    maxTerms: 5,
  }).map((entry) => ({ id: entry.qid, text: entry.text }))
  return { warmup: sample.slice(0, size.warmup), measured: sample.slice(size.warmup) }
}

/**
 * A log query's content words, space-separated (`queryTerms` of tools/synth): what a
 * bag-of-words engine can run of it.
 * @param text - the query as typed, e.g. `"Rabbani F"[Author] AND asthma`
 * @returns e.g. `rabbani f asthma`
 */
export function bagOfWords(text: string): string {
  return queryTerms(text).join(' ')
}

/**
 * Loads a query set. NFCorpus dev queries are warmed up with the first `warmup` NFCorpus
 * *train* title queries; the log sets share one sample ({@link logQuerySample}).
 * @param name - the set
 * @param shared - the shared data folder
 * @param size - log sample size; `warmup` also bounds the NFCorpus warm-up list
 */
export async function loadQuerySet(
  name: QuerySetName,
  shared: string,
  size: LogSampleSize,
): Promise<QuerySet> {
  if (name === 'nfcorpus-dev') {
    const measured = await readQueries(join(shared, 'nfcorpus/dev/q-titles.queries'))
    const train = await readQueries(join(shared, 'nfcorpus/train/q-titles.queries'))
    return { name, measured, warmup: train.slice(0, size.warmup) }
  }
  const { measured, warmup } = logQuerySample(size)
  if (name === 'log-pubmed') {
    return { name, measured, warmup }
  }
  const bag = (q: Query): Query => ({ id: q.id, text: bagOfWords(q.text) })
  return { name, measured: measured.map(bag), warmup: warmup.map(bag) }
}

/**
 * The words the anchors drop from a set's queries: the biomedical analyzer's PubMed stop
 * words, plus `QUESTION_STOPWORDS` for natural-language NFCorpus queries (what pubmatch's
 * `plain` syntax drops). `log-pubmed` is not run on the anchors (they have no PubMed syntax).
 * The `log-bag` list is also the index-time list (Xapian's stopper, tantivy's stop filter).
 * @param name - the set
 */
export function anchorStopwords(name: QuerySetName): string[] {
  return name === 'nfcorpus-dev'
    ? [...new Set([...PUBMED_STOPWORDS, ...QUESTION_STOPWORDS])]
    : [...PUBMED_STOPWORDS]
}

/** The BM25F fields of the anchor comparison: what the anchors' drivers index. */
export const TITLE_ABSTRACT: readonly string[] = ['title', 'abstract']

/** One measured configuration of pubmatch's searcher. */
export interface SearchCell {
  readonly set: QuerySetName
  readonly match: 'all' | 'any'
  readonly limit: number
  readonly pruning: boolean
}

/**
 * pubmatch's search options for a cell, with the default ranker (BM25F, k1 1.2, b 0.75,
 * title 5). `nfcorpus-dev` and `log-bag` are plain text; on a PubMed-fields index they search
 * and score title and abstract only (what the anchors index); `log-bag` keeps every word the
 * analyzer keeps (no question stop words), as the anchors' stop lists do, and does not count
 * every match (`exactTotal: false`, as the anchors: Xapian estimates, tantivy runs with
 * `count=False`, PISA never counts). `log-pubmed` is the full
 * PubMed semantics (every field, tags, booleans, `recover` from syntax errors as the CLI does).
 * @param cell - the cell
 * @param fields - the index's field set
 */
export function searchOptions(cell: SearchCell, fields: FieldSet): SearchOptions {
  const base: SearchOptions = { match: cell.match, limit: cell.limit, pruning: cell.pruning }
  if (cell.set === 'log-pubmed') {
    return { ...base, syntax: 'pubmed', parse: { recover: true } }
  }
  const restrict: SearchOptions =
    fields === 'pubmed'
      ? { defaultFields: [...TITLE_ABSTRACT], scoredFields: [...TITLE_ABSTRACT] }
      : {}
  return {
    ...base,
    ...restrict,
    syntax: 'plain',
    ...(cell.set === 'log-bag' ? { queryStopwords: false as const, exactTotal: false } : {}),
  }
}
