import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { sharedDataDir } from '@pubmatch/core/testing'
import { describe, expect, it } from 'vitest'
import {
  CORPUS_MODEL_VERSION,
  DEFAULT_MODEL_PATH,
  loadCorpusModel,
  parseCorpusModel,
} from './model.ts'
import { readArticles } from './real-data.ts'
import { corpusStatistics } from './stats.ts'

describe('loadCorpusModel', () => {
  it('reads the committed model, which stays small', () => {
    const model = loadCorpusModel()
    expect(model.schemaVersion).toBe(CORPUS_MODEL_VERSION)
    expect(loadCorpusModel()).toBe(model)
    expect(statSync(DEFAULT_MODEL_PATH).size).toBeLessThan(2 * 1024 * 1024)
  })

  it(
    'was fitted on the real articles of the shared data (its reference statistics reproduce)',
    { tags: ['real-data'] },
    async () => {
      const model = loadCorpusModel()
      const files = model.provenance.articleFiles.map((file) => join(sharedDataDir(), file))
      expect(files.every((file) => existsSync(file))).toBe(true)
      // The fit keeps the first article of each PMID.
      const seen = new Set<string>()
      const articles = []
      for await (const article of readArticles(files)) {
        if (article.source === 'pubmed' && !seen.has(article.id)) {
          seen.add(article.id)
          articles.push(article)
        }
      }
      expect(articles).toHaveLength(model.provenance.articles)
      const stats = await corpusStatistics(articles, {
        zipfRanks: model.text.vocabulary.law.fitRanks,
      })
      expect(JSON.parse(JSON.stringify(stats))).toEqual(model.reference)
    },
  )

  it('reports a missing file and a malformed one', () => {
    expect(() => loadCorpusModel('/nonexistent/model.json')).toThrow(/cannot read the corpus model/)
  })
})

describe('parseCorpusModel', () => {
  it('rejects another schema version and objects that are not models', () => {
    expect(() =>
      parseCorpusModel({ schemaVersion: 99 }, 'm.json'),
    ).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: @pubmatch/synth: m.json: model schema version 99, expected 1]`,
    )
    expect(() =>
      parseCorpusModel({ schemaVersion: 1 }, 'm.json'),
    ).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: @pubmatch/synth: m.json: corpus model lacks text, mesh, metadata, queries, reference]`,
    )
    expect(() => parseCorpusModel(null)).toThrow(/not a corpus model object/)
  })
})
