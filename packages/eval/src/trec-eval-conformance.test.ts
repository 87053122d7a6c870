import { describe, expect, it } from 'vitest'
import { dataPath, fixturePath, fixtureText } from '../test/helpers.ts'
import { evaluate, type EvaluateOptions, type EvaluationResult } from './evaluate.ts'
import { readQrels, readSampledQrels, sampledToQrels } from './io/qrels.ts'
import { readRun } from './io/run.ts'
import { formatTrecEval, parseTrecEvalOutput, type TrecEvalOutput } from './io/trec-eval-output.ts'

/*
 * Every per-query and summary value against trec_eval 10.0-rc2 (usnistgov/trec_eval, built
 * from source; see test/fixtures/README.md). `*.hp.txt` files were printed with 12
 * decimals instead of 4, so they pin values to 1e-9; the others are trec_eval's own
 * `%6.4f` text and must be reproduced character for character.
 */

/**
 * Every value of `actual` equals the reference to `tolerance`, and both cover the same
 * queries and measures. trec_eval's NaN (0/0, which only `-J` with an empty ranking
 * produces for iprec_at_recall) must be 0 in pubmatch, whose empty rankings score 0.
 */
function expectMatches(
  actual: EvaluationResult,
  reference: TrecEvalOutput,
  tolerance: number,
): void {
  expect([...actual.perQuery.keys()]).toEqual([...reference.perQuery.keys()])
  let compared = 0
  for (const [qid, values] of reference.perQuery) {
    const mine = actual.perQuery.get(qid) ?? {}
    expect(
      Object.keys(mine)
        .filter((k) => k !== 'num_q')
        .sort(),
    ).toEqual(Object.keys(values).sort())
    for (const [measure, value] of Object.entries(values)) {
      const got = mine[measure] ?? Number.NaN
      if (Number.isNaN(value) ? got !== 0 : !(Math.abs(got - value) <= tolerance)) {
        expect.fail(`${qid} ${measure}: pubmatch ${got}, trec_eval ${value}`)
      }
      compared++
    }
  }
  expect(Object.keys(actual.mean).sort()).toEqual(Object.keys(reference.all).sort())
  for (const [measure, value] of Object.entries(reference.all)) {
    const got = actual.mean[measure] ?? Number.NaN
    if (Number.isNaN(value) ? !Number.isFinite(got) : !(Math.abs(got - value) <= tolerance)) {
      expect.fail(`all ${measure}: pubmatch ${got}, trec_eval ${value}`)
    }
  }
  expect(compared).toBeGreaterThan(0)
}

interface Case {
  readonly name: string
  readonly run: string
  readonly qrels: string
  readonly sampledQrels?: boolean
  readonly reference: string
  readonly options: EvaluateOptions
}

const ALL: EvaluateOptions = { measures: ['all_trec'] }
const cases: readonly Case[] = [
  ...(['bm25', 'lm'] as const).flatMap((run) =>
    (['3', '4'] as const).map((grades) => ({
      name: `NFCorpus dev ${run} run, s-${grades}.qrel`,
      run: `nfcorpus-dev.${run}.run.gz`,
      qrels: `nfcorpus/dev/s-${grades}.qrel`,
      reference: `reference/nfcorpus-dev.${run}.s-${grades}.all_trec.hp.txt.gz`,
      options: ALL,
    })),
  ),
  {
    name: 'CLEF TAR 2017 test qrels (grade ≥ 1)',
    run: 'clef-tar-2017.noisy.run.gz',
    qrels: 'clef-tar/2017-TAR/testing/qrels/test.clef2017.qrels',
    reference: 'reference/clef-tar-2017.l1.all_trec.hp.txt.gz',
    options: ALL,
  },
  {
    name: 'CLEF TAR 2017 test qrels with -l 2 (content-level inclusion only)',
    run: 'clef-tar-2017.noisy.run.gz',
    qrels: 'clef-tar/2017-TAR/testing/qrels/test.clef2017.qrels',
    reference: 'reference/clef-tar-2017.l2.all_trec.hp.txt.gz',
    options: { ...ALL, relevanceLevel: 2 },
  },
  {
    name: 'TREC PM 2017 abstracts qrels',
    run: 'trec-pm-2017.noisy.run.gz',
    qrels: 'trec-pm/qrels/qrels-treceval-abstracts.2017.txt',
    reference: 'reference/trec-pm-2017.all_trec.hp.txt.gz',
    options: ALL,
  },
  {
    name: 'TREC PM 2017 sampled qrels read as trec_eval qrels (grade −1 = unjudged)',
    run: 'trec-pm-2017.noisy.run.gz',
    qrels: 'trec-pm/qrels/sample-qrels-final-abstracts.2017.txt',
    sampledQrels: true,
    reference: 'reference/trec-pm-2017.sampled.all_trec.hp.txt.gz',
    options: ALL,
  },
]

