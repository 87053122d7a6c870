import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SECTION_TYPES, type FullTextDocument, type SectionType } from '@pubmatch/core'
import { buildFulltextIndex, openFulltextIndex, type FulltextIndex } from './fulltext-index.ts'
import type { PavFunction } from './pav.ts'
import { compileSectionModel, rankFulltext, sectionScores, termSectionScores, trainingPoints, type SectionModel } from './scoring.ts'

/**
 * Three articles small enough to score by hand (whitespace analyzer, k1 1.2, b 0.75):
 *   A: ABSTRACT "kinase ligand"; INTRO "kinase kinase receptor receptor" and "receptor"
 *   B: ABSTRACT "ligand receptor"; METHODS "kinase"
 *   C: ABSTRACT "receptor receptor"
 * Per section type: ABSTRACT 3 passages, mean length 2; INTRO 2 passages, mean 2.5; METHODS 1, mean 1.
 */
function article(pmcid: string, passages: Array<[SectionType, string]>): FullTextDocument {
  return {
    pmcid,
    sourceId: pmcid,
    title: pmcid,
    passages: passages.map(([sectionType, text], i) => ({ offset: i * 100, text, sectionType, role: 'body', infons: {} })),
  }
}

const DOCS = [
  article('PMC1', [
    ['ABSTRACT', 'kinase ligand'],
    ['INTRO', 'kinase kinase receptor receptor'],
    ['INTRO', 'receptor'],
  ]),
  article('PMC2', [
    ['ABSTRACT', 'ligand receptor'],
    ['METHODS', 'kinase'],
  ]),
  article('PMC3', [['ABSTRACT', 'receptor receptor']]),
]

function pav(xs: number[], ys: number[]): PavFunction {
  return { xs, ys, points: xs.length, weight: xs.length, prior: 0.1 }
}

/** Hand-made PAV functions and prior 0.1 (no function for the other section types). */
const MODEL: SectionModel = {
  prior: 0.1,
  sections: { ABSTRACT: pav([0, 2], [0.05, 0.45]), INTRO: pav([0, 1], [0.1, 0.3]), METHODS: pav([0.5, 1], [0.2, 0.4]) },
}

/** ln[(p/(1 − p)) / (0.1/0.9)], written out. */
const lo = (p: number): number => Math.log(p / (1 - p)) - Math.log(0.1 / 0.9)

