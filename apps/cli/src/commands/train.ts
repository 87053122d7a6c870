import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import type { Command } from 'commander'
import { PubmatchError } from '@pubmatch/core'
import { writeFileAtomic } from '@pubmatch/core/node'
import { evaluate, shuffle } from '@pubmatch/eval'
import type { Qrels, Run } from '@pubmatch/core'
import { loadLightGbm, parseLightGbmModel, type LightGbmParams } from '@pubmatch/lightgbm-wasm'
import {
  buildTrainingSet,
  createReranker,
  formatLetor,
  formatLightGbmText,
  gridSearch,
  createQueryMemory,
  loadModel,
  MODEL_FORMAT,
  saveModel,
  saveModelMemory,
  withQueryMemory,
  toSolrLtr,
  trainRanker,
  type LabelledQuery,
  type ModelManifest,
  type TrainingSet,
} from '@pubmatch/ltr'
import { createProgress, type Progress } from '../progress.ts'
import { featureExtractor, openForwardIndex, readLabelledQueries, readUsage, type UsageCounts } from '../ltr-support.ts'
import { addRankingOptions, openSearcher, type RankingOptions } from './search.ts'
import { parsePositiveInt } from './ingest.ts'

interface TrainCliOptions extends RankingOptions {
  queries: string
  qrels: string
  validQueries?: string
  validQrels?: string
  usageLog?: string
  depth: number
  trees: number
  earlyStopping: number
  param: string[]
  grid: boolean
  folds: number
  seed: number
  out: string
  letor?: string
  memory: boolean
  memoryK: number
  memoryQueries: string[]
  memoryQrels: string[]
  threads: number
  plain: boolean
  quiet: boolean
  json: boolean
}

const collect = (value: string, previous: string[]): string[] => [...previous, value]

function parseParams(pairs: readonly string[]): LightGbmParams {
  const params: Record<string, string | number> = {}
  for (const pair of pairs) {
    const eq = pair.indexOf('=')
    if (eq <= 0) {
      throw new PubmatchError('INVALID_ARGUMENT', `train: --param takes name=value, got "${pair}"`)
    }
    const value = pair.slice(eq + 1)
    params[pair.slice(0, eq)] = value !== '' && Number.isFinite(Number(value)) ? Number(value) : value
  }
  return params
}

/**
 * Splits queries 65/15/20 (train/valid/test) in a seeded order, as NCBI split theirs.
 * @param queries - the queries
 * @param seed - the shuffle seed
 */
export function splitQueries(queries: readonly LabelledQuery[], seed: number): { train: LabelledQuery[]; valid: LabelledQuery[]; test: LabelledQuery[] } {
  const order = shuffle(queries, seed)
  const a = Math.round(order.length * 0.65)
  const b = Math.round(order.length * 0.8)
  return { train: order.slice(0, a), valid: order.slice(a, b), test: order.slice(b) }
}

function build(
  what: string,
  queries: readonly LabelledQuery[],
  searcher: Parameters<typeof buildTrainingSet>[0]['searcher'],
  extractorFor: Parameters<typeof buildTrainingSet>[0]['extractor'],
  depth: number,
  progress: Progress,
): TrainingSet {
  progress.start(queries.length, `features (${what})`)
  const set = buildTrainingSet({
    searcher,
    extractor: extractorFor,
    queries,
    depth,
    onProgress: (done) => progress.update(done),
  })
  progress.stop()
  const reasons = new Map<string, number>()
  for (const skip of set.stats.skipped) {
    reasons.set(skip.reason, (reasons.get(skip.reason) ?? 0) + 1)
  }
  progress.log(
    `${what}: ${set.stats.queries} queries, ${set.features.numRows} rows` +
      (reasons.size > 0 ? `; left out: ${[...reasons].map(([r, n]) => `${n} ${r}`).join(', ')}` : ''),
  )
  return set
}

