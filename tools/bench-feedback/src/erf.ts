/**
 * `pnpm --filter @pubmatch/bench-feedback bench:erf`: simulated users with graded explicit
 * feedback on NFCorpus dev, as Niesink (2017) simulated them on TREC CDS. Per judged dev title
 * query: the first stage's top 3,000 are the candidates, a feedback session (with PRF) ranks them,
 * and a simulated user grades the 10 documents each round shows from the qrels (2 → highly
 * relevant, 1 → relevant, anything else → non-relevant), for 5 rounds. After each round the
 * ranking is evaluated frozen (shown documents in the order shown, then the current ranking of
 * the rest) and on the residual collection (shown documents removed from ranking and qrels),
 * against the first stage treated the same way. Writes the `erf` section of RESULTS.md, the SVG
 * plot and HTML report in `results/`, and the TREC runs in `results/runs/` (gitignored).
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import type { Qrels, Run } from '@pubmatch/core'
import type { SearchEngine } from '@pubmatch/engine'
import { analyzerOf, engineInternals } from '@pubmatch/engine/internal'
import {
  compareRuns,
  evaluate,
  formatPValue,
  renderHtmlReport,
  writeRun,
  type EvaluationResult,
  type RunComparison,
} from '@pubmatch/eval'
import {
  indexCandidates,
  startSession,
  type FeedbackGrade,
  type IdfMode,
  type Ranking,
} from '@pubmatch/feedback'
import { cellOf, cellText, markdownTable } from './report.ts'
import {
  frozenRanking,
  rankedEntries,
  residualQrels,
  residualRanking,
  simulatedGrade,
} from './residual.ts'
import {
  CACHE_DIR,
  load,
  log,
  machine,
  openNfcorpus,
  readSplit,
  RESULTS_DIR,
  sharedDataDir,
  writeResultsSection,
  type Split,
} from './setup.ts'
import { renderLinePlot, type Series } from './svg.ts'

/** Options of {@link runErf}. */
export interface ErfOptions {
  /** Feedback rounds. Defaults to `5`. */
  readonly rounds?: number
  /** Candidates per query (the first stage's top). Defaults to `3000`. */
  readonly candidates?: number
  /** Only the first N judged dev queries (smoke runs). Defaults to all. */
  readonly limit?: number
}

/** A session configuration. */
interface Config {
  readonly name: string
  readonly ranking: Ranking
  readonly idf: IdfMode
  /**
   * Pad the candidates with the index's other documents (document order) up to the candidate
   * count: expansion terms can then bring up documents that match no query term.
   */
  readonly padded?: boolean
}

const CONFIGS: readonly Config[] = (['global', 'local'] as const).flatMap((idf) =>
  (['tfidf', 'bm25', 'borda'] as const).map((ranking) => ({
    name: `${ranking} ${idf}`,
    ranking,
    idf,
  })),
)
/** The two best configurations again, on candidate sets padded to the full count. */
const PADDED_CONFIGS: readonly Config[] = (['bm25', 'borda'] as const).map((ranking) => ({
  name: `${ranking} global, padded`,
  ranking,
  idf: 'global',
  padded: true,
}))
/** The configuration of the HTML report: the session defaults. */
const REPORT_CONFIG = 'borda global'
const MEASURES: readonly string[] = ['ndcg_cut.10,20', 'P.10', 'recall.100', 'map']
const KEYS: readonly string[] = ['ndcg_cut_10', 'ndcg_cut_20', 'P_10', 'recall_100', 'map']
const RUN_DEPTH = 1000
const COLOURS = ['#1f6fb2', '#e07b00', '#2e8b57', '#8e44ad', '#c0392b', '#16a085']

/** Per query, what one configuration's session did. */
interface QueryTrace {
  /** The first stage's ranking of the candidates. */
  readonly first: readonly string[]
  /** The session's ranking without PRF (round 0, the re-ranker alone). */
  readonly noPrf: readonly string[]
  /** The session's ranking by round (0: after PRF, before any grade), top `RUN_DEPTH` … whole for residuals. */
  readonly rankings: ReadonlyArray<readonly string[]>
  /** Documents shown in rounds 1..k, in the order shown (`shown[k]`, k = 0..rounds). */
  readonly shown: ReadonlyArray<readonly string[]>
  /** Relevant (grade ≥ 1) documents among those shown in each round. */
  readonly relevantShown: readonly number[]
}

