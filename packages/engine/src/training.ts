/**
 * Training a Best Match model and logging features over an opened engine: ltr's recipe
 * (`trainBestMatch`, `buildTrainingSet` with the 179 features) assembled from the engine's index,
 * forward store, first stage and query reading, so that a model trained here opens over it.
 */
import { openFulltextIndex } from '@pubmatch/fulltext'
import {
  bestMatchExtractor,
  buildTrainingSet,
  trainBestMatch,
  type DocumentUsage,
  type FeatureContext,
  type LabelledQuery,
  type TrainBestMatchOptions,
  type TrainedBestMatch,
  type TrainingSet,
} from '@pubmatch/ltr'
import { engineInternals, type SearchEngine } from './search-engine.ts'
import { fulltextDir, sectionFeatureBlock } from './section-features.ts'

/** Options of {@link trainModel}: `trainBestMatch`'s, without what the engine supplies. */
export interface TrainModelOptions extends Omit<TrainBestMatchOptions, keyof FeatureContext | 'searcher' | 'firstStage'> {
  /**
   * Add the full-text section scores (13 section BM25 sums and a has-full-text flag) from the
   * index's full-text index (`pubmatch index --fulltext`) after the 179 (and the memory). Defaults to `false`.
   */
  readonly fulltextFeatures?: boolean
}

/**
 * Trains a Best Match model (LambdaMART over the 179 features, + M1–M3 with `memory`) on an
 * engine's first-stage candidates of labelled queries. The model records the engine's first stage,
 * so `openSearch({ index, model })` with the same ranking opens it. Save it with `saveBestMatchModel`.
 * @param engine - the engine whose first stage the model will rerank (its own model, if any, plays no part)
 * @param options - see {@link TrainModelOptions}
 * @throws PubmatchError `INVALID_ARGUMENT` when no query has a relevant candidate, `NOT_FOUND`
 *   (`fulltextFeatures` without a full-text index, a forward store to build without the corpus), `LIGHTGBM`
 */
export async function trainModel(engine: SearchEngine, options: TrainModelOptions): Promise<TrainedBestMatch> {
  const { reader, searcher, forwardStore } = engineInternals(engine)
  const { fulltextFeatures, ...recipe } = options
  const blocks =
    fulltextFeatures === true ? [...(options.blocks ?? []), sectionFeatureBlock(await openFulltextIndex(fulltextDir(engine.indexDir)))] : options.blocks
  return trainBestMatch({
    ...recipe,
    ...(blocks === undefined ? {} : { blocks }),
    reader,
    forward: await forwardStore(),
    syntax: engine.firstStage.syntax,
    searcher,
    firstStage: engine.firstStage,
  })
}

/** Options of {@link featureSet}. */
export interface FeatureSetOptions {
  /** The queries, with judgements for the labels (unjudged documents get 0). */
  readonly queries: readonly LabelledQuery[]
  /** First-stage candidates per query. Defaults to `500`. */
  readonly depth?: number
  /** Past usage (F2–F3). Defaults to none (0). */
  readonly usage?: DocumentUsage
  /**
   * Keep a query only when at least this many of its candidates are judged relevant. Defaults to
   * `0`: every query with candidates (logging, not learning; `1` keeps what training keeps).
   */
  readonly minRelevantCandidates?: number
  /** Called after each query. */
  readonly onProgress?: (done: number, total: number) => void
}

/**
 * The 179 features of each query's first-stage candidates over an engine, with graded labels,
 * grouped by query (for `formatLetor`, `formatLightGbmText`, or `trainRanker`): what `pubmatch
 * features` writes.
 * @param engine - the engine (its first stage, index and forward store)
 * @param options - see {@link FeatureSetOptions}
 * @throws PubmatchError `INVALID_ARGUMENT` for a bad depth or grade, `NOT_FOUND` (a forward store to build without the corpus)
 */
export async function featureSet(engine: SearchEngine, options: FeatureSetOptions): Promise<TrainingSet> {
  const { reader, searcher, forwardStore } = engineInternals(engine)
  const extractor = bestMatchExtractor({ reader, forward: await forwardStore(), syntax: engine.firstStage.syntax }, options.usage)
  return buildTrainingSet({
    searcher,
    extractor,
    queries: options.queries,
    ...(options.depth === undefined ? {} : { depth: options.depth }),
    minRelevantCandidates: options.minRelevantCandidates ?? 0,
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  })
}