describe('section scores and Sum/Max LogOdds, by hand', () => {
  let dir: string
  let index: FulltextIndex
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fulltext-hand-'))
    await buildFulltextIndex(DOCS, join(dir, 'ft'), { analyzer: 'whitespace' })
    index = await openFulltextIndex(join(dir, 'ft'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  const score = (query: string, id: string, t: number, type: SectionType): number => {
    const sections = sectionScores(index, query)
    const a = [...sections.articles].indexOf(index.articles.docNumber(id)!)
    return a < 0 ? 0 : termSectionScores(sections, t, a)[SECTION_TYPES.indexOf(type)]!
  }

  it('scores a term in a section as the largest BM25 over that section’s passages', () => {
    // kinase, ABSTRACT of A: idf ln(1 + 2.5/1.5) = ln(8/3); tf 1, length 2 = mean: 2.2/2.2 = 1
    expect(score('kinase', 'PMC1', 0, 'ABSTRACT')).toBeCloseTo(0.9808292530117262, 12)
    // kinase, INTRO of A: idf ln 2; tf 2, length 4, mean 2.5: 4.4/(2 + 1.2·1.45) = 4.4/3.74
    expect(score('kinase', 'PMC1', 0, 'INTRO')).toBeCloseTo(0.8154672712469945, 12)
    // kinase, METHODS of B: idf ln(4/3), tf 1 at the mean length
    expect(score('kinase', 'PMC2', 0, 'METHODS')).toBeCloseTo(0.28768207245178085, 12)
    // receptor, INTRO of A: the max of ln 1.2·4.4/3.74 = 0.2145 (tf 2, length 4) and
    // ln 1.2·2.2/1.66 = 0.2416 (tf 1, length 1): the shorter passage wins
    expect(score('kinase receptor', 'PMC1', 1, 'INTRO')).toBeCloseTo(0.2416309788835543, 12)
    // receptor, ABSTRACT of C: idf ln 1.6, tf 2: 4.4/3.2
    expect(score('receptor', 'PMC3', 0, 'ABSTRACT')).toBeCloseTo(0.6462549902128865, 12)
    // no passage of C holds kinase: C is not a candidate
    expect([...sectionScores(index, 'kinase').articles].map((doc) => index.articles.externalId(doc)).sort()).toEqual(['PMC1', 'PMC2'])
  })

  // each case runs twice: from the query's section scores, and through the compiled model
  const models = (): Array<[string, Parameters<typeof rankFulltext>[3]]> => [
    ['plain', { model: MODEL }],
    ['compiled', { model: compileSectionModel(index, MODEL) }],
  ]

  it('adds LO_s(0) for each section of the article without the term, and sums over tokens', () => {
    for (const [, options] of models()) {
      sumCase(options)
    }
  })

  const sumCase = (options: Parameters<typeof rankFulltext>[3]): void => {
    const sum = new Map(rankFulltext(index, 'kinase receptor', 'sum-logodds', options).map((hit) => [hit.id, hit.score]))
    // A: kinase ABSTRACT p = 0.05 + 0.4·0.98083/2 = 0.246166, INTRO p = 0.1 + 0.2·0.81547 = 0.263093;
    //    receptor ABSTRACT (none) p = 0.05, INTRO p = 0.1 + 0.2·0.24163 = 0.148326
    expect(sum.get('PMC1')).toBeCloseTo(lo(0.24616585060234525) + lo(0.2630934542493989) + lo(0.05) + lo(0.14832619577671086), 10)
    expect(sum.get('PMC1')).toBeCloseTo(1.9475509527963488, 10)
    // B: kinase ABSTRACT (none) 0.05, METHODS (0.2877 < 0.5: clamped) 0.2; receptor ABSTRACT
    //    p = 0.05 + 0.4·0.47000/2 = 0.144001, METHODS (none) 0.2
    expect(sum.get('PMC2')).toBeCloseTo(1.2894194199342577, 10)
    // C: kinase ABSTRACT (none) 0.05; receptor ABSTRACT p = 0.05 + 0.4·0.64625/2 = 0.179251
    expect(sum.get('PMC3')).toBeCloseTo(-0.07142011751736099, 10)
  }

  it('takes the best section per token with Max LogOdds (so B overtakes A)', () => {
    for (const [, options] of models()) {
      maxCase(options)
    }
  })

  const maxCase = (options: Parameters<typeof rankFulltext>[3]): void => {
    const hits = rankFulltext(index, 'kinase receptor', 'max-logodds', options)
    expect(hits.map((hit) => hit.id)).toEqual(['PMC2', 'PMC1', 'PMC3'])
    const max = new Map(hits.map((hit) => [hit.id, hit.score]))
    // A: max(LO(0.246166), LO(0.263093)) + max(LO(0.05), LO(0.148326)); B: LO(0.2) + LO(0.2)
    expect(max.get('PMC1')).toBeCloseTo(1.616707661883083, 10)
    expect(max.get('PMC2')).toBeCloseTo(2 * lo(0.2), 10)
    expect(max.get('PMC3')).toBeCloseTo(-0.07142011751736099, 10)
  }

  it('leaves out articles holding the terms only in sections the model does not know', () => {
    // B holds kinase in METHODS only; without a METHODS function it is no candidate
    const model: SectionModel = { prior: 0.1, sections: { ABSTRACT: MODEL.sections.ABSTRACT!, INTRO: MODEL.sections.INTRO! } }
    for (const options of [{ model }, { model: compileSectionModel(index, model) }]) {
      expect(rankFulltext(index, 'kinase', 'sum-logodds', options).map((hit) => hit.id)).toEqual(['PMC1'])
    }
  })

  it('refuses a compiled model with other BM25 parameters', () => {
    expect(() => rankFulltext(index, 'kinase', 'sum-logodds', { model: compileSectionModel(index, MODEL), bm25: { k1: 2 } })).toThrowError(/compile it again/)
  })

  it('gives a training point per token, candidate article and section type it has, zeros included', () => {
    const points = trainingPoints(index, [{ text: 'kinase', relevant: new Set(['PMC3']) }])
    // candidates: A and B hold kinase, C is relevant; A has ABSTRACT and INTRO, B ABSTRACT and METHODS, C ABSTRACT
    const sorted = (type: SectionType): Array<[number, number]> => points.get(type)!.map((p) => [Number(p.x.toFixed(6)), p.y] as [number, number]).sort((x, y) => x[0] - y[0] || x[1] - y[1])
    expect(sorted('ABSTRACT')).toEqual([
      [0, 0],
      [0, 1],
      [0.980829, 0],
    ])
    expect(sorted('INTRO')).toEqual([[0.815467, 0]])
    expect(sorted('METHODS')).toEqual([[0.287682, 0]])
    expect(points.get('RESULTS')).toEqual([])
  })
})
