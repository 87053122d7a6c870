/**
 * The inputs of the rerank benchmark, built once per corpus size into the working directory and
 * reused (a child process of `rerank-scale.ts`; not measured):
 *
 * 1. the synthetic articles `0 … docs − 1` (tools/synth, seed 1: the articles of `scale.ts` and of
 *    tools/bench-server) in a corpus store, so that both engines index the same records —
 *    `updateIndex` for the embedded index, `indexCorpus` of `@pubmatch/solr` for the collection;
 * 2. the embedded index's forward store (the features' token streams);
 * 3. two Best Match models of 500 trees (A served first, B swapped in under load), trained as
 *    tools/bench-server trains its latency models: `trainModel` on the index's own first stage
 *    (match any, depth 500) for the training set and the manifest, then retrained on that set with
 *    `trainRanker` to the full 500 trees without early stopping (learning rate 0.01). The synthetic
 *    corpus has no judgements, so the labels are a rule, **title-term coverage** of each query's
 *    first-stage top 500 (2 = the title holds every query term, 1 = at least half, else 0), over
 *    real PubMed log queries disjoint from the measured ones (A the even-numbered, B the odd).
 *    They measure size and cost (500 trees over the 179 features), not ranking quality.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { json, type JsonShape } from '@pubmatch/core'
import { readJsonFileSync } from '@pubmatch/core/node'
import { openSearch, trainModel, updateIndex, type SearchEngine } from '@pubmatch/engine'
import { analyzerOf } from '@pubmatch/engine/internal'
import { openCorpus, type IngestRecord } from '@pubmatch/ingest'
import { loadLightGbm } from '@pubmatch/lightgbm-wasm'
import { saveBestMatchModel, type LabelledQuery } from '@pubmatch/ltr'
import { MANIFEST_FILE, trainRanker } from '@pubmatch/ltr/internal'
import { queryTerms } from '@pubmatch/synth'
import { syntheticArticles } from './scale-corpus.ts'
import { rerankQueries } from './rerank-queries.ts'

/** Build (or reuse) the corpus store, index, forward store and the two models. */
export interface RerankSetupCase {
  readonly kind: 'setup'
  readonly dir: string
  readonly docs: number
  readonly seed: number
  readonly queries: number
  readonly warmup: number
  /** Training queries per model (at most; those that match something). */
  readonly trainQueries: number
  readonly trees: number
  readonly depth: number
}

/** One trained model. */
export interface SetupModel {
  readonly name: string
  readonly dir: string
  readonly seed: number
  readonly queries: number
  readonly trainRows: number
  readonly trees: number
  /** Bytes of `model.txt`. */
  readonly modelBytes: number
  readonly seconds: number
  /** Labels given: how many candidates got grade 0, 1, 2. */
  readonly grades: Readonly<Record<string, number>>
  readonly reused: boolean
}

/** What setup produced. */
export interface RerankSetup {
  readonly corpus: string
  readonly index: string
  readonly docCount: number
  readonly corpusSeconds: number
  readonly indexSeconds: number
  readonly forwardSeconds: number
  readonly reused: boolean
  readonly models: readonly SetupModel[]
}

const SETUP_MODEL: JsonShape<SetupModel> = json.object({
  name: json.string,
  dir: json.string,
  seed: json.integer,
  queries: json.count,
  trainRows: json.count,
  trees: json.count,
  modelBytes: json.count,
  seconds: json.number,
  grades: json.record(json.number),
  reused: json.boolean,
})

/** The shape of {@link RerankSetup}. */
export const RERANK_SETUP: JsonShape<RerankSetup> = json.object({
  corpus: json.string,
  index: json.string,
  docCount: json.count,
  corpusSeconds: json.number,
  indexSeconds: json.number,
  forwardSeconds: json.number,
  reused: json.boolean,
  models: json.array(SETUP_MODEL),
})

const LEARNING_RATE = 0.01

const say = (text: string): void => {
  process.stderr.write(`bench-solr rerank: setup ${text}\n`)
}