/** Everything evaluated for one configuration. */
interface ConfigResult {
  readonly config: Config
  /** Frozen runs: first stage, no PRF, round 0 (PRF), rounds 1..k; baseline first stage. */
  readonly frozen: RunComparison
  readonly frozenEvaluations: ReadonlyMap<string, EvaluationResult>
  /** Round k (1..rounds) → residual comparison: first stage residual (baseline), PRF ranking residual, ERF residual. */
  readonly residual: ReadonlyArray<{
    readonly round: number
    readonly comparison: RunComparison
    readonly queries: number
    readonly dropped: number
  }>
  /** Mean relevant documents shown per round. */
  readonly relevantShown: readonly number[]
  readonly seconds: number
}

function trace(
  engine: SearchEngine,
  text: string,
  judgements: ReadonlyMap<string, number> | undefined,
  config: Config,
  rounds: number,
  depth: number,
): QueryTrace {
  const { reader } = engineInternals(engine)
  const result = engine.firstStageSearch(text, { limit: depth, tieBreak: 'idDescending' })
  const docs = result.hits.map((hit) => hit.docNumber)
  if (config.padded === true) {
    const taken = new Set(docs)
    for (let doc = 0; doc < reader.maxDoc && docs.length < depth; doc++) {
      if (!taken.has(doc)) {
        docs.push(doc)
      }
    }
  }
  const candidates = indexCandidates(reader, docs)
  const analyzer = analyzerOf(engine)
  // the first stage's ranking: its matches (as engine.run gives them), then the same padding in
  // document order, so that both rankings hold the same documents and a tail of documents with
  // no score favours neither
  const first = candidates.ids
  const noPrf = startSession({
    query: text,
    candidates,
    analyzer,
    ranking: config.ranking,
    idf: config.idf,
    prf: false,
  })
    .ranking()
    .map((entry) => entry.id)
  let session = startSession({
    query: text,
    candidates,
    analyzer,
    ranking: config.ranking,
    idf: config.idf,
    prf: true,
  })
  const rankings: string[][] = [session.ranking().map((entry) => entry.id)]
  const shown: string[][] = [[]]
  const relevantShown: number[] = []
  for (let k = 1; k <= rounds; k++) {
    const proposed = session.next().map((doc) => doc.id)
    const grades = new Map<string, FeedbackGrade>(
      proposed.map((id) => [id, simulatedGrade(judgements, id)]),
    )
    relevantShown.push(proposed.filter((id) => (judgements?.get(id) ?? 0) >= 1).length)
    session = session.grade({ shown: proposed, grades })
    rankings.push(session.ranking().map((entry) => entry.id))
    shown.push([...shown[k - 1]!, ...proposed])
  }
  return { first, noPrf, rankings, shown, relevantShown }
}

function runOf(tag: string, rankings: ReadonlyMap<string, readonly string[]>): Run {
  return {
    tag,
    queries: new Map(
      [...rankings].map(([qid, ids]) => [qid, rankedEntries(ids.slice(0, RUN_DEPTH))]),
    ),
  }
}

function compare(
  runs: ReadonlyMap<string, Run>,
  qrels: Qrels,
): { comparison: RunComparison; evaluations: Map<string, EvaluationResult> } {
  const evaluations = new Map<string, EvaluationResult>()
  for (const [name, run] of runs) {
    evaluations.set(name, evaluate(run, qrels, { measures: MEASURES }))
  }
  return { comparison: compareRuns(evaluations, { measures: KEYS }), evaluations }
}

function slug(text: string): string {
  return text.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')
}

