import { describe, expect, it } from 'vitest'
import { emptyArticle, type Article } from '@pubmatch/core'
import { buildFeatures, foldSingletons } from './features.ts'
import { decision, fitLogistic } from './logistic.ts'
import { createRanker } from './ranker.ts'
import { recallCurveSvg, recallPoints, simulationHtml } from './report.ts'
import { drawPriors, simulateScreening } from './simulate.ts'
import type { ScreeningDataset, ScreeningRecord } from './records.ts'

const article = (id: string, title: string, mesh: string[] = []): Article => {
  const a = emptyArticle(id)
  a.title = title
  a.mesh = mesh.map((descriptorName) => ({ descriptorName, majorTopic: false, qualifiers: [] }))
  return a
}

describe('buildFeatures', () => {
  it('weighs (1 + ln tf)·(ln((1+N)/(1+df)) + 1), L2-normalised, with MeSH features', () => {
    // N = 3; "aspirin" in docs 0 and 1 (df 2), "stroke" in doc 0 only (df 1: dropped by minDf 2)
    // unless minDf 1; doc 0: aspirin tf 2, stroke tf 1, mesh:humans (df 3)
    const m = buildFeatures([article('0', 'aspirin aspirin stroke', ['Humans']), article('1', 'aspirin', ['Humans']), article('2', 'warfarin', ['Humans'])], { minDf: 1 })
    expect(m.names).toEqual(['aspirin', 'mesh:humans', 'stroke', 'warfarin'])
    const idf = (df: number): number => Math.log(4 / (1 + df)) + 1
    const raw = [(1 + Math.log(2)) * idf(2), idf(3), idf(1)]
    const norm = Math.hypot(...raw)
    const row = m.rows[0]!
    expect([...row.indices]).toEqual([0, 1, 2])
    row.values.forEach((v, k) => expect(v).toBeCloseTo(raw[k]! / norm, 12))
    expect(buildFeatures([article('0', 'warfarin heparin'), article('1', 'heparin')], { minDf: 2, mesh: false }).names).toEqual(['heparin'])
  })
  it('counts title terms titleWeight times, drops terms in more than maxDf of the records, and can keep words unstemmed', () => {
    // doc 0's title "aspirin aspirin trials" counted 3 times: tf 6 and 3; both terms have df 2
    // (equal idf), so the row is (1 + ln 6, 1 + ln 3) normalised; unstemmed, "trials" stays
    const m = buildFeatures([article('0', 'aspirin aspirin trials'), article('1', 'aspirin'), article('2', 'trials')], { minDf: 1, mesh: false, titleWeight: 3, stem: false })
    expect(m.names).toEqual(['aspirin', 'trials'])
    const norm = Math.hypot(1 + Math.log(6), 1 + Math.log(3))
    expect(m.rows[0]!.values[0]).toBeCloseTo((1 + Math.log(6)) / norm, 12)
    expect(m.rows[0]!.values[1]).toBeCloseTo((1 + Math.log(3)) / norm, 12)
    // "aspirin" is in 2 of 3 records: kept at maxDf 0.7, dropped at 0.6
    expect(buildFeatures([article('0', 'aspirin'), article('1', 'aspirin heparin'), article('2', 'heparin warfarin')], { minDf: 1, mesh: false, maxDf: 0.6 }).names).toEqual(['warfarin'])
    expect(buildFeatures([article('0', 'aspirin'), article('1', 'aspirin heparin'), article('2', 'warfarin')], { minDf: 1, mesh: false, maxDf: 0.7 }).names).toEqual(['aspirin', 'heparin', 'warfarin'])
  })
  it('multiplies the MeSH features by meshWeight before normalising', () => {
    // doc 0: "aspirin" (df 2) and mesh:stroke (df 2), equal idf; meshWeight 3 → (1, 3)/√10
    const docs = [article('0', 'aspirin', ['Stroke']), article('1', 'aspirin', ['Stroke']), article('2', 'warfarin')]
    const m = buildFeatures(docs, { minDf: 1, meshWeight: 3 })
    expect(m.names).toEqual(['aspirin', 'mesh:stroke', 'warfarin'])
    expect(m.rows[0]!.values[0]).toBeCloseTo(1 / Math.sqrt(10), 12)
    expect(m.rows[0]!.values[1]).toBeCloseTo(3 / Math.sqrt(10), 12)
    expect(() => buildFeatures(docs, { meshWeight: 0 })).toThrow(/meshWeight must be a positive number, got 0/)
  })
  it('adds adjacent analysed terms as bigrams', () => {
    const m = buildFeatures([article('0', 'heart failure'), article('1', 'heart failure')], { bigrams: true })
    expect(m.names).toEqual(['failur', 'heart', 'heart failur'])
  })
})

