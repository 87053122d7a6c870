/**
 * Full-text search over an engine's index: the PMC full texts of its corpus, indexed by section
 * (`<index>/fulltext`), ranked by one of the four strategies of Yeganova et al. (Sum or Max
 * LogOdds with the section model `<index>/fulltext/sections.json`, or BM25 on the abstract or on
 * abstract and body merged).
 */
import { existsSync } from 'node:fs'
import { PubmatchError } from '@pubmatch/core'
import {
  buildFulltextIndex,
  compileSectionModel,
  loadSectionModel,
  openFulltextIndex,
  rankFulltext,
  type FulltextIndex,
  type FulltextStrategy,
  type SavedSectionModel,
} from '@pubmatch/fulltext'
import type { StoredDocument } from '@pubmatch/index'
import { openCorpus } from '@pubmatch/ingest'
import type { SearchEngine } from './search-engine.ts'
import { fulltextDir, sectionModelFile } from './section-features.ts'
import { readIndexSettings } from './settings.ts'

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
