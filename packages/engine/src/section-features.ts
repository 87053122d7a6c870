/**
 * Where an index keeps its full-text index and section model, and the full-text section scores
 * as a block of second-stage features (what a model trained with them needs back at search time).
 */
import { join } from 'node:path'
import { SECTION_TYPES } from '@pubmatch/core'
import { sectionScores, type FulltextIndex } from '@pubmatch/fulltext'
import type { FeatureBlock } from '@pubmatch/ltr'

/** Where an index keeps its full-text index. */
export function fulltextDir(indexDir: string): string {
  return join(indexDir, 'fulltext')
}

/** Where an index keeps its section model (PAV functions). */
export function sectionModelFile(indexDir: string): string {
  return join(fulltextDir(indexDir), 'sections.json')
}

/** The schema suffix of the full-text section feature block. */
export const SECTION_FEATURES_SUFFIX = '+sections-14/1'

/**
 * The full-text section scores as a block of features for the second stage (after the 179 and
 * the memory): per section type, the sum over query terms of the term's largest section BM25 in
 * the candidate's full text (`S_<TYPE>`, 13 features), and whether the candidate has a full text
 * at all (`S_HAS_FULLTEXT`). A candidate without a full text gets zeros.
 * @param index - the full-text index
 */
export function sectionFeatureBlock(index: FulltextIndex): FeatureBlock {
  return {
    suffix: SECTION_FEATURES_SUFFIX,
    features: [
      ...SECTION_TYPES.map((type) => ({
        id: `S_${type}`,
        name: `fulltext_${type.toLowerCase()}_bm25`,
        group: 'query-document' as const,
        description: `sum over query terms of the term's largest BM25 over the candidate's ${type} passages (0 without a full text)`,
        neutral: 0,
      })),
      { id: 'S_HAS_FULLTEXT', name: 'has_fulltext', group: 'document' as const, description: '1 when the candidate has a PMC full text', neutral: 0 },
    ],
    compute(query, ids) {
      const S = SECTION_TYPES.length
      const width = S + 1
      const out = new Float64Array(ids.length * width)
      const sections = sectionScores(index, query)
      // per article and section type: the sum over query terms
      const sums = new Float64Array(sections.articles.length * S)
      const { article, section, score } = sections.entries
      for (let i = 0; i < score.length; i++) {
        sums[article[i]! * S + section[i]!]! += score[i]!
      }
      const position = new Map(Array.from(sections.articles, (doc, a) => [doc, a]))
      for (const [row, id] of ids.entries()) {
        const doc = index.articles.docNumber(id)
        if (doc === undefined) {
          continue
        }
        out[row * width + S] = 1
        const a = position.get(doc)
        if (a === undefined) {
          continue
        }
        for (let s = 0; s < S; s++) {
          out[row * width + s] = sums[a * S + s]!
        }
      }
      return out
    },
  }
}
