import { PubmatchError, truncateForMessage } from '@pubmatch/core'
import { loadCorpusModel, type CorpusModel, type QueryLogEntry } from './model.ts'
import { createRng } from './random.ts'
import { FUNCTION_WORDS, tokenTerms } from './text.ts'

const OPERATORS = new Set(['and', 'or', 'not'])
const SYNTAX = /\[|"|\*|\(|\b(?:AND|OR|NOT)\b/

/**
 * The content terms of a PubMed query as typed: field tags (`[Author]`, `[au]`) are removed,
 * the rest is tokenized like titles and abstracts ({@link tokenTerms}), and PubMed stop words
 * and the boolean operators `and`/`or`/`not` are dropped.
 * @param query - the query text, e.g. `"Rabbani F"[Author] AND asthma`
 * @returns the terms, e.g. `['rabbani', 'f', 'asthma']`
 */
export function queryTerms(query: string): string[] {
  return tokenTerms(query.replace(/\[[^\]]*\]/g, ' ')).filter(
    (term) => !FUNCTION_WORDS.has(term) && !OPERATORS.has(term),
  )
}

/**
 * Parses a query log in the `qidNNNN|query text` format of NCBI's PubMed Best Match sample
 * (`data/queries/queries.txt`). Blank lines are skipped; queries that refer to search history
 * (`#8 AND bell*`) cannot be run on their own and are dropped, as are queries without terms.
 * @param text - the file's content
 * @param file - the name used in messages. Defaults to `<queries>`.
 * @throws PubmatchError `UNSUPPORTED_FORMAT` for a non-blank line without a `|`
 */
export function parseQueryLog(text: string, file = '<queries>'): QueryLogEntry[] {
  const entries: QueryLogEntry[] = []
  const lines = text.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (line.trim() === '') {
      continue
    }
    const bar = line.indexOf('|')
    if (bar < 0) {
      throw new PubmatchError(
        'UNSUPPORTED_FORMAT',
        `@pubmatch/synth: ${file}: line ${i + 1} is not "qid|query": ${truncateForMessage(line)}`,
        { details: { file, line: i + 1 } },
      )
    }
    const query = line.slice(bar + 1).trim()
    if (/#\d/.test(query)) {
      continue
    }
    const terms = queryTerms(query).length
    if (terms === 0) {
      continue
    }
    entries.push({
      qid: line.slice(0, bar).trim(),
      text: query,
      terms,
      fielded: SYNTAX.test(query),
    })
  }
  return entries
}

/** Options of {@link sampleQueries}. */
export interface SampleQueriesOptions {
  /** How many queries. */
  count: number
  /** The seed; the same seed gives the same list. */
  seed: number
  /** Fewest terms. Defaults to `1`. */
  minTerms?: number
  /** Most terms. Defaults to `5`. */
  maxTerms?: number
  /** Keep only plain queries (no field tags, booleans, quotes, wildcards). Defaults to `false`. */
  plainOnly?: boolean
  /** The model whose query log is sampled. Defaults to the committed model. */
  model?: CorpusModel
}

/**
 * Samples real queries from the PubMed query log embedded in the model. Every query of the
 * log with `minTerms … maxTerms` terms is equally likely, so the sample keeps the log's
 * term-count distribution within that range. Queries are drawn without replacement
 * (a seeded shuffle); when `count` exceeds the pool the pool is reshuffled and drawn again.
 * @param options - see {@link SampleQueriesOptions}
 * @throws PubmatchError `INVALID_ARGUMENT` for a bad count or range, or when no query fits
 */
export function sampleQueries(options: SampleQueriesOptions): QueryLogEntry[] {
  const { count, seed } = options
  const minTerms = options.minTerms ?? 1
  const maxTerms = options.maxTerms ?? 5
  if (!Number.isInteger(count) || count < 0 || !(minTerms <= maxTerms)) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `@pubmatch/synth: sampleQueries needs a non-negative integer count and minTerms ≤ maxTerms (got count ${count}, ${minTerms}–${maxTerms})`,
    )
  }
  const model = options.model ?? loadCorpusModel()
  const pool = model.queries.filter(
    (q) => q.terms >= minTerms && q.terms <= maxTerms && !(options.plainOnly === true && q.fielded),
  )
  if (pool.length === 0 && count > 0) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `@pubmatch/synth: no query of the log has ${minTerms}–${maxTerms} terms${options.plainOnly === true ? ' without PubMed syntax' : ''}`,
    )
  }
  const rng = createRng(seed, 0x51e7)
  const out: QueryLogEntry[] = []
  let order: QueryLogEntry[] = []
  while (out.length < count) {
    if (order.length === 0) {
      order = [...pool]
      for (let i = order.length - 1; i > 0; i--) {
        const j = rng.int(i + 1)
        const t = order[i]!
        order[i] = order[j]!
        order[j] = t
      }
    }
    out.push(order.pop()!)
  }
  return out
}
