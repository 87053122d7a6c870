/**
 * The typed syntax tree of a PubMed query. Nodes are plain, immutable objects with no
 * source positions, so that two parses of equivalent text compare equal with `toEqual`.
 */
import type { ProximityField, PubmedDateField, PubmedField } from './fields.ts'

/**
 * A search term: a bare word, a run of adjacent bare words, or a quoted phrase, with an
 * optional field tag.
 *
 * - Untagged, unquoted (`heart attack`): PubMed's automatic term mapping applies; the
 *   words are ANDed unless a phrase or MeSH entry term is recognised. The parser keeps
 *   the whole run between two operators as one term so that an evaluator can do that
 *   mapping, as PubMed does.
 * - Tagged (`heart attack[tiab]`): the tag covers every word of the run, and PubMed
 *   searches the run as a phrase in that field.
 * - Quoted (`"heart attack"`): an explicit phrase; PubMed skips automatic term mapping.
 */
export interface TermNode {
  readonly kind: 'term'
  /** The words, whitespace collapsed to single spaces; case as typed. Never empty. */
  readonly text: string
  /** Whether the text was in double quotes (straight or curly). */
  readonly quoted: boolean
  /** The field tag, or `null` when untagged. */
  readonly field: PubmedField | null
  /**
   * `true` for `[mh:noexp]`, `[majr:noexp]`, `[sh:noexp]`: do not include narrower MeSH
   * terms. Always `false` for other fields.
   */
  readonly noExplode: boolean
  /** Whether `text` contains a `*` wildcard (which turns off term mapping in PubMed). */
  readonly wildcard: boolean
}

/**
 * A proximity search, `"hip pain"[tiab:~2]`: every word within `distance` words of the
 * next, in any order, in the field.
 */
export interface ProximityNode {
  readonly kind: 'proximity'
  /** Two or more words, whitespace collapsed. */
  readonly text: string
  readonly field: ProximityField
  /** The most words allowed between two search words. */
  readonly distance: number
}

/**
 * A date range, `2015:2020[dp]`, `2015/01/01:2020/12/31[dp]` or
 * `"2015"[dp] : "2020"[dp]`. Bounds are PubMed dates: `YYYY`, `YYYY/MM` or `YYYY/MM/DD`
 * (month and day may be `00`); `3000` is PubMed's idiom for "no upper bound".
 */
export interface DateRangeNode {
  readonly kind: 'range'
  readonly field: PubmedDateField
  readonly from: string
  readonly to: string
}

/** A reference to an earlier search in the session history, `#3`. */
export interface HistoryNode {
  readonly kind: 'history'
  /** The 1-based search number. */
  readonly index: number
}

/** Every child must match. Has two or more children, none of which is an `and`. */
export interface AndNode {
  readonly kind: 'and'
  readonly children: readonly QueryNode[]
}

/** Any child may match. Has two or more children, none of which is an `or`. */
export interface OrNode {
  readonly kind: 'or'
  readonly children: readonly QueryNode[]
}

/** `include NOT exclude`: PubMed's NOT is binary (set difference), never unary. */
export interface NotNode {
  readonly kind: 'not'
  readonly include: QueryNode
  readonly exclude: QueryNode
}

/** A node of the query tree. */
export type QueryNode =
  TermNode | ProximityNode | DateRangeNode | HistoryNode | AndNode | OrNode | NotNode

/** The leaves: nodes that match documents by themselves. */
export type QueryLeaf = TermNode | ProximityNode | DateRangeNode | HistoryNode

/** The Boolean nodes. */
export type BooleanNode = AndNode | OrNode | NotNode

/**
 * Whether `node` is a Boolean node (`and`, `or`, `not`).
 * @param node - any node
 */
export function isBooleanNode(node: QueryNode): node is BooleanNode {
  return node.kind === 'and' || node.kind === 'or' || node.kind === 'not'
}
