import type { RunEntry } from '@pubmatch/core'

/**
 * Compares two strings by Unicode code point, which is the byte order of their UTF-8
 * encodings and so the order of C's `strcmp` (trec_eval) and Perl's `cmp` (sample_eval).
 * JavaScript's `<` compares UTF-16 code units, which differs for characters above U+FFFF.
 * @param a - first string
 * @param b - second string
 * @returns negative, zero or positive like `strcmp`
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x !== y) {
      return codeUnitRank(x) - codeUnitRank(y)
    }
  }
  return a.length - b.length
}

/** Maps UTF-16 code units so that their order is code point order (surrogates sort above U+FFFF's BMP peers). */
function codeUnitRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) {
    return unit + 0x2000
  }
  return unit >= 0xe000 ? unit - 0x800 : unit
}

/**
 * trec_eval's ranking order (`form_res_rels.c`, `comp_sim_docno`): score descending, and
 * equal scores broken by document id in *descending* `strcmp` order. The rank column of a
 * run file is ignored. sample_eval.pl sorts the same way (`$b cmp $a`).
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
