import { describe, expect, it } from 'vitest'
import { goldOverlap, ncbiEligible, ncbiGrade, ncbiJudgements, yeganovaVotes } from './labels.ts'

describe('NCBI grades', () => {
  it('maps gold ranks to 12 − p, 2 and 1, absent to 0', () => {
    expect([0, 1, 5, 9, 10, 15, 20, 21, 49, 500].map(ncbiGrade)).toEqual([
      12, 11, 7, 3, 2, 2, 2, 1, 1, 1,
    ])
    expect(ncbiGrade(-1)).toBe(0)
    expect(() => ncbiGrade(1.5)).toThrow(/gold rank/)
    expect(() => ncbiGrade(-2)).toThrow(/gold rank/)
  })

  it('grades a gold list, keeping the first rank of a repeated id', () => {
    const gold = Array.from({ length: 23 }, (_, i) => `d${i}`)
    gold.splice(3, 0, 'd0')
    const judgements = ncbiJudgements(gold)
    expect(judgements.get('d0')).toBe(12)
    expect(judgements.get('d2')).toBe(10)
    expect(judgements.get('d3')).toBe(8) // rank 4, after the repeated d0
    expect(judgements.get('d9')).toBe(2) // rank 10
    expect(judgements.get('d19')).toBe(2) // rank 20
    expect(judgements.get('d20')).toBe(1) // rank 21
    expect(judgements.size).toBe(23)
  })
})

describe('eligibility', () => {
  const gold = ['g1', 'g2', 'g3', 'g4', 'g5', 'g6', 'g7', 'g8', 'g9', 'g10', 'g11', 'g12']
  it('counts top-10 gold documents within the first-stage depth', () => {
    const filler = Array.from({ length: 600 }, (_, i) => `x${i}`)
    // g1–g4 near the top, g5 at index 499 (the 500th), g6 at index 500 (the 501st), g11 and g12 beyond top 10 of gold.
    const firstStage = ['g1', 'g11', 'g2', 'g3', 'g12', 'g4', ...filler]
    firstStage.splice(499, 0, 'g5')
    firstStage.splice(500, 0, 'g6')
    expect(firstStage.indexOf('g5')).toBe(499)
    expect(goldOverlap(gold, firstStage)).toBe(5)
    expect(ncbiEligible(gold, firstStage)).toBe(true)
    expect(goldOverlap(gold, firstStage, { firstStageDepth: 499 })).toBe(4)
    expect(ncbiEligible(gold, firstStage, { firstStageDepth: 499 })).toBe(false)
    expect(goldOverlap(gold, firstStage, { goldDepth: 12, firstStageDepth: 501 })).toBe(8)
    expect(ncbiEligible(gold, firstStage, { minOverlap: 6 })).toBe(false)
    expect(ncbiEligible(gold, [])).toBe(false)
  })
})

describe('Yeganova votes', () => {
  const shown = ['a', 'b', 'c', 'd', 'e', 'f'].map((id, i) => ({ position: i + 1, id }))
  it('clicked = positive, skipped above a click = negative, rank 1 clicks and below the lowest click ignored', () => {
    expect(yeganovaVotes(shown, new Set(['b', 'd']))).toEqual({
      positive: ['b', 'd'],
      negative: ['a', 'c'],
    })
    expect(yeganovaVotes(shown, new Set(['a', 'c']))).toEqual({ positive: ['c'], negative: ['b'] })
    expect(yeganovaVotes(shown, new Set(['a']))).toEqual({ positive: [], negative: [] })
    expect(yeganovaVotes(shown, new Set())).toEqual({ positive: [], negative: [] })
    expect(yeganovaVotes(shown, new Set(['f']))).toEqual({
      positive: ['f'],
      negative: ['a', 'b', 'c', 'd', 'e'],
    })
  })
  it('uses positions, so a second page (21…) has no rank-1 exemption', () => {
    const page2 = [
      { position: 21, id: 'p' },
      { position: 22, id: 'q' },
    ]
    expect(yeganovaVotes(page2, new Set(['p']))).toEqual({ positive: ['p'], negative: [] })
  })
})