async function runConfig(
  engine: SearchEngine,
  dev: Split,
  queries: Split['queries'],
  config: Config,
  rounds: number,
  depth: number,
): Promise<ConfigResult> {
  const started = performance.now()
  const traces = new Map<string, QueryTrace>()
  for (const [i, query] of queries.entries()) {
    traces.set(query.id, trace(engine, query.text, dev.qrels.get(query.id), config, rounds, depth))
    if ((i + 1) % 100 === 0) {
      log(`  ${config.name}: ${i + 1}/${queries.length} queries`)
    }
  }
  const pick = (f: (t: QueryTrace) => readonly string[]): Map<string, readonly string[]> =>
    new Map([...traces].map(([qid, t]) => [qid, f(t)]))
  const runsDir = join(RESULTS_DIR, 'runs')
  await mkdir(runsDir, { recursive: true })
  const write = async (run: Run, name: string): Promise<void> =>
    writeRun(run, join(runsDir, `${slug(config.name)}.${name}.run`))

  // frozen, on the full collection
  const frozenRuns = new Map<string, Run>()
  frozenRuns.set(
    'first stage',
    runOf(
      'first_stage',
      pick((t) => t.first),
    ),
  )
  frozenRuns.set(
    're-rank, no PRF',
    runOf(
      `${slug(config.name)}_noprf`,
      pick((t) => t.noPrf),
    ),
  )
  frozenRuns.set(
    '+ PRF (round 0)',
    runOf(
      `${slug(config.name)}_r0`,
      pick((t) => t.rankings[0]!),
    ),
  )
  for (let k = 1; k <= rounds; k++) {
    frozenRuns.set(
      `ERF round ${k}`,
      runOf(
        `${slug(config.name)}_r${k}_frozen`,
        pick((t) => frozenRanking(t.shown[k]!, t.rankings[k]!, RUN_DEPTH)),
      ),
    )
  }
  const frozen = compare(frozenRuns, dev.qrels)
  await write(frozenRuns.get('first stage')!, 'first-stage')
  await write(frozenRuns.get('re-rank, no PRF')!, 'noprf')
  for (let k = 0; k <= rounds; k++) {
    await write(frozenRuns.get(k === 0 ? '+ PRF (round 0)' : `ERF round ${k}`)!, `round${k}.frozen`)
  }

  // residual collection after each round
  const residual: ConfigResult['residual'][number][] = []
  for (let k = 1; k <= rounds; k++) {
    const shown = new Map([...traces].map(([qid, t]) => [qid, new Set(t.shown[k])]))
    const { qrels, dropped } = residualQrels(dev.qrels, shown)
    const residualOf = (tag: string, f: (t: QueryTrace) => readonly string[]): Run =>
      runOf(
        tag,
        new Map(
          [...traces].map(([qid, t]) => [qid, residualRanking(f(t), shown.get(qid)!, RUN_DEPTH)]),
        ),
      )
    const runs = new Map<string, Run>([
      ['first stage, residual', residualOf(`first_stage_residual_r${k}`, (t) => t.first)],
      [
        'PRF ranking (round 0), residual',
        residualOf(`${slug(config.name)}_r0_residual_r${k}`, (t) => t.rankings[0]!),
      ],
      [
        `ERF round ${k}, residual`,
        residualOf(`${slug(config.name)}_r${k}_residual`, (t) => t.rankings[k]!),
      ],
    ])
    await write(runs.get('first stage, residual')!, `round${k}.first-stage-residual`)
    await write(runs.get(`ERF round ${k}, residual`)!, `round${k}.residual`)
    const judged = [...qrels.keys()].filter((qid) => traces.has(qid)).length
    residual.push({
      round: k,
      comparison: compare(runs, qrels).comparison,
      queries: judged,
      dropped: dropped.filter((qid) => traces.has(qid)).length,
    })
  }
  const relevantShown = Array.from(
    { length: rounds },
    (_, k) =>
      [...traces.values()].reduce((s, t) => s + t.relevantShown[k]!, 0) / Math.max(1, traces.size),
  )
  const seconds = (performance.now() - started) / 1000
  log(`${config.name}: ${queries.length} queries, ${rounds} rounds in ${seconds.toFixed(0)} s`)
  return {
    config,
    frozen: frozen.comparison,
    frozenEvaluations: frozen.evaluations,
    residual,
    relevantShown,
    seconds,
  }
}

