import { describe, expect, it } from 'vitest'
import { benchPlan, cellLabel } from './plan.ts'

describe('benchPlan', () => {
  it('measures NFCorpus ×1 and ×30 and synthetic 100k and 1M, Xapian on all but the largest', () => {
    const plan = benchPlan()
    expect(plan.map((p) => p.corpus)).toEqual([
      'nfcorpus',
      'nfcorpus-x30',
      'synth-100k',
      'synth-1m',
    ])
    expect(plan.map((p) => p.xapian.length > 0)).toEqual([true, true, true, false])
    expect(plan.map((p) => p.ndcg)).toEqual([true, false, false, false])
    // pruning off only where it is compared, not on NFCorpus ×1
    expect(plan.map((p) => p.ours.filter((c) => !c.pruning).length)).toEqual([0, 3, 3, 3])
    // Xapian runs only the plain-text sets
    expect(new Set(plan[0]!.xapian.map((c) => c.set))).toEqual(new Set(['nfcorpus-dev', 'log-bag']))
  })

  it('uses small corpora with --quick and can leave out the largest or add Xapian to it', () => {
    expect(benchPlan({ quick: true, largest: false }).map((p) => p.corpus)).toEqual([
      'nfcorpus',
      'nfcorpus-x3',
      'synth-10k',
    ])
    expect(benchPlan({ xapianLargest: true }).at(-1)!.xapian.length).toBe(4)
    expect(benchPlan({ xapian: false }).every((p) => p.xapian.length === 0)).toBe(true)
  })
})

describe('cellLabel', () => {
  it('names the set, match mode, hits and exhaustive search', () => {
    expect(cellLabel({ set: 'log-pubmed', match: 'all', limit: 500, pruning: true })).toBe(
      'log-pubmed all 500',
    )
    expect(cellLabel({ set: 'nfcorpus-dev', match: 'any', limit: 1000, pruning: false })).toBe(
      'nfcorpus-dev any 1000 exhaustive',
    )
  })
})
