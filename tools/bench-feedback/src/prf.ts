/**
 * `pnpm --filter @pubmatch/bench-feedback bench:prf`: pseudo relevance feedback as a first-stage
 * option (`engine.run(q, 1000, { prf })`) on NFCorpus. Every configuration (ranking × IDF, and
 * the first stage's weight in the fusions) is evaluated on the train title queries, the best by
 * train nDCG@10 is chosen, and that choice is reported on dev against no PRF with paired
 * randomisation tests; then diagnostics on dev: each configuration's ranking without the
 * expansion (what PRF itself adds), the chosen configuration's gain by the first stage's P@10
 * (how good the 10 feedback documents were), and the expanded queries' terms.
 * Writes the `prf` section of RESULTS.md and the raw figures to `.cache/prf.json`.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { json, type JsonShape, type Qrels, type Run, type RunEntry } from '@pubmatch/core'
import { readJsonFile } from '@pubmatch/core/node'
import type { PrfOptions, SearchEngine } from '@pubmatch/engine'
import { analyzerOf, engineInternals } from '@pubmatch/engine/internal'
import {
  compareRuns,
  evaluate,
  formatPValue,
  shuffle,
  type EvaluationResult,
  type RunComparison,
} from '@pubmatch/eval'
import { indexCandidates, startSession } from '@pubmatch/feedback'
import { cellOf, cellText, markdownTable } from './report.ts'
import { rankedEntries } from './residual.ts'
import {
  CACHE_DIR,
  load,
  log,
  machine,
  openNfcorpus,
  readSplit,
  sharedDataDir,
  writeResultsSection,
  type Split,
} from './setup.ts'

/** Options of {@link runPrf}. */
export interface PrfBenchOptions {
  /** Train queries evaluated (a sample shuffled with `seed`). Defaults to all 2,594. */
  readonly trainSample?: number
  /** Sample seed. Defaults to `12`. */
  readonly seed?: number
  /** Skip the train grid and take this configuration. */
  readonly choice?: string
  /** Read the train grid saved by an earlier run with the same sample instead of running it. */
  readonly reuseTrain?: boolean
}

const MEASURES: readonly string[] = ['ndcg_cut.10,20', 'P.10', 'recall.100', 'map']
const COLUMNS: ReadonlyArray<readonly [string, string]> = [
  ['ndcg_cut_10', 'nDCG@10'],
  ['ndcg_cut_20', 'nDCG@20'],
  ['P_10', 'P@10'],
  ['recall_100', 'R@100'],
  ['map', 'MAP'],
]
const KEYS = COLUMNS.map(([key]) => key)
const CANDIDATES = 1000

/** A configuration: its name and the `prf` option of `engine.run` (none for the baseline). */
interface Config {
  readonly name: string
  readonly prf?: PrfOptions
}

const BASELINE = 'no PRF (first stage)'

function configs(): Config[] {
  const out: Config[] = [{ name: BASELINE }]
  for (const ranking of ['tfidf', 'bm25'] as const) {
    for (const idf of ['global', 'local'] as const) {
      out.push({ name: `${ranking} ${idf}`, prf: { ranking, idf } })
    }
  }
  for (const ranking of ['borda', 'maxnorm'] as const) {
    for (const idf of ['global', 'local'] as const) {
      for (const firstStage of [0, 1, 2]) {
        out.push({
          name: `${ranking} ${idf} fs=${firstStage}`,
          prf: { ranking, idf, weights: { tfidf: 1, bm25: 1, firstStage } },
        })
      }
    }
  }
  return out
}

/** What one configuration did on a split. */
interface ConfigRun {
  readonly run: Run
  /** Mean wall milliseconds of `engine.run` per query. */
  readonly meanMs: number
  /** Mean share of the no-PRF top 10 still in the top 10. */
  readonly overlap10: number
}