function residualTable(results: readonly ConfigResult[]): string {
  const rows: string[][] = []
  for (const r of results) {
    for (const x of r.residual.filter((y) => [1, 2, 5].includes(y.round))) {
      const erf = `ERF round ${x.round}, residual`
      rows.push([
        r.config.name,
        String(x.round),
        `${x.queries} (${x.dropped} dropped)`,
        cellText(cellOf(x.comparison, 'first stage, residual', 'ndcg_cut_10')),
        cellText(cellOf(x.comparison, 'PRF ranking (round 0), residual', 'ndcg_cut_10')),
        cellText(cellOf(x.comparison, erf, 'ndcg_cut_10')),
        pText(x.comparison, erf, 'ndcg_cut_10'),
        `${cellText(cellOf(x.comparison, 'first stage, residual', 'P_10'))} → ${cellText(cellOf(x.comparison, erf, 'P_10'))}`,
        `${cellText(cellOf(x.comparison, 'first stage, residual', 'recall_100'))} → ${cellText(cellOf(x.comparison, erf, 'recall_100'))}`,
      ])
    }
  }
  return markdownTable(
    [
      'configuration',
      'rounds',
      'queries (dropped)',
      'first stage nDCG@10',
      'PRF ranking, no grades',
      'ERF nDCG@10',
      'p (ERF vs first stage)',
      'P@10 first → ERF',
      'R@100 first → ERF',
    ],
    rows,
  )
}

function pText(comparison: RunComparison, run: string, measure: string): string {
  const p = cellOf(comparison, run, measure)?.pValue
  return p === undefined ? '' : formatPValue(p)
}

/**
 * Runs the simulation, writes the report section, plot, HTML report and runs.
 * @param options - see {@link ErfOptions}
 * @returns the Markdown section
 */
