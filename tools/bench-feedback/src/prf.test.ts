import { describe, expect, it } from 'vitest'
import { checkJson, type Qrels, type Run } from '@pubmatch/core'
import { compareRuns, evaluate } from '@pubmatch/eval'
import { SAVED_TRAIN_GRID, type SavedTrainGrid } from './prf.ts'

const qrels: Qrels = new Map([
  ['q1', new Map([['d1', 1]])],
  ['q2', new Map([['d2', 2]])],
])
const run = (tag: string, first: string): Run => ({
  tag,
  queries: new Map([
    ['q1', [{ docId: first, score: 2 }, { docId: 'd4', score: 1 }]],
    ['q2', [{ docId: 'd2', score: 1 }]],
  ]),
})

describe('the saved train grid (--reuse-train)', () => {
  const comparison = compareRuns(
    new Map([
      ['no PRF', evaluate(run('a', 'd1'), qrels, { measures: ['ndcg_cut.10'] })],
      ['PRF', evaluate(run('b', 'd3'), qrels, { measures: ['ndcg_cut.10'] })],
    ]),
    { measures: ['ndcg_cut_10'] },
  )
  const saved: SavedTrainGrid = { comparison, stats: { 'no PRF': { meanMs: 1.5, overlap10: 1 }, PRF: { meanMs: 3, overlap10: 0.5 } } }

  it('is read back as it was written', () => {
    const read: unknown = JSON.parse(JSON.stringify(saved))
    expect(checkJson(read, SAVED_TRAIN_GRID, { file: 'prf-train.json' })).toEqual(read)
  })

  it('is refused, naming the file and the field, when it is not of its shape', () => {
    const damaged = JSON.parse(JSON.stringify(saved)) as { comparison: { rows: Array<{ cells: Array<Record<string, unknown>> }> } }
    damaged.comparison.rows[1]!.cells[0]!['significant'] = 'no'
    expect(() => checkJson(damaged, SAVED_TRAIN_GRID, { file: '.cache/prf-train-2-1.json' })).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: .cache/prf-train-2-1.json: comparison.rows[1].cells[0].significant is "no", expected true or false]`,
    )
  })
})