/** Adds `pubmatch train`, `pubmatch features` and `pubmatch model`. */
export function registerTrainCommands(program: Command): void {
  addRankingOptions(
    program
      .command('train')
      .description('train a LambdaMART reranker (LightGBM in WebAssembly) on the 179 Best Match features of the first-stage top candidates')
      .requiredOption('--queries <file>', 'training queries: QID<TAB>text')
      .requiredOption('--qrels <file>', 'their graded judgements (TREC qrels; `pubmatch clicks labels` writes them from a search log)'),
  )
    .option('--valid-queries <file>', 'validation queries for early stopping (default: a 65/15/20 split of --queries)')
    .option('--valid-qrels <file>', 'their judgements (default: --qrels)')
    .option('--usage-log <dir>', 'a click log for past usage (F2–F3); training queries do not see their own clicks')
    .option('--depth <n>', 'first-stage candidates per query', parsePositiveInt, 500)
    .option('--trees <n>', 'most boosting rounds', parsePositiveInt, 500)
    .option('--early-stopping <n>', 'stop after n rounds without a better validation NDCG@20', parsePositiveInt, 50)
    .option('--param <name=value>', 'a LightGBM parameter, repeatable (e.g. num_leaves=63)', collect, [])
    .option('--grid', 'choose num_leaves, learning_rate, min_data_in_leaf by k-fold cross-validation first', false)
    .option('--folds <n>', 'folds for --grid', parsePositiveInt, 3)
    .option('--seed <n>', 'seed of the query split and folds', parsePositiveInt, 1)
    .option('-o, --out <dir>', 'the model directory to write', '.pubmatch/model')
    .option('--letor <file>', 'also write the training features as LETOR text')
    .option('--memory', 'add the query-memory block M1–M3 (evidence from similar remembered queries): the training queries are remembered, each leaving itself out', false)
    .option('--memory-k <n>', 'similar remembered queries consulted', parsePositiveInt, 20)
    .option('--memory-queries <file>', 'more queries to remember (repeatable, paired with --memory-qrels; variants of a training query must share its id)', collect, [])
    .option('--memory-qrels <file>', 'their judgements (repeatable)', collect, [])
    .option('--threads <n>', 'LightGBM threads: 1 loads the single-threaded build; more load the threaded build (OpenMP on worker threads), which may change the last digits of leaf values', parsePositiveInt, 1)
    .option('--plain', 'plain progress lines even on a terminal', false)
    .option('-q, --quiet', 'no progress output', false)
    .option('--json', 'print the result (trees, metrics, most important features) as JSON', false)
    .addHelpText(
      'after',
      `
The model directory gets model.txt (LightGBM's text model) and manifest.json (feature schema,
training data, parameters, metrics). Example (NFCorpus):
  pubmatch train -i nf/index --queries ../shared/data/nfcorpus/train/q-titles.queries \\
    --qrels ../shared/data/nfcorpus/train/s-3.qrel \\
    --valid-queries ../shared/data/nfcorpus/dev/q-titles.queries --valid-qrels ../shared/data/nfcorpus/dev/s-3.qrel \\
    --depth 100 -o nf/model
  pubmatch run -i nf/index --queries ../shared/data/nfcorpus/dev/q-titles.queries --rerank nf/model -o dev.ltr.run`,
    )
    .action(async (options: TrainCliOptions) => {
      const progress = createProgress({ plain: options.plain, quiet: options.quiet })
      const { reader, searcher, settings, defaults } = await openSearcher(options)
      const forward = await openForwardIndex(options.index, reader, settings, progress)
      const usage: UsageCounts | undefined = options.usageLog === undefined ? undefined : await readUsage(options.usageLog)
      const all = await readLabelledQueries(options.queries, options.qrels)
      let trainQueries = all
      let validQueries: LabelledQuery[]
      let testQueries: LabelledQuery[] = []
      if (options.validQueries !== undefined) {
        validQueries = await readLabelledQueries(options.validQueries, options.validQrels ?? options.qrels)
      } else {
        const split = splitQueries(all, options.seed)
        trainQueries = split.train
        validQueries = split.valid
        testQueries = split.test
        progress.log(`split ${all.length} queries 65/15/20: ${trainQueries.length} train, ${validQueries.length} valid, ${testQueries.length} test`)
      }
      if (options.memoryQueries.length !== options.memoryQrels.length || (!options.memory && options.memoryQueries.length > 0)) {
        throw new PubmatchError('INVALID_ARGUMENT', 'train: --memory-queries and --memory-qrels come in pairs, with --memory')
      }
      let remembered: LabelledQuery[] | undefined
      if (options.memory) {
        remembered = [...trainQueries]
        for (const [i, file] of options.memoryQueries.entries()) {
          const extra = await readLabelledQueries(file, options.memoryQrels[i])
          remembered.push(...extra.map((q) => ({ ...q, id: `${q.id}#${i + 1}` })))
        }
        progress.log(`query memory: ${remembered.length} queries, k = ${options.memoryK}`)
      }
      const memory = remembered === undefined ? undefined : createQueryMemory({ queries: remembered, analyzer: reader.analyzer('title'), k: options.memoryK })
      // a training query sees neither its own clicks nor its own judgements
      const extractorFor = (query: LabelledQuery) => {
        const base = featureExtractor(reader, forward, defaults.syntax, usage?.without(query.text))
        return memory === undefined ? base : withQueryMemory(base, memory, query.id)
      }
      const train = build('train', trainQueries, searcher, extractorFor, options.depth, progress)
      // validation and test queries see all clicks and the whole memory, as unseen queries will at search time
      const validBase = featureExtractor(reader, forward, defaults.syntax, usage?.total)
      const validExtractor = memory === undefined ? validBase : withQueryMemory(validBase, memory)
      const valid = build('valid', validQueries, searcher, validExtractor, options.depth, progress)
      if (options.letor !== undefined) {
        await writeFileAtomic(options.letor, formatLetor(train))
        const text = formatLightGbmText(train)
        await writeFileAtomic(`${options.letor}.lightgbm`, text.data)
        await writeFileAtomic(`${options.letor}.lightgbm.query`, text.query)
        progress.log(`wrote ${options.letor} (LETOR) and ${options.letor}.lightgbm(.query) (LightGBM text)`)
      }
      const lightgbm = await loadLightGbm({ threads: options.threads })
      const schema = validExtractor.schema
      const featureNames = schema.features.map((f) => f.id)
      let params: LightGbmParams = { num_threads: options.threads, ...parseParams(options.param) }
      const metrics: Record<string, number> = {}
      if (options.grid) {
        progress.log(`grid search: ${options.folds}-fold cross-validation over the training queries`)
        const points = gridSearch({
          lightgbm,
          train,
          params,
          folds: options.folds,
          seed: options.seed,
          numBoostRound: options.trees,
          earlyStoppingRounds: options.earlyStopping,
          featureNames,
          onPoint: (point, done, total) =>
            progress.log(`  ${done}/${total} ${JSON.stringify(pick(point.params))}: cv ndcg@20 ${point.meanNdcg.toFixed(4)} (${point.meanIterations.toFixed(0)} trees)`),
        })
        params = { ...params, ...pick(points[0]!.params) }
        metrics['cv_ndcg@20'] = points[0]!.meanNdcg
        progress.log(`chosen: ${JSON.stringify(pick(points[0]!.params))}`)
      }
      const started = performance.now()
      const trained = trainRanker({
        lightgbm,
        train,
        valid,
        params,
        numBoostRound: options.trees,
        earlyStoppingRounds: options.earlyStopping,
        featureNames,
        onIteration: (iteration, evals) => {
          if (iteration % 10 === 0) {
            progress.log(`  tree ${iteration}: ${evals.map((e) => `${e.metric} ${e.value.toFixed(4)}`).join(', ')}`)
          }
        },
      })
      const seconds = (performance.now() - started) / 1000
      Object.assign(metrics, Object.fromEntries(Object.entries(trained.validMetrics).map(([k, v]) => [`valid_${k}`, v])))
      const manifest: ModelManifest = {
        format: MODEL_FORMAT,
        createdAt: new Date().toISOString(),
        schema: { version: schema.version, features: featureNames },
        training: {
          queries: resolve(options.queries),
          qrels: resolve(options.qrels),
          validQueries: options.validQueries === undefined ? 'split 65/15/20' : resolve(options.validQueries),
          usageLog: options.usageLog === undefined ? 'none' : resolve(options.usageLog),
          depth: options.depth,
          trainQueryCount: train.stats.queries,
          trainRows: train.features.numRows,
          validQueryCount: valid.stats.queries,
          seconds: Math.round(seconds),
          seed: options.seed,
          memoryQueries: remembered?.length ?? 0,
          memoryK: options.memoryK,
        },
        lightgbm: { params: trained.params, iterations: trained.iterations },
        metrics,
        firstStage: {
          ranker: typeof defaults.ranker === 'string' ? defaults.ranker : (defaults.ranker?.name ?? 'bm25f'),
          match: defaults.match ?? 'all',
          syntax: defaults.syntax ?? 'pubmed',
          depth: options.depth,
        },
      }
      if (testQueries.length > 0) {
        // the held-out 20 %: first stage vs reranked, trec_eval semantics
        const reranker = createReranker(validExtractor, { manifest, text: trained.modelText, model: parseLightGbmModel(trained.modelText) })
        const qrels: Qrels = new Map(testQueries.map((q) => [q.id, new Map(q.judgements)]))
        const first: Run = { tag: 'first', queries: new Map() }
        const second: Run = { tag: 'reranked', queries: new Map() }
        for (const query of testQueries) {
          const result = searcher.search(query.text, { limit: options.depth, tieBreak: 'idDescending' })
          first.queries.set(query.id, result.hits.map((hit) => ({ docId: hit.id, score: hit.score })))
          second.queries.set(query.id, reranker.rerank(query.text, result).map((hit) => ({ docId: hit.id, score: hit.score })))
        }
        const measures = ['ndcg_cut.10,20']
        const before = evaluate(first, qrels, { measures }).mean
        const after = evaluate(second, qrels, { measures }).mean
        for (const key of ['ndcg_cut_10', 'ndcg_cut_20']) {
          metrics[`test_first_stage_${key}`] = before[key]!
          metrics[`test_reranked_${key}`] = after[key]!
        }
      }
      await lightgbm.terminate()
      await saveModel(options.out, manifest, trained.modelText)
      if (remembered !== undefined) {
        await saveModelMemory(options.out, remembered)
      }
      const top = [...trained.gainImportance.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8)
      if (options.json) {
        process.stdout.write(
          `${JSON.stringify(
            {
              out: options.out,
              trees: trained.iterations,
              seconds,
              metrics,
              mostGain: top.map(([c, gain]) => ({ feature: schema.features[c]!.id, name: schema.features[c]!.name, gain })),
            },
            null,
            2,
          )}\n`,
        )
        return
      }
      process.stdout.write(
        `wrote ${options.out}: ${trained.iterations} trees in ${seconds.toFixed(0)} s; ` +
          `${Object.entries(metrics).map(([k, v]) => `${k} ${v.toFixed(4)}`).join(', ')}\n` +
          `most gain: ${top.map(([c, g]) => `${schema.features[c]!.id} ${schema.features[c]!.name} (${g.toFixed(0)})`).join(', ')}\n`,
      )
    })

  addRankingOptions(
    program
      .command('features')
      .description('write the 179 features of each query’s first-stage candidates, for RankLib, XGBoost or LightGBM')
      .requiredOption('--queries <file>', 'queries: QID<TAB>text')
      .requiredOption('-o, --out <file>', 'the file to write'),
  )
    .option('--qrels <file>', 'judgements for the labels (default: every label 0)')
    .option('--usage-log <dir>', 'a click log for past usage (F2–F3)')
    .option('--depth <n>', 'first-stage candidates per query', parsePositiveInt, 500)
    .option('--format <format>', 'letor (SVMlight with qid and # docid) or lightgbm (LibSVM + .query file)', 'letor')
    .option('--plain', 'plain progress lines even on a terminal', false)
    .option('-q, --quiet', 'no progress output', false)
    .option('--json', 'print the summary as JSON', false)
    .action(async (options: RankingOptions & { queries: string; out: string; qrels?: string; usageLog?: string; depth: number; format: string; plain: boolean; quiet: boolean; json: boolean }) => {
      if (options.format !== 'letor' && options.format !== 'lightgbm') {
        throw new PubmatchError('INVALID_ARGUMENT', `features: --format is letor or lightgbm, got "${options.format}"`)
      }
      const progress = createProgress({ plain: options.plain, quiet: options.quiet })
      const { reader, searcher, settings, defaults } = await openSearcher(options)
      const forward = await openForwardIndex(options.index, reader, settings, progress)
      const usage = options.usageLog === undefined ? undefined : await readUsage(options.usageLog)
      const queries = await readLabelledQueries(options.queries, options.qrels)
      progress.start(queries.length, 'features')
      // unlike training, keep every query with candidates: this is logging, not learning
      const set = buildTrainingSet({
        searcher,
        extractor: featureExtractor(reader, forward, defaults.syntax, usage?.total),
        queries,
        depth: options.depth,
        minRelevantCandidates: 0,
        onProgress: (done) => progress.update(done),
      })
      progress.stop()
      await mkdir(dirname(resolve(options.out)), { recursive: true })
      if (options.format === 'letor') {
        await writeFileAtomic(options.out, formatLetor(set))
      } else {
        const text = formatLightGbmText(set)
        await writeFileAtomic(options.out, text.data)
        await writeFileAtomic(`${options.out}.query`, text.query)
      }
      process.stdout.write(
        options.json
          ? `${JSON.stringify({ out: options.out, format: options.format, queries: set.stats.queries, rows: set.features.numRows, features: set.features.numFeatures }, null, 2)}\n`
          : `wrote ${options.out}: ${set.stats.queries} queries, ${set.features.numRows} rows × ${set.features.numFeatures} features\n`,
      )
    })

  const model = program.command('model').description('inspect and export reranking models')
  model
    .command('show')
    .description('print a model’s manifest and most important features')
    .argument('<dir>', 'the model directory')
    .option('--json', 'print only JSON: the manifest and the number of trees', false)
    .action(async (dir: string, options: { json: boolean }) => {
      const loaded = await loadModel(dir)
      process.stdout.write(
        options.json
          ? `${JSON.stringify({ manifest: loaded.manifest, trees: loaded.model.trees.length }, null, 2)}\n`
          : `${JSON.stringify(loaded.manifest, null, 2)}\n${loaded.model.trees.length} trees\n`,
      )
    })
  model
    .command('export-solr')
    .description('export a model as Solr LTR MultipleAdditiveTreesModel JSON (as NCBI deployed Best Match)')
    .argument('<dir>', 'the model directory')
    .option('-o, --out <file>', 'the JSON file (default: <dir>/solr-ltr.json)')
    .option('--name <name>', 'the model name in Solr', 'pubmatch-bestmatch')
    .option('--store <name>', 'the Solr feature store', 'pubmatch')
    .option('--json', 'print the summary as JSON', false)
    .action(async (dir: string, options: { out?: string; name: string; store: string; json: boolean }) => {
      const loaded = await loadModel(dir)
      const out = options.out ?? join(dir, 'solr-ltr.json')
      await writeFile(out, `${JSON.stringify(toSolrLtr(loaded, { name: options.name, store: options.store }), null, 1)}\n`)
      process.stdout.write(
        options.json
          ? `${JSON.stringify({ out, trees: loaded.model.trees.length, features: loaded.manifest.schema.features.length }, null, 2)}\n`
          : `wrote ${out}: ${loaded.model.trees.length} trees over ${loaded.manifest.schema.features.length} features\n`,
      )
    })
}

function pick(params: LightGbmParams): LightGbmParams {
  const out: Record<string, unknown> = {}
  for (const key of ['num_leaves', 'learning_rate', 'min_data_in_leaf']) {
    if (params[key] !== undefined) {
      out[key] = params[key]
    }
  }
  return out as LightGbmParams
}
