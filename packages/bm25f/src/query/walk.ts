/** Traversals of a {@link QueryNode} tree: a pre-order walker and a bottom-up fold. */
import type {
  AndNode,
  DateRangeNode,
  HistoryNode,
  NotNode,
  OrNode,
  ProximityNode,
  QueryLeaf,
  QueryNode,
  TermNode,
} from './ast.ts'

/**
 * The direct children of `node`, in query order (`include` before `exclude` for `not`).
 * @param node - any node
 */
export function queryChildren(node: QueryNode): readonly QueryNode[] {
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.children
    case 'not':
      return [node.include, node.exclude]
    default:
      return []
  }
}

/**
 * Calls `visit` on every node, parents before children, in query order. Iterative, so deep
 * trees cannot overflow the stack.
 * @param root - the tree
 * @param visit - receives the node, its parent (`null` for the root) and its depth (root 0);
 *   returning `false` skips the node's children
 */
export function walkQuery(
  root: QueryNode,
  visit: (node: QueryNode, parent: QueryNode | null, depth: number) => boolean | void,
): void {
  const stack: { node: QueryNode; parent: QueryNode | null; depth: number }[] = [
    { node: root, parent: null, depth: 0 },
  ]
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    if (visit(entry.node, entry.parent, entry.depth) === false) {
      continue
    }
    const children = queryChildren(entry.node)
    for (let i = children.length - 1; i >= 0; i -= 1) {
      const child = children[i]
      if (child !== undefined) {
        stack.push({ node: child, parent: entry.node, depth: entry.depth + 1 })
      }
    }
  }
}

/**
 * The leaves of `root` (terms, proximity searches, ranges, history references) in query order.
 * @param root - the tree
 */
export function queryLeaves(root: QueryNode): QueryLeaf[] {
  const leaves: QueryLeaf[] = []
  walkQuery(root, (node) => {
    if (
      node.kind === 'term' ||
      node.kind === 'proximity' ||
      node.kind === 'range' ||
      node.kind === 'history'
    ) {
      leaves.push(node)
    }
  })
  return leaves
}

/** One function per node kind, for {@link foldQuery}; Boolean nodes get their children's results. */
export interface QueryFolder<R> {
  term(node: TermNode): R
  proximity(node: ProximityNode): R
  range(node: DateRangeNode): R
  history(node: HistoryNode): R
  and(node: AndNode, children: R[]): R
  or(node: OrNode, children: R[]): R
  not(node: NotNode, include: R, exclude: R): R
}

/**
 * Folds the tree bottom-up: each Boolean node receives the results of its children. This is
 * the shape of an evaluator (`and` → intersect postings) or of a rewrite (return new nodes).
 * @param node - the tree
 * @param folder - one function per node kind
 */
export function foldQuery<R>(node: QueryNode, folder: QueryFolder<R>): R {
  switch (node.kind) {
    case 'term':
      return folder.term(node)
    case 'proximity':
      return folder.proximity(node)
    case 'range':
      return folder.range(node)
    case 'history':
      return folder.history(node)
    case 'and':
      return folder.and(
        node,
        node.children.map((child) => foldQuery(child, folder)),
      )
    case 'or':
      return folder.or(
        node,
        node.children.map((child) => foldQuery(child, folder)),
      )
    case 'not':
      return folder.not(node, foldQuery(node.include, folder), foldQuery(node.exclude, folder))
  }
}
