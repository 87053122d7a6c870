/** Hooks for mapping `[mh]` / `[majr]` terms through a MeSH vocabulary, when one is loaded. */
import type { TermNode } from './ast.ts'

/**
 * What a query evaluator needs from a MeSH vocabulary. pubmatch's vocabulary lives
 * elsewhere; this package only defines the contract.
 */
export interface MeshLookup {
  /**
   * The descriptor UIs (`D009369`) whose preferred name or an entry term is `term`
   * (matching is the vocabulary's business, usually case-insensitive); `[]` when none.
   */
  descriptorsForTerm(term: string): string[]
  /**
   * `ui` and the UIs of every descriptor below it in the MeSH trees (what PubMed searches
   * for `term[mh]` without `:noexp`).
   */
  explode(ui: string): string[]
}

/**
 * The MeSH descriptors a `[mh]` or `[majr]` term stands for: its descriptors, exploded
 * unless the tag says `:noexp`. Order: each descriptor followed by its explosion, without
 * duplicates.
 * @param node - a term
 * @param lookup - the MeSH vocabulary
 * @returns the descriptor UIs (possibly `[]`), or `null` when `node` is not tagged `[mh]` or `[majr]`
 */
export function resolveMeshTerm(node: TermNode, lookup: MeshLookup): string[] | null {
  if (node.field !== 'mh' && node.field !== 'majr') {
    return null
  }
  const seen = new Set<string>()
  for (const ui of lookup.descriptorsForTerm(node.text)) {
    seen.add(ui)
    if (!node.noExplode) {
      for (const narrower of lookup.explode(ui)) {
        seen.add(narrower)
      }
    }
  }
  return [...seen]
}
