/**
 * Full-text search over an engine's index: the PMC full texts of its corpus, indexed by section
 * (`<index>/fulltext`), ranked by one of the four strategies of Yeganova et al. (Sum or Max
 * LogOdds with the section model `<index>/fulltext/sections.json`, or BM25 on the abstract or on
 * abstract and body merged).
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { PubmatchError, SECTION_TYPES } from '@pubmatch/core'
import {
  buildFulltextIndex,
  compileSectionModel,
  loadSectionModel,
  openFulltextIndex,
  rankFulltext,
  sectionScores,
  type FulltextIndex,
  type FulltextStrategy,
  type SavedSectionModel,
} from '@pubmatch/fulltext'
import type { StoredDocument } from '@pubmatch/index'
import type { FeatureBlock } from '@pubmatch/ltr'
import { openCorpus } from '@pubmatch/ingest'
import type { SearchEngine } from './search-engine.ts'
import { readIndexSettings } from './settings.ts'

/** Where an index keeps its full-text index. */
export function fulltextDir(indexDir: string): string {
  return join(indexDir, 'fulltext')
}

/** Where an index keeps its section model (PAV functions). */
export function sectionModelFile(indexDir: string): string {
  return join(fulltextDir(indexDir), 'sections.json')
}

/**
 * Builds (or rebuilds) the full-text index of an index's corpus: every PMC full text it holds,
 * by section. A section model trained before is kept only when the rebuild left it in place.
 * @param options - the index directory (its corpus comes from its settings), analyzer, progress
 */
export async function updateFulltext(options: {
  readonly index: string
  readonly onProgress?: (articles: number, passages: number) => void
}): Promise<{ articles: number; passages: number; seconds: number }> {
  const settings = await readIndexSettings(options.index)
  const store = await openCorpus(settings.corpus, { readOnly: true })
  if (store.stats().fullTexts === 0) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `the corpus ${settings.corpus} holds no full texts; ingest PMC BioC or JATS files into it first (\`pubmatch ingest -c ${settings.corpus} DIR\`, a directory of .json or .nxml files)`,
    )
  }
  return buildFulltextIndex(store.fullTexts(), fulltextDir(options.index), {
    analyzer: settings.analyzer,
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  })
}

/** A ranked full text, with what a result list shows. */
export interface FulltextResultHit {
  readonly id: string
  readonly rank: number
  readonly score: number
  /** The PubMed record when the engine's index has it, else the full text's own title and ids. */
  readonly document: StoredDocument
}

/** The full-text side of an engine. */
export interface FulltextSearch {
  readonly index: FulltextIndex
  /** The section model, when one was trained. */
  readonly model?: SavedSectionModel
  /** When opened with `compile`: the compiled model's size ((term, article) pairs) and how long compiling took. */
  readonly compiled?: { readonly pairs: number; readonly millis: number }
  /**
   * Ranks the full texts.
   * @param query - the query text (its words; PubMed tags are not read here)
   * @param strategy - one of the four
   * @param options - offset and limit
   * @throws PubmatchError `INVALID_ARGUMENT` for a log-odds strategy without a section model
   */
  search(query: string, strategy: FulltextStrategy, options?: { readonly offset?: number; readonly limit?: number }): { total: number; hits: FulltextResultHit[] }
}

/**
 * Opens the full-text index of an engine's index (and its section model, if trained).
 * @param engine - the engine
 * @param options - `compile`: apply the section model to the whole index now (`compileSectionModel`:
 *   about a second per few hundred thousand (term, article) pairs, then each log-odds query reads
 *   one list per term), for a server; without it each query scores its passages directly (a few ms
 *   on the bundled corpus), for one-off searches
 * @throws PubmatchError `NOT_FOUND` when the index has no full-text index
 */
export async function openFulltext(engine: SearchEngine, options: { readonly compile?: boolean } = {}): Promise<FulltextSearch> {
  const index = await openFulltextIndex(fulltextDir(engine.indexDir))
  const modelFile = sectionModelFile(engine.indexDir)
  const model = existsSync(modelFile) ? await loadSectionModel(modelFile) : undefined
  const compiled = options.compile === true && model !== undefined ? compileSectionModel(index, model) : undefined
  return {
    index,
    ...(model === undefined ? {} : { model }),
    ...(compiled === undefined ? {} : { compiled: { pairs: compiled.pairs, millis: compiled.millis } }),
    search(query, strategy, options = {}) {
      if ((strategy === 'sum-logodds' || strategy === 'max-logodds') && model === undefined) {
        throw new PubmatchError(
          'INVALID_ARGUMENT',
          `${strategy} needs a section model (${modelFile}): train one with \`pubmatch fulltext train -i ${engine.indexDir} --known-item\` (each full text's title as a query for it), or with --queries and --qrels`,
        )
      }
      const offset = options.offset ?? 0
      const limit = options.limit ?? 20
      const ranked = rankFulltext(index, query, strategy, { ...(model === undefined ? {} : { model: compiled ?? model }), limit: 10_000 })
      return {
        total: ranked.length,
        hits: ranked.slice(offset, offset + limit).map((hit) => {
          const stored = index.articles.stored(hit.doc)
          return { id: hit.id, rank: hit.rank, score: hit.score, document: engine.document(hit.id) ?? stored }
        }),
      }
    },
  }
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
