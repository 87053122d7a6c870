/**
 * Shared parts of the effectiveness studies of the second stage (`robustness.ts`,
 * `memory-holdout.ts`): NFCorpus ingested into a corpus store and indexed as the CLI does
 * (`pubmatch ingest` + `pubmatch index`: test-collection fields, `biomedical`, match any, plain
 * syntax), models trained with the engine's `trainModel` and opened with `openSearch`, TREC runs built the
 * way `engine.run` builds them, and their evaluation with paired randomisation tests.
 */
import { availableParallelism, cpus, loadavg } from 'node:os'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { replaceSection } from '@pubmatch/bench-kit'
import { writeFileAtomic } from '@pubmatch/core/node'
import type { Qrels, Run, RunEntry } from '@pubmatch/core'
import { openSearch, trainModel as trainEngineModel, updateIndex, type SearchEngine } from '@pubmatch/engine'
import { engineInternals } from '@pubmatch/engine/internal'
import {
  compareRuns,
  evaluate,
  formatCell,
  type ComparisonCell,
  type EvaluationResult,
  type RunComparison,
} from '@pubmatch/eval'
import { defaultReaders, ingestFiles, openCorpus } from '@pubmatch/ingest'
import type { LightGbm } from '@pubmatch/lightgbm-wasm'
import {
  bestMatchExtractor,
  saveBestMatchModel,
  type FeatureExtractor,
  type LabelledQuery,
  type ModelManifest,
  type QueryRange,
  type RerankFallback,
} from '@pubmatch/ltr'

