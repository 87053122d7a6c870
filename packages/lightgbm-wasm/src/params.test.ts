import { describe, expect, it } from 'vitest'
import { isPubmatchError } from '@pubmatch/core'
import { DEFAULT_LABEL_GAIN, formatParams, isRankingObjective, labelGainLength } from './params.ts'

describe('formatParams', () => {
  it('renders scalars, booleans and lists as LightGBM parses them', () => {
    expect(
      formatParams({
        objective: 'lambdarank',
        metric: ['ndcg', 'map'],
        eval_at: [1, 3, 10],
        learning_rate: 0.05,
        deterministic: true,
        bagging_seed: undefined,
      }),
    ).toBe('objective=lambdarank metric=ndcg,map eval_at=1,3,10 learning_rate=0.05 deterministic=true')
  })

  it('rejects values that would split into other parameters', () => {
    expect(() => formatParams({ objective: 'lambdarank metric=l2' })).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: parameter "objective" has a value LightGBM cannot parse: "lambdarank metric=l2"]`,
    )
    expect(() => formatParams({ eval_at: [1, Number.NaN] })).toThrow(/finite number/)
    expect(() => formatParams({ 'bad key': 1 })).toThrow(/not a LightGBM parameter name/)
    expect(() => formatParams({ metric: [] })).toThrow(/empty list/)
  })

  it('reports bad parameters as INVALID_ARGUMENT', () => {
    try {
      formatParams({ num_leaves: Number.POSITIVE_INFINITY })
      expect.unreachable()
    } catch (error) {
      expect(isPubmatchError(error, 'INVALID_ARGUMENT')).toBe(true)
    }
  })
})

describe('isRankingObjective', () => {
  it('recognises lambdarank and rank_xendcg under the objective aliases', () => {
    expect(isRankingObjective({ objective: 'lambdarank' })).toBe(true)
    expect(isRankingObjective({ application: 'rank_xendcg' })).toBe(true)
    expect(isRankingObjective({ objective: 'binary' })).toBe(false)
    expect(isRankingObjective({})).toBe(false)
  })
})

describe('labelGainLength', () => {
  it('is 31 for LightGBM default gains 2^i - 1', () => {
    expect(labelGainLength({})).toBe(31)
    expect(DEFAULT_LABEL_GAIN.slice(0, 5)).toEqual([0, 1, 3, 7, 15])
    expect(DEFAULT_LABEL_GAIN[30]).toBe(1073741823)
  })

  it('is the length of a given label_gain', () => {
    expect(labelGainLength({ label_gain: [0, 1, 3] })).toBe(3)
    expect(labelGainLength({ label_gain: '0,1,2,4' })).toBe(4)
  })
})
