import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { abstractText, type Article } from '@pubmatch/core'
import { beforeAll, describe, expect, it } from 'vitest'
import { formatJson } from '../format-json.ts'
import type { CorpusModel } from '../model.ts'
import { readArticles, readMeshVocabulary } from '../real-data.ts'
import { FUNCTION_WORDS, tokenTerms } from '../text.ts'
import { GENERAL_TOPIC } from '../vocabulary.ts'
import { fitCorpusModel, type FitOptions } from './fit.ts'

const SHARED = fileURLToPath(new URL('../../../../../shared/data/', import.meta.url))
const MEDSAMP = `${SHARED}pubmed-xml/medsamp2006.xml`

describe('fitCorpusModel', () => {
  const articles: Article[] = []
  let model: CorpusModel
  let options: FitOptions
  beforeAll(async () => {
    expect(existsSync(MEDSAMP)).toBe(true)
    for await (const article of readArticles([MEDSAMP])) {
      articles.push(article)
    }
    options = {
      mesh: await readMeshVocabulary(SHARED),
      queryLog: readFileSync(`${SHARED}pubmed-best-match/data/queries/queries.txt`, 'utf8'),
      topics: 4,
      calibrationArticles: 300,
    }
    model = await fitCorpusModel(articles, options)
  })

  it("fits NLM's 88-citation sample: lengths and shares are the sample's", () => {
    // medsamp2006.xml: 88 citations; count them independently of the fit.
    expect(articles).toHaveLength(88)
    expect(model.provenance.articles).toBe(88)
    const withAbstract = articles.filter((a) => a.abstract.length > 0)
    expect(model.text.abstractShare).toBeCloseTo(withAbstract.length / 88, 6)
    expect(model.text.titleTokens.values).toEqual(
      articles.map((a) => tokenTerms(a.title).length).sort((a, b) => a - b),
    )
    // The 2006 sample has no labelled abstracts: both length models hold every abstract's length.
    expect(articles.some((a) => a.abstract.some((s) => s.label !== undefined))).toBe(false)
    expect(model.text.structuredShare).toBe(0)
    const lengths = withAbstract
      .map((a) => tokenTerms(abstractText(a)).length)
      .sort((a, b) => a - b)
    expect(model.text.unstructuredTokens.values).toEqual(lengths)
    expect(model.text.structuredTokens.values).toEqual(lengths)
    for (const layout of model.text.layouts.values) {
      expect(layout.reduce((s, section) => s + section.share, 0)).toBeCloseTo(1, 4)
    }
  })

  it('ranks real words by count, flags the function words and fits the law', () => {
    const words = model.text.vocabulary.words.map((w) => w.toLowerCase())
    expect(words[0]).toBe('the')
    expect(words.slice(0, 3)).toEqual(['the', 'of', 'and'])
    expect(
      model.text.vocabulary.functionRanks.every((r) => FUNCTION_WORDS.has(words[r - 1]!)),
    ).toBe(true)
    const { law } = model.text.vocabulary
    expect(law.s).toBeGreaterThan(0.6)
    expect(law.s).toBeLessThan(1.3)
    expect(law.tailExponent).toBeGreaterThan(1)
    expect(law.breakRank).toBeGreaterThanOrEqual(law.fitRanks)
    expect(model.text.vocabulary.topics.wordTopics).toHaveLength(words.length)
    expect(model.text.vocabulary.numericTailShare).toBeGreaterThan(0)
  })

  it('embeds real MeSH descriptors and all 83 qualifiers of 2014 with UIs', () => {
    // qual2014.xml holds 83 QualifierRecords.
    expect(model.mesh.qualifiers.values).toHaveLength(83)
    expect(model.mesh.qualifiers.values.every(([ui]) => /^Q\d{6}$/.test(ui))).toBe(true)
    expect(model.mesh.descriptors.every(([ui]) => /^D\d{6}$/.test(ui))).toBe(true)
    // Check tags spread over every kind of article are never topical.
    const humans = model.mesh.descriptors.find(([, name]) => name === 'Humans')
    expect(humans?.[4]).toBe(GENERAL_TOPIC)
    expect(model.queries.length).toBe(994)
  })

  it('is deterministic', async () => {
    const again = await fitCorpusModel(articles, options)
    expect(formatJson(again)).toBe(formatJson(model))
  })
})