function runConfig(
  engine: SearchEngine,
  queries: Split['queries'],
  config: Config,
  baseline?: Run,
): ConfigRun {
  const run: Run = { tag: config.name.replace(/\W+/g, '_'), queries: new Map() }
  let total = 0
  let overlap = 0
  let counted = 0
  for (const query of queries) {
    const started = performance.now()
    const result = engine.run(
      query.text,
      CANDIDATES,
      config.prf === undefined ? {} : { prf: config.prf },
    )
    total += performance.now() - started
    const entries: RunEntry[] = result.hits.map((hit) => ({ docId: hit.id, score: hit.score }))
    run.queries.set(query.id, entries)
    const base = baseline?.queries.get(query.id)
    if (base !== undefined && base.length > 0) {
      const top = new Set(base.slice(0, 10).map((e) => e.docId))
      overlap += entries.slice(0, 10).filter((e) => top.has(e.docId)).length / top.size
      counted++
    }
  }
  return {
    run,
    meanMs: total / Math.max(1, queries.length),
    overlap10: counted === 0 ? 1 : overlap / counted,
  }
}

/**
 * A session's ranking over a query's candidates, as `applyPrf` ranks them, with or without the
 * expansion, over the first stage's candidates or over the whole collection (the first stage's
 * candidates, then every other document in document order).
 * @param engine - the engine
 * @param queries - the queries
 * @param config - ranking, IDF, weights
 * @param how - `prf`: expand the vector; `everything`: pad the candidates with the rest of the index
 */
function sessionRun(
  engine: SearchEngine,
  queries: Split['queries'],
  config: Config,
  how: { readonly prf: boolean; readonly everything: boolean },
): Run {
  const { reader } = engineInternals(engine)
  const run: Run = {
    tag: `${config.name.replace(/\W+/g, '_')}_${how.prf ? 'prf' : 'noexp'}${how.everything ? '_all' : ''}`,
    queries: new Map(),
  }
  const analyzer = analyzerOf(engine)
  for (const query of queries) {
    const result = engine.firstStageSearch(query.text, {
      limit: CANDIDATES,
      tieBreak: 'idDescending',
    })
    if (result.hits.length === 0) {
      run.queries.set(query.id, [])
      continue
    }
    const docs = result.hits.map((hit) => hit.docNumber)
    if (how.everything) {
      const taken = new Set(docs)
      for (let doc = 0; doc < reader.maxDoc; doc++) {
        if (!taken.has(doc)) {
          docs.push(doc)
        }
      }
    }
    const session = startSession({
      query: query.text,
      candidates: indexCandidates(reader, docs),
      analyzer,
      prf: how.prf,
      ranking: config.prf?.ranking ?? 'borda',
      idf: config.prf?.idf ?? 'global',
      ...(config.prf?.weights === undefined ? {} : { weights: config.prf.weights }),
    })
    run.queries.set(
      query.id,
      rankedEntries(session.ranking().map((entry) => entry.id)).slice(0, CANDIDATES),
    )
  }
  return run
}

/**
 * The first stage's top 1,000 when its matches are followed by every other document in document
 * order: the baseline of the whole-collection sessions, whose zero-score tail is in that order too.
 */
function paddedFirstStage(engine: SearchEngine, queries: Split['queries']): Run {
  const { reader } = engineInternals(engine)
  const run: Run = { tag: 'first_stage_padded', queries: new Map() }
  for (const query of queries) {
    const result = engine.firstStageSearch(query.text, {
      limit: CANDIDATES,
      tieBreak: 'idDescending',
    })
    const docs = result.hits.map((hit) => hit.docNumber)
    const taken = new Set(docs)
    for (let doc = 0; doc < reader.maxDoc && docs.length < CANDIDATES; doc++) {
      if (!taken.has(doc)) {
        docs.push(doc)
      }
    }
    run.queries.set(query.id, rankedEntries(docs.map((doc) => reader.externalId(doc))))
  }
  return run
}

function evaluateAll(
  runs: ReadonlyMap<string, Run>,
  qrels: Qrels,
): { comparison: RunComparison; evaluations: Map<string, EvaluationResult> } {
  const evaluations = new Map<string, EvaluationResult>()
  for (const [name, run] of runs) {
    evaluations.set(name, evaluate(run, qrels, { measures: MEASURES }))
  }
  return { comparison: compareRuns(evaluations, { measures: KEYS }), evaluations }
}

