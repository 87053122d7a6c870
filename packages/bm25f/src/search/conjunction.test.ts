import { describe, expect, it } from 'vitest'
import { ascending, conjunctiveCoverage } from './conjunction.ts'
import type { ClauseSpec, MatchPlan } from './plan.ts'

const term = (field: string, t: string): MatchPlan => ({ kind: 'term', field, term: t })
const clause = (label: string, ...fields: string[]): ClauseSpec => ({
  label,
  terms: fields.map((field) => ({ field, term: label })),
})

describe('conjunctiveCoverage', () => {
  const a = clause('a', 'title', 'abstract')
  const b = clause('b', 'title', 'abstract')
  const either = (t: string): MatchPlan => ({ kind: 'or', children: [term('abstract', t), term('title', t)] })

  it('accepts an AND whose every operand is one clause, each clause required', () => {
    expect(conjunctiveCoverage({ kind: 'and', children: [either('a'), either('b')] }, [a, b])).toBe(true)
    // the same word twice is one clause
    expect(conjunctiveCoverage({ kind: 'and', children: [either('a'), either('b'), either('a')] }, [a, b])).toBe(true)
    // a truncated word: several terms of one field
    const trunc: ClauseSpec = { label: 'c*', terms: [{ field: 'title', term: 'ca' }, { field: 'title', term: 'cb' }] }
    const plan: MatchPlan = { kind: 'and', children: [{ kind: 'terms', field: 'title', terms: ['cb', 'ca'] }, either('a')] }
    expect(conjunctiveCoverage(plan, [a, trunc])).toBe(true)
  })

  it('refuses optional clauses, operands beyond the clauses and other shapes', () => {
    // a disjunction, or a single word
    expect(conjunctiveCoverage({ kind: 'or', children: [either('a'), either('b')] }, [a, b])).toBe(false)
    expect(conjunctiveCoverage(either('a'), [a])).toBe(false)
    // clause b scores but is not required
    expect(conjunctiveCoverage({ kind: 'and', children: [either('a'), either('a')] }, [a, b])).toBe(false)
    // an operand also matches a field the clause does not score
    const wider: MatchPlan = { kind: 'or', children: [either('b'), term('keywords', 'b')] }
    expect(conjunctiveCoverage({ kind: 'and', children: [either('a'), wider] }, [a, b])).toBe(false)
    // an operand narrower than its clause
    expect(conjunctiveCoverage({ kind: 'and', children: [either('a'), term('title', 'b')] }, [a, b])).toBe(false)
    // NOT, phrases, filters
    const not: MatchPlan = { kind: 'not', include: either('a'), exclude: either('b') }
    expect(conjunctiveCoverage({ kind: 'and', children: [not, either('b')] }, [a, b])).toBe(false)
    const range: MatchPlan = { kind: 'range', docValue: 'year', min: 2000, max: 2001 }
    expect(conjunctiveCoverage({ kind: 'and', children: [either('a'), either('b'), range] }, [a, b])).toBe(false)
    expect(conjunctiveCoverage({ kind: 'and', children: [either('a'), either('b')] }, [])).toBe(false)
  })
})

describe('ascending', () => {
  const sorted = (values: number[]): number[] => {
    const dst = new Int32Array(values.length + 2).fill(-7)
    ascending(Int32Array.from([...values, 99, 98]), values.length, dst)
    expect([...dst.subarray(values.length)]).toEqual([-7, -7]) // nothing past n is written
    return [...dst.subarray(0, values.length)]
  }
  it('copies one run, merges two, sorts more', () => {
    expect(sorted([])).toEqual([])
    expect(sorted([4])).toEqual([4])
    expect(sorted([1, 5, 9])).toEqual([1, 5, 9])
    expect(sorted([1, 5, 9, 0, 6, 10, 11])).toEqual([0, 1, 5, 6, 9, 10, 11])
    expect(sorted([7, 8, 1, 2])).toEqual([1, 2, 7, 8])
    expect(sorted([3, 9, 2, 8, 1, 7])).toEqual([1, 2, 3, 7, 8, 9])
  })
})