describe('foldSingletons', () => {
  it("replaces each row's features of document frequency 1 by one feature of that row, worth their L2 norm", () => {
    // features a b c d e; c and e only in row 0, d only in row 2; b in rows 1 and 2, a in 0 and 1
    const matrix = {
      names: ['a', 'b', 'c', 'd', 'e'],
      rows: [
        { indices: Int32Array.of(0, 2, 4), values: Float64Array.of(0.6, 0.48, 0.64) },
        { indices: Int32Array.of(0, 1), values: Float64Array.of(0.8, 0.6) },
        { indices: Int32Array.of(1, 3), values: Float64Array.of(0.28, 0.96) },
      ],
    }
    const folded = foldSingletons(matrix)
    expect(folded.features).toBe(5 + 3)
    // row 0: a kept, c and e folded into feature 5 + 0 = 5 with √(0.48² + 0.64²) = 0.8
    expect([...folded.rows[0]!.indices]).toEqual([0, 5])
    expect(folded.rows[0]!.values[0]).toBe(0.6)
    expect(folded.rows[0]!.values[1]).toBeCloseTo(0.8, 15)
    // row 1 has no feature of its own: the same row
    expect(folded.rows[1]).toBe(matrix.rows[1])
    // row 2: d folded into feature 5 + 2 = 7 with 0.96
    expect([...folded.rows[2]!.indices]).toEqual([1, 7])
    expect([...folded.rows[2]!.values]).toEqual([0.28, 0.96])
  })
  it('changes no score of an L2-regularised fit, cold or warm-started', () => {
    // real-looking rows: minDf 1 with bigrams, so most bigrams are a single record's
    const titles = ['aspirin prevents stroke in elderly patients', 'aspirin and warfarin after stroke', 'rain forecast for the weekend', 'heavy rain and flooding forecast', 'aspirin dose trial in stroke units', 'football league results and rain', 'warfarin bleeding risk in elderly', 'stock prices fall after flooding']
    const matrix = buildFeatures(titles.map((t, i) => article(String(i), t)), { minDf: 1, bigrams: true, mesh: false, stem: false, stopwords: false })
    const folded = foldSingletons(matrix)
    expect(folded.rows.reduce((n, r) => n + r.indices.length, 0)).toBeLessThan(matrix.rows.reduce((n, r) => n + r.indices.length, 0))
    for (const loss of ['logistic', 'squared-hinge'] as const) {
      const train = [0, 2, 3, 4]
      const labels = [1, 0, 0, 1]
      const plain = fitLogistic(train.map((i) => matrix.rows[i]!), labels, matrix.names.length, { loss, lambda: 0.05 })
      const fold = fitLogistic(train.map((i) => folded.rows[i]!), labels, folded.features, { loss, lambda: 0.05 })
      // one more decision, warm-started from each
      const train2 = [...train, 6]
      const labels2 = [...labels, 1]
      const plain2 = fitLogistic(train2.map((i) => matrix.rows[i]!), labels2, matrix.names.length, { loss, lambda: 0.05, start: plain, iterations: 60 })
      const fold2 = fitLogistic(train2.map((i) => folded.rows[i]!), labels2, folded.features, { loss, lambda: 0.05, start: fold, iterations: 60 })
      for (let i = 0; i < titles.length; i++) {
        expect(decision(fold, folded.rows[i]!)).toBeCloseTo(decision(plain, matrix.rows[i]!), 12)
        expect(decision(fold2, folded.rows[i]!)).toBeCloseTo(decision(plain2, matrix.rows[i]!), 12)
      }
      // and the scores are not trivially equal: the trained rows score apart from the rest
      expect(decision(plain2, matrix.rows[0]!)).not.toBeCloseTo(decision(plain2, matrix.rows[2]!), 3)
    }
  })
})

