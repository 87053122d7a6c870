/**
 * Best Match's second stage as one recipe, for every app and benchmark: how a model is trained
 * from labelled queries (the split, the query memory and who may see which judgements, the
 * held-out evaluation), and how a saved model is opened for reranking over an index (its first
 * stage checked, its memory restored, queries unlike its training set left in first-stage order).
 */
import type { Analyzer } from '@pubmatch/analysis'
import { PubmatchError } from '@pubmatch/core'
import { QUESTION_STOPWORDS, type FirstStageRanker, type SearchResult } from '@pubmatch/bm25f'
import { evaluate, shuffle } from '@pubmatch/eval'
import type { IndexReader } from '@pubmatch/index'
import { parseLightGbmModel, prepareModelInSteps, type LightGbm, type LightGbmParams } from '@pubmatch/lightgbm-wasm'
import { createFeatureExtractor } from './features/extract.ts'
import type { ForwardIndex } from './features/forward.ts'
import { createQueryMemory, MEMORY_SCHEMA_SUFFIX, withFeatureBlock, withQueryMemory, type FeatureBlock } from './memory.ts'
import {
  loadModel,
  loadModelMemory,
  MODEL_FORMAT,
  nextTurn,
  saveModel,
  saveModelMemory,
  type FirstStageRecord,
  type ModelManifest,
  type QueryRange,
  type RankerModel,
} from './model.ts'
import { createReranker, headOf, withTail, type RerankedHit, type Reranker, type RerankFallback, type RerankOptions, type RerankResult } from './rerank.ts'
import { buildTrainingSet, type TrainingSet } from './training-set.ts'
import { gridSearch, trainRanker } from './train.ts'
import type { DocumentUsage, FeatureExtractor, LabelledQuery } from './types.ts'
import type { UsageCounts } from './clicks/usage.ts'

/** What the 179 features are computed from. */
export interface FeatureContext {
  /** The open index the candidates come from. */
  readonly reader: IndexReader
  /** Its forward store (document token streams). */
  readonly forward: ForwardIndex
  /**
   * How the first stage reads queries: with `plain` the query's question words are dropped as the
   * first stage drops them, so both stages see the same terms. Defaults to `pubmed`.
   */
  readonly syntax?: 'pubmed' | 'plain'
}

/**
 * The extractor of Best Match's 179 features over an index.
 * @param context - the index, its forward store and the query syntax
 * @param usage - past usage (F2–F3). Defaults to none (0).
 */
export function bestMatchExtractor(context: FeatureContext, usage?: DocumentUsage): FeatureExtractor {
  return createFeatureExtractor({
    reader: context.reader,
    forward: context.forward,
    ...(context.syntax === 'plain' ? { queryStopwords: QUESTION_STOPWORDS } : {}),
    ...(usage === undefined ? {} : { usage }),
  })
}

/**
 * Splits queries 65/15/20 (train/valid/test) in a seeded order, as NCBI split theirs.
 * @param queries - the queries
 * @param seed - the shuffle seed
 */
export function splitQueries(
  queries: readonly LabelledQuery[],
  seed: number,
): { train: LabelledQuery[]; valid: LabelledQuery[]; test: LabelledQuery[] } {
  const order = shuffle(queries, seed)
  const a = Math.round(order.length * 0.65)
  const b = Math.round(order.length * 0.8)
  return { train: order.slice(0, a), valid: order.slice(a, b), test: order.slice(b) }
}

/**
 * The remembered queries of a model trained on `train`: the training queries, then the variants
 * (other phrasings carrying the same judgements, ids `<id>#<set>`) of training queries only. A
 * validation or test query, or its variant, never enters the memory: the held-out figures would
 * see their own judgements.
 * @param train - the training queries
 * @param variantSets - more phrasings of queries, keyed by the same ids as the queries they vary
 */
export function memoryQueries(
  train: readonly LabelledQuery[],
  variantSets: ReadonlyArray<readonly LabelledQuery[]> = [],
): LabelledQuery[] {
  const trainIds = new Set(train.map((query) => query.id))
  const remembered = [...train]
  for (const [i, set] of variantSets.entries()) {
    for (const query of set) {
      if (trainIds.has(query.id)) {
        remembered.push({ ...query, id: `${query.id}#${i + 1}` })
      }
    }
  }
  return remembered
}

