/**
 * The real queries: NCBI's PubMed Best Match sample (`data/queries/queries.txt`, 1,000 queries
 * of one day of PubMed's log, `qidNNNN|query`), as typed.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PubmatchError } from '@pubmatch/core'

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

/**
 * The shared data folder: `PUBMATCH_SHARED`, else `../shared/data/` beside the repository.
 * @throws PubmatchError `NOT_FOUND` when it does not exist
 */
export function sharedDataDir(): string {
  const dir = process.env['PUBMATCH_SHARED'] ?? fileURLToPath(new URL('../../../../shared/data/', import.meta.url))
  if (!existsSync(dir)) {
    throw new PubmatchError('NOT_FOUND', `bench-server: shared data not found at ${dir} (set PUBMATCH_SHARED)`, { details: { file: dir } })
  }
  return dir
}

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