describe('fitLogistic', () => {
  it('reaches the optimum of a problem solved by hand', () => {
    // x1 = e0 (relevant), x2 = e1 (not): by symmetry w0 = a, w1 = −a, b = 0, and the
    // stationarity condition of ½·log(1+e^−a)·2·½ … reduces to λ·a = ½·σ(−a); bisection solves it
    const lambda = 0.05
    let [lo, hi] = [0, 100]
    for (let i = 0; i < 200; i++) {
      const mid = (lo + hi) / 2
      if (lambda * mid - 0.5 / (1 + Math.exp(mid)) > 0) hi = mid
      else lo = mid
    }
    const rows = [
      { indices: Int32Array.of(0), values: Float64Array.of(1) },
      { indices: Int32Array.of(1), values: Float64Array.of(1) },
    ]
    const model = fitLogistic(rows, [1, 0], 2, { lambda, iterations: 2000 })
    expect(model.weights[0]).toBeCloseTo(lo, 6)
    expect(model.weights[1]).toBeCloseTo(-lo, 6)
    expect(model.bias).toBeCloseTo(0, 6)
    expect(decision(model, rows[0]!)).toBeGreaterThan(0)
  })
  it('reaches the squared-hinge optimum solved by hand, balanced and with a class share', () => {
    // x1 = e0 (relevant), x2 = e1 (not), λ = 1, loss (1 − m)²₊.
    // Balanced (½ each): w0 = −w1 = a, b = 0, and −(1 − a) + a = 0 → a = ½.
    const rows = [
      { indices: Int32Array.from([0]), values: Float64Array.from([1]) },
      { indices: Int32Array.from([1]), values: Float64Array.from([1]) },
    ]
    const balanced = fitLogistic(rows, [1, 0], 2, { loss: 'squared-hinge', lambda: 1, iterations: 400 })
    expect(balanced.weights[0]).toBeCloseTo(0.5, 6)
    expect(balanced.weights[1]).toBeCloseTo(-0.5, 6)
    expect(balanced.bias).toBeCloseTo(0, 6)
    // share ¾: stationarity 1.5(1 − w − b) = w, 0.5(1 − w + b) = w (w1 = −w0 = −w) → w = 3/7, b = 2/7
    const weighted = fitLogistic(rows, [1, 0], 2, { loss: 'squared-hinge', lambda: 1, positiveShare: 0.75, iterations: 400 })
    expect(weighted.weights[0]).toBeCloseTo(3 / 7, 6)
    expect(weighted.weights[1]).toBeCloseTo(-3 / 7, 6)
    expect(weighted.bias).toBeCloseTo(2 / 7, 6)
    expect(() => fitLogistic(rows, [1, 0], 2, { positiveShare: 1 })).toThrow(/positiveShare must be in \(0, 1\)/)
  })
  it('moves only the training rows\' features: a start model\'s other weights are kept as they were', () => {
    const rows = [
      { indices: Int32Array.of(0), values: Float64Array.of(1) },
      { indices: Int32Array.of(2), values: Float64Array.of(1) },
    ]
    const start = { weights: Float64Array.of(0.1, 0.7, -0.2, 0.3), bias: 0 }
    const model = fitLogistic(rows, [1, 0], 4, { start, lambda: 0.05, iterations: 2000 })
    expect(model.weights[1]).toBe(0.7)
    expect(model.weights[3]).toBe(0.3)
    // features 0 and 2 reach the optimum of the hand-solved problem above (λ 0.05): w0 = −w2
    expect(model.weights[0]).toBeCloseTo(-model.weights[2]!, 6)
    expect(model.weights[0]! * 0.05).toBeCloseTo(0.5 / (1 + Math.exp(model.weights[0]!)), 6)
    expect(start.weights[0]).toBe(0.1)
    expect(() => fitLogistic(rows, [1, 0], 2)).toThrow(/feature id 2 out of range \(2 features\)/)
    expect(() => fitLogistic(rows, [1, 0], 3, { start })).toThrow(/start model of 4 features for 3/)
  })
  it('needs both classes', () => {
    expect(() => fitLogistic([{ indices: Int32Array.of(0), values: Float64Array.of(1) }], [1], 1)).toThrow(/both classes/)
  })
})