function runsOf(runs: ReadonlyMap<string, ConfigRun>, names?: readonly string[]): Map<string, Run> {
  return new Map(
    [...runs]
      .filter(([name]) => names === undefined || names.includes(name))
      .map(([name, r]) => [name, r.run]),
  )
}

/** What a table shows of a configuration's runs besides the measures. */
type RunStats = Pick<ConfigRun, 'meanMs' | 'overlap10'>

/** The train grid an earlier run saved (`--reuse-train`). */
export interface SavedTrainGrid {
  readonly comparison: RunComparison
  readonly stats: Readonly<Record<string, RunStats>>
}

/** The shape of {@link SavedTrainGrid}, checked when `--reuse-train` reads it (with `nullAsNaN`: a NaN mean or p-value is written as null). */
export const SAVED_TRAIN_GRID: JsonShape<SavedTrainGrid> = json.object({
  comparison: json.object({
    baseline: json.string,
    measures: json.array(json.string),
    test: json.literal('t-test', 'randomisation'),
    alpha: json.number,
    correction: json.literal('none', 'bonferroni', 'holm'),
    queryIds: json.array(json.string),
    rows: json.array(
      json.object({
        run: json.string,
        isBaseline: json.boolean,
        cells: json.array(
          json.object({
            measure: json.string,
            mean: json.numberOrNaN,
            difference: json.numberOrNaN,
            pValue: json.optional(json.numberOrNaN),
            significant: json.boolean,
            wins: json.count,
            losses: json.count,
            ties: json.count,
          }),
        ),
      }),
    ),
  }),
  stats: json.record(json.object({ meanMs: json.numberOrNaN, overlap10: json.numberOrNaN })),
})

function table(
  comparison: RunComparison,
  runs: ReadonlyMap<string, RunStats>,
  bold?: string,
  extra?: (run: string) => string[],
  extraHeader: readonly string[] = [],
): string {
  const header = [
    'configuration',
    ...COLUMNS.map(([, title]) => title),
    'p (nDCG@10)',
    'top-10 overlap',
    'ms/query',
    ...extraHeader,
  ]
  const rows = comparison.rows.map((row) => {
    const figures = runs.get(row.run)!
    const ndcg = cellOf(comparison, row.run, 'ndcg_cut_10')
    return [
      row.run === bold ? `**${row.run}**` : row.run,
      ...KEYS.map((key) => cellText(cellOf(comparison, row.run, key))),
      ndcg?.pValue === undefined ? '' : formatPValue(ndcg.pValue),
      row.isBaseline ? '' : `${(100 * figures.overlap10).toFixed(0)} %`,
      figures.meanMs.toFixed(1),
      ...(extra?.(row.run) ?? []),
    ]
  })
  return markdownTable(header, rows)
}

function overlapOf(run: Run, baseline: Run): number {
  let sum = 0
  let counted = 0
  for (const [qid, entries] of run.queries) {
    const base = baseline.queries.get(qid)
    if (base === undefined || base.length === 0) {
      continue
    }
    const top = new Set(base.slice(0, 10).map((e) => e.docId))
    sum += entries.slice(0, 10).filter((e) => top.has(e.docId)).length / top.size
    counted++
  }
  return counted === 0 ? 1 : sum / counted
}

function signed(x: number): string {
  return `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(4)}`
}

/**
 * Runs the PRF study and writes its section.
 * @param options - see {@link PrfBenchOptions}
 * @returns the Markdown section
 */