/** Progress of {@link trainBestMatch}. */
export type TrainProgress =
  | { readonly type: 'features'; readonly set: 'train' | 'valid' | 'test'; readonly done: number; readonly total: number }
  | { readonly type: 'tree'; readonly iteration: number; readonly metrics: Readonly<Record<string, number>> }
  | { readonly type: 'message'; readonly text: string }

/** Options of {@link trainBestMatch}. */
export interface TrainBestMatchOptions extends FeatureContext {
  /** A loaded LightGBM (`loadLightGbm()`); the caller terminates it. */
  readonly lightgbm: LightGbm
  /** The first stage whose candidates the model reranks. */
  readonly searcher: FirstStageRanker
  /** What that first stage is, recorded in the manifest and checked when the model is opened. */
  readonly firstStage: Omit<FirstStageRecord, 'depth'>
  /** Training queries with their graded judgements. */
  readonly queries: readonly LabelledQuery[]
  /**
   * Validation queries for early stopping. Defaults to a seeded 65/15/20 split of `queries`, whose
   * 20 % are then evaluated (first stage against reranked) into `metrics.test_*`.
   */
  readonly valid?: readonly LabelledQuery[]
  /** Seed of the split and of the grid's folds. Defaults to `1`. */
  readonly seed?: number
  /** Past usage from a search log (F2–F3): a training query never sees its own clicks. */
  readonly usage?: UsageCounts
  /**
   * Adds the query-memory block M1–M3: the training queries are remembered (each leaving itself
   * out while its own rows are computed), with `variants` of training queries (see
   * {@link memoryQueries}). Defaults to none.
   */
  readonly memory?: { readonly k?: number; readonly variants?: ReadonlyArray<readonly LabelledQuery[]> }
  /** First-stage candidates per query. Defaults to `500`. */
  readonly depth?: number
  /** Most trees. Defaults to `500`. */
  readonly trees?: number
  /** Stop after this many rounds without a better validation NDCG@20. Defaults to `50`. */
  readonly earlyStopping?: number
  /** LightGBM parameters over `DEFAULT_LTR_PARAMS`. */
  readonly params?: LightGbmParams
  /** Extra feature blocks appended after the 179 (and the memory), e.g. full-text section scores. Defaults to none. */
  readonly blocks?: readonly FeatureBlock[]
  /** Choose num_leaves, learning_rate, min_data_in_leaf by k-fold cross-validation first. Defaults to none. */
  readonly grid?: { readonly folds?: number }
  /** Where the queries came from, for the manifest (file paths, a log). */
  readonly sources?: { readonly queries?: string; readonly qrels?: string; readonly valid?: string; readonly usageLog?: string }
  /** Progress and messages. */
  readonly onProgress?: (event: TrainProgress) => void
}

/** A trained model, not yet saved. */
export interface TrainedBestMatch {
  readonly manifest: ModelManifest
  readonly modelText: string
  /** The remembered queries (with `memory`). */
  readonly memory?: readonly LabelledQuery[]
  /** Per feature id: the total gain of its splits, largest first. */
  readonly importance: ReadonlyArray<{ readonly feature: string; readonly name: string; readonly gain: number }>
  readonly train: TrainingSet
  readonly valid: TrainingSet
}

/**
 * Trains Best Match's LambdaMART over the 179 features (+ M1–M3 with `memory`) of each query's
 * first-stage candidates.
 * @param options - see {@link TrainBestMatchOptions}
 * @throws PubmatchError `INVALID_ARGUMENT` when no query has a relevant candidate, `LIGHTGBM`
 */
