/**
 * Solr's structured explanation of a `bm25f` score (`debug=results`, `debug.explain.structured`)
 * as pubmatch's explanation tree: the root is the sum over the query's terms (`bm25f`,
 * `Σ_t score(t)`), each term `idf · tf~ / (k1 + tf~)` from `tf~` (per field `w(f)·occ(t,f) /
 * (1 − b(f) + b(f)·l(f)/avgl(f))` from `occ(t,f)`, `w(f)`, `b(f)`, `l(f)`, `avgl(f)`), `k1` and
 * `idf` (from `N` and `n`), with the embedded scorer's labels. Lucene's Boolean wrappers
 * ("sum of:", the non-scoring filter clause) are left out. What differs from the embedded tree:
 * values are Lucene's 32-bit floats, `l(f)` is the length decoded from the one-byte norm, `N` is the
 * collection's `maxDoc`, and `n` carries the per-field document frequencies it is the largest of
 * (`n(f)`, which the embedded tree has not).
 */
import type { Explanation } from '@pubmatch/bm25f'
import { json, type JsonShape } from '@pubmatch/core'

/** A node of Solr's structured explanation. */
export interface SolrExplanation {
  readonly match?: boolean
  readonly value: number
  readonly description: string
  readonly details?: readonly SolrExplanation[]
}

/** Its shape, checked where it is read. */
export const SOLR_EXPLANATION: JsonShape<SolrExplanation> = json.object({
  match: json.optional(json.boolean),
  value: json.numberOrNaN,
  description: json.string,
  details: json.optional(json.array(json.unknown)),
}) as JsonShape<SolrExplanation>

const TERM = /^bm25f score\(doc=\d+\) for term '(.*)', computed as/s

/**
 * pubmatch's explanation tree of a Solr `bm25f` explanation.
 * @param solr - the document's structured explanation
 * @param scorer - the root's label. Defaults to `bm25f`.
 */
export function toExplanation(solr: SolrExplanation, scorer = 'bm25f'): Explanation {
  const terms: Explanation[] = []
  collectTerms(solr, terms)
  return { label: scorer, value: solr.value, formula: 'Σ_t score(t)', details: terms }
}

function collectTerms(node: SolrExplanation, out: Explanation[]): void {
  const term = TERM.exec(node.description)
  if (term !== null) {
    out.push(termExplanation(term[1]!, node))
    return
  }
  for (const child of node.details ?? []) {
    collectTerms(child, out)
  }
}

function leaf(
  label: string,
  value: number,
  formula?: string,
  details: readonly Explanation[] = [],
): Explanation {
  return { label, value, ...(formula === undefined ? {} : { formula }), details }
}

function termExplanation(term: string, node: SolrExplanation): Explanation {
  const details: Explanation[] = []
  let idf: Explanation | undefined
  let boost: number | undefined
  for (const child of node.details ?? []) {
    const d = child.description
    if (d.startsWith('tf~')) {
      details.push(
        leaf(
          'tf~',
          child.value,
          'Σ_f w(f)·occ(t,f) / (1 − b(f) + b(f)·l(f)/avgl(f))',
          (child.details ?? []).map(fieldExplanation),
        ),
      )
    } else if (d === 'k1') {
      details.push(leaf('k1', child.value))
    } else if (d.startsWith('idf')) {
      idf = idfExplanation(child)
    } else if (d === 'boost') {
      boost = child.value
    }
  }
  if (idf !== undefined) {
    details.push(idf)
  }
  if (boost !== undefined) {
    details.push(leaf('boost', boost))
  }
  return leaf(
    term,
    node.value,
    `idf · tf~ / (k1 + tf~)${boost === undefined ? '' : ' · boost'}`,
    details,
  )
}

function fieldExplanation(node: SolrExplanation): Explanation {
  const field = node.description.split(':')[0]!
  const byName = new Map<string, number>()
  for (const child of node.details ?? []) {
    const d = child.description
    const name = d.startsWith('tf,')
      ? 'occ(t,f)'
      : d.startsWith('w,')
        ? 'w(f)'
        : d.startsWith('b,')
          ? 'b(f)'
          : d.startsWith('len')
            ? 'l(f)'
            : d.startsWith('avgl')
              ? 'avgl(f)'
              : undefined
    if (name !== undefined) {
      byName.set(name, child.value)
    }
  }
  const inputs = ['occ(t,f)', 'w(f)', 'b(f)', 'l(f)', 'avgl(f)']
    .filter((name) => byName.has(name))
    .map((name) =>
      name === 'avgl(f)'
        ? leaf(name, byName.get(name)!, 'totalLength(f) / N')
        : leaf(name, byName.get(name)!),
    )
  return leaf(field, node.value, 'w(f)·occ(t,f) / (1 − b(f) + b(f)·l(f)/avgl(f))', inputs)
}

function idfExplanation(node: SolrExplanation): Explanation {
  let bigN: Explanation | undefined
  let smallN: Explanation | undefined
  for (const child of node.details ?? []) {
    if (child.description.startsWith('N,')) {
      bigN = leaf('N', child.value)
    } else if (child.description.startsWith('n,')) {
      const perField = (child.details ?? []).map((df) =>
        leaf(`n(${df.description.replace(/^docFreq in /, '')})`, df.value),
      )
      smallN = leaf('n', child.value, perField.length === 0 ? undefined : 'max_f n(f)', perField)
    }
  }
  return leaf(
    'idf',
    node.value,
    'ln(1 + (N − n + 0.5) / (n + 0.5))',
    [bigN, smallN].filter((e): e is Explanation => e !== undefined),
  )
}