/**
 * Title-term coverage: 2 when the title holds every distinct query term, 1 when at least half,
 * else 0 (tools/bench-server's rule).
 * @param terms - the query's analysed terms
 * @param title - the title's analysed terms
 */
export function titleCoverageGrade(terms: readonly string[], title: ReadonlySet<string>): number {
  const distinct = new Set(terms)
  if (distinct.size === 0) {
    return 0
  }
  let found = 0
  for (const term of distinct) {
    if (title.has(term)) {
      found++
    }
  }
  return found === distinct.size ? 2 : found * 2 >= distinct.size ? 1 : 0
}

function coverageLabels(
  engine: SearchEngine,
  id: string,
  text: string,
  depth: number,
  grades: Record<string, number>,
): LabelledQuery {
  const analyzer = analyzerOf(engine)
  const terms = analyzer.analyze(queryTerms(text).join(' ')).map((token) => token.term)
  const judgements = new Map<string, number>()
  for (const hit of engine.firstStageSearch(text, { limit: depth }).hits) {
    const title = new Set(analyzer.analyze(engine.document(hit.id)!.title).map((t) => t.term))
    const grade = titleCoverageGrade(terms, title)
    grades[grade] = (grades[grade] ?? 0) + 1
    if (grade > 0) {
      judgements.set(hit.id, grade)
    }
  }
  return { id, text, judgements }
}

async function ensureCorpusAndIndex(
  base: string,
  docs: number,
  seed: number,
): Promise<{ corpus: string; index: string; corpusSeconds: number; indexSeconds: number }> {
  const corpus = join(base, 'corpus')
  const index = join(base, 'index')
  const key = `synth:size=${docs}:seed=${seed}`
  const fingerprint = createHash('sha256').update(key).digest('hex')
  let corpusSeconds = 0
  const store = await openCorpus(corpus, { create: true })
  try {
    if (store.completedSource(key, fingerprint) === undefined) {
      say(`generating ${docs.toLocaleString('en-US')} synthetic articles into ${corpus}`)
      const t0 = performance.now()
      let done = 0
      const records = function* (): Generator<IngestRecord> {
        for (const article of syntheticArticles(docs, seed)) {
          yield { kind: 'article', article }
          if (++done % 20_000 === 0) {
            say(
              `  corpus ${done.toLocaleString('en-US')} of ${docs.toLocaleString('en-US')}, ${((performance.now() - t0) / 1000).toFixed(0)} s`,
            )
          }
        }
      }
      await store.writeSource({ key, fingerprint }, records())
      corpusSeconds = (performance.now() - t0) / 1000
    }
  } finally {
    await store.close()
  }
  let indexSeconds = 0
  if (!existsSync(join(index, 'pubmatch.json'))) {
    say(`indexing ${index} (updateIndex, PubMed fields, biomedical analyzer)`)
    const t0 = performance.now()
    let last = t0
    await updateIndex({
      corpus,
      index,
      fields: 'pubmed',
      onProgress: ({ done, total, phase }) => {
        if (performance.now() - last > 20_000) {
          last = performance.now()
          say(`  index ${phase} ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')}`)
        }
      },
    })
    indexSeconds = (performance.now() - t0) / 1000
  }
  return { corpus, index, corpusSeconds, indexSeconds }
}

/**
 * Builds what is missing and returns the paths and the models.
 * @param request - see {@link RerankSetupCase}
 */