export function trainBestMatch(options: TrainBestMatchOptions): TrainedBestMatch {
  const say = (text: string): void => options.onProgress?.({ type: 'message', text })
  const seed = options.seed ?? 1
  const depth = options.depth ?? 500
  let trainQueries: readonly LabelledQuery[] = options.queries
  let validQueries: readonly LabelledQuery[]
  let testQueries: readonly LabelledQuery[] = []
  if (options.valid !== undefined) {
    validQueries = options.valid
  } else {
    const split = splitQueries(options.queries, seed)
    trainQueries = split.train
    validQueries = split.valid
    testQueries = split.test
    say(`split ${options.queries.length} queries 65/15/20: ${split.train.length} train, ${split.valid.length} valid, ${split.test.length} test`)
  }
  const remembered = options.memory === undefined ? undefined : memoryQueries(trainQueries, options.memory.variants)
  const memoryK = options.memory?.k ?? 20
  const memory =
    remembered === undefined ? undefined : createQueryMemory({ queries: remembered, analyzer: memoryAnalyzer(options), k: memoryK })
  if (remembered !== undefined) {
    say(`query memory: ${remembered.length} queries (training queries and their variants), k = ${memoryK}`)
  }
  // a training query sees neither its own clicks nor its own judgements
  const withBlocks = (extractor: FeatureExtractor): FeatureExtractor => (options.blocks ?? []).reduce(withFeatureBlock, extractor)
  const trainExtractor = (query: LabelledQuery): FeatureExtractor => {
    const base = bestMatchExtractor(options, options.usage?.without(query.text))
    return withBlocks(memory === undefined ? base : withQueryMemory(base, memory, query.id))
  }
  // validation and test queries see all clicks and the whole memory, as unseen queries will
  const heldOutBase = bestMatchExtractor(options, options.usage?.total)
  const heldOut = withBlocks(memory === undefined ? heldOutBase : withQueryMemory(heldOutBase, memory))
  const build = (set: 'train' | 'valid', queries: readonly LabelledQuery[], extractor: TrainingSetExtractor): TrainingSet => {
    const built = buildTrainingSet({
      searcher: options.searcher,
      extractor,
      queries,
      depth,
      // F176 is the result count: exact, so that it does not depend on how deep a search went
      search: { exactTotal: true },
      onProgress: (done, total) => options.onProgress?.({ type: 'features', set, done, total }),
    })
    const reasons = new Map<string, number>()
    for (const skip of built.stats.skipped) {
      reasons.set(skip.reason, (reasons.get(skip.reason) ?? 0) + 1)
    }
    say(
      `${set}: ${built.stats.queries} queries, ${built.features.numRows} rows` +
        (reasons.size > 0 ? `; left out: ${[...reasons].map(([r, n]) => `${n} ${r}`).join(', ')}` : ''),
    )
    return built
  }
  const train = build('train', trainQueries, trainExtractor)
  const valid = build('valid', validQueries, heldOut)
  const schema = heldOut.schema
  const featureNames = schema.features.map((feature) => feature.id)
  let params: LightGbmParams = { ...options.params }
  const metrics: Record<string, number> = {}
  if (options.grid !== undefined) {
    const folds = options.grid.folds ?? 3
    say(`grid search: ${folds}-fold cross-validation over the training queries`)
    const points = gridSearch({
      lightgbm: options.lightgbm,
      train,
      params,
      folds,
      seed,
      numBoostRound: options.trees ?? 500,
      earlyStoppingRounds: options.earlyStopping ?? 50,
      featureNames,
      onPoint: (point, done, total) =>
        say(`  ${done}/${total} ${JSON.stringify(gridParams(point.params))}: cv ndcg@20 ${point.meanNdcg.toFixed(4)} (${point.meanIterations.toFixed(0)} trees)`),
    })
    params = { ...params, ...gridParams(points[0]!.params) }
    metrics['cv_ndcg@20'] = points[0]!.meanNdcg
    say(`chosen: ${JSON.stringify(gridParams(points[0]!.params))}`)
  }
  const started = performance.now()
  const trained = trainRanker({
    lightgbm: options.lightgbm,
    train,
    valid,
    params,
    numBoostRound: options.trees ?? 500,
    earlyStoppingRounds: options.earlyStopping ?? 50,
    featureNames,
    onIteration: (iteration, evals) =>
      options.onProgress?.({ type: 'tree', iteration, metrics: Object.fromEntries(evals.map((e) => [e.metric, e.value])) }),
  })
  const seconds = (performance.now() - started) / 1000
  for (const [key, value] of Object.entries(trained.validMetrics)) {
    metrics[`valid_${key}`] = value
  }
  const manifest: ModelManifest = {
    format: MODEL_FORMAT,
    createdAt: new Date().toISOString(),
    schema: { version: schema.version, features: featureNames },
    firstStage: { ...options.firstStage, depth },
    training: {
      queries: options.sources?.queries ?? `${options.queries.length} queries`,
      qrels: options.sources?.qrels ?? 'given',
      validation: options.valid === undefined ? `split 65/15/20 (seed ${seed})` : (options.sources?.valid ?? `${options.valid.length} queries`),
      usageLog: options.sources?.usageLog ?? null,
      depth,
      trainQueries: train.stats.queries,
      trainRows: train.features.numRows,
      validQueries: valid.stats.queries,
      testQueries: testQueries.length,
      seconds: Math.round(seconds),
      seed,
      memory: remembered === undefined ? null : { queries: remembered.length, k: memoryK },
    },
    lightgbm: { params: trained.params, iterations: trained.iterations },
    metrics,
    queryRanges: queryRanges(train, schema.features),
  }
  if (testQueries.length > 0) {
    // the held-out 20 %: first stage against reranked, trec_eval semantics
    const reranker = createReranker(heldOut, { manifest, text: trained.modelText, model: parseLightGbmModel(trained.modelText) })
    const qrels = new Map(testQueries.map((q) => [q.id, new Map(q.judgements)]))
    const first = { tag: 'first', queries: new Map<string, Array<{ docId: string; score: number }>>() }
    const second = { tag: 'reranked', queries: new Map<string, Array<{ docId: string; score: number }>>() }
    for (const query of testQueries) {
      const result = options.searcher.search(query.text, { limit: depth, tieBreak: 'idDescending', exactTotal: true })
      first.queries.set(query.id, result.hits.map((hit) => ({ docId: hit.id, score: hit.score })))
      second.queries.set(query.id, reranker.rerank(query.text, result).hits.map((hit) => ({ docId: hit.id, score: hit.score })))
    }
    const measures = ['ndcg_cut.10,20']
    const before = evaluate(first, qrels, { measures }).mean
    const after = evaluate(second, qrels, { measures }).mean
    for (const key of ['ndcg_cut_10', 'ndcg_cut_20']) {
      metrics[`test_first_stage_${key}`] = before[key]!
      metrics[`test_reranked_${key}`] = after[key]!
    }
  }
  const importance = [...trained.gainImportance.entries()]
    .map(([column, gain]) => ({ feature: schema.features[column]!.id, name: schema.features[column]!.name, gain }))
    .sort((a, b) => b.gain - a.gain)
  return {
    manifest,
    modelText: trained.modelText,
    ...(remembered === undefined ? {} : { memory: remembered }),
    importance,
    train,
    valid,
  }
}

