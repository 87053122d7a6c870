/**
 * The PubMed query parser: query text → {@link QueryNode}. See README.md "Query syntax" for
 * the rules and the PubMed documentation they follow.
 */
import { PubmatchError } from '@pubmatch/core'
import type { QueryNode, TermNode } from './ast.ts'
import {
  isDateField,
  isProximityField,
  lookupField,
  type PubmedDateField,
  type PubmedField,
} from './fields.ts'
import { quoteForMessage, tokenize, type Token } from './lexer.ts'
import { OVID_SIGNAL_LABELS, detectOvidSyntax } from './ovid.ts'
import { queryError, type QueryProblem, type QueryWarning } from './problems.ts'

/** Options of {@link parseQuery}. */
export interface ParseQueryOptions {
  /**
   * Work around problems instead of throwing, the way PubMed runs whatever it can of a
   * query: an unclosed quote or `[` is ignored, a missing `)` is added at the end, a stray
   * `)` or `]` is dropped, a dangling operator or misplaced tag is dropped, an unknown tag is
   * dropped (the term is searched untagged; this one also without `recover`, as PubMed does,
   * with a warning), a too-short wildcard is removed. Every
   * workaround is passed to {@link ParseQueryOptions.onWarning}. Ovid syntax, an empty
   * query and too-deep nesting still throw. Defaults to `false`.
   */
  readonly recover?: boolean
  /** Receives each problem worked around when {@link ParseQueryOptions.recover} is on. */
  readonly onWarning?: (warning: QueryWarning) => void
  /**
   * Reject text that looks like an Ovid MEDLINE strategy (see `detectOvidSyntax`) with a
   * `QUERY_SYNTAX` error naming the line. Defaults to `true`.
   */
  readonly detectOvid?: boolean
  /** The fewest characters allowed before the first `*` of a word. Defaults to `4` (PubMed's rule). */
  readonly minWildcardPrefix?: number
  /**
   * The deepest nesting accepted, both of parentheses and of the resulting tree (a chain of
   * `NOT`s or of alternating operators nests too). Keeps parsing, formatting and recursive
   * evaluators within the stack. Defaults to `100`.
   */
  readonly maxDepth?: number
  /** Where the query comes from (a query id, `file:line`), quoted in error messages and `details.record`. */
  readonly source?: string
}

const DATE = '\\d{4}(?:/\\d{1,2}(?:/\\d{1,2})?)?'
const DATE_VALUE = new RegExp(`^${DATE}$`)
const DATE_RANGE = new RegExp(`^(${DATE}) ?: ?(${DATE})$`)

type ResolvedTag = { field: PubmedField; noExplode: boolean; distance: number | null }

/** A parsed term together with where its words start, for wildcard messages. */
type Atom = { node: QueryNode; start: number }

const normalizeSpace = (text: string): string => text.trim().replace(/\s+/g, ' ')

const makeTerm = (
  text: string,
  quoted: boolean,
  field: PubmedField | null,
  noExplode: boolean,
): TermNode => ({
  kind: 'term',
  text,
  quoted,
  field,
  noExplode,
  wildcard: text.includes('*'),
})

/** Depth of the Boolean nodes built by {@link combine} (leaves and unknown nodes count 1). */
const depths = new WeakMap<QueryNode, number>()
const depthOf = (node: QueryNode): number => depths.get(node) ?? 1

/**
 * `left op right`, flattening AND/OR chains. `owned` says that `left` is a node this sequence
 * built, whose children array may be extended in place (keeps long chains linear).
 */
const combine = (
  op: 'AND' | 'OR' | 'NOT',
  left: QueryNode,
  right: QueryNode,
  owned: boolean,
): QueryNode => {
  if (op === 'NOT') {
    const node: QueryNode = { kind: 'not', include: left, exclude: right }
    depths.set(node, Math.max(depthOf(left), depthOf(right)) + 1)
    return node
  }
  const kind = op === 'AND' ? 'and' : 'or'
  const flat = (node: QueryNode): readonly QueryNode[] =>
    node.kind === kind ? (node as { readonly children: readonly QueryNode[] }).children : [node]
  // Depth of `node` once its children (or itself) hang under a `kind` node.
  const under = (node: QueryNode): number =>
    node.kind === kind ? depthOf(node) : depthOf(node) + 1
  if (owned && left.kind === kind) {
    ;(left.children as QueryNode[]).push(...flat(right))
    depths.set(left, Math.max(depthOf(left), under(right)))
    return left
  }
  const node: QueryNode = { kind, children: [...flat(left), ...flat(right)] }
  depths.set(node, Math.max(under(left), under(right)))
  return node
}

