import { describe, expect, it } from 'vitest'
import type { QueryNode } from './ast.ts'
import { parseQuery } from './parse.ts'
import { foldQuery, queryChildren, queryLeaves, walkQuery, type QueryFolder } from './walk.ts'

describe('walkQuery', () => {
  it('visits parents before children, in query order, with parent and depth', () => {
    const seen: string[] = []
    walkQuery(parseQuery('(a OR b) AND c NOT #2'), (node, parent, depth) => {
      const label =
        node.kind === 'term' ? node.text : node.kind === 'history' ? `#${node.index}` : node.kind
      seen.push(`${depth}:${label}<${parent?.kind ?? '-'}`)
    })
    expect(seen).toEqual([
      '0:not<-',
      '1:and<not',
      '2:or<and',
      '3:a<or',
      '3:b<or',
      '2:c<and',
      '1:#2<not',
    ])
  })

  it('skips the children of a node when the visitor returns false', () => {
    const seen: string[] = []
    walkQuery(parseQuery('x AND (a OR b) AND y'), (node) => {
      seen.push(node.kind === 'term' ? node.text : node.kind)
      return node.kind !== 'or'
    })
    expect(seen).toEqual(['and', 'x', 'or', 'y'])
  })

  it('walks a 20,000-deep tree without overflowing the stack', () => {
    let node: QueryNode = { kind: 'history', index: 1 }
    for (let i = 0; i < 20_000; i += 1) {
      node = { kind: 'not', include: node, exclude: { kind: 'history', index: 2 } }
    }
    let count = 0
    walkQuery(node, () => {
      count += 1
    })
    expect(count).toBe(40_001)
  })
})

describe('queryLeaves', () => {
  it('lists terms, proximity searches, ranges and history references in query order', () => {
    expect(
      queryLeaves(parseQuery('"a b"[tiab:~1] OR 2015:2016[dp] AND #4 NOT c[ti]')).map(
        (leaf) => leaf.kind,
      ),
    ).toEqual(['proximity', 'range', 'history', 'term'])
  })
})

describe('queryChildren', () => {
  it('returns include then exclude for NOT, nothing for leaves', () => {
    const node = parseQuery('a NOT b')
    expect(queryChildren(node).map((child) => (child.kind === 'term' ? child.text : ''))).toEqual([
      'a',
      'b',
    ])
    expect(queryChildren(parseQuery('a'))).toEqual([])
  })
})

describe('foldQuery', () => {
  it('evaluates a query bottom-up over a toy collection, left to right', () => {
    // Documents 1..6; each term matches a hand-chosen set.
    const postings: Record<string, number[]> = { a: [1, 2, 3], b: [3, 4], c: [2, 3, 4, 5], d: [3] }
    const evaluate: QueryFolder<Set<number>> = {
      term: (node) => new Set(postings[node.text] ?? []),
      proximity: () => new Set(),
      range: () => new Set(),
      history: () => new Set(),
      and: (_node, children) =>
        children.reduce((acc, set) => new Set([...acc].filter((doc) => set.has(doc)))),
      or: (_node, children) => new Set(children.flatMap((set) => [...set])),
      not: (_node, include, exclude) => new Set([...include].filter((doc) => !exclude.has(doc))),
    }
    // Left to right: ((a OR b) AND c) NOT d = ({1,2,3,4} ∩ {2,3,4,5}) \ {3} = {2,4}
    expect([...foldQuery(parseQuery('a OR b AND c NOT d'), evaluate)].sort()).toEqual([2, 4])
    // AND before OR would give a OR (b AND c) NOT d = {1,2,3,4} \ {3} = {1,2,4}: not what PubMed does.
    expect([...foldQuery(parseQuery('a OR (b AND c) NOT d'), evaluate)].sort()).toEqual([1, 2, 4])
  })

  it('rebuilds trees, e.g. to rewrite terms', () => {
    const upper: QueryFolder<QueryNode> = {
      term: (node) => ({ ...node, text: node.text.toUpperCase() }),
      proximity: (node) => node,
      range: (node) => node,
      history: (node) => node,
      and: (_node, children) => ({ kind: 'and', children }),
      or: (_node, children) => ({ kind: 'or', children }),
      not: (_node, include, exclude) => ({ kind: 'not', include, exclude }),
    }
    expect(foldQuery(parseQuery('x[ti] OR y'), upper)).toEqual(parseQuery('X[ti] OR Y'))
  })
})