type TrainingSetExtractor = FeatureExtractor | ((query: LabelledQuery) => FeatureExtractor)

function memoryAnalyzer(context: FeatureContext): Analyzer {
  const field = context.reader.hasField('title') ? 'title' : context.reader.schema.fields[0]!.name
  return context.reader.analyzer(field)
}

function gridParams(params: LightGbmParams): LightGbmParams {
  const out: Record<string, unknown> = {}
  for (const key of ['num_leaves', 'learning_rate', 'min_data_in_leaf']) {
    if (params[key] !== undefined) {
      out[key] = params[key]
    }
  }
  return out as LightGbmParams
}

/** Per query-level feature: the smallest and largest value among the training queries. */
function queryRanges(
  set: TrainingSet,
  features: ReadonlyArray<{ readonly id: string; readonly group: string; readonly column: number }>,
): Record<string, QueryRange> {
  const out: Record<string, QueryRange> = {}
  const width = set.features.numFeatures
  for (const feature of features) {
    if (feature.group !== 'query') {
      continue
    }
    let min = Infinity
    let max = -Infinity
    for (let row = 0; row < set.features.numRows; row++) {
      const value = set.features.data[row * width + feature.column]!
      min = Math.min(min, value)
      max = Math.max(max, value)
    }
    if (min <= max) {
      out[feature.id] = [min, max]
    }
  }
  return out
}

/**
 * Saves a trained model: `model.txt`, `manifest.json` and, with a memory, `memory.jsonl`
 * (each written crash-safely; the manifest last, so it always describes a complete model).
 * @param dir - the model directory (created if missing)
 * @param trained - from {@link trainBestMatch}
 */
export async function saveBestMatchModel(dir: string, trained: TrainedBestMatch): Promise<void> {
  if (trained.memory !== undefined) {
    await saveModelMemory(dir, trained.memory)
  }
  await saveModel(dir, trained.manifest, trained.modelText)
}

/** How a first-stage configuration is described when it is compared with a model's. */
export type CurrentFirstStage = Omit<FirstStageRecord, 'depth'>

