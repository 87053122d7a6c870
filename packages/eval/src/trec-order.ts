import { compareCodePoints, type RunEntry } from '@pubmatch/core'

/**
 * trec_eval's ranking order (`form_res_rels.c`, `comp_sim_docno`): score descending, and
 * equal scores broken by document id in *descending* `strcmp` order (`compareCodePoints` of
 * `@pubmatch/core`). The rank column of a run file is ignored. sample_eval.pl sorts the same
 * way (`$b cmp $a`).
 * @param a - first entry
 * @param b - second entry
 */
export function compareTrecOrder(a: RunEntry, b: RunEntry): number {
  if (a.score > b.score) {
    return -1
  }
  if (a.score < b.score) {
    return 1
  }
  return compareCodePoints(b.docId, a.docId)
}

/**
 * Returns a copy of `entries` in trec_eval's ranking order (see {@link compareTrecOrder}).
 * @param entries - the retrieved documents of one query, in any order
 */
export function sortTrecOrder(entries: readonly RunEntry[]): RunEntry[] {
  return entries.slice().sort(compareTrecOrder)
}