export async function runRerankSetup(request: RerankSetupCase): Promise<RerankSetup> {
  const base = join(request.dir, `rerank-synth-${request.docs}`)
  const out = join(base, 'setup.json')
  const paths = await ensureCorpusAndIndex(base, request.docs, request.seed)
  const t0 = performance.now()
  let announced = false
  const engine = await openSearch({
    index: paths.index,
    ranking: { match: 'any' },
    onProgress: (done, total) => {
      if (!announced) {
        announced = true
        say(`building the forward store (${total.toLocaleString('en-US')} documents)`)
      }
      if (done % 50_000 === 0 && done > 0) {
        say(`  forward store ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')}`)
      }
    },
  })
  await engine.prepareFeatures()
  const forwardSeconds = (performance.now() - t0) / 1000
  const previous = existsSync(out) ? readJsonFileSync(out, RERANK_SETUP) : undefined
  const { training } = rerankQueries(request.queries, request.warmup)
  const specs = [
    { name: 'A', seed: 1, slice: 0 },
    { name: 'B', seed: 2, slice: 1 },
  ] as const
  const models: SetupModel[] = []
  let lightgbm: Awaited<ReturnType<typeof loadLightGbm>> | undefined
  try {
    for (const spec of specs) {
      const dir = join(base, `model-${spec.name}-${request.trees}t-${request.trainQueries}q`)
      const cached = previous?.models.find((m) => m.name === spec.name && m.dir === dir)
      if (cached !== undefined && existsSync(join(dir, MANIFEST_FILE))) {
        say(`model ${spec.name}: cached at ${dir}`)
        models.push({ ...cached, reused: true })
        continue
      }
      lightgbm ??= await loadLightGbm({ threads: 1 })
      const started = performance.now()
      const grades: Record<string, number> = {}
      const chosen = training
        .filter((_, i) => i % 2 === spec.slice)
        .filter((q) => {
          try {
            return engine.firstStageSearch(q.text, { limit: 1 }).total > 0
          } catch {
            return false // a query the engine refuses (an unknown field tag, a syntax error)
          }
        })
        .slice(0, request.trainQueries)
      say(
        `model ${spec.name}: labelling the top ${request.depth} of ${chosen.length} log queries by title-term coverage`,
      )
      const queries = chosen.map((q) => coverageLabels(engine, q.id, q.text, request.depth, grades))
      let lastProgress = 0
      const trained = await trainModel(engine, {
        lightgbm,
        queries,
        seed: spec.seed,
        depth: request.depth,
        trees: request.trees,
        params: { num_threads: 1 },
        sources: {
          queries: `tools/synth sampleQueries (seed 1), log queries disjoint from the measured ones, ${spec.slice === 0 ? 'even' : 'odd'} positions`,
          qrels: `title-term coverage of the first-stage top ${request.depth} (2: all terms, 1: at least half)`,
        },
        onProgress: (event) => {
          if (event.type !== 'message' && performance.now() - lastProgress > 20_000) {
            lastProgress = performance.now()
            say(
              `  ${spec.name}: ${event.type === 'features' ? `features (${event.set}) ${event.done}/${event.total}` : `tree ${event.iteration}`}`,
            )
          }
        },
      })
      say(
        `  ${spec.name}: ${trained.train.features.numRows} rows; ${request.trees} trees without early stopping`,
      )
      const full = trainRanker({
        lightgbm,
        train: trained.train,
        params: { num_threads: 1, learning_rate: LEARNING_RATE },
        numBoostRound: request.trees,
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
          training: {
            ...trained.manifest.training,
            validation: `none: ${request.trees} trees without early stopping (a latency model)`,
          },
        },
      })
      const seconds = (performance.now() - started) / 1000
      say(`  ${spec.name}: ${full.iterations} trees, ${seconds.toFixed(0)} s → ${dir}`)
      models.push({
        name: spec.name,
        dir,
        seed: spec.seed,
        queries: queries.length,
        trainRows: trained.train.features.numRows,
        trees: full.iterations,
        modelBytes: Buffer.byteLength(full.modelText),
        seconds,
        grades,
        reused: false,
      })
    }
  } finally {
    await lightgbm?.terminate()
  }
  const result: RerankSetup = {
    corpus: paths.corpus,
    index: paths.index,
    docCount: engine.docCount,
    corpusSeconds: paths.corpusSeconds,
    indexSeconds: paths.indexSeconds,
    forwardSeconds,
    reused: paths.corpusSeconds === 0 && paths.indexSeconds === 0,
    models,
  }
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`)
  return result
}
