import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import type { Command } from 'commander'
import { PubmatchError } from '@pubmatch/core'
import { writeFileAtomic } from '@pubmatch/core/node'
import { featureSet, readLabelledQueries, trainModel } from '@pubmatch/engine'
import { loadLightGbm, type LightGbmParams } from '@pubmatch/lightgbm-wasm'
import { formatLetor, formatLightGbmText, loadModel, readUsage, saveBestMatchModel, toSolrLtr, type LabelledQuery } from '@pubmatch/ltr'
import { createProgress } from '../progress.ts'
import { addRankingOptions, openEngine, type RankingFlags } from './search.ts'
import { parsePositiveInt } from './ingest.ts'
import { assertFulltextIndex } from '../next-step.ts'
import { registerModelSolrCommands } from './solr.ts'

interface TrainCliOptions extends RankingFlags {
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
  fulltextFeatures: boolean
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
    .option('--fulltext-features', 'add the full-text section scores (13 section BM25 sums and a has-full-text flag; needs `pubmatch index --fulltext`)', false)
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
      if (options.memoryQueries.length !== options.memoryQrels.length || (!options.memory && options.memoryQueries.length > 0)) {
        throw new PubmatchError('INVALID_ARGUMENT', 'train: --memory-queries and --memory-qrels come in pairs, with --memory')
      }
      const progress = createProgress({ plain: options.plain, quiet: options.quiet })
      const engine = await openEngine(options)
      await engine.prepareFeatures()
      const usage = options.usageLog === undefined ? undefined : await readUsage(options.usageLog)
      const queries = await readLabelledQueries(options.queries, options.qrels)
      const valid = options.validQueries === undefined ? undefined : await readLabelledQueries(options.validQueries, options.validQrels ?? options.qrels)
      const variants: LabelledQuery[][] = []
      for (const [i, file] of options.memoryQueries.entries()) {
        variants.push(await readLabelledQueries(file, options.memoryQrels[i]))
      }
      if (options.fulltextFeatures) {
        await assertFulltextIndex(options.index)
      }
      const lightgbm = await loadLightGbm({ threads: options.threads })
      let phase = ''
      const training = trainModel(engine, {
        lightgbm,
        queries,
        ...(valid === undefined ? {} : { valid }),
        seed: options.seed,
        ...(usage === undefined ? {} : { usage }),
        ...(options.memory ? { memory: { k: options.memoryK, variants } } : {}),
        depth: options.depth,
        trees: options.trees,
        earlyStopping: options.earlyStopping,
        params: { num_threads: options.threads, ...parseParams(options.param) },
        ...(options.grid ? { grid: { folds: options.folds } } : {}),
        fulltextFeatures: options.fulltextFeatures,
        sources: {
          queries: resolve(options.queries),
          qrels: resolve(options.qrels),
          ...(options.validQueries === undefined ? {} : { valid: resolve(options.validQueries) }),
          ...(options.usageLog === undefined ? {} : { usageLog: resolve(options.usageLog) }),
        },
        onProgress: (event) => {
          if (event.type === 'features') {
            if (phase !== event.set) {
              progress.stop()
              progress.start(event.total, `features (${event.set})`)
              phase = event.set
            }
            progress.update(event.done)
          } else if (event.type === 'tree') {
            if (event.iteration % 10 === 0) {
              progress.log(`  tree ${event.iteration}: ${Object.entries(event.metrics).map(([k, v]) => `${k} ${v.toFixed(4)}`).join(', ')}`)
            }
          } else {
            progress.stop()
            progress.log(event.text)
          }
        },
      })
      const trained = await training.finally(() => lightgbm.terminate())
      progress.stop()
      if (options.letor !== undefined) {
        await writeFileAtomic(options.letor, formatLetor(trained.train))
        const text = formatLightGbmText(trained.train)
        await writeFileAtomic(`${options.letor}.lightgbm`, text.data)
        await writeFileAtomic(`${options.letor}.lightgbm.query`, text.query)
        progress.log(`wrote ${options.letor} (LETOR) and ${options.letor}.lightgbm(.query) (LightGBM text)`)
      }
      await saveBestMatchModel(options.out, trained)
      const { manifest } = trained
      const top = trained.importance.slice(0, 8)
      if (options.json) {
        process.stdout.write(
          `${JSON.stringify({ out: options.out, trees: manifest.lightgbm.iterations, seconds: manifest.training.seconds, metrics: manifest.metrics, mostGain: top }, null, 2)}\n`,
        )
        return
      }
      process.stdout.write(
        `wrote ${options.out}: ${manifest.lightgbm.iterations} trees in ${manifest.training.seconds} s; ` +
          `${Object.entries(manifest.metrics).map(([k, v]) => `${k} ${v.toFixed(4)}`).join(', ')}\n` +
          `most gain: ${top.map((t) => `${t.feature} ${t.name} (${t.gain.toFixed(0)})`).join(', ')}\n`,
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
    .action(async (options: RankingFlags & { queries: string; out: string; qrels?: string; usageLog?: string; depth: number; format: string; plain: boolean; quiet: boolean; json: boolean }) => {
      if (options.format !== 'letor' && options.format !== 'lightgbm') {
        throw new PubmatchError('INVALID_ARGUMENT', `features: --format is letor or lightgbm, got "${options.format}"`)
      }
      const progress = createProgress({ plain: options.plain, quiet: options.quiet })
      const engine = await openEngine(options)
      await engine.prepareFeatures()
      const usage = options.usageLog === undefined ? undefined : await readUsage(options.usageLog)
      const queries = await readLabelledQueries(options.queries, options.qrels)
      progress.start(queries.length, 'features')
      // unlike training, keep every query with candidates: this is logging, not learning
      const set = await featureSet(engine, {
        queries,
        depth: options.depth,
        ...(usage === undefined ? {} : { usage: usage.total }),
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
  registerModelSolrCommands(model)
}
