/**
 * `node dist/setup.js --cache DIR --match any|all [--size N]`: everything the load runs need,
 * built once and cached (run in its own process so the load generator starts lean):
 *
 * 1. the synthetic corpus, its index and forward store (`prepare.ts`);
 * 2. the real log queries checked in process against the engine: those the server would answer
 *    400 (`QUERY_SYNTAX`, `UNKNOWN_FIELD`, …) are left out of the load and counted by code;
 * 3. two latency models, A and B (A served first, B swapped in): `trainModel` (`trainBestMatch` over the engine) on the index's
 *    own first stage (depth 500; its training set, query split and manifest), then the model
 *    itself retrained on that training set with `trainRanker`, 500 trees without early stopping
 *    (bench-ltr's latency model: scoring cost grows with the trees).
 *    The synthetic corpus has no judgements, so the labels are a stated rule, **title-term
 *    coverage** of each query's first-stage top 500 (2 = the title holds every query term,
 *    1 = at least half, 0 otherwise). A trains on the even-numbered accepted queries with seed 1,
 *    B on the odd-numbered with seed 2. These models measure latency only, not effectiveness.
 *
 * Writes `<cache>/setup-<match>.json` and prints its path.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { isPubmatchError } from '@pubmatch/core'
import { readJsonFileSync } from '@pubmatch/core/node'
import { openSearch, trainModel, type SearchEngine } from '@pubmatch/engine'
import { analyzerOf } from '@pubmatch/engine/internal'
import { loadLightGbm } from '@pubmatch/lightgbm-wasm'
import { saveBestMatchModel, type LabelledQuery } from '@pubmatch/ltr'
import { MANIFEST_FILE, trainRanker } from '@pubmatch/ltr/internal'
import { queryTerms } from '@pubmatch/synth'
import { ensureSyntheticIndex } from './prepare.ts'
import { queryLogPath, readLogQueries, sharedDataDir } from './queries.ts'
import { SAVED_LABELS, SETUP_RESULT } from './results.ts'
import { titleCoverageGrade } from './stats.ts'

/** What setup produced. */
export interface SetupResult {
  readonly match: 'any' | 'all'
  readonly corpus: string
  readonly index: string
  readonly docCount: number
  readonly generation: number
  readonly queryFile: string
  /** Queries in the file (non-blank). */
  readonly logQueries: number
  /** The queries the load sends (as typed), in file order. */
  readonly accepted: readonly string[]
  /** Left out because the engine rejects them, by error code. */
  readonly rejected: Readonly<Record<string, number>>
  /** Accepted queries by how many documents match (first stage, this match mode). */
  readonly matches: { readonly none: number; readonly under500: number; readonly atLeast500: number }
  readonly models: readonly ModelInfo[]
}

/** One trained latency model. */
export interface ModelInfo {
  readonly name: 'A' | 'B'
  readonly dir: string
  readonly seed: number
  readonly slice: 'even' | 'odd'
  readonly queries: number
  readonly trainQueries: number
  readonly trainRows: number
  readonly trees: number
  readonly seconds: number
  readonly grades: Readonly<Record<string, number>>
}

const DEPTH = 500
const TREES = 500
const LEARNING_RATE = 0.01

function say(text: string): void {
  process.stderr.write(`bench-server setup: ${text}\n`)
}

/**
 * Title-term-coverage labels of a query's first-stage top {@link DEPTH}.
 * @param engine - the engine (first stage, analyzer, stored titles)
 * @param id - the query id
 * @param text - the query as typed
 * @param grades - counts of the grades given, updated
 */
