import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { dataPath } from '../test/helpers.ts'
import { kFold, mod5Folds, topicFold } from './folds.ts'

describe('kFold', () => {
  const ids = Array.from({ length: 11 }, (_, i) => `q${i}`)

  it('deals sorted ids round-robin into k disjoint folds that cover every id', () => {
    const folds = kFold(ids, 3)
    expect(folds.map((f) => f.test.length)).toEqual([4, 4, 3])
    // strcmp order: q0 q1 q10 q2 q3 … → positions 0, 3, 6, 9
    expect(folds[0]?.test).toEqual(['q0', 'q2', 'q5', 'q8'])
    expect(folds.flatMap((f) => f.test).sort()).toEqual([...ids].sort())
    for (const f of folds) {
      expect(f.train.filter((id) => f.test.includes(id))).toEqual([])
      expect(f.train.length + f.test.length).toBe(11)
    }
  })

  it('shuffles reproducibly with a seed', () => {
    const a = kFold(ids, 3, { seed: 5 })
    expect(kFold(ids, 3, { seed: 5 })).toEqual(a)
    expect(a.map((f) => f.test)).not.toEqual(kFold(ids, 3).map((f) => f.test))
    expect(a.flatMap((f) => f.test).sort()).toEqual([...ids].sort())
  })

  it('rejects k < 2', () => {
    expect(() => kFold(ids, 1)).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: k-fold needs an integer k ≥ 2, got 1]`,
    )
  })
})

describe('topicFold / mod5Folds', () => {
  it('takes the topic number mod 5, reading the digits of non-numeric ids', () => {
    expect([
      topicFold('10'),
      topicFold('27'),
      topicFold('PLAIN-1007'),
      topicFold('CD007431'),
      topicFold('q1-2'),
    ]).toEqual([0, 2, 2, 1, 2])
    // longer than Number.MAX_SAFE_INTEGER: 123456789012345678901 mod 5 = 1
    expect(topicFold('123456789012345678901')).toBe(1)
  })

  it('rejects ids without digits', () => {
    expect(() => topicFold('abc')).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: topic id "abc" contains no digits, so it has no "mod 5" fold]`,
    )
  })

  it('splits TREC PM 2017 topics 1–30 into five folds of six', () => {
    const folds = mod5Folds(Array.from({ length: 30 }, (_, i) => String(i + 1)))
    expect(folds.map((f) => f.test.length)).toEqual([6, 6, 6, 6, 6])
    expect(folds[0]?.test).toEqual(['10', '15', '20', '25', '30', '5'])
  })

  it('assigns every NFCorpus dev query to one fold', { tags: ['real-data'] }, () => {
    const ids = readFileSync(dataPath('nfcorpus/dev/q-titles.queries'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t')[0] ?? '')
    const folds = mod5Folds(ids)
    expect(folds.reduce((n, f) => n + f.test.length, 0)).toBe(325)
    expect(folds.every((f) => f.test.every((id) => topicFold(id) === f.index))).toBe(true)
  })
})
