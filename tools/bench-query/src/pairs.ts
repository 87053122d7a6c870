/**
 * What a query searches, as a set of normalised (field, text) pairs: the measure for comparing
 * two strategies' terms (a translation with the authors' own version, when both exist).
 */
import { walkQuery, type QueryNode } from '@pubmatch/bm25f'

/**
 * The (field, text) pairs of a query's leaves, `field|text`: the text lower-cased, whitespace
 * collapsed, hyphens as spaces (Ovid and PubMed both split words on them); untagged terms have
 * field `untagged`, `[mh:noexp]` is `mh`, a proximity search is `tiab~` with its words sorted
 * (any order matches), a date range is `dp` with `from:to`. History references are left out.
 * @param node - a parsed query
 */
export function termFieldPairs(node: QueryNode): Set<string> {
  const pairs = new Set<string>()
  const norm = (text: string): string =>
    text.toLowerCase().replace(/-/g, ' ').replace(/\s+/g, ' ').trim()
  walkQuery(node, (leaf) => {
    switch (leaf.kind) {
      case 'term':
        pairs.add(`${leaf.field ?? 'untagged'}|${norm(leaf.text)}`)
        break
      case 'proximity':
        pairs.add(`${leaf.field}~|${norm(leaf.text).split(' ').sort().join(' ')}`)
        break
      case 'range':
        pairs.add(`${leaf.field}|${leaf.from}:${leaf.to}`)
        break
      default:
    }
    return true
  })
  return pairs
}

/**
 * Jaccard similarity |A ∩ B| / |A ∪ B| of two pair sets; `1` for two empty sets.
 * @param a - one set
 * @param b - the other
 */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0
  for (const pair of a) {
    if (b.has(pair)) {
      shared += 1
    }
  }
  const union = a.size + b.size - shared
  return union === 0 ? 1 : shared / union
}

/**
 * The share of each field among a set of pairs' fields, e.g. `{ tiab: 0.6, mh: 0.3, … }`.
 * @param pairs - `field|text` pairs
 */
export function fieldShares(pairs: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>()
  let total = 0
  for (const pair of pairs) {
    const field = pair.slice(0, pair.indexOf('|'))
    counts.set(field, (counts.get(field) ?? 0) + 1)
    total += 1
  }
  return new Map([...counts].map(([field, count]) => [field, count / total]))
}
