import { readFileSync } from 'node:fs'
import { sharedDataPath } from '@pubmatch/core/testing'
import { describe, expect, it } from 'vitest'
import { loadCorpusModel } from './model.ts'
import { parseQueryLog, queryTerms, sampleQueries } from './queries.ts'

/** NCBI's Best Match query log of the real data set (only in tests tagged `real-data`). */
const QUERIES = sharedDataPath('pubmed-best-match', 'data', 'queries', 'queries.txt')

describe('queryTerms', () => {
  it('drops field tags, stop words and boolean operators', () => {
    expect(queryTerms('"Rabbani F"[Author]')).toEqual(['rabbani', 'f'])
    expect(queryTerms('ultrasound and chronic pancreatitis')).toEqual([
      'ultrasound',
      'chronic',
      'pancreatitis',
    ])
    expect(queryTerms('heparin AND warfarin OR NOT aspirin')).toEqual([
      'heparin',
      'warfarin',
      'aspirin',
    ])
    // `a` is a PubMed stop word; the tokenizer splits letters from digits.
    expect(queryTerms('Endoscopy[Jour] AND A237[page]')).toEqual(['endoscopy', '237'])
  })
})

describe('parseQueryLog', () => {
  it(
    "reads NCBI's Best Match query log, dropping history references and empty queries",
    { tags: ['real-data'] },
    () => {
      const text = readFileSync(QUERIES, 'utf8')
      const entries = parseQueryLog(text, 'queries.txt')
      expect(text.trim().split('\n')).toHaveLength(1000)
      // 6 lines refer to search history (#8 …); none of the rest is empty after analysis.
      expect(entries).toHaveLength(994)
      expect(entries[0]).toEqual({
        qid: 'qid0000',
        text: 'ultrasound and chronic pancreatitis',
        terms: 3,
        fielded: false,
      })
      expect(entries.find((e) => e.qid === 'qid0002')).toEqual({
        qid: 'qid0002',
        text: '"Rabbani F"[Author]',
        terms: 2,
        fielded: true,
      })
      expect(entries.find((e) => e.qid === 'qid0012')?.text).toBe(
        'classification of hypovolemic shock',
      )
    },
  )

  it('rejects a line that is not qid|query', () => {
    expect(() => parseQueryLog('qid1|x\nno bar here', 'q.txt')).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: @pubmatch/synth: q.txt: line 2 is not "qid|query": no bar here]`,
    )
  })
})

describe('sampleQueries', () => {
  const model = loadCorpusModel()

  it('embeds the real log in the committed model', { tags: ['real-data'] }, () => {
    const text = readFileSync(QUERIES, 'utf8')
    expect(model.queries).toEqual(parseQueryLog(text))
  })

  it('is deterministic and keeps the term-count range', () => {
    const a = sampleQueries({ count: 300, seed: 4, model })
    const b = sampleQueries({ count: 300, seed: 4, model })
    expect(a).toEqual(b)
    expect(sampleQueries({ count: 300, seed: 5, model })).not.toEqual(a)
    expect(a.every((q) => q.terms >= 1 && q.terms <= 5)).toBe(true)
    expect(new Set(a.map((q) => q.qid)).size).toBe(300)
  })

  it("keeps the log's term-count distribution within the range", () => {
    const pool = model.queries.filter((q) => q.terms >= 1 && q.terms <= 5)
    const sample = sampleQueries({ count: pool.length * 20, seed: 8, model })
    for (let terms = 1; terms <= 5; terms++) {
      const expected = pool.filter((q) => q.terms === terms).length / pool.length
      const observed = sample.filter((q) => q.terms === terms).length / sample.length
      // Whole reshuffled pools: every query appears exactly 20 times.
      expect(observed).toBeCloseTo(expected, 10)
    }
  })

  it('filters plain queries and other term ranges', () => {
    const plain = sampleQueries({
      count: 50,
      seed: 1,
      model,
      plainOnly: true,
      minTerms: 2,
      maxTerms: 3,
    })
    expect(plain.every((q) => !q.fielded && q.terms >= 2 && q.terms <= 3)).toBe(true)
    expect(() => sampleQueries({ count: 1, seed: 1, model, minTerms: 40, maxTerms: 50 })).toThrow(
      /no query of the log/,
    )
    expect(() => sampleQueries({ count: 1, seed: 1, model, minTerms: 3, maxTerms: 2 })).toThrow(
      /minTerms ≤ maxTerms/,
    )
  })
})
