/**
 * Explanation trees: every scorer can say how it computed a score, node by node (the model is
 * tantivy's `Bm25Weight::explain` and Lucene's `Explanation`).
 */

/** One node of an explanation tree: a named value and the values it was computed from. */
export interface Explanation {
  /** What the value is: `idf`, `tf`, `N`, a field name, a query term. */
  readonly label: string
  /** The value itself, exactly as the scorer used it. */
  readonly value: number
  /** How `value` was computed from `details`, for people (e.g. `1 + ln(N / (n + 1))`); absent on inputs. */
  readonly formula?: string
  /** The values `value` was computed from; empty for inputs such as `N` or `k1`. */
  readonly details: readonly Explanation[]
}

/** A score and the explanation of how it was computed; `explain.value === value`. */
export interface Explained {
  /** The score. */
  readonly value: number
  /** Its explanation tree. */
  readonly explain: Explanation
}

/**
 * Builds an explanation node.
 * @param label - what the value is
 * @param value - the value
 * @param formula - how it was computed; omit for inputs. Defaults to none.
 * @param details - the values it was computed from. Defaults to `[]`.
 */
export function explanation(
  label: string,
  value: number,
  formula?: string,
  details: readonly Explanation[] = [],
): Explanation {
  return formula === undefined ? { label, value, details } : { label, value, formula, details }
}

/**
 * Writes an explanation tree as indented text, one node a line: `value  label = formula`.
 * @param node - the tree
 * @param indent - the indentation of the root, in spaces. Defaults to `0`.
 */
export function formatExplanation(node: Explanation, indent = 0): string {
  const lines: string[] = []
  const visit = (current: Explanation, depth: number): void => {
    const formula = current.formula === undefined ? '' : ` = ${current.formula}`
    lines.push(`${' '.repeat(indent + 2 * depth)}${current.value}  ${current.label}${formula}`)
    for (const child of current.details) {
      visit(child, depth + 1)
    }
  }
  visit(node, 0)
  return lines.join('\n')
}
