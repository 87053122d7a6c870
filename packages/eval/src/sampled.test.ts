import { describe, expect, it } from 'vitest'
import { dataPath, fixturePath, fixtureText } from '../test/helpers.ts'
import { parseSampledQrels, readSampledQrels } from './io/qrels.ts'
import { parseRun, readRun } from './io/run.ts'
import { parseTrecEvalOutput } from './io/trec-eval-output.ts'
import { evaluateSampled, infAP, infNDCG, summariseSample } from './sampled.ts'

/*
 * Reference: NIST sample_eval.pl (change log through 10 Oct 2011) run with perl 5 on the
 * generated TREC PM runs; `.hp.txt` is the same script printing 12 decimals. See
 * test/fixtures/README.md.
 */
describe(
  'evaluateSampled against sample_eval.pl on TREC PM sampled qrels',
  { tags: ['real-data'] },
  () => {
    it.each([
      ['2017', 'sample-qrels-final-abstracts.2017.txt'],
      ['2018', 'qrels-sample-abstracts.2018.txt'],
    ])(
      'matches every per-query and summary value of TREC PM %s to 1e-9',
      async (year, qrelsFile) => {
        const result = evaluateSampled(
          await readRun(fixturePath(`trec-pm-${year}.noisy.run.gz`)),
          await readSampledQrels(dataPath(`trec-pm/qrels/${qrelsFile}`)),
        )
        const reference = parseTrecEvalOutput(
          fixtureText(`reference/trec-pm-${year}.sample_eval.hp.txt`),
        )
        expect([...result.perQuery.keys()]).toEqual([...reference.perQuery.keys()])
        for (const [qid, ref] of reference.perQuery) {
          const m = result.perQuery.get(qid)
          const mine: Record<string, number | undefined> = {
            infAP: m?.infAP,
            infNDCG: m?.infNDCG,
            inum_rel_ret: m?.inumRelRet,
            inum_rel: m?.inumRel,
            num_ret: m?.numRet,
            ...m?.precision,
          }
          for (const [measure, value] of Object.entries(ref)) {
            expect(mine[measure], `${qid} ${measure}`).toBeCloseTo(value, 9)
          }
        }
        expect(Object.keys(result.mean)).toEqual(Object.keys(reference.all))
        for (const [measure, value] of Object.entries(reference.all)) {
          expect(result.mean[measure], `all ${measure}`).toBeCloseTo(value, 9)
        }
        // and the 4-decimal text sample_eval prints by default agrees to its rounding
        const printed = parseTrecEvalOutput(
          fixtureText(`reference/trec-pm-${year}.sample_eval.txt`),
        )
        expect(result.mean.infNDCG).toBeCloseTo(printed.all.infNDCG ?? Number.NaN, 4)
      },
    )
  },
)

describe('infAP and infNDCG (stratified samples)', () => {
  // Stratum 1 fully judged: a (2), b (0). Stratum 2 has 4 documents, 2 sampled: c (1), d (0);
  // e and f are pooled but not sampled (−1).
  const sampled = parseSampledQrels(
    ['t 0 a 1 2', 't 0 b 1 0', 't 0 c 2 1', 't 0 d 2 0', 't 0 e 2 -1', 't 0 f 2 -1'].join('\n'),
  )
  const sample = summariseSample(sampled.get('t') ?? new Map())

  it('estimates the number of relevant documents per stratum as sampled relevant × pool / sampled', () => {
    // stratum 1: 1·2/2 = 1; stratum 2: 1·4/2 = 2
    expect(sample.estimatedRelevant).toBe(3)
  })

  it('builds the ideal DCG from rounded per-grade estimates', () => {
    // grade 2: 1 document, grade 1: 2 (estimated) → 2/log2(2) + 1/log2(3) + 1/log2(4)
    expect(sample.idealDcg).toBeCloseTo(2 + 1 / Math.log2(3) + 0.5, 12)
  })

  it('scores the ranking a, c, x (outside the pool) by hand', () => {
    // rank 1 a (stratum 1, rel 2): prec = 1; rank 2 c (stratum 2, rel 1): one pool doc above
    // (stratum 1, relevant 1 of 1 sampled) → prec_above = 1·(1+1e-5)/(1+3e-5),
    // prec = 1/2 + (1/2)·prec_above.
    const precC = 0.5 + 0.5 * ((1 + 1e-5) / (1 + 3e-5))
    // AP = P(stratum 1)·SAP1/1 + P(stratum 2)·SAP2/1, P(s) = estimate in s / 3
    expect(infAP(['a', 'c', 'x'], sample)).toBeCloseTo((1 / 3) * 1 + (2 / 3) * precC, 12)
    // DCG per stratum scaled by pool docs seen / sampled seen: stratum 1: (1/2)·2/1,
    // stratum 2: (1/2)·(1/log2 3)/1; × 2 pooled documents seen, ÷ ideal DCG
    const dcg = 0.5 * 2 + 0.5 * (1 / Math.log2(3))
    expect(infNDCG(['a', 'c', 'x'], sample)).toBeCloseTo((2 * dcg) / sample.idealDcg, 12)
  })

  it('gives 0 when nothing relevant is sampled', () => {
    const none = summariseSample(parseSampledQrels('t 0 a 1 0\nt 0 b 1 -1').get('t') ?? new Map())
    expect(infAP(['a', 'b'], none)).toBe(0)
    expect(infNDCG(['a', 'b'], none)).toBe(0)
  })

  it('strips leading zeros of run query ids and keeps the last score of a repeated document, as sample_eval does', () => {
    const run = parseRun(
      ['07 Q0 a 1 1 r', '07 Q0 c 2 3 r', '07 Q0 c 3 0.5 r', '9 Q0 a 1 1 r'].join('\n'),
    )
    const qrels = parseSampledQrels(['7 0 a 1 1', '7 0 c 1 1'].join('\n'))
    const result = evaluateSampled(run, qrels)
    expect([...result.perQuery.keys()]).toEqual(['7'])
    // c's last score 0.5 < a's 1: a ranks first; both relevant and judged → AP 1
    expect(result.perQuery.get('7')?.infAP).toBeCloseTo(1, 4)
    expect(result.perQuery.get('7')?.numRet).toBe(3)
    expect(result.mean.num_ret).toBe(2)
  })
})
