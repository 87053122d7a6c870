import { describe, expect, it } from 'vitest'
import { ANCHOR_CELLS, benchPlan, cellLabel } from './plan.ts'

describe('benchPlan', () => {
  it('measures NFCorpus ×1 and ×30 and synthetic 100k and 1M, Xapian on all but the largest', () => {
    const plan = benchPlan()
    expect(plan.map((p) => p.corpus)).toEqual([
      'nfcorpus',
      'nfcorpus-x30',
      'synth-100k',
      'synth-1m',
    ])
    expect(plan.map((p) => p.anchors.map((a) => a.anchor).join(','))).toEqual([
      'tantivy,pisa,xapian',
      'tantivy,pisa,xapian',
      'tantivy,pisa,xapian',
      'tantivy,pisa',
    ])
    expect(plan.map((p) => p.ndcg)).toEqual([true, false, false, false])
    // pruning off only where it is compared, not on NFCorpus ×1
    expect(plan.map((p) => p.ours.filter((c) => !c.pruning).length)).toEqual([0, 3, 3, 3])
    // the anchors run only the plain-text sets, the same cells each
    for (const { cells } of plan[0]!.anchors) {
      expect(cells).toBe(ANCHOR_CELLS)
    }
    expect(new Set(ANCHOR_CELLS.map((c) => c.set))).toEqual(new Set(['nfcorpus-dev', 'log-bag']))
    expect(ANCHOR_CELLS.map((c) => `${c.match} ${c.limit}`)).toEqual([
      'any 500',
      'any 1000',
      'all 500',
      'any 500',
    ])
  })

  it('uses small corpora with --quick, can leave out the largest, add Xapian to it, or run fewer anchors', () => {
    expect(benchPlan({ quick: true, largest: false }).map((p) => p.corpus)).toEqual([
      'nfcorpus',
      'nfcorpus-x3',
      'synth-10k',
    ])
    expect(
      benchPlan({ xapianLargest: true })
        .at(-1)!
        .anchors.map((a) => a.anchor),
    ).toEqual(['tantivy', 'pisa', 'xapian'])
    expect(benchPlan({ anchors: [] }).every((p) => p.anchors.length === 0)).toBe(true)
    // the order of the report, whatever the order asked for
    expect(benchPlan({ anchors: ['xapian', 'pisa'] })[0]!.anchors.map((a) => a.anchor)).toEqual([
      'pisa',
      'xapian',
    ])
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