/** Progress lines on stderr, with the time of day. */
export function log(line: string): void {
  process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`)
}

/** The measures of every table: trec_eval names, and their output keys in table order. */
export const MEASURES: readonly string[] = ['ndcg_cut.10,20', 'P.10', 'map']
/** Output keys of {@link MEASURES}, in table order, with their column titles. */
export const MEASURE_COLUMNS: ReadonlyArray<readonly [key: string, title: string]> = [
  ['ndcg_cut_10', 'nDCG@10'],
  ['ndcg_cut_20', 'nDCG@20'],
  ['P_10', 'P@10'],
  ['map', 'MAP'],
]

/** The indexed collection and its first stage. */
export interface Nfcorpus {
  readonly corpusDir: string
  readonly indexDir: string
  /** The engine without a model: the first stage. */
  readonly engine: SearchEngine
  /** Every document id of the corpus, in code-point order. */
  readonly docIds: readonly string[]
  /** What ingest and index did, for the report. */
  readonly setup: string
}

/**
 * NFCorpus as `pubmatch ingest corpus.docs -c <work>/corpus && pubmatch index -c <work>/corpus -i
 * <work>/index` leaves it (both steps are incremental: a second call changes nothing), opened
 * with `openSearch` and its forward store built.
 * @param shared - the shared data folder
 * @param work - a work directory
 */
export async function openNfcorpus(shared: string, work: string): Promise<Nfcorpus> {
  const corpusDir = join(work, 'corpus')
  const indexDir = join(work, 'index')
  const store = await openCorpus(corpusDir, { create: true })
  const ingested = await ingestFiles(store, [join(shared, 'nfcorpus/corpus.docs')], {
    readers: defaultReaders(),
  })
  const ids: string[] = []
  for await (const article of store.articles()) {
    ids.push(article.id)
  }
  await store.close()
  ids.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const indexed = await updateIndex({ corpus: corpusDir, index: indexDir })
  const engine = await openSearch({ index: indexDir })
  await engine.prepareFeatures()
  const setup =
    `ingest: ${ingested.added} added, ${ingested.unchanged} unchanged, ${ingested.resumed} sources already ingested; ` +
    `index: ${indexed.built ? 'built' : 'updated'}, ${indexed.docCount} documents`
  log(
    `${setup}; first stage ${engine.firstStage.ranker}, ${engine.firstStage.analyzer}, match ${engine.firstStage.match}, syntax ${engine.firstStage.syntax}`,
  )
  return { corpusDir, indexDir, engine, docIds: ids, setup }
}

/** A model to train. */
export interface ModelSpec {
  /** A short name (the model directory's name). */
  readonly name: string
  readonly queries: readonly LabelledQuery[]
  /** Explicit validation queries (no 65/15/20 split). */
  readonly valid: readonly LabelledQuery[]
  /** Add the query memory M1–M3 (k = 20 unless given). */
  readonly memory: boolean
  readonly memoryK?: number
  /** Training depth. */
  readonly depth: number
  /** Described in the manifest. */
  readonly sources: { readonly queries: string; readonly qrels: string; readonly valid: string }
}

/** A trained and saved model. */
export interface SavedModel {
  readonly dir: string
  readonly manifest: ModelManifest
  /** Training queries kept (with a relevant candidate) and rows. */
  readonly trainQueries: number
  readonly trainRows: number
  /** The remembered queries (with memory). */
  readonly memory?: readonly LabelledQuery[]
}

/**
 * Trains a model with the engine's `trainModel` (`trainBestMatch` over the engine; LightGBM
 * defaults, seed 1, one thread) and saves it.
 * @param collection - the indexed collection
 * @param lightgbm - a loaded LightGBM
 * @param spec - what to train
 * @param dir - the model directory
 */
export async function trainModel(
  collection: Nfcorpus,
  lightgbm: LightGbm,
  spec: ModelSpec,
  dir: string,
): Promise<SavedModel> {
  const { engine } = collection
  const started = performance.now()
  let lastFeatures = 0
  const trained = await trainEngineModel(engine, {
    lightgbm,
    queries: spec.queries,
    valid: spec.valid,
    seed: 1,
    depth: spec.depth,
    ...(spec.memory ? { memory: { k: spec.memoryK ?? 20 } } : {}),
    sources: spec.sources,
    onProgress: (event) => {
      if (event.type === 'message') {
        log(`  ${spec.name}: ${event.text}`)
      } else if (
        event.type === 'features' &&
        (event.done === event.total || performance.now() - lastFeatures > 15_000)
      ) {
        lastFeatures = performance.now()
        log(`  ${spec.name}: features (${event.set}) ${event.done}/${event.total}`)
      }
    },
  })
  await saveBestMatchModel(dir, trained)
  log(
    `trained ${spec.name}: ${trained.manifest.lightgbm.iterations} trees, valid ndcg@20 ` +
      `${(trained.manifest.metrics['valid_ndcg@20'] ?? Number.NaN).toFixed(4)} in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  )
  return {
    dir,
    manifest: trained.manifest,
    trainQueries: trained.train.stats.queries,
    trainRows: trained.train.features.numRows,
    ...(trained.memory === undefined ? {} : { memory: trained.memory }),
  }
}

/** One query ranked by the first stage and by a model, with and without the fallback. */
export interface RankedQuery {
  readonly id: string
  /** `engine.run` without a model: the first stage, trec_eval's tie order. */
  readonly first: RunEntry[]
  /** `engine.run` with the model: the shipped behaviour (left in first-stage order out of range). */
  readonly shipped: RunEntry[]
  /** Why the shipped run left the query in first-stage order. */
  readonly fallback?: RerankFallback
  /** The top `depth` reranked whatever the query (`outOfRange: 'rerank'`), then the first-stage tail. */
  readonly reranked: RunEntry[]
  /** The query-level feature values the fallback rule reads (empty without candidates). */
  readonly queryValues: ReadonlyMap<string, number>
}

/**
 * Ranks queries as `engine.run` does (1,000 documents, the top `depth` reranked), and once more with
 * every query reranked, and records the query-level feature values.
 * @param first - the engine without a model
 * @param model - the engine with the model
 * @param queries - the queries
 * @param limit - documents per query. Defaults to `1000`.
 */