function coverageLabels(engine: SearchEngine, id: string, text: string, grades: Record<string, number>): LabelledQuery {
  const analyzer = analyzerOf(engine)
  const terms = analyzer.analyze(queryTerms(text).join(' ')).map((token) => token.term)
  const judgements = new Map<string, number>()
  for (const hit of engine.firstStageSearch(text, { limit: DEPTH }).hits) {
    const title = new Set(analyzer.analyze(engine.document(hit.id)!.title).map((token) => token.term))
    const grade = titleCoverageGrade(terms, title)
    grades[grade] = (grades[grade] ?? 0) + 1
    if (grade > 0) {
      judgements.set(hit.id, grade)
    }
  }
  return { id, text, judgements }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      cache: { type: 'string' },
      match: { type: 'string', default: 'any' },
      size: { type: 'string', default: '100000' },
    },
  })
  const cache = resolve(values.cache ?? '.cache')
  const match = values.match === 'all' ? 'all' : 'any'
  const out = join(cache, `setup-${match}.json`)
  const paths = await ensureSyntheticIndex(cache, Number(values.size), say)
  const engine = await openSearch({ index: paths.index, ranking: { match } })
  await engine.prepareFeatures()

  const shared = sharedDataDir()
  const log = readLogQueries(shared)
  const accepted: Array<{ qid: string; text: string; total: number }> = []
  const rejected: Record<string, number> = {}
  for (const query of log) {
    try {
      const result = engine.search(query.text, { limit: 20 })
      accepted.push({ qid: query.qid, text: query.text, total: result.total })
    } catch (error) {
      const code = isPubmatchError(error) ? error.code : 'INTERNAL'
      rejected[code] = (rejected[code] ?? 0) + 1
    }
  }
  const matches = {
    none: accepted.filter((q) => q.total === 0).length,
    under500: accepted.filter((q) => q.total > 0 && q.total < DEPTH).length,
    atLeast500: accepted.filter((q) => q.total >= DEPTH).length,
  }
  say(
    `${log.length} log queries: ${accepted.length} accepted, ${log.length - accepted.length} rejected (${JSON.stringify(rejected)}); ` +
      `match ${match}: ${matches.none} match nothing, ${matches.under500} match 1–499, ${matches.atLeast500} match ≥ 500`,
  )

  const previous = existsSync(out) ? readJsonFileSync(out, SETUP_RESULT) : undefined
  const models: ModelInfo[] = []
  const specs = [
    { name: 'A', seed: 1, slice: 'even' },
    { name: 'B', seed: 2, slice: 'odd' },
  ] as const
  let lightgbm: Awaited<ReturnType<typeof loadLightGbm>> | undefined
  for (const spec of specs) {
    const dir = join(cache, 'models', `${match}-${spec.name}`)
    const cached = previous?.models.find((m) => m.name === spec.name && m.dir === dir)
    if (cached !== undefined && existsSync(join(dir, MANIFEST_FILE))) {
      say(`model ${spec.name}: cached at ${dir}`)
      models.push(cached)
      continue
    }
    lightgbm ??= await loadLightGbm({ threads: 1 })
    const grades: Record<string, number> = {}
    const slice = accepted.filter((_, i) => i % 2 === (spec.slice === 'even' ? 0 : 1) && accepted[i]!.total > 0)
    const labelsFile = join(cache, `labels-${match}-${spec.slice}.json`)
    let queries: LabelledQuery[]
    if (existsSync(labelsFile)) {
      const saved = readJsonFileSync(labelsFile, SAVED_LABELS)
      Object.assign(grades, saved.grades)
      queries = saved.queries.map((q) => ({ id: q.id, text: q.text, judgements: new Map(q.judgements) }))
      say(`model ${spec.name}: labels of ${queries.length} queries from ${labelsFile}`)
    } else {
      say(`model ${spec.name}: labelling the top ${DEPTH} of ${slice.length} queries (${spec.slice} positions) by title-term coverage`)
      queries = slice.map((q) => coverageLabels(engine, q.qid, q.text, grades))
      const saved = { grades, queries: queries.map((q) => ({ id: q.id, text: q.text, judgements: [...q.judgements] })) }
      writeFileSync(labelsFile, `${JSON.stringify(saved)}\n`)
    }
    const started = performance.now()
    let lastProgress = 0
    const trained = await trainModel(engine, {
      lightgbm,
      queries,
      seed: spec.seed,
      depth: DEPTH,
      trees: TREES,
      params: { num_threads: 1 },
      sources: { queries: `${queryLogPath(shared)} (${spec.slice} accepted queries with matches)`, qrels: 'title-term coverage of the first-stage top 500 (2: all terms, 1: at least half)' },
      onProgress: (event) => {
        if (event.type === 'message') {
          say(`  ${spec.name}: ${event.text}`)
        } else if (performance.now() - lastProgress > 15_000) {
          lastProgress = performance.now()
          say(`  ${spec.name}: ${event.type === 'features' ? `features (${event.set}) ${event.done}/${event.total}` : `tree ${event.iteration}`}`)
        }
      },
    })
    // trainBestMatch keeps the trees up to the best validation iteration (a handful on these
    // rule labels); the latency model has all 500, as bench-ltr's: retrain its training set
    // without a validation set and save that model under trainBestMatch's manifest. At the
    // default learning rate (0.05) LightGBM fits the rule exactly after about 200 trees and
    // stops adding any; a smaller rate keeps it growing to 500.
    const full = trainRanker({
      lightgbm,
      train: trained.train,
      params: { num_threads: 1, learning_rate: LEARNING_RATE },
      numBoostRound: TREES,
      featureNames: trained.manifest.schema.features,
    })
    mkdirSync(dir, { recursive: true })
    await saveBestMatchModel(dir, {
      ...trained,
      modelText: full.modelText,
      manifest: {
        ...trained.manifest,
        lightgbm: { params: full.params, iterations: full.iterations },
        metrics: {},
        training: { ...trained.manifest.training, validation: `none: ${TREES} trees without early stopping (a latency model)` },
      },
    })
    const seconds = (performance.now() - started) / 1000
    say(`  ${spec.name}: ${full.iterations} trees (early stopping would keep ${trained.manifest.lightgbm.iterations}), ${trained.train.features.numRows} rows, ${seconds.toFixed(0)} s → ${dir}`)
    models.push({
      name: spec.name,
      dir,
      seed: spec.seed,
      slice: spec.slice,
      queries: queries.length,
      trainQueries: trained.train.stats.queries,
      trainRows: trained.train.features.numRows,
      trees: full.iterations,
      seconds,
      grades,
    })
  }
  await lightgbm?.terminate()

  const result: SetupResult = {
    match,
    corpus: paths.corpus,
    index: paths.index,
    docCount: engine.docCount,
    generation: engine.generation,
    queryFile: queryLogPath(shared),
    logQueries: log.length,
    accepted: accepted.map((q) => q.text),
    rejected,
    matches,
    models,
  }
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`)
  process.stdout.write(`${out}\n`)
}

await main()