export async function runErf(options: ErfOptions = {}): Promise<string> {
  const rounds = options.rounds ?? 5
  const depth = options.candidates ?? 3000
  const startedAt = new Date()
  const loadBefore = load()
  log(`erf: load average before: ${loadBefore}`)
  const shared = sharedDataDir()
  const { engine, setup } = await openNfcorpus(shared)
  const { reader } = engineInternals(engine)
  const dev = await readSplit(shared, 'dev')
  const judged = dev.queries.filter((q) => dev.qrels.has(q.id))
  const queries = options.limit === undefined ? judged : judged.slice(0, options.limit)
  const qrels: Qrels = new Map(queries.map((q) => [q.id, dev.qrels.get(q.id)!]))
  const split: Split = { ...dev, qrels }
  const candidateCounts = queries
    .map((q) => engine.firstStageSearch(q.text, { limit: depth }).hits.length)
    .sort((a, b) => a - b)
  const results: ConfigResult[] = []
  for (const config of CONFIGS) {
    results.push(await runConfig(engine, split, queries, config, rounds, depth))
  }
  const paddedResults: ConfigResult[] = []
  for (const config of PADDED_CONFIGS) {
    paddedResults.push(await runConfig(engine, split, queries, config, rounds, depth))
  }
  const loadAfter = load()
  log(`erf: load average after: ${loadAfter}`)

  // ---- plot
  const roundLabels = Array.from({ length: rounds + 1 }, (_, k) => String(k))
  const frozenValues = (r: ConfigResult, measure: string): number[] => [
    cellOf(r.frozen, '+ PRF (round 0)', measure)!.mean,
    ...r.residual.map((x) => cellOf(r.frozen, `ERF round ${x.round}`, measure)!.mean),
  ]
  const firstStage = (measure: string): Series => {
    const value = cellOf(results[0]!.frozen, 'first stage', measure)!.mean
    return {
      name: 'first stage (BM25F); in the residual panel: the same documents removed',
      colour: '#6b7280',
      dashed: true,
      values: roundLabels.map(() => value),
    }
  }
  const colourOf = (i: number): string => COLOURS[i % COLOURS.length]!
  const residualOf = (
    r: ConfigResult,
    run: (round: number) => string,
  ): Array<number | undefined> => [
    undefined,
    ...r.residual.map((x) => cellOf(x.comparison, run(x.round), 'ndcg_cut_10')!.mean),
  ]
  const svg = renderLinePlot({
    title: `Simulated users on NFCorpus dev (${queries.length} queries), by graded round (solid: session; dashed: first stage)`,
    xLabels: roundLabels,
    xTitle: 'graded rounds of 10 (0: PRF, no grades yet)',
    columns: 2,
    panels: [
      {
        title: 'residual collection: shown documents removed (what counts)',
        yTitle: 'residual nDCG@10',
        series: results.flatMap((r, i) => [
          {
            name: r.config.name,
            colour: colourOf(i),
            values: residualOf(r, (k) => `ERF round ${k}, residual`),
          },
          {
            name: `first stage, residual after the ${r.config.name} rounds`,
            colour: colourOf(i),
            dashed: true,
            legend: false,
            values: residualOf(r, () => 'first stage, residual'),
          },
        ]),
      },
      {
        title: 'residual nDCG@10: session minus first stage',
        yTitle: 'Δ residual nDCG@10',
        series: [
          ...results.map((r, i) => ({
            name: r.config.name,
            colour: colourOf(i),
            values: [
              undefined,
              ...r.residual.map(
                (x) =>
                  cellOf(x.comparison, `ERF round ${x.round}, residual`, 'ndcg_cut_10')!.difference,
              ),
            ],
          })),
          {
            name: 'no difference',
            colour: '#6b7280',
            dashed: true,
            legend: false,
            values: roundLabels.map((_, k) => (k === 0 ? undefined : 0)),
          },
        ],
      },
      {
        title: 'frozen: nDCG@10 (fixed once round 1 is shown)',
        yTitle: 'frozen nDCG@10',
        series: [
          ...results.map((r, i) => ({
            name: r.config.name,
            colour: colourOf(i),
            values: frozenValues(r, 'ndcg_cut_10'),
          })),
          firstStage('ndcg_cut_10'),
        ],
      },
      {
        title: 'frozen: recall@100',
        yTitle: 'frozen R@100',
        series: [
          ...results.map((r, i) => ({
            name: r.config.name,
            colour: colourOf(i),
            values: frozenValues(r, 'recall_100'),
          })),
          firstStage('recall_100'),
        ],
      },
    ],
  })
  await mkdir(RESULTS_DIR, { recursive: true })
  await writeFile(join(RESULTS_DIR, 'erf-ndcg-by-round.svg'), svg)

  // ---- HTML report of the default configuration's round runs, with the plot
  const report = results.find((r) => r.config.name === REPORT_CONFIG) ?? results[0]!
  const reportRuns = new Map(
    [...report.frozenEvaluations].filter(([name]) =>
      [
        'first stage',
        '+ PRF (round 0)',
        'ERF round 1',
        'ERF round 2',
        `ERF round ${rounds}`,
      ].includes(name),
    ),
  )
  const html = renderHtmlReport({
    title: `Relevance feedback on NFCorpus dev: ${report.config.name}, by round (frozen rankings)`,
    description:
      `Simulated users (qrels as grades: 2 highly relevant, 1 relevant, else non-relevant), ${queries.length} judged dev title queries, ` +
      `candidates: the first stage's top ${depth}; each round grades the 10 best documents not shown before. ` +
      'Frozen rankings: the documents shown so far in the order shown, then the current ranking (so nDCG@10 is fixed once round 1 is shown). Residual-collection figures and the other configurations: tools/bench-feedback/RESULTS.md.',
    runs: reportRuns,
    comparison: compareRuns(reportRuns, { measures: KEYS }),
    // frozen nDCG@10 is fixed once round 1 is shown; recall@100 moves with every round
    metric: 'recall_100',
    generated: `generated ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC by tools/bench-feedback (bench:erf)`,
  }).replace(
    '<h2>Mean effectiveness</h2>',
    `<h2>nDCG@10 by round, every configuration</h2>\n<figure>${svg.replace(/ width="\d+" height="\d+"/, ' width="100%"')}</figure>\n<h2>Mean effectiveness</h2>`,
  )
  await writeFile(join(RESULTS_DIR, 'erf-report.html'), html)

  // ---- Markdown
  const md: string[] = [
    '## Simulated users: graded explicit feedback by round',
    '',
    `Program: \`src/erf.ts\` (\`pnpm --filter @pubmatch/bench-feedback bench:erf\`, also part of \`bench\`). ${setup}.`,
    `Machine: ${machine()}. Date: ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC; load average before ${loadBefore}, after ${loadAfter}.`,
    '',
    `Per judged dev title query (${queries.length}): candidates = the first stage's top ${depth} (\`engine.firstStageSearch(q, { limit: ${depth}, tieBreak: 'idDescending' })\`,`,
    `\`indexCandidates\`; match any, so a query has as many candidates as documents matching one of its terms: median ${candidateCounts[Math.floor(candidateCounts.length / 2)]},`,
    `min ${candidateCounts[0]}, max ${candidateCounts[candidateCounts.length - 1]}); a session \`startSession({ query, candidates, analyzer: analyzerOf(engine), ranking, idf })\``,
    '(PRF on, thesis defaults: query vector 2 × TF-IDF, PRF top 10, α 1.0, β 0.3, ≤ 20 terms; ERF a 1.0, b 0.3, c 0.1, f 5.0, ≤ 30 terms;',
    '`borda` fuses TF-IDF, BM25 and the first stage with weights 1, 1, 1); each round `session.next()` shows the 10 best documents not',
    'shown before and the simulated user grades all 10 from `s-3.qrel` (2 → highly relevant, 1 → relevant, unjudged → non-relevant),',
    '`session.grade(...)` updates the vector by Rocchio. Runs are 1,000 deep. Rows:',
    '',
    "- **first stage**: BM25F alone, no feedback; **re-rank, no PRF**: the session's ranker on the initial query vector;",
    '  **+ PRF**: the session before any grade (round 0); **ERF round k**: after k graded rounds.',
    '- **frozen** (full collection): documents shown in rounds 1..k in the order shown, then the current ranking of the rest',
    '  — what the user has seen plus what comes next; the shown documents were chosen by the system, so this mixes',
    '  "the user found them" with "they were ranked well"; the first stage\'s frozen ranking is itself.',
    '- **residual collection**: the current ranking with every document shown in rounds 1..k removed, against the qrels',
    '  with those documents removed; queries with no relevant document left are dropped (counted below); the first stage',
    '  and the round-0 PRF ranking lose the same documents. This is the figure that counts: the graded documents cannot',
    '  score again.',
    '',
    '### Frozen rankings (full collection), ▲/▼ against the first stage',
    '',
  ]
  const frozenRows: string[][] = []
  const frozenNames = [
    're-rank, no PRF',
    '+ PRF (round 0)',
    ...[1, 2, 5].filter((k) => k <= rounds).map((k) => `ERF round ${k}`),
  ]
  const frozenKeys = ['ndcg_cut_10', 'P_10', 'recall_100', 'ndcg_cut_20', 'map']
  frozenRows.push([
    'first stage (BM25F)',
    '',
    ...frozenKeys.map((key) => cellText(cellOf(results[0]!.frozen, 'first stage', key))),
  ])
  for (const r of results) {
    for (const name of frozenNames) {
      frozenRows.push([
        r.config.name,
        name,
        ...frozenKeys.map((key) => cellText(cellOf(r.frozen, name, key))),
      ])
    }
  }
  md.push(
    markdownTable(
      ['configuration', 'run', 'nDCG@10', 'P@10', 'R@100', 'nDCG@20', 'MAP'],
      frozenRows,
    ),
    '',
    'Frozen nDCG@10 and P@10 cannot move after round 0: the frozen top 10 *is* the 10 documents round 1 showed, i.e. the round-0',
    "ranking's top 10 (likewise nDCG@20 after round 1). Frozen R@100 and MAP move with every round, partly because the shown",
    'relevant documents stay on top — the residual table below removes them.',
    '',
  )
  md.push(
    `Relevant documents among the 10 shown, mean per round (rounds 1..${rounds}): ` +
      results
        .map((r) => `${r.config.name} ${r.relevantShown.map((x) => x.toFixed(2)).join(' / ')}`)
        .join('; ') +
      '.',
    '',
    "### Residual collection, ▲/▼ against the first stage's residual (same documents removed)",
    '',
  )
  md.push(residualTable(results), '')
  const after2 = results.map((r) => {
    const x = r.residual.find((y) => y.round === 2)
    const cell =
      x === undefined ? undefined : cellOf(x.comparison, 'ERF round 2, residual', 'ndcg_cut_10')
    return { name: r.config.name, cell }
  })
  const met = after2.filter(
    (a) =>
      a.cell !== undefined &&
      a.cell.difference > 0 &&
      a.cell.pValue !== undefined &&
      a.cell.pValue <= 0.05,
  )
  md.push(
    `Target (residual nDCG@10 after two rounds above the first stage's residual nDCG@10, p ≤ 0.05): **${
      met.length === after2.length
        ? 'met by every configuration'
        : met.length === 0
          ? 'not met'
          : `met by ${met.map((m) => m.name).join(', ')}; not by ${after2
              .filter((a) => !met.includes(a))
              .map((a) => a.name)
              .join(', ')}`
    }**` +
      ` (differences: ${after2.map((a) => `${a.name} ${a.cell === undefined ? '–' : `${a.cell.difference >= 0 ? '+' : ''}${a.cell.difference.toFixed(4)}, p ${formatPValue(a.cell.pValue ?? 1)}`}`).join('; ')}).`,
    '',
    `### Candidates padded to ${depth.toLocaleString('en-US')}: documents that match no query term can come up`,
    '',
    `NFCorpus's match-any first stage gives few candidates (median ${candidateCounts[Math.floor(candidateCounts.length / 2)]}), and a session only re-ranks its candidates, so above`,
    'feedback can only reorder the documents that match a query term. Here bm25 global and borda global (the session default) run again',
    `on the first stage's matches followed by the index's other documents (document order) up to ${depth.toLocaleString('en-US')} of the ${reader.docCount.toLocaleString('en-US')}, as a`,
    "PubMed-sized candidate set would hold documents the query words miss; the first stage's ranking is its matches followed by the same padding",
    '("first stage" rows; ▲/▼ against them).',
    '',
    markdownTable(
      ['configuration', 'run', 'nDCG@10', 'P@10', 'R@100', 'nDCG@20', 'MAP'],
      paddedResults.flatMap((r) =>
        ['first stage', ...frozenNames].map((name) => [
          r.config.name,
          name,
          ...frozenKeys.map((key) => cellText(cellOf(r.frozen, name, key))),
        ]),
      ),
    ),
    '',
    residualTable(paddedResults),
    '',
    `Plot: [\`results/erf-ndcg-by-round.svg\`](results/erf-ndcg-by-round.svg) (nDCG@10 by round, frozen and residual, every configuration);`,
    `HTML report of the ${report.config.name} round runs (frozen, with the plot): [\`results/erf-report.html\`](results/erf-report.html);`,
    `TREC runs per configuration and round: \`results/runs/\` (gitignored). Time: ${[...results, ...paddedResults].map((r) => `${r.config.name} ${r.seconds.toFixed(0)} s`).join(', ')}.`,
    '',
    '![nDCG@10 by round](results/erf-ndcg-by-round.svg)',
    '',
  )
  const section = md.join('\n')
  await writeResultsSection('erf', section)
  await mkdir(CACHE_DIR, { recursive: true })
  await writeFile(
    join(CACHE_DIR, 'erf.json'),
    JSON.stringify(
      {
        startedAt,
        loadBefore,
        loadAfter,
        queries: queries.length,
        results: [...results, ...paddedResults].map((r) => ({
          config: r.config,
          relevantShown: r.relevantShown,
          frozen: r.frozen.rows.map((row) => ({
            run: row.run,
            cells: row.cells.map((c) => ({ measure: c.measure, mean: c.mean, pValue: c.pValue })),
          })),
          residual: r.residual.map((x) => ({
            round: x.round,
            queries: x.queries,
            dropped: x.dropped,
            rows: x.comparison.rows.map((row) => ({
              run: row.run,
              cells: row.cells.map((c) => ({ measure: c.measure, mean: c.mean, pValue: c.pValue })),
            })),
          })),
        })),
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
      rounds: { type: 'string' },
      candidates: { type: 'string' },
      limit: { type: 'string' },
    },
  })
  const section = await runErf({
    ...(values.rounds === undefined ? {} : { rounds: Number(values.rounds) }),
    ...(values.candidates === undefined ? {} : { candidates: Number(values.candidates) }),
    ...(values.limit === undefined ? {} : { limit: Number(values.limit) }),
  })
  process.stdout.write(`${section}\n`)
}