class Parser {
  private index = 0
  private readonly warnings: QueryWarning[] = []
  private readonly tokens: Token[]
  private readonly recover: boolean
  private readonly minWildcardPrefix: number
  private readonly maxDepth: number
  private readonly text: string
  private readonly options: ParseQueryOptions

  constructor(text: string, options: ParseQueryOptions) {
    this.text = text
    this.options = options
    this.recover = options.recover ?? false
    this.minWildcardPrefix = options.minWildcardPrefix ?? 4
    this.maxDepth = options.maxDepth ?? 100
    this.tokens = tokenize(text, (problem, message, position) =>
      this.report(problem, message, position),
    )
  }

  parse(): { node: QueryNode; warnings: readonly QueryWarning[] } {
    const node = this.sequence(0)
    if (node === null) {
      throw this.error('EMPTY_QUERY', 'query has no search terms', 0)
    }
    return { node, warnings: this.warnings }
  }

  private error(problem: QueryProblem, message: string, position: number): PubmatchError {
    return queryError(problem, message, this.text, position, this.options.source)
  }

  /** Throws in strict mode; records a warning when recovering. */
  private report(problem: QueryProblem, message: string, position: number): void {
    if (!this.recover) {
      throw this.error(problem, message, position)
    }
    this.warnings.push({ problem, message, position })
  }

  private peek(offset = 0): Token | undefined {
    return this.tokens[this.index + offset]
  }

  private next(): Token {
    const token = this.tokens[this.index]
    if (token === undefined) {
      throw new PubmatchError(
        'INTERNAL',
        'read past the last query token (query/parse.ts)',
      )
    }
    this.index += 1
    return token
  }

  /** `unit ((AND|OR|NOT)? unit)*`, evaluated left to right as PubMed does. */
  private sequence(depth: number): QueryNode | null {
    let left: QueryNode | null = null
    let pending: Extract<Token, { type: 'op' }> | null = null
    let owned = false
    for (;;) {
      const token = this.peek()
      if (token === undefined) {
        break
      }
      if (token.type === 'rparen') {
        if (depth > 0) {
          break
        }
        this.next()
        this.report('UNBALANCED_PARENTHESIS', 'unexpected ")" with no "(" before it', token.start)
        continue
      }
      if (token.type === 'op') {
        this.next()
        if (left === null) {
          this.report('MISSING_OPERAND', `${token.op} has no search term before it`, token.start)
        } else if (pending !== null) {
          this.report(
            'MISSING_OPERAND',
            `${token.op} follows ${pending.op} with no search term between them`,
            token.start,
          )
          pending = token
        } else {
          pending = token
        }
        continue
      }
      const unit = this.unit(depth)
      if (unit !== null) {
        if (left === null) {
          left = unit
        } else {
          left = combine(pending?.op ?? 'AND', left, unit, owned)
          owned = left.kind !== 'not'
          if (depthOf(left) > this.maxDepth) {
            throw this.error(
              'TOO_DEEP',
              `query tree nested deeper than ${this.maxDepth} (a long chain of NOT or of alternating operators)`,
              pending?.start ?? token.start,
            )
          }
        }
        pending = null
      }
    }
    if (pending !== null) {
      this.report('MISSING_OPERAND', `${pending.op} has no search term after it`, pending.start)
    }
    return left
  }