export async function rankQueries(
  first: SearchEngine,
  model: SearchEngine,
  queries: ReadonlyArray<{ readonly id: string; readonly text: string }>,
  limit = 1000,
): Promise<RankedQuery[]> {
  const loaded = model.model
  const parts = engineInternals(model)
  const reranker = parts.reranker
  if (loaded === undefined || reranker === undefined) {
    throw new Error('rankQueries: the second engine has no model')
  }
  // the query-level features the fallback rule reads, computed as the model's extractor does
  const extractor: FeatureExtractor = bestMatchExtractor({
    reader: parts.reader,
    forward: await parts.forwardStore(),
    syntax: model.firstStage.syntax,
  })
  const columns = new Map(extractor.schema.features.map((feature) => [feature.id, feature.column]))
  const queryFeatures = Object.keys(loaded.manifest.queryRanges ?? {})
  const out: RankedQuery[] = []
  for (const query of queries) {
    const base = first.run(query.text, limit)
    const shipped = model.run(query.text, limit)
    // what engine.run does, with outOfRange: 'rerank'
    const result = model.firstStageSearch(query.text, {
      limit: Math.max(limit, loaded.depth),
      tieBreak: 'idDescending',
      // F176 as training and engine.run compute it
      exactTotal: true,
    })
    const reranked: RunEntry[] = []
    const values = new Map<string, number>()
    if (result.hits.length > 0) {
      // the top `depth` reranked, then the first-stage tail scored below them
      const { hits } = reranker.rerank(query.text, result, { depth: loaded.depth, outOfRange: 'rerank' })
      for (const hit of hits) {
        reranked.push({ docId: hit.id, score: hit.score })
      }
      const row = extractor.extract(query.text, { ...result, hits: result.hits.slice(0, 1) })
      for (const feature of queryFeatures) {
        values.set(feature, row.data[columns.get(feature) ?? -1] ?? Number.NaN)
      }
    }
    out.push({
      id: query.id,
      first: base.hits.map((hit) => ({ docId: hit.id, score: hit.score })),
      shipped: shipped.hits.map((hit) => ({ docId: hit.id, score: hit.score })),
      ...(shipped.fallback === undefined ? {} : { fallback: shipped.fallback }),
      reranked: reranked.slice(0, limit),
      queryValues: values,
    })
  }
  return out
}

/**
 * The query-level feature that puts a query outside a model's ranges widened by `margin` widths
 * (each width at least 1, as `acceptedRange` does), or `undefined`.
 * @param values - the query's query-level feature values
 * @param ranges - the model's training ranges (`manifest.queryRanges`)
 * @param margin - widths added on each side (`Infinity`: never outside)
 */
export function outsideRange(
  values: ReadonlyMap<string, number>,
  ranges: Readonly<Record<string, QueryRange>>,
  margin: number,
): { feature: string; value: number } | undefined {
  if (margin === Infinity) {
    return undefined
  }
  for (const [feature, [min, max]] of Object.entries(ranges)) {
    const value = values.get(feature)
    if (value === undefined) {
      continue
    }
    const width = Math.max(max - min, 1)
    if (value < min - margin * width || value > max + margin * width) {
      return { feature, value }
    }
  }
  return undefined
}

/**
 * A run object.
 * @param tag - the run tag
 * @param rankings - query id → ranking
 */
export function toRun(tag: string, rankings: Iterable<readonly [string, RunEntry[]]>): Run {
  return { tag, queries: new Map(rankings) }
}

/**
 * The judgements of some queries only.
 * @param qrels - all judgements
 * @param ids - the queries to keep
 */
export function qrelsFor(qrels: Qrels, ids: Iterable<string>): Qrels {
  const out: Qrels = new Map()
  for (const id of ids) {
    const judged = qrels.get(id)
    if (judged !== undefined) {
      out.set(id, judged)
    }
  }
  return out
}

/**
 * Evaluates runs (trec_eval semantics over the qrels' queries) and tests each against the first
 * (paired randomisation test, two-sided, 10,000 trials, alpha 0.05: `compareRuns`' defaults).
 * @param runs - name → run; the first is the baseline
 * @param qrels - the judgements
 */