/**
 * Throws unless a model was trained on candidates of this first stage: the same ranker with the
 * same parameters, analyzer, field set and query reading. (The features of a candidate include its
 * first-stage score, and its terms come from the analyzer: another first stage gives the model
 * values it never saw.) The depth may differ.
 * @param manifest - the model's manifest
 * @param current - the first stage it is about to rerank
 * @param where - the model's location, for the message
 * @throws PubmatchError `SCHEMA_MISMATCH` naming the first difference
 */
export function checkFirstStage(manifest: ModelManifest, current: CurrentFirstStage, where = 'the model'): void {
  const trained = manifest.firstStage
  const keys: Array<keyof CurrentFirstStage> = ['ranker', 'params', 'analyzer', 'fieldSet', 'fields', 'match', 'syntax']
  for (const key of keys) {
    const a = canonical(trained[key])
    const b = canonical(current[key])
    if (a !== b) {
      throw new PubmatchError(
        'SCHEMA_MISMATCH',
        `${where} was trained on a first stage with ${key} ${a}, but this index searches with ${key} ${b}; ` +
          'its features (first-stage score, analysed terms) would differ from what it learned: retrain it on this first stage',
      )
    }
  }
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : inner,
  )
}

/**
 * How far past its training range a query-level feature may go, in widths of that range: `0` trusts
 * a model exactly where it was trained. Measured on NFCorpus dev (tools/bench-ltr
 * `RESULTS-robustness.md`): with margin 0 no model, 179-only or with the memory, trained on
 * titles or on mixed variants, loses significantly to the first stage on any query variant; with
 * 1 or 3 the 179-only models lose on the long `q-all` queries.
 */
export const DEFAULT_RANGE_MARGIN = 0

/**
 * The values of a query-level feature a model is trusted with: the range seen in training, widened
 * on each side by `margin` times its width (a width of at least 1). A tree model carries its last
 * split's answer beyond the values it saw: a 10,000-character query for a model of 10-word titles
 * gets answers learned from nothing like it.
 * @param range - the training range
 * @param margin - widths added on each side. Defaults to {@link DEFAULT_RANGE_MARGIN}.
 */
export function acceptedRange(range: QueryRange, margin: number = DEFAULT_RANGE_MARGIN): QueryRange {
  const widen = margin * Math.max(range[1] - range[0], 1)
  return [range[0] - widen, range[1] + widen]
}

/** Options of {@link BestMatchReranker.rerank}. */
export interface BestMatchRerankOptions extends RerankOptions {
  /**
   * A query whose query-level features lie outside the model's accepted range: `fallback` leaves it
   * in first-stage order and says why, `rerank` reranks it anyway. Defaults to `fallback`.
   */
  readonly outOfRange?: 'fallback' | 'rerank'
}

/** An opened model over an index. */
export interface BestMatchReranker extends Reranker {
  /** The model's directory. */
  readonly dir: string
  readonly manifest: ModelManifest
  /** A short id: the manifest's creation time and the model text's length. */
  readonly id: string
  /**
   * Reranks a first-stage result (its first `depth` hits; the rest follow in first-stage order).
   * A query whose query-level features lie well outside the range seen in training
   * ({@link acceptedRange}: a 10,000-character query for a model trained on titles) is left in
   * first-stage order and says why (`fallback`), unless `outOfRange: 'rerank'`.
   * @param query - the query text
   * @param result - the first-stage answer (its top candidates)
   * @param options - explanations, depth, what to do out of range
   */
  rerank(query: string, result: SearchResult, options?: BestMatchRerankOptions): RerankResult
}

/** Options of {@link openReranker}. */
export interface OpenRerankerOptions extends FeatureContext {
  /** The first stage the model will rerank; it must be the one it was trained on. */
  readonly firstStage: CurrentFirstStage
  /** Past usage (F2–F3). Defaults to none. */
  readonly usage?: DocumentUsage
  /** How far past the training range a query may go before it keeps first-stage order. Defaults to {@link DEFAULT_RANGE_MARGIN}. */
  readonly rangeMargin?: number
  /**
   * The extra feature blocks a model may need, by schema suffix; those the model's schema names are
   * appended (in the model's order). Defaults to none.
   */
  readonly blocks?: readonly FeatureBlock[]
  /**
   * A reranker opened earlier (say over an earlier generation of the index): when `dir` still
   * holds the model it was opened with (the same model text and manifest), its parsed and compiled
   * trees are used instead of parsing and compiling them again. Defaults to none.
   */
  readonly reuse?: BestMatchReranker
}