  private unit(depth: number): QueryNode | null {
    const token = this.next()
    switch (token.type) {
      case 'lparen': {
        if (depth + 1 > this.maxDepth) {
          throw this.error(
            'TOO_DEEP',
            `parentheses nested deeper than ${this.maxDepth}`,
            token.start,
          )
        }
        const inner = this.sequence(depth + 1)
        if (this.peek()?.type === 'rparen') {
          this.next()
        } else {
          this.report('UNBALANCED_PARENTHESIS', '"(" is never closed with ")"', token.start)
        }
        this.rejectTag('a field tag cannot follow ")"; tag each term inside the parentheses')
        if (inner === null) {
          this.report('EMPTY_GROUP', 'parentheses contain no search term', token.start)
        }
        return inner
      }
      case 'tag':
        this.report(
          'MISPLACED_FIELD_TAG',
          `field tag [${truncateTag(token.text)}] has no search term before it`,
          token.start,
        )
        return null
      case 'history': {
        const index = Number(token.text.slice(1))
        this.rejectTag('a field tag cannot follow a history reference')
        if (!Number.isSafeInteger(index) || index < 1) {
          this.report(
            'BAD_HISTORY_REFERENCE',
            `history reference ${truncateTag(token.text)} is not a search number (#1, #2, …)`,
            token.start,
          )
          return null
        }
        return { kind: 'history', index }
      }
      case 'op':
      case 'rparen':
        throw new PubmatchError(
          'INTERNAL',
          `unit() called on ${token.type} (query/parse.ts)`,
        )
      default:
        this.index -= 1
        return this.atom(true)?.node ?? null
    }
  }

  private rejectTag(message: string): void {
    const tag = this.peek()
    if (tag?.type === 'tag') {
      this.next()
      this.report('MISPLACED_FIELD_TAG', message, tag.start)
    }
  }

  /** A quoted phrase or a run of words, with its optional tag; `2015[dp] : 2020[dp]` ranges. */
  private atom(allowColonRange: boolean): Atom | null {
    const first = this.next()
    let text: string
    let quoted = false
    const wordStarts: number[] = []
    if (first.type === 'quoted') {
      quoted = true
      text = normalizeSpace(first.text)
      for (const match of first.text.matchAll(/\S+/g)) {
        wordStarts.push(first.start + 1 + match.index)
      }
    } else {
      const words: string[] = []
      this.index -= 1
      for (
        let token = this.peek();
        token?.type === 'word' || token?.type === 'colon';
        token = this.peek()
      ) {
        this.next()
        words.push(token.type === 'word' ? token.text : ':')
        wordStarts.push(token.start)
      }
      text = words.join(' ')
    }
    const peeked = this.peek()
    const tagToken = peeked?.type === 'tag' ? peeked : null
    if (tagToken !== null) {
      this.next()
    }
    const tag = tagToken === null ? null : this.resolveTag(tagToken)
    if (text === '') {
      this.report('EMPTY_PHRASE', 'empty quotes', first.start)
      return null
    }
    if (tag !== null && isDateField(tag.field) && tag.distance === null) {
      const range = DATE_RANGE.exec(text)
      if (range !== null) {
        return {
          node: { kind: 'range', field: tag.field, from: range[1] ?? '', to: range[2] ?? '' },
          start: first.start,
        }
      }
      if (allowColonRange && DATE_VALUE.test(text)) {
        const joined = this.colonRange(tag.field, text)
        if (joined !== null) {
          return { node: joined, start: first.start }
        }
      }
    }
    text = this.checkWildcards(text, wordStarts)
    if (text === '') {
      return null
    }
    if (tag !== null && tag.distance !== null) {
      const words = text.split(' ').length
      if (quoted && words >= 2 && isProximityField(tag.field)) {
        return {
          node: { kind: 'proximity', text, field: tag.field, distance: tag.distance },
          start: first.start,
        }
      }
      const position = tagToken?.start ?? first.start
      this.report(
        'BAD_PROXIMITY',
        quoted && words >= 2
          ? `proximity search needs [ti], [tiab], [ab] or [ad], not [${tag.field}]`
          : 'proximity search needs two or more words in double quotes, like "hip pain"[tiab:~2]',
        position,
      )
    }
    return {
      node: makeTerm(text, quoted, tag?.field ?? null, tag?.noExplode ?? false),
      start: first.start,
    }
  }

  /** After `2015[dp]`: if `: 2020[dp]` follows, consume it and return the range. */
  private colonRange(field: PubmedDateField, from: string): QueryNode | null {
    if (this.peek()?.type !== 'colon') {
      return null
    }
    const after = this.peek(1)
    if (after?.type !== 'word' && after?.type !== 'quoted') {
      return null
    }
    const saved = this.index
    const savedWarnings = this.warnings.length
    this.next()
    const right = this.atom(false)?.node
    if (
      right?.kind === 'term' &&
      right.field !== null &&
      isDateField(right.field) &&
      right.field === field &&
      DATE_VALUE.test(right.text)
    ) {
      return { kind: 'range', field, from, to: right.text }
    }
    this.index = saved
    this.warnings.length = savedWarnings
    return null
  }

