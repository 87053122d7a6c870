/**
 * The real queries: NCBI's PubMed Best Match sample (`data/queries/queries.txt`, 1,000 queries
 * of one day of PubMed's log, `qidNNNN|query`), as typed.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** One log query. */
export interface LogQuery {
  readonly qid: string
  readonly text: string
}

/**
 * Parses `qidNNNN|query text` lines; blank lines and blank queries are skipped, the text is
 * trimmed and otherwise kept as typed (field tags, Booleans, history references such as `#8`).
 * @param content - the file's content
 */
export function parseQueryLines(content: string): LogQuery[] {
  const out: LogQuery[] = []
  for (const line of content.split(/\r?\n/)) {
    const bar = line.indexOf('|')
    if (bar < 0) {
      continue
    }
    const text = line.slice(bar + 1).trim()
    if (text !== '') {
      out.push({ qid: line.slice(0, bar).trim(), text })
    }
  }
  return out
}

/** The shared data folder (see @pubmatch/bench-kit). */
export { sharedDataDir } from '@pubmatch/bench-kit'

/** The log file's path. */
export function queryLogPath(shared: string): string {
  return join(shared, 'pubmed-best-match/data/queries/queries.txt')
}

/**
 * The sample's queries.
 * @param shared - the shared data folder
 */
export function readLogQueries(shared: string): LogQuery[] {
  return parseQueryLines(readFileSync(queryLogPath(shared), 'utf8'))
}
