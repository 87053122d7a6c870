import { describe, expect, it } from 'vitest'
import { evaluate, perQueryValues } from './evaluate.ts'
import { parseQrels } from './io/qrels.ts'
import { parseRun } from './io/run.ts'
import { ALL_TREC_MEASURES, resolveMeasures } from './measures.ts'

const qrels = parseQrels(['q1 0 a 1', 'q1 0 b 0', 'q2 0 c 2', 'q3 0 d 0'].join('\n'))
const run = parseRun(
  ['q1 Q0 a 1 2 r', 'q1 Q0 b 2 1 r', 'q3 Q0 d 1 1 r', 'q9 Q0 a 1 1 r'].join('\n'),
)

describe('evaluate', () => {
  it('scores a judged query without results as 0 and counts it in the mean (-c)', () => {
    const result = evaluate(run, qrels, { measures: ['map', 'num_q', 'num_rel'] })
    expect([...result.perQuery.keys()]).toEqual(['q1', 'q2', 'q3'])
    expect(result.perQuery.get('q2')).toEqual({ num_q: 1, num_rel: 1, map: 0 })
    // map: q1 = 1, q2 = 0, q3 = 0 (no relevant) → 1/3
    expect(result.mean).toEqual({ num_q: 3, num_rel: 2, map: 1 / 3 })
  })

  it('leaves unanswered queries out with complete: false (trec_eval without -c)', () => {
    const result = evaluate(run, qrels, { measures: ['map'], complete: false })
    expect([...result.perQuery.keys()]).toEqual(['q1', 'q3'])
    expect(result.mean.map).toBe(0.5)
  })

  it('ignores run queries that have no judgements', () => {
    expect(evaluate(run, qrels).perQuery.has('q9')).toBe(false)
  })

  it('sums counts and averages the rest, as trec_eval’s summary line does', () => {
    const result = evaluate(run, qrels, { measures: ['num_ret', 'num_rel_ret', 'P.1'] })
    expect(result.mean).toEqual({ num_ret: 3, num_rel_ret: 1, P_1: 1 / 3 })
  })

  it('names outputs as trec_eval does and defaults to the official set', () => {
    expect(evaluate(run, qrels).measures).toEqual([
      'num_q',
      'num_ret',
      'num_rel',
      'num_rel_ret',
      'map',
      'Rprec',
      'bpref',
      'recip_rank',
      ...[0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1].map(
        (l) => `iprec_at_recall_${l.toFixed(2)}`,
      ),
      ...[5, 10, 15, 20, 30, 100, 200, 500, 1000].map((k) => `P_${k}`),
    ])
  })

  it('orders queries by strcmp of their ids (q10 before q2)', () => {
    const q = parseQrels('q2 0 a 1\nq10 0 a 1')
    expect([...evaluate(parseRun(''), q).perQuery.keys()]).toEqual(['q10', 'q2'])
  })
})

describe('perQueryValues', () => {
  it('returns one value per query id, 0 for queries the result lacks', () => {
    const result = evaluate(run, qrels, { measures: ['P.1'], complete: false })
    expect(perQueryValues(result, 'P_1', ['q1', 'q2', 'q3'])).toEqual([1, 0, 0])
  })
})

describe('resolveMeasures', () => {
  it('keeps trec_eval’s measure order whatever the request order', () => {
    expect(resolveMeasures(['ndcg_cut.10', 'map', 'P.5']).map((m) => m.name)).toEqual([
      'map',
      'P',
      'ndcg_cut',
    ])
  })

  it('sorts cutoffs and formats recall levels with two decimals', () => {
    expect(resolveMeasures(['P.20,5', 'iprec_at_recall.0.5,0.25']).flatMap((m) => m.keys)).toEqual([
      'iprec_at_recall_0.25',
      'iprec_at_recall_0.50',
      'P_5',
      'P_20',
    ])
  })

  it('expands all_trec to every implemented trec_eval measure', () => {
    expect(resolveMeasures(['all_trec']).map((m) => m.name)).toEqual([
      'num_q',
      'num_ret',
      'num_rel',
      'num_rel_ret',
      'map',
      'Rprec',
      'bpref',
      'recip_rank',
      'iprec_at_recall',
      'P',
      'recall',
      'infAP',
      'ndcg',
      'ndcg_cut',
      'map_cut',
      'success',
      'num_nonrel_judged_ret',
    ])
    expect(ALL_TREC_MEASURES).toHaveLength(17)
  })

  it('names custom-gain ndcg with its parameters', () => {
    expect(resolveMeasures(['ndcg.1=3,2=9'])[0]?.keys).toEqual(['ndcg_1=3,2=9'])
  })

  it('rejects unknown measures, bad and duplicate cutoffs', () => {
    expect(() => resolveMeasures(['ndcg@10'])).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: bad measure "ndcg@10": unknown measure; known: num_q, num_ret, num_rel, num_rel_ret, map, Rprec, bpref, recip_rank, iprec_at_recall, P, recall, infAP, ndcg, ndcg_cut, ndcg_exp_cut, map_cut, success, num_nonrel_judged_ret]`,
    )
    expect(() => resolveMeasures(['P.0'])).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: bad measure "P.0": cutoffs must be positive integers]`,
    )
    expect(() => resolveMeasures(['P.5,5'])).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: bad measure "P.5,5": duplicate cutoffs]`,
    )
  })
})
