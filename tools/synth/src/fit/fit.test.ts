import {
  abstractText,
  type Article,
  type MeshDescriptor,
  type MeshQualifierRecord,
} from '@pubmatch/core'
import { readMeshXml } from '@pubmatch/ingest'
import { samplePath } from '@pubmatch/sample-data'
import { beforeAll, describe, expect, it } from 'vitest'
import { formatJson } from '../format-json.ts'
import type { CorpusModel } from '../model.ts'
import { readArticles } from '../real-data.ts'
import { FUNCTION_WORDS, tokenTerms } from '../text.ts'
import { GENERAL_TOPIC } from '../vocabulary.ts'
import { fitCorpusModel, type FitOptions } from './fit.ts'

/** The sample corpus's NLM 2006 MEDLINE sample, and its MeSH descriptors and qualifiers. */
const MEDSAMP = samplePath('pubmed', 'medsamp2006.xml')
const MESH = [samplePath('mesh', 'desc-samples.xml'), samplePath('mesh', 'qual2014.xml')]
/** Three lines of NCBI's Best Match query log (`pubmed-best-match/data/queries/queries.txt`). */
const QUERY_LOG =
  'qid0000|ultrasound and chronic pancreatitis\nqid0002|"Rabbani F"[Author]\nqid0012|classification of hypovolemic shock\n'

describe('fitCorpusModel', () => {
  const articles: Article[] = []
  let model: CorpusModel
  let options: FitOptions
  beforeAll(async () => {
    for await (const article of readArticles([MEDSAMP])) {
      articles.push(article)
    }
    const descriptors: MeshDescriptor[] = []
    const qualifiers: MeshQualifierRecord[] = []
    for (const file of MESH) {
      for await (const record of readMeshXml(file)) {
        if (record.kind === 'mesh' && record.entry.type === 'descriptor') {
          descriptors.push(record.entry.record)
        } else if (record.kind === 'mesh' && record.entry.type === 'qualifier') {
          qualifiers.push(record.entry.record)
        }
      }
    }
    options = {
      mesh: { descriptors, qualifiers },
      queryLog: QUERY_LOG,
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
    expect(model.queries.map((query) => query.qid)).toEqual(['qid0000', 'qid0002', 'qid0012'])
  })

  it('is deterministic', async () => {
    const again = await fitCorpusModel(articles, options)
    expect(formatJson(again)).toBe(formatJson(model))
  })
})
