/**
 * The compiled form of a query: a Boolean match plan (which documents match) and the scoring
 * clauses (which terms score, over which fields). Plain data, built by `compileQuery` and turned
 * into iterators by the search loop.
 */
import type { PositionalMode } from './positional.ts'

/** One word of a positional plan, with its alternatives in the field. */
export interface PlanSlot {
  /** The terms any of which fills the slot (one, or a truncated word's expansions). */
  readonly terms: readonly string[]
  /** Position relative to the first word (phrases). */
  readonly offset: number
}

/** Which documents match. */
export type MatchPlan =
  | { readonly kind: 'none' }
  | { readonly kind: 'all' }
  | { readonly kind: 'term'; readonly field: string; readonly term: string }
  /** Any of many terms of one field (truncation, exploded MeSH headings): a precomputed union. */
  | { readonly kind: 'terms'; readonly field: string; readonly terms: readonly string[] }
  | {
      readonly kind: 'positional'
      readonly field: string
      readonly slots: readonly PlanSlot[]
      readonly mode: PositionalMode
    }
  /** A numeric doc value within `[min, max]`. */
  | {
      readonly kind: 'range'
      readonly docValue: string
      readonly min: number
      readonly max: number
    }
  /** A sorted-set doc value holding one of `values`. */
  | { readonly kind: 'sortedSet'; readonly docValue: string; readonly values: readonly string[] }
  /** Documents by number (`[pmid]`). */
  | { readonly kind: 'docs'; readonly docs: readonly number[] }
  | { readonly kind: 'and'; readonly children: readonly MatchPlan[] }
  | { readonly kind: 'or'; readonly children: readonly MatchPlan[] }
  | { readonly kind: 'not'; readonly include: MatchPlan; readonly exclude: MatchPlan }

/** A term in a scored field. */
export interface ClauseTerm {
  readonly field: string
  readonly term: string
}

/** One scoring clause: a query term (or a truncated word's expansions, summed as one) over fields. */
export interface ClauseSpec {
  /** What it is called in explanations: the term, or the truncated word. */
  readonly label: string
  /** Its postings: every (scored field, term) pair whose tfs add up to the clause's tf in that field. */
  readonly terms: readonly ClauseTerm[]
}

/** A compiled query. */
export interface CompiledQuery {
  readonly plan: MatchPlan
  /** Distinct scoring clauses, in order of first appearance. */
  readonly clauses: readonly ClauseSpec[]
}

/** A plan that matches nothing. */
export const NONE: MatchPlan = Object.freeze({ kind: 'none' })

/** A plan that matches every live document. */
export const ALL: MatchPlan = Object.freeze({ kind: 'all' })

/**
 * `AND` of plans, simplified: `none` absorbs, `all` is dropped, nested `and`s are flattened.
 * @param children - the operands
 */
export function andPlan(children: readonly MatchPlan[]): MatchPlan {
  const out: MatchPlan[] = []
  for (const child of children) {
    if (child.kind === 'none') {
      return NONE
    }
    if (child.kind === 'and') {
      out.push(...child.children)
    } else if (child.kind !== 'all') {
      out.push(child)
    }
  }
  return out.length === 0 ? ALL : out.length === 1 ? out[0]! : { kind: 'and', children: out }
}

/**
 * `OR` of plans, simplified: `all` absorbs, `none` is dropped, nested `or`s are flattened.
 * @param children - the operands
 */
export function orPlan(children: readonly MatchPlan[]): MatchPlan {
  const out: MatchPlan[] = []
  for (const child of children) {
    if (child.kind === 'all') {
      return ALL
    }
    if (child.kind === 'or') {
      out.push(...child.children)
    } else if (child.kind !== 'none') {
      out.push(child)
    }
  }
  return out.length === 0 ? NONE : out.length === 1 ? out[0]! : { kind: 'or', children: out }
}

/**
 * How a match plan relates to the postings of the scoring clauses: `equal` when the plan is
 * exactly their union (a pure disjunction of those postings: the clauses can drive the search
 * alone), `covers` when every document of the clauses matches the plan without checking (a pure
 * disjunction that has them all, and more), `none` otherwise (a candidate must be checked).
 * @param plan - the match plan
 * @param terms - the scoring clauses' postings
 */
export function planCoverage(
  plan: MatchPlan,
  terms: readonly ClauseTerm[],
): 'equal' | 'covers' | 'none' {
  const leaves = new Set<string>()
  const collect = (node: MatchPlan): boolean => {
    switch (node.kind) {
      case 'term':
        leaves.add(`${node.field}\u0000${node.term}`)
        return true
      case 'terms':
        for (const term of node.terms) {
          leaves.add(`${node.field}\u0000${term}`)
        }
        return true
      case 'or':
        return node.children.every(collect)
      case 'none':
        return true
      default:
        return false
    }
  }
  if (!collect(plan)) {
    return 'none'
  }
  const clauseKeys = new Set(terms.map((t) => `${t.field}\u0000${t.term}`))
  for (const key of clauseKeys) {
    if (!leaves.has(key)) {
      return 'none'
    }
  }
  return leaves.size === clauseKeys.size ? 'equal' : 'covers'
}