  /** Enforces PubMed's 4 characters before the first `*` of each word. */
  private checkWildcards(text: string, wordStarts: readonly number[]): string {
    if (!text.includes('*')) {
      return text
    }
    const words = text.split(' ')
    const kept: string[] = []
    for (const [i, word] of words.entries()) {
      const star = word.indexOf('*')
      if (star === -1 || star >= this.minWildcardPrefix) {
        kept.push(word)
        continue
      }
      this.report(
        'SHORT_WILDCARD',
        `wildcard needs at least ${this.minWildcardPrefix} characters before "*": ${quoteForMessage(word)}`,
        (wordStarts[i] ?? 0) + star,
      )
      const stripped = word.replaceAll('*', '')
      if (stripped !== '') {
        kept.push(stripped)
      }
    }
    return kept.join(' ')
  }

  private resolveTag(token: Extract<Token, { type: 'tag' }>): ResolvedTag | null {
    const colon = token.text.indexOf(':')
    const name = colon === -1 ? token.text : token.text.slice(0, colon)
    const info = lookupField(name)
    if (info === undefined) {
      // never fatal: PubMed drops a tag it does not know and searches the term in all fields
      this.warnings.push({
        problem: 'UNKNOWN_FIELD',
        message: `unknown field tag [${truncateTag(token.text)}] was ignored: the term is searched in all fields, as PubMed does`,
        position: token.start,
      })
      return null
    }
    const resolved: ResolvedTag = { field: info.tag, noExplode: false, distance: null }
    if (colon === -1) {
      return resolved
    }
    const modifier = token.text
      .slice(colon + 1)
      .trim()
      .toLowerCase()
    const proximity = /^~\s*(\d{1,6})$/.exec(modifier)
    if (modifier === 'noexp' && info.explodable) {
      return { ...resolved, noExplode: true }
    }
    if (proximity !== null) {
      return { ...resolved, distance: Number(proximity[1]) }
    }
    this.report(
      'BAD_FIELD_MODIFIER',
      modifier === 'noexp'
        ? `[${info.tag}] cannot take :noexp (only [mh], [majr] and [sh] are exploded)`
        : `unknown field tag suffix ":${truncateTag(modifier)}" (PubMed has ":noexp" and ":~N")`,
      token.start + 1 + colon,
    )
    return resolved
  }
}

const truncateTag = (text: string): string => (text.length <= 40 ? text : `${text.slice(0, 39)}…`)

/**
 * Parses a PubMed query into a {@link QueryNode}.
 *
 * Follows PubMed's documented syntax: upper-case `AND`/`OR`/`NOT` evaluated strictly left to
 * right (`a OR b AND c` is `(a OR b) AND c`), adjacency meaning AND, `( )` grouping, quoted
 * phrases, field tags (`[tiab]`, `[Title/Abstract]`, `[mh:noexp]`, …) that cover the whole
 * run of words before them, wildcards with 4+ characters before the `*`, proximity
 * `"a b"[tiab:~3]`, date ranges (`2015:2020[dp]`, `"2015"[dp] : "2020"[dp]`) and history
 * references `#3`.
 * @param text - the query as typed
 * @param options - see {@link ParseQueryOptions}; strict by default
 * @throws PubmatchError `QUERY_SYNTAX` (with `details.position`, 0-based, and `details.problem`)
 *   for text that does not parse or looks like Ovid syntax; `UNKNOWN_FIELD` for an unknown tag.
 */
export function parseQuery(text: string, options: ParseQueryOptions = {}): QueryNode {
  if (options.detectOvid ?? true) {
    const ovid = detectOvidSyntax(text)
    if (ovid !== null) {
      throw queryError(
        'OVID_SYNTAX',
        `query looks like Ovid MEDLINE syntax, not PubMed (${OVID_SIGNAL_LABELS[ovid.signal]} ${quoteForMessage(ovid.match)} on line ${ovid.line})`,
        text,
        ovid.position,
        options.source,
        { line: ovid.line, signal: ovid.signal },
      )
    }
  }
  const { node, warnings } = new Parser(text, options).parse()
  if (options.onWarning !== undefined) {
    for (const warning of warnings) {
      options.onWarning(warning)
    }
  }
  return node
}