// 20 records: 5 relevant about aspirin and stroke, 15 about unrelated things
const TOPICS = ['weather forecast rain', 'football league match', 'stock market prices', 'cooking pasta recipe', 'guitar music concert']
const records: ScreeningRecord[] = Array.from({ length: 20 }, (_, i): ScreeningRecord => {
  const relevant = i % 4 === 0
  const title = relevant ? `aspirin prevents stroke trial ${i}` : `${TOPICS[i % 5]} report ${i}`
  return { key: String(i), article: article(String(i), title, relevant ? ['Aspirin', 'Stroke'] : ['Weather']), label: (relevant ? 1 : 0) }
})
const toy: ScreeningDataset = { name: 'toy', source: 'cohen2006', records, errors: [] }

describe('simulateScreening', () => {
  it('draws one included and one excluded prior, reproducibly', () => {
    const labels = records.map((r) => r.label)
    const [inc, exc] = drawPriors(labels, 7)
    expect(labels[inc]).toBe(1)
    expect(labels[exc]).toBe(0)
    expect(drawPriors(labels, 7)).toEqual([inc, exc])
  })
  it.each(['logistic', 'rocchio', 'hybrid'] as const)('%s finds the 4 other relevant records first; WSS@95 = (11 − 2)/18', (ranker) => {
    const result = simulateScreening(toy, { ranker, priors: [0, 1] })
    expect(result.labels).toEqual([1, 1, 1, 1])
    // n = 18 after the priors, 4 relevant; WSS@95 is taken at k = 3 (found at index 2); random
    // screening, round(i·4/17), reaches 3 at i = 11
    expect(result.metrics.wss95).toBeCloseTo((11 - 2) / 18, 12)
    expect(result.metrics.toRecall100).toBe(4)
    expect(result.retrainMs).toHaveLength(4)
  })
  it('uses λ = lambdaPerDecision / n, at least lambda', () => {
    const articles = ['aspirin stroke', 'aspirin trial', 'weather rain', 'rain forecast', 'aspirin rain'].map((t, i) => article(String(i), t))
    const decisions = new Map([
      [0, 'relevant' as const],
      [2, 'non-relevant' as const],
    ])
    // 2 decisions: 2/2 = 1 > 0.0001 → the same fit as λ 1
    const perDecision = createRanker(articles, { lambda: 0.0001, lambdaPerDecision: 2 }).score(decisions)
    expect([...perDecision]).toEqual([...createRanker(articles, { lambda: 1 }).score(decisions)])
    expect([...perDecision]).not.toEqual([...createRanker(articles, { lambda: 0.0001 }).score(decisions)])
    // 2/2 = 1 < 3 → λ 3
    expect([...createRanker(articles, { lambda: 3, lambdaPerDecision: 2 }).score(decisions)]).toEqual([...createRanker(articles, { lambda: 3 }).score(decisions)])
  })
  it('starts from the question before any decision', () => {
    const ranker = createRanker(records.map((r) => r.article), { question: 'football league' })
    const scores = ranker.score(new Map())
    const best = scores.indexOf(Math.max(...scores))
    expect(records[best]!.article.title).toMatch(/football/)
    expect(() => ranker.score(new Map([[99, 'relevant']]))).toThrow(/candidate 99/)
  })
})

describe('reports', () => {
  it('draws the recall curve as steps up to each relevant record', () => {
    expect(recallPoints({ name: 'x', labels: [0, 1, 0, 1], total: 4 })).toEqual([
      [0, 0],
      [0.25, 0],
      [0.5, 0.5],
      [0.75, 0.5],
      [1, 1],
      [1, 1],
    ])
    const svg = recallCurveSvg([{ name: 'a<b', labels: [1, 0], total: 2 }], 'T')
    expect(svg).toMatch(/^<svg /)
    expect(svg).toContain('a&#60;b')
    const html = simulationHtml([simulateScreening(toy, { priors: [0, 1] })], 'toy')
    expect(html).toContain('<td>0.500</td>')
  })
})