export function compare(runs: ReadonlyMap<string, Run>, qrels: Qrels): RunComparison {
  const evaluations = new Map<string, EvaluationResult>()
  for (const [name, run] of runs) {
    evaluations.set(name, evaluate(run, qrels, { measures: MEASURES }))
  }
  return compareRuns(evaluations, { measures: MEASURE_COLUMNS.map(([key]) => key) })
}

/**
 * A table cell: the mean, and against the baseline ▲/▼ when significant with the p-value.
 * @param cell - a comparison cell
 * @param withP - print the p-value
 */
export function cellText(cell: ComparisonCell | undefined, withP = true): string {
  return formatCell(cell, { pValue: withP })
}

/**
 * A run's cells in {@link MEASURE_COLUMNS} order.
 * @param comparison - from {@link compare}
 * @param run - the run's name
 */
export function rowCells(
  comparison: RunComparison,
  run: string,
): Array<ComparisonCell | undefined> {
  const row = comparison.rows.find((r) => r.run === run)
  return MEASURE_COLUMNS.map(([key]) => row?.cells.find((c) => c.measure === key))
}

/**
 * Whether a run is significantly worse than the baseline on any measure of the table.
 * @param comparison - from {@link compare}
 * @param run - the run's name
 */
export function significantLoss(comparison: RunComparison, run: string): boolean {
  return rowCells(comparison, run).some(
    (cell) => cell !== undefined && cell.significant && cell.difference < 0,
  )
}

/** The machine, for the report. */
export function machine(): string {
  const model = cpus()[0]?.model ?? 'unknown CPU'
  return `${availableParallelism()} cores (\`nproc\`), ${model}, Node ${process.version}`
}

/** The load average, 1/5/15 minutes. */
export function load(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ')
}

/**
 * Replaces one study's section of the results file (between `<!-- begin NAME -->` and
 * `<!-- end NAME -->`), keeping the other study's, and writes the file whole.
 * @param file - the results file
 * @param header - the file's heading block (replaced too)
 * @param name - the section's name
 * @param content - its Markdown
 */
export async function writeSection(
  file: string,
  header: string,
  name: string,
  content: string,
): Promise<void> {
  const text = await readFile(file, 'utf8').catch(() => '')
  const study = (key: string): number => (key.startsWith('variants') ? 0 : key.startsWith('memory') ? 1 : 2)
  await writeFileAtomic(file, replaceSection(text, header, name, content, study))
}

/** The heading block of `RESULTS-robustness.md`. */
export const RESULTS_HEADER = `# Second stage across query variants and on held-out documents

Written by \`src/robustness.ts\` (sections "Query variants") and \`src/memory-holdout.ts\` (sections
"Held-out documents"); each program replaces its own section (one per reranking depth). Commands, from the repository root:

\`\`\`sh
pnpm build
pnpm --filter @pubmatch/bench-ltr bench:robustness   # ≈ 25 min on 2 shared cores (q-all dominates)
pnpm --filter @pubmatch/bench-ltr bench:memory       # ≈ 2–5 min
# the same at the reranking depth of RESULTS.md (500), in sections of their own:
pnpm --filter @pubmatch/bench-ltr bench:robustness --rerank-depth 500 --configs a,b
pnpm --filter @pubmatch/bench-ltr bench:memory --rerank-depth 500
\`\`\`

NFCorpus is ingested and indexed as \`pubmatch ingest\` + \`pubmatch index\` do (\`@pubmatch/ingest\`
\`ingestFiles\` into a corpus store, \`@pubmatch/engine\` \`updateIndex\`, \`openSearch\`): test-collection
fields, \`biomedical\` analyzer, BM25F, match any, plain syntax. Models are trained with
\`trainBestMatch\` (LightGBM defaults, one thread, seed 1, depth 100, early stopping on an explicit
validation set) and opened with \`openSearch({ model })\`; runs are \`engine.run\` (1,000 documents, the
top \`depth\` reranked: the model's training depth, 100, unless a section says \`--rerank-depth\`; the first-stage tail
appended), evaluated
with trec_eval semantics over the judged queries. ▲/▼: paired randomisation test against the first
stage (\`compareRuns\`: two-sided, 10,000 trials, seed 20080101, p ≤ 0.05).`