describe('evaluate against trec_eval on real qrels', { tags: ['real-data'] }, () => {
  for (const c of cases) {
    it(`matches every per-query and mean value to 1e-9: ${c.name}`, async () => {
      const run = await readRun(fixturePath(c.run))
      const qrels =
        c.sampledQrels === true
          ? sampledToQrels(await readSampledQrels(dataPath(c.qrels)))
          : await readQrels(dataPath(c.qrels))
      const reference = parseTrecEvalOutput(fixtureText(c.reference), c.reference)
      expectMatches(evaluate(run, qrels, c.options), reference, 1e-9)
    })
  }

  for (const run of ['bm25', 'lm']) {
    for (const grades of ['3', '4']) {
      it(`prints trec_eval's exact text for -c -q -m ndcg_cut.10,20 -m P.10 -m recall.100,1000 -m map -m recip_rank (${run}, s-${grades})`, async () => {
        const result = evaluate(
          await readRun(fixturePath(`nfcorpus-dev.${run}.run.gz`)),
          await readQrels(dataPath(`nfcorpus/dev/s-${grades}.qrel`)),
          { measures: ['ndcg_cut.10,20', 'P.10', 'recall.100,1000', 'map', 'recip_rank'] },
        )
        expect(formatTrecEval(result, { perQuery: true })).toBe(
          fixtureText(`reference/nfcorpus-dev.${run}.s-${grades}.brief.txt.gz`),
        )
      })
    }
  }

  it("prints trec_eval's exact -c -q -m all_trec text on TREC PM 2017", async () => {
    const result = evaluate(
      await readRun(fixturePath('trec-pm-2017.noisy.run.gz')),
      await readQrels(dataPath('trec-pm/qrels/qrels-treceval-abstracts.2017.txt')),
      ALL,
    )
    expect(formatTrecEval(result, { perQuery: true })).toBe(
      fixtureText('reference/trec-pm-2017.all_trec.txt.gz'),
    )
  })
})

describe('evaluate against trec_eval on the hand-made edge cases', () => {
  // edge.qrels / edge.run: ties, upper/lower-case ids, a pooled-but-unjudged document,
  // scores in exponent notation and negative, a judged query with no results (q3), a
  // query without relevant documents (q2), a run query without qrels (q9), q10 < q2 order.
  it.each<[string, EvaluateOptions]>([
    ['edge.all_trec.hp.txt (-c)', {}],
    ['edge.l2.all_trec.hp.txt (-c -l 2)', { relevanceLevel: 2 }],
    ['edge.J.all_trec.hp.txt (-c -J)', { judgedOnly: true }],
    ['edge.M2.all_trec.hp.txt (-c -M 2)', { maxDocsPerQuery: 2 }],
  ])('matches %s', async (reference, options) => {
    const result = evaluate(
      await readRun(fixturePath('edge.run')),
      await readQrels(fixturePath('edge.qrels')),
      {
        measures: ['all_trec'],
        ...options,
      },
    )
    const file = reference.split(' ')[0] ?? ''
    expectMatches(result, parseTrecEvalOutput(fixtureText(`reference/${file}`)), 1e-9)
  })

  it.each<[string, string[]]>([
    ['edge.brief.txt', ['ndcg_cut.10,20', 'P.10', 'recall.100,1000', 'map', 'recip_rank']],
    ['edge.all_trec.txt', ['all_trec']],
  ])("prints trec_eval's exact -c -q text: %s", async (reference, measures) => {
    const result = evaluate(
      await readRun(fixturePath('edge.run')),
      await readQrels(fixturePath('edge.qrels')),
      {
        measures,
      },
    )
    expect(formatTrecEval(result, { perQuery: true })).toBe(fixtureText(`reference/${reference}`))
  })
})
