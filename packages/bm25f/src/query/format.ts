/**
 * Canonical query text for a {@link QueryNode}: `parseQuery(formatQuery(node))` equals `node`
 * for every tree `parseQuery` returns.
 */
import { PubmatchError, truncateForMessage } from '@pubmatch/core'
import { isBooleanNode, type QueryNode, type TermNode } from './ast.ts'
import { isDateField } from './fields.ts'

const DELIMITER = /[\s()[\]"\u201C\u201D]/
const QUOTE = /["\u201C\u201D]/
const RANGE_LIKE = /^\d{4}(?:\/\d{1,2}(?:\/\d{1,2})?)? ?: ?\d{4}(?:\/\d{1,2}(?:\/\d{1,2})?)?$/

const unrepresentable = (node: QueryNode, why: string): PubmatchError =>
  new PubmatchError(
    'INVALID_ARGUMENT',
    `cannot write ${node.kind} ${JSON.stringify(truncateForMessage(JSON.stringify(node), 120))} as PubMed text: ${why}`,
  )

const checkText = (node: QueryNode, text: string): void => {
  if (text === '' || text !== text.trim() || /\s{2}|[^\S ]/.test(text)) {
    throw unrepresentable(node, 'text must be non-empty words separated by single spaces')
  }
}

const formatTerm = (node: TermNode): string => {
  checkText(node, node.text)
  if (node.field !== null && isDateField(node.field) && RANGE_LIKE.test(node.text)) {
    throw unrepresentable(node, 'a date range in a date field is a range node')
  }
  let body: string
  if (node.quoted) {
    if (QUOTE.test(node.text)) {
      throw unrepresentable(node, 'a quoted phrase cannot contain double quotes')
    }
    body = `"${node.text}"`
  } else {
    for (const word of node.text.split(' ')) {
      if (
        DELIMITER.test(word) ||
        word === 'AND' ||
        word === 'OR' ||
        word === 'NOT' ||
        /^#\d+$/.test(word)
      ) {
        throw unrepresentable(
          node,
          `word ${JSON.stringify(truncateForMessage(word, 40))} needs quotes`,
        )
      }
      if (word.startsWith(':') && word !== ':') {
        throw unrepresentable(
          node,
          `word ${JSON.stringify(truncateForMessage(word, 40))} cannot start with ":"`,
        )
      }
    }
    body = node.text
  }
  if (node.field === null) {
    return body
  }
  return `${body}[${node.field}${node.noExplode ? ':noexp' : ''}]`
}

const wrap = (node: QueryNode): string =>
  isBooleanNode(node) ? `(${formatQuery(node)})` : formatQuery(node)

/**
 * Writes `node` as canonical PubMed query text: canonical short tags (`[tiab]`, `[mh:noexp]`,
 * `[tiab:~3]`), upper-case operators with single spaces, straight double quotes, ranges as
 * `from:to[dp]`, and parentheses around every nested Boolean node (PubMed evaluates left to
 * right, so the parentheses never change the meaning; they make it visible).
 * @param node - a query tree, usually from `parseQuery`
 * @throws PubmatchError `INVALID_ARGUMENT` for a hand-built node that PubMed syntax cannot
 *   express (e.g. an unquoted term containing `(` or the word `AND`)
 */
export function formatQuery(node: QueryNode): string {
  switch (node.kind) {
    case 'term':
      return formatTerm(node)
    case 'proximity':
      checkText(node, node.text)
      if (QUOTE.test(node.text) || !node.text.includes(' ')) {
        throw unrepresentable(
          node,
          'a proximity search needs two or more words without quotes in them',
        )
      }
      return `"${node.text}"[${node.field}:~${node.distance}]`
    case 'range':
      return `${node.from}:${node.to}[${node.field}]`
    case 'history':
      return `#${node.index}`
    case 'and':
    case 'or': {
      if (node.children.length < 2) {
        throw unrepresentable(node, `${node.kind} needs two or more children`)
      }
      return node.children.map(wrap).join(node.kind === 'and' ? ' AND ' : ' OR ')
    }
    case 'not':
      return `${wrap(node.include)} NOT ${wrap(node.exclude)}`
  }
}