/** The model each reranker of {@link createBestMatchReranker} scores with (for {@link OpenRerankerOptions.reuse}). */
const rerankerModels = new WeakMap<BestMatchReranker, RankerModel>()

/**
 * Opens a model directory for reranking over an index: loads the model (and its query memory),
 * checks its feature schema and first stage, and compiles its trees.
 * @param dir - the model directory (`pubmatch train -o`)
 * @param options - the index, forward store, first stage and usage
 * @throws PubmatchError `NOT_FOUND`, `UNSUPPORTED_FORMAT`, `SCHEMA_MISMATCH` (other features or
 *   another first stage)
 */
export async function openReranker(dir: string, options: OpenRerankerOptions): Promise<BestMatchReranker> {
  const earlier = options.reuse === undefined ? undefined : rerankerModels.get(options.reuse)
  const model = await loadModel(dir, undefined, earlier === undefined ? {} : { reuse: earlier })
  checkFirstStage(model.manifest, options.firstStage, dir)
  // compiled now, in steps, so that neither this nor the first query blocks a server for long
  await prepareModelInSteps(model.model, nextTurn)
  let extractor = bestMatchExtractor(options, options.usage)
  const version = model.manifest.schema.version
  if (version.includes(MEMORY_SCHEMA_SUFFIX)) {
    const k = model.manifest.training.memory?.k ?? 20
    const memory = createQueryMemory({ queries: await loadModelMemory(dir), analyzer: memoryAnalyzer(options), k })
    extractor = withQueryMemory(extractor, memory)
  }
  // the blocks the model's schema names, in its order (checkSchema below refuses any other schema)
  const blocks = (options.blocks ?? [])
    .filter((block) => version.includes(block.suffix))
    .sort((a, b) => version.indexOf(a.suffix) - version.indexOf(b.suffix))
  extractor = blocks.reduce(withFeatureBlock, extractor)
  return createBestMatchReranker(dir, model, extractor, options.rangeMargin === undefined ? {} : { rangeMargin: options.rangeMargin })
}

/**
 * A {@link BestMatchReranker} from a loaded model and an extractor of its schema.
 * @param dir - where the model came from
 * @param model - the model
 * @param extractor - computes the model's features
 */
export function createBestMatchReranker(
  dir: string,
  model: RankerModel,
  extractor: FeatureExtractor,
  options: { readonly rangeMargin?: number } = {},
): BestMatchReranker {
  const reranker = createReranker(extractor, model)
  const ranges = Object.entries(model.manifest.queryRanges ?? {}).map(
    ([feature, range]) => [feature, acceptedRange(range, options.rangeMargin ?? DEFAULT_RANGE_MARGIN)] as const,
  )
  const columns = new Map(extractor.schema.features.map((feature) => [feature.id, feature.column]))
  const outside = (query: string, result: SearchResult): RerankFallback | undefined => {
    if (ranges.length === 0 || result.hits.length === 0) {
      return undefined
    }
    // query-level features are the same for every candidate: the first row tells
    const row = extractor.extract(query, { ...result, hits: result.hits.slice(0, 1) })
    for (const [feature, range] of ranges) {
      const value = row.data[columns.get(feature) ?? -1]
      if (value !== undefined && (value < range[0] || value > range[1])) {
        return { feature, value, range }
      }
    }
    return undefined
  }
  const opened: BestMatchReranker = {
    dir,
    manifest: model.manifest,
    id: `${model.manifest.createdAt}/${model.text.length}`,
    rerank(query, result, rerankOptions = {}) {
      const head = headOf(result, rerankOptions.depth)
      const fallback = rerankOptions.outOfRange === 'rerank' ? undefined : outside(query, head)
      if (fallback === undefined) {
        return reranker.rerank(query, result, rerankOptions)
      }
      const hits = head.hits.map(
        (hit): RerankedHit => ({ id: hit.id, docNumber: hit.docNumber, score: hit.score, rank: hit.rank, firstStageScore: hit.score, firstStageRank: hit.rank }),
      )
      return { hits: withTail(hits, result.hits, hits.length), fallback }
    },
  }
  rerankerModels.set(opened, model)
  return opened
}
