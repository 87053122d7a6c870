import { abstractText, type Article } from '@pubmatch/core'
import { beforeAll, describe, expect, it } from 'vitest'
import { isGrowthTerm } from './fit/fit-vocabulary.ts'
import { generateCorpus } from './generate.ts'
import { loadCorpusModel } from './model.ts'
import { corpusStatistics, summarize, type CorpusStatistics } from './stats.ts'
import { tokenTerms } from './text.ts'

const model = loadCorpusModel()
const real = model.reference

/** Kolmogorov–Smirnov distance between two samples of integers. */
function ks(a: readonly number[], b: readonly number[]): number {
  const max = Math.max(...a, ...b)
  let d = 0
  for (let x = 0; x <= max; x++) {
    const fa = a.filter((v) => v <= x).length / a.length
    const fb = b.filter((v) => v <= x).length / b.length
    d = Math.max(d, Math.abs(fa - fb))
  }
  return d
}

describe('summarize', () => {
  it('gives the mean and type-7 quantiles', () => {
    expect(summarize([4, 1, 3, 2])).toEqual({ mean: 2.5, p10: 1.3, p50: 2.5, p90: 3.7 })
  })
})

// 10,000 articles: the tolerances below (a few standard errors of the means and shares) and the
// vocabulary checks (300,000 content tokens, about 1.8M abstract tokens) are sized for it, so it
// stays 10k. Generating and measuring it is a fixed amount of work (about 10 s of one core), with
// no time limit but the suite's hang guard.
describe('a generated 10k corpus', () => {
  let articles: Article[] = []
  let stats: CorpusStatistics
  beforeAll(async () => {
    articles = [...generateCorpus({ size: 10_000, seed: 2024, model })]
    stats = await corpusStatistics(articles, { zipfRanks: model.text.vocabulary.law.fitRanks })
  })

  it('matches the real mean lengths (titles, abstracts, authors, MeSH, keywords)', () => {
    // Relative tolerances a few standard errors of the 10k means wide.
    expect(stats.titleTokens.mean / real.titleTokens.mean).toBeCloseTo(1, 1)
    expect(Math.abs(stats.titleTokens.mean / real.titleTokens.mean - 1)).toBeLessThan(0.03)
    expect(Math.abs(stats.abstractTokens.mean / real.abstractTokens.mean - 1)).toBeLessThan(0.03)
    expect(Math.abs(stats.authors.mean / real.authors.mean - 1)).toBeLessThan(0.05)
    expect(Math.abs(stats.meshHeadings.mean / real.meshHeadings.mean - 1)).toBeLessThan(0.05)
    expect(Math.abs(stats.keywords.mean / real.keywords.mean - 1)).toBeLessThan(0.05)
  })

  it('matches the real shares (abstracts, structure, MeSH, keywords, English, DOIs)', () => {
    for (const key of [
      'abstractShare',
      'structuredShare',
      'meshShare',
      'keywordShare',
      'englishShare',
      'doiShare',
    ] as const) {
      expect(Math.abs(stats[key] - real[key]), key).toBeLessThan(0.025)
    }
    expect(Math.abs(stats.qualifiersPerHeading - real.qualifiersPerHeading)).toBeLessThan(0.06)
    expect(Math.abs(stats.majorHeadingShare - real.majorHeadingShare)).toBeLessThan(0.05)
  })

  it('recovers the fitted Zipf exponent within ±0.1', () => {
    expect(Math.abs(stats.zipf.s - model.text.vocabulary.law.s)).toBeLessThan(0.1)
    expect(stats.zipf.ranks).toBe(model.text.vocabulary.law.fitRanks)
  })

  it('has the MeSH heading-count distribution of the real MEDLINE citations', () => {
    const synthetic = articles.filter((a) => a.mesh.length > 0).map((a) => a.mesh.length)
    const observed = model.mesh.headingCount.values
    // Two-sample KS critical value at α = 0.05: 1.36·√((n + m)/(n·m)) ≈ 0.10 for n = 186.
    const critical =
      1.36 * Math.sqrt((synthetic.length + observed.length) / (synthetic.length * observed.length))
    expect(ks(synthetic, observed)).toBeLessThan(critical)
  })

  it('has real titles: fewer function words than abstracts, words taken from the abstract', () => {
    expect(Math.abs(stats.functionShare.title - real.functionShare.title)).toBeLessThan(0.02)
    expect(Math.abs(stats.functionShare.abstract - real.functionShare.abstract)).toBeLessThan(0.02)
    expect(stats.functionShare.title).toBeLessThan(stats.functionShare.abstract)
    expect(Math.abs(stats.titleInAbstractShare - real.titleInAbstractShare)).toBeLessThan(0.03)
    expect(Math.abs(stats.repeatShare - real.repeatShare)).toBeLessThan(0.03)
  })

  it("grows its vocabulary like the real abstracts (Heaps' law check)", () => {
    // Distinct abstract terms after as many tokens as the real sample has.
    const target = real.abstractVocabulary.tokens
    const seen = new Set<string>()
    let n = 0
    for (const a of articles) {
      for (const term of tokenTerms(abstractText(a))) {
        if (n < target) {
          seen.add(term)
          n++
        }
      }
      if (n >= target) {
        break
      }
    }
    // The tail is a compromise between this curve and NFCorpus's larger one (README): within 25%.
    expect(Math.abs(seen.size / real.abstractVocabulary.types - 1)).toBeLessThan(0.25)
    // Growth slows down but does not stop: 1.8M tokens bring well over the sample's types.
    expect(stats.abstractVocabulary.types).toBeGreaterThan(2 * real.abstractVocabulary.types)
    expect(stats.heaps.beta).toBeGreaterThan(0.35)
    expect(stats.heaps.beta).toBeLessThan(real.heaps.beta)
  })

  it('grows its content vocabulary like NFCorpus, 4× larger than the sample', () => {
    // Content words: no stop words, no tokens with digits (NFCorpus has numbers as `num`).
    const growth = new Map(model.text.vocabulary.heaps.growth?.points ?? [])
    const checks = [100_000, 300_000].filter((n) => growth.has(n))
    expect(checks).toHaveLength(2)
    const seen = new Set<string>()
    let n = 0
    const ratios: number[] = []
    for (const a of articles) {
      for (const term of tokenTerms(abstractText(a))) {
        if (isGrowthTerm(term)) {
          seen.add(term)
          n++
          if (n === checks[ratios.length]) {
            ratios.push(seen.size / growth.get(n)!)
          }
        }
      }
      if (ratios.length === checks.length) {
        break
      }
    }
    expect(ratios).toHaveLength(2)
    for (const ratio of ratios) {
      expect(Math.abs(ratio - 1)).toBeLessThan(0.2)
    }
  })
})
