/** The Best Match query classifier's notion of a "simple" query. */
import { isPubmatchError } from '@pubmatch/core'
import type { QueryNode } from './ast.ts'
import { parseQuery } from './parse.ts'

/**
 * Whether a query is "simple": free words only, with no field tags, wildcards, quotes,
 * Boolean operators or history references. PubMed's Best Match ranks such queries with
 * its learned ranker. Lower-case `and`/`or` are words, so `ultrasound and chronic
 * pancreatitis` is simple; parentheses around a simple query (`(cancer)`) keep it simple.
 * @param query - query text (parsed strictly; text that does not parse is not simple) or a tree
 */
export function isSimpleQuery(query: string | QueryNode): boolean {
  let node: QueryNode
  if (typeof query === 'string') {
    try {
      node = parseQuery(query)
    } catch (error) {
      if (isPubmatchError(error)) {
        return false
      }
      throw error
    }
  } else {
    node = query
  }
  return node.kind === 'term' && node.field === null && !node.quoted && !node.wildcard
}
