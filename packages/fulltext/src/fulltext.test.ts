import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SECTION_TYPES, type FullTextDocument } from '@pubmatch/core'
import { sharedDataPath } from '@pubmatch/core/testing'
import { readBiocFile } from '@pubmatch/ingest'
import { samplePath } from '@pubmatch/sample-data'
import { buildFulltextIndex, openFulltextIndex, scoredPassages, type FulltextIndex } from './fulltext-index.ts'
import { loadSectionModel, plotSectionModel, saveSectionModel } from './model.ts'
import { bm25, compileSectionModel, rankFulltext, sectionScores, termSectionScores, trainSectionModel } from './scoring.ts'

/** The full texts of the first `count` PMC BioC JSON files of a folder, in name order. */
async function readFullTexts(folder: string, count: number): Promise<FullTextDocument[]> {
  const docs: FullTextDocument[] = []
  for (const name of (await readdir(folder)).filter((n) => /^PMC\d+\.json$/.test(n)).sort().slice(0, count)) {
    for await (const record of readBiocFile(join(folder, name))) {
      if (record.kind === 'fulltext') {
        docs.push(record.document)
      }
    }
  }
  return docs
}

describe('bm25', () => {
  it("is Lucene's BM25 of one term in one text", () => {
    // idf = ln(1 + (10 − 2 + 0.5)/(2 + 0.5)) = ln 4.4; tf 3, len 20, avg 10: 3·2.2/(3 + 1.2·(0.25 + 0.75·2)) = 6.6/5.1
    expect(bm25({ n: 10, df: 2, tf: 3, length: 20, avgLength: 10 })).toBeCloseTo((Math.log(4.4) * 6.6) / 5.1, 12)
    expect(bm25({ n: 10, df: 2, tf: 0, length: 20, avgLength: 10 })).toBe(0)
  })
})

describeFullTextIndex('a full-text index of the sample corpus (five PMC BioC articles)', [], () => readFullTexts(samplePath('bioc'), 5), {
  train: 3,
  heldOut: 4,
})
describeFullTextIndex('a full-text index of real PMC BioC articles', ['real-data'], () => readFullTexts(sharedDataPath('pmc', 'bioc-json'), 40), {
  train: 20,
  heldOut: 30,
})

/**
 * The index's suite over some articles: `train` of them give PAV its known-item title queries,
 * the article at `heldOut` (not among them) must be found by its title, and every article after
 * the training ones is ranked the same by the compiled model.
 */
function describeFullTextIndex(
  name: string,
  tags: string[],
  load: () => Promise<FullTextDocument[]>,
  { train, heldOut }: { train: number; heldOut: number },
): void {
  describe(name, { tags }, () => {
    let dir: string
    let docs: FullTextDocument[]
    let index: FulltextIndex
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'fulltext-'))
      docs = await load()
      const built = await buildFulltextIndex(docs, join(dir, 'ft'))
      expect(built.articles).toBe(docs.length)
      expect(built.passages).toBe(docs.reduce((n, d) => n + scoredPassages(d).length, 0))
      index = await openFulltextIndex(join(dir, 'ft'))
    })
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true })
    })

    it('keeps per-section statistics and each article’s sections', () => {
      const doc = docs[0]!
      const key = doc.pmid ?? doc.pmcid
      const article = index.articles.docNumber(key)!
      const types = new Set(scoredPassages(doc).map((p) => p.type))
      const mask = index.sectionMask[article]!
      expect(SECTION_TYPES.filter((_, s) => (mask & (1 << s)) !== 0)).toEqual(SECTION_TYPES.filter((type) => types.has(type)))
      const abstract = SECTION_TYPES.indexOf('ABSTRACT')
      expect(index.sectionStats[abstract]!.passages).toBe(docs.reduce((n, d) => n + scoredPassages(d).filter((p) => p.type === 'ABSTRACT').length, 0))
    })

    it('scores a term per section as the largest BM25 over that section’s passages', () => {
      const doc = docs[0]!
      const word = scoredPassages(doc).find((p) => p.type === 'INTRO')!.text.match(/[A-Za-z]{8,}/)![0]
      const sections = sectionScores(index, word)
      const a = [...sections.articles].indexOf(index.articles.docNumber(doc.pmid ?? doc.pmcid)!)
      expect(a).toBeGreaterThanOrEqual(0)
      const intro = SECTION_TYPES.indexOf('INTRO')
      expect(termSectionScores(sections, 0, a)[intro]).toBeGreaterThan(0)
      // the merged baseline finds the article too
      expect(rankFulltext(index, word, 'merged').some((hit) => hit.id === (doc.pmid ?? doc.pmcid))).toBe(true)
    })

    it('trains PAV on known items, saves, reloads and plots the model, and ranks with it', async () => {
      const queries = docs.slice(0, train).map((d) => ({ text: d.title ?? '', relevant: new Set([d.pmid ?? d.pmcid]) }))
      const model = trainSectionModel(index, queries)
      expect(model.prior).toBeGreaterThan(0)
      expect(model.prior).toBeLessThan(0.5)
      const file = join(dir, 'sections.json')
      await saveSectionModel(file, model, { queries: `titles of ${train} articles` })
      const loaded = await loadSectionModel(file)
      expect(loaded.sections).toEqual(JSON.parse(JSON.stringify(model.sections)))
      const svg = plotSectionModel(loaded)
      expect(svg).toMatch(/^<svg /)
      expect(svg).toContain('<title>ABSTRACT</title>')
      // a held-out article's title finds it near the top with Sum LogOdds
      const target = docs[heldOut]!
      const hits = rankFulltext(index, target.title ?? '', 'sum-logodds', { model: loaded })
      expect(hits.findIndex((hit) => hit.id === (target.pmid ?? target.pmcid))).toBeLessThan(5)
      expect(() => rankFulltext(index, 'x', 'max-logodds')).toThrowError(/needs PAV functions/)
      // the compiled model ranks every held-out title as the query's own section scores do
      const compiled = compileSectionModel(index, loaded)
      expect(compiled.pairs).toBeGreaterThan(0)
      for (const d of docs.slice(train)) {
        for (const strategy of ['sum-logodds', 'max-logodds'] as const) {
          const plain = rankFulltext(index, d.title ?? '', strategy, { model: loaded })
          const fast = rankFulltext(index, d.title ?? '', strategy, { model: compiled })
          // the same articles with the same scores (summed in another order, so near-ties may swap)
          const scores = new Map(plain.map((hit) => [hit.id, hit.score]))
          expect(fast.map((hit) => hit.id).sort()).toEqual(plain.map((hit) => hit.id).sort())
          fast.forEach((hit, i) => {
            expect(hit.score).toBeCloseTo(scores.get(hit.id)!, 9)
            expect(hit.score).toBeCloseTo(plain[i]!.score, 9)
          })
        }
      }
      await expect(loadSectionModel(join(dir, 'none.json'))).rejects.toMatchObject({ code: 'NOT_FOUND' })
      const text = await readFile(file, 'utf8')
      expect(JSON.parse(text)).toMatchObject({ format: 'pubmatch-section-model/1', training: { queries: `titles of ${train} articles` } })
    })
  })
}