export async function runPrf(options: PrfBenchOptions = {}): Promise<string> {
  const startedAt = new Date()
  const loadBefore = load()
  log(`prf: load average before: ${loadBefore}`)
  const shared = sharedDataDir()
  const { engine, setup } = await openNfcorpus(shared)
  const { reader } = engineInternals(engine)
  const train = await readSplit(shared, 'train')
  const dev = await readSplit(shared, 'dev')
  const all = configs()
  const seed = options.seed ?? 12
  const sampleSize = Math.min(train.queries.length, options.trainSample ?? train.queries.length)
  const trainQueries =
    sampleSize >= train.queries.length
      ? train.queries
      : shuffle(train.queries, seed)
          .slice(0, sampleSize)
          .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  const trainQrels: Qrels = new Map(
    trainQueries.flatMap((q) =>
      train.qrels.has(q.id) ? [[q.id, train.qrels.get(q.id)!] as const] : [],
    ),
  )

  // ---- train grid
  let choice = options.choice
  const trainStats = new Map<string, RunStats>()
  let trainComparison: RunComparison | undefined
  const trainFile = join(CACHE_DIR, `prf-train-${trainQueries.length}-${seed}.json`)
  if (choice === undefined && options.reuseTrain === true) {
    const saved = await readJsonFile(trainFile, SAVED_TRAIN_GRID, { nullAsNaN: true })
    trainComparison = saved.comparison
    for (const [name, stats] of Object.entries(saved.stats)) {
      trainStats.set(name, stats)
    }
    log(`prf: train grid read from ${trainFile}`)
  } else if (choice === undefined) {
    const trainRuns = new Map<string, ConfigRun>()
    for (const config of all) {
      const started = performance.now()
      trainRuns.set(
        config.name,
        runConfig(engine, trainQueries, config, trainRuns.get(BASELINE)?.run),
      )
      log(
        `prf train ${config.name}: ${trainQueries.length} queries in ${((performance.now() - started) / 1000).toFixed(0)} s`,
      )
    }
    trainComparison = evaluateAll(runsOf(trainRuns), trainQrels).comparison
    for (const [name, { meanMs, overlap10 }] of trainRuns) {
      trainStats.set(name, { meanMs, overlap10 })
    }
    await mkdir(CACHE_DIR, { recursive: true })
    await writeFile(
      trainFile,
      JSON.stringify({ comparison: trainComparison, stats: Object.fromEntries(trainStats) }),
    )
  }
  if (choice === undefined && trainComparison !== undefined) {
    const grid = trainComparison
    const ranked = grid.rows
      .filter((row) => !row.isBaseline)
      .map((row) => ({
        run: row.run,
        ndcg: cellOf(grid, row.run, 'ndcg_cut_10')!.mean,
      }))
      .sort((a, b) => b.ndcg - a.ndcg || (a.run < b.run ? -1 : 1))
    choice = ranked[0]!.run
    log(`prf: chosen on train: ${choice}`)
  }
  const chosen = all.find((config) => config.name === choice)
  if (chosen === undefined) {
    throw new Error(
      `bench:prf: no configuration "${choice}" (one of: ${all.map((c) => c.name).join(', ')})`,
    )
  }

  // ---- dev: every configuration (the chosen one is the headline; the rest for information only)
  const devRuns = new Map<string, ConfigRun>()
  for (const config of all) {
    devRuns.set(config.name, runConfig(engine, dev.queries, config, devRuns.get(BASELINE)?.run))
  }
  log(`prf dev: ${all.length} configurations × ${dev.queries.length} queries`)
  const devAll = evaluateAll(runsOf(devRuns), dev.qrels)
  const headline = evaluateAll(runsOf(devRuns, [BASELINE, chosen.name]), dev.qrels).comparison

  // ---- diagnostics on dev
  // (a) the same re-ranking without the expansion
  const noExpansion = new Map<string, { ndcg: number; p: number; mean: number }>()
  for (const config of all.filter((c) => c.prf !== undefined)) {
    const withPrf = devAll.evaluations.get(config.name)!
    const without = evaluate(
      sessionRun(engine, dev.queries, config, { prf: false, everything: false }),
      dev.qrels,
      {
        measures: MEASURES,
      },
    )
    const pair = compareRuns(
      new Map([
        ['without', without],
        ['with', withPrf],
      ]),
      { measures: ['ndcg_cut_10'] },
    )
    const cell = cellOf(pair, 'with', 'ndcg_cut_10')!
    noExpansion.set(config.name, {
      ndcg: without.mean['ndcg_cut_10'] ?? Number.NaN,
      p: cell.pValue ?? 1,
      mean: cell.difference,
    })
  }
  log('prf dev: rankings without the expansion')
  // (d) PRF over the whole collection: the expansion may bring up documents no query word matches
  const everythingNames = [
    ...new Set([
      'tfidf global',
      'bm25 global',
      'borda global fs=1',
      'borda global fs=2',
      'maxnorm global fs=1',
      chosen.name,
    ]),
  ].filter((name) => all.some((c) => c.name === name && c.prf?.idf !== 'local'))
  const paddedBaseline = `${BASELINE}, padded the same way`
  const everythingEvaluations = new Map<string, EvaluationResult>([
    [
      paddedBaseline,
      evaluate(paddedFirstStage(engine, dev.queries), dev.qrels, { measures: MEASURES }),
    ],
    [BASELINE, devAll.evaluations.get(BASELINE)!],
  ])
  const everythingStats = new Map<string, RunStats>([
    [paddedBaseline, devRuns.get(BASELINE)!],
    [BASELINE, devRuns.get(BASELINE)!],
  ])
  for (const name of everythingNames) {
    const config = all.find((c) => c.name === name)!
    const started = performance.now()
    const run = sessionRun(engine, dev.queries, config, { prf: true, everything: true })
    everythingStats.set(`${name}, whole collection`, {
      meanMs: (performance.now() - started) / dev.queries.length,
      overlap10: overlapOf(run, devRuns.get(BASELINE)!.run),
    })
    everythingEvaluations.set(
      `${name}, whole collection`,
      evaluate(run, dev.qrels, { measures: MEASURES }),
    )
  }
  const everything = compareRuns(everythingEvaluations, { measures: KEYS })
  log('prf dev: PRF over the whole collection')
  // (b) the chosen configuration's gain by the first stage's P@10 (how many of the 10 feedback documents were relevant)
  const base = devAll.evaluations.get(BASELINE)!
  const mine = devAll.evaluations.get(chosen.name)!
  const buckets = [
    { label: '0 relevant in the first stage top 10', test: (p: number) => p < 0.05 },
    { label: '1–2', test: (p: number) => p >= 0.05 && p < 0.25 },
    { label: '3–5', test: (p: number) => p >= 0.25 && p < 0.55 },
    { label: '6–10', test: (p: number) => p >= 0.55 },
  ].map((bucket) => {
    const ids = [...base.perQuery]
      .filter(([, v]) => bucket.test(v['P_10'] ?? 0))
      .map(([qid]) => qid)
    const diffs = ids.map(
      (qid) =>
        (mine.perQuery.get(qid)?.['ndcg_cut_10'] ?? 0) -
        (base.perQuery.get(qid)?.['ndcg_cut_10'] ?? 0),
    )
    return {
      label: bucket.label,
      n: ids.length,
      base:
        ids.reduce((s, qid) => s + (base.perQuery.get(qid)?.['ndcg_cut_10'] ?? 0), 0) /
        Math.max(1, ids.length),
      mean: diffs.reduce((s, d) => s + d, 0) / Math.max(1, diffs.length),
      better: diffs.filter((d) => d > 1e-12).length,
      worse: diffs.filter((d) => d < -1e-12).length,
    }
  })
  // (c) the expanded queries
  const analyzer = analyzerOf(engine)
  let termCount = 0
  let ownCount = 0
  let addedWeight = 0
  let counted = 0
  let example: { text: string; terms: ReadonlyArray<readonly [string, number]> } | undefined
  for (const query of dev.queries) {
    const result = engine.search(query.text, { limit: 10, prf: chosen.prf ?? true })
    const terms = result.prf?.terms ?? []
    if (terms.length === 0) {
      continue
    }
    const own = new Set(analyzer.analyze(query.text).map((token) => token.term))
    const total = terms.reduce((s, [, w]) => s + w, 0)
    termCount += terms.length
    ownCount += terms.filter(([term]) => own.has(term)).length
    addedWeight +=
      terms.filter(([term]) => !own.has(term)).reduce((s, [, w]) => s + w, 0) / (total || 1)
    counted++
    example ??= { text: query.text, terms }
  }
  const loadAfter = load()
  log(`prf: load average after: ${loadAfter}`)

  // ---- Markdown
  const judgedDev = dev.queries.filter((q) => dev.qrels.has(q.id)).length
  const choiceNdcg = cellOf(headline, chosen.name, 'ndcg_cut_10')!
  const baseNdcg = cellOf(headline, BASELINE, 'ndcg_cut_10')!
  const met = choiceNdcg.mean >= 0.315 && choiceNdcg.significant && choiceNdcg.difference > 0
  const lines: string[] = [
    '## PRF as a first-stage option',
    '',
    `Program: \`src/prf.ts\` (\`pnpm --filter @pubmatch/bench-feedback bench:prf${options.trainSample === undefined ? '' : ` --train-sample ${sampleSize}`}${options.reuseTrain === true ? ' --reuse-train' : ''}${options.choice === undefined ? '' : ` --choice "${options.choice}"`}\`). ${setup}.`,
    `Machine: ${machine()}, shared with other jobs. Date: ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC; load average before ${loadBefore}, after ${loadAfter}.`,
    '',
    `Runs: \`engine.run(query, 1000, { prf })\` — the first stage (BM25F, ties by id descending) takes its top ${CANDIDATES.toLocaleString('en-US')} candidates`,
    '(fewer when fewer documents match a query term), the query vector (stemmed unigrams, weight 2 × TF-IDF) is expanded by Rocchio',
    'from the top 10 of the re-ranked candidates (α 1.0, β 0.3, ≤ 20 terms of length ≥ 3 with TF-IDF ≥ 2.0, or BM25 ≥ 0.3 for the',
    '`bm25` ranking) and the candidates are ranked again by `ranking` (`tfidf`, `bm25`: that re-ranker alone; `borda`, `maxnorm`:',
    'fusion of TF-IDF, BM25 and the first stage with weights 1, 1, `fs`), IDF from the whole index (`global`) or the candidates',
    '(`local`). "top-10 overlap": mean share of the no-PRF top 10 still in the top 10; "ms/query": mean wall time of `engine.run`.',
    '',
  ]
  if (trainComparison !== undefined) {
    lines.push(
      `### Train: ${trainQueries.length < train.queries.length ? `${trainQueries.length} of the ${train.queries.length.toLocaleString('en-US')} title queries (a sample shuffled with seed ${seed})` : `all ${train.queries.length.toLocaleString('en-US')} title queries`}, ${trainQrels.size.toLocaleString('en-US')} judged`,
      '',
      `▲/▼ against no PRF. Chosen: the highest train nDCG@10, **${chosen.name}**.${options.reuseTrain === true ? ` (This grid was read from \`.cache/${basename(trainFile)}\`, written by an earlier full run of this program on the same data and code path; ms/query are from that run.)` : ''}`,
      '',
      table(trainComparison, trainStats, chosen.name),
      '',
    )
  } else {
    lines.push(`(Train grid skipped; configuration given: **${chosen.name}**.)`, '')
  }
  lines.push(
    `### Dev (${dev.queries.length} title queries, ${judgedDev} judged): the train choice against no PRF`,
    '',
    table(headline, devRuns, chosen.name),
    '',
    `nDCG@10 ${choiceNdcg.mean.toFixed(4)} against ${baseNdcg.mean.toFixed(4)} (${signed(choiceNdcg.difference)}, p ${formatPValue(choiceNdcg.pValue ?? 1)}; ${choiceNdcg.wins} queries better, ${choiceNdcg.ties} tied, ${choiceNdcg.losses} worse).`,
    `Target (dev nDCG@10 ≥ 0.315 with PRF, significantly above no PRF): **${met ? 'met' : 'not met'}**.`,
    '',
    '### Dev, every configuration (for information: not used to choose)',
    '',
    '"without expansion": the same candidates ranked by the same re-ranker / fusion under the initial query vector (`startSession` with',
    '`prf: false`), and the p-value of PRF against it: what the expansion itself adds, apart from swapping BM25F for the re-rankers.',
    '',
    table(
      devAll.comparison,
      devRuns,
      chosen.name,
      (run) => {
        const x = noExpansion.get(run)
        return x === undefined
          ? ['', '']
          : [x.ndcg.toFixed(4), `${signed(x.mean)} (p ${formatPValue(x.p)})`]
      },
      ['nDCG@10 without expansion', 'PRF − without (p)'],
    ),
    '',
    "### Dev: PRF over the whole collection instead of the first stage's candidates",
    '',
    `\`engine.run\` re-ranks only the first stage's candidates: with match any on NFCorpus those are the documents holding a query`,
    'word, so an expansion term can reorder them but never bring up a relevant document that lacks every query word. Here the same',
    `sessions (PRF on) rank the first stage's candidates followed by every other document of the index (document order, ${reader.maxDoc.toLocaleString('en-US')} in all),`,
    'first 1,000 kept. ▲/▼ against the first stage padded the same way (its matches, then the other documents in document order),',
    'so that the documents no ranking scores fill both tails alike; the plain first stage is listed too. A diagnostic of where',
    'the gains would come from, not an engine option.',
    '',
    table(everything, everythingStats),
    '',
    `### Dev: the chosen configuration's nDCG@10 change by how good the feedback documents were`,
    '',
    "Queries grouped by the number of relevant documents in the first stage's top 10 (its P@10 × 10); PRF takes the top 10 of the",
    're-ranked candidates, which overlap those mostly.',
    '',
    markdownTable(
      [
        'relevant in the first stage top 10',
        'queries',
        'first stage nDCG@10',
        'mean change with PRF',
        'better / worse',
      ],
      buckets.map((b) => [
        b.label,
        String(b.n),
        b.base.toFixed(4),
        signed(b.mean),
        `${b.better} / ${b.worse}`,
      ]),
    ),
    '',
    `Expanded queries (${chosen.name}, ${counted} dev queries with candidates): ${(termCount / Math.max(1, counted)).toFixed(1)} terms on average, ${(ownCount / Math.max(1, counted)).toFixed(1)} of them the query's own;`,
    `the added terms carry ${((100 * addedWeight) / Math.max(1, counted)).toFixed(0)} % of the vector's weight.` +
      (example === undefined
        ? ''
        : ` Example, "${example.text}": ${example.terms
            .slice(0, 12)
            .map(([t, w]) => `${t} ${w.toFixed(2)}`)
            .join(', ')}${example.terms.length > 12 ? ', …' : ''}.`),
    '',
  )
  const section = lines.join('\n')
  await writeResultsSection('prf', section)
  await mkdir(CACHE_DIR, { recursive: true })
  const raw = (comparison: RunComparison): unknown =>
    comparison.rows.map((row) => ({
      run: row.run,
      cells: row.cells.map((c) => ({ measure: c.measure, mean: c.mean, pValue: c.pValue })),
    }))
  await writeFile(
    join(CACHE_DIR, 'prf.json'),
    JSON.stringify(
      {
        startedAt,
        loadBefore,
        loadAfter,
        trainQueries: trainQueries.length,
        choice: chosen.name,
        train: trainComparison && raw(trainComparison),
        dev: raw(devAll.comparison),
        noExpansion: Object.fromEntries(noExpansion),
        buckets,
      },
      null,
      1,
    ),
  )
  return section
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: {
      'reuse-train': { type: 'boolean' },
      'train-sample': { type: 'string' },
      seed: { type: 'string' },
      choice: { type: 'string' },
    },
  })
  const section = await runPrf({
    ...(values['train-sample'] === undefined
      ? {}
      : { trainSample: Number(values['train-sample']) }),
    ...(values.seed === undefined ? {} : { seed: Number(values.seed) }),
    ...(values['reuse-train'] === true ? { reuseTrain: true } : {}),
    ...(values.choice === undefined ? {} : { choice: values.choice }),
  })
  process.stdout.write(`${section}\n`)
}
