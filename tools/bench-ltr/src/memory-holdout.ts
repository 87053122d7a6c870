/**
 * `pnpm --filter @pubmatch/bench-ltr bench:memory` (study 2 of RESULTS-robustness.md): what the
 * query memory (M1–M3) can claim. Measures how many NFCorpus dev relevant pairs point at
 * documents some training query judged relevant; then holds out a seeded random fifth of the corpus documents
 * (every training judgement on them dropped, from the training queries and so from the memory,
 * and from the validation queries used for early stopping), trains the 179-feature and the 179 +
 * memory models, and evaluates dev q-titles on the held-out documents only. Writes its section
 * of `RESULTS-robustness.md`.
 */
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import type { Qrels, Run, RunEntry } from '@pubmatch/core'
import { openSearch, readLabelledQueries } from '@pubmatch/engine'
import { readQrels, shuffle, type RunComparison } from '@pubmatch/eval'
import { loadLightGbm } from '@pubmatch/lightgbm-wasm'
import type { LabelledQuery } from '@pubmatch/ltr'
import { markdownTable } from './render.ts'
import { sharedDataDir } from './setup.ts'
import {
  cellText,
  compare,
  load,
  log,
  machine,
  MEASURE_COLUMNS,
  openNfcorpus,
  qrelsFor,
  rankQueries,
  RESULTS_HEADER,
  rowCells,
  toRun,
  trainModel,
  writeSection,
  type RankedQuery,
  type SavedModel,
} from './effectiveness.ts'

const { values: args } = parseArgs({
  options: {
    depth: { type: 'string', default: '100' },
    'rerank-depth': { type: 'string' },
    'memory-k': { type: 'string', default: '20' },
    seed: { type: 'string', default: '1' },
    fraction: { type: 'string', default: '0.2' },
    limit: { type: 'string' },
    out: { type: 'string' },
    work: { type: 'string' },
  },
})
const DEPTH = Number(args.depth)
const RERANK_DEPTH = args['rerank-depth'] === undefined ? undefined : Number(args['rerank-depth'])
const MEMORY_K = Number(args['memory-k'])
const SEED = Number(args.seed)
const FRACTION = Number(args.fraction)
const LIMIT = args.limit === undefined ? Infinity : Number(args.limit)

const packageDir = fileURLToPath(new URL('..', import.meta.url))
const work = args.work ?? join(packageDir, '.cache/robustness')
const outFile = args.out ?? join(packageDir, 'RESULTS-robustness.md')
const startedAt = new Date()
const loadBefore = load()
log(`load average before: ${loadBefore}`)
const shared = sharedDataDir()
const nf = (path: string): string => join(shared, 'nfcorpus', path)

const collection = await openNfcorpus(shared, work)
const take = <T>(items: readonly T[]): T[] => items.slice(0, LIMIT)
const trainTitles = take(
  await readLabelledQueries(nf('train/q-titles.queries'), nf('train/s-3.qrel')),
)
const devTitles = take(await readLabelledQueries(nf('dev/q-titles.queries'), nf('dev/s-3.qrel')))
const trainQrels: Qrels = await readQrels(nf('train/s-3.qrel'))
const devQrels: Qrels = qrelsFor(
  await readQrels(nf('dev/s-3.qrel')),
  devTitles.map((q) => q.id),
)

// 1. how much of dev's relevance the training judgements already name
const relevantDocs = (
  qrels: Iterable<readonly [string, ReadonlyMap<string, number>]>,
): Set<string> => {
  const docs = new Set<string>()
  for (const [, judged] of qrels) {
    for (const [doc, grade] of judged) {
      if (grade > 0) {
        docs.add(doc)
      }
    }
  }
  return docs
}
const trainRelevantAll = relevantDocs(trainQrels)
const trainRelevantTitles = relevantDocs(trainTitles.map((q) => [q.id, q.judgements] as const))
interface Coverage {
  readonly pairs: number
  readonly covered: number
  readonly docs: number
  readonly docsCovered: number
}
const coverage = (
  qrels: Qrels,
  known: ReadonlySet<string>,
  docFilter: (doc: string) => boolean = () => true,
): Coverage => {
  let pairs = 0
  let covered = 0
  const docs = new Set<string>()
  for (const [, judged] of qrels) {
    for (const [doc, grade] of judged) {
      if (grade > 0 && docFilter(doc)) {
        pairs++
        covered += known.has(doc) ? 1 : 0
        docs.add(doc)
      }
    }
  }
  return {
    pairs,
    covered,
    docs: docs.size,
    docsCovered: [...docs].filter((doc) => known.has(doc)).length,
  }
}
const pct = (a: number, b: number): string => (b === 0 ? '–' : `${((100 * a) / b).toFixed(1)} %`)
const covAll = coverage(devQrels, trainRelevantAll)
const covTitles = coverage(devQrels, trainRelevantTitles)
log(
  `dev relevant pairs whose document some train query judged relevant: ${covAll.covered}/${covAll.pairs} (${pct(covAll.covered, covAll.pairs)})`,
)

// 2. the held-out fifth of the documents, and the judgements left for training
const heldOutList = shuffle(collection.docIds, SEED).slice(
  0,
  Math.round(collection.docIds.length * FRACTION),
)
const heldOut = new Set(heldOutList)
const drop = (queries: readonly LabelledQuery[]): { queries: LabelledQuery[]; dropped: number } => {
  let dropped = 0
  const out = queries.map((query) => {
    const kept = new Map([...query.judgements].filter(([doc]) => !heldOut.has(doc)))
    dropped += query.judgements.size - kept.size
    return { ...query, judgements: kept }
  })
  return { queries: out, dropped }
}
const trainDropped = drop(trainTitles)
const validDropped = drop(devTitles)
const covHeldOutBefore = coverage(devQrels, trainRelevantTitles, (doc) => heldOut.has(doc))
const covHeldOutAfter = coverage(
  devQrels,
  relevantDocs(trainDropped.queries.map((q) => [q.id, q.judgements] as const)),
  (doc) => heldOut.has(doc),
)
log(
  `held out ${heldOut.size} of ${collection.docIds.length} documents (seed ${SEED}); dropped ${trainDropped.dropped} train and ${validDropped.dropped} ` +
    `validation judgements; dev relevant pairs on held-out documents: ${covHeldOutBefore.pairs}`,
)

// 3. models
interface Model {
  readonly key: string
  readonly label: string
  readonly memory: boolean
  readonly heldOut: boolean
}
const models: Model[] = [
  { key: 'full-179', label: '179; all train judgements', memory: false, heldOut: false },
  { key: 'full-memory', label: '179 + memory; all train judgements', memory: true, heldOut: false },
  {
    key: 'ho-179',
    label: '179; held-out documents’ judgements dropped',
    memory: false,
    heldOut: true,
  },
  {
    key: 'ho-memory',
    label: '179 + memory; held-out documents’ judgements dropped',
    memory: true,
    heldOut: true,
  },
]
const lightgbm = await loadLightGbm()
const saved = new Map<string, SavedModel>()
const rankings = new Map<string, RankedQuery[]>()
for (const model of models) {
  const dir = join(work, 'models', `memory-${model.key}`)
  await mkdir(dir, { recursive: true })
  const trained = await trainModel(
    collection,
    lightgbm,
    {
      name: model.key,
      queries: model.heldOut ? trainDropped.queries : trainTitles,
      valid: model.heldOut ? validDropped.queries : devTitles,
      memory: model.memory,
      memoryK: MEMORY_K,
      depth: DEPTH,
      sources: {
        queries: 'train/q-titles.queries',
        qrels: model.heldOut
          ? `train/s-3.qrel without the held-out documents (seed ${SEED})`
          : 'train/s-3.qrel',
        valid: model.heldOut
          ? 'dev/q-titles.queries, dev/s-3.qrel without the held-out documents'
          : 'dev/q-titles.queries',
      },
    },
    dir,
  )
  saved.set(model.key, trained)
  const engine = await openSearch({
    index: collection.indexDir,
    model: dir,
    ...(RERANK_DEPTH === undefined ? {} : { depth: RERANK_DEPTH }),
  })
  const ranked = await rankQueries(collection.engine, engine, devTitles)
  rankings.set(model.key, ranked)
  log(
    `  ranked ${devTitles.length} dev queries with ${model.key}; ${ranked.filter((r) => r.fallback !== undefined).length} left in first-stage order`,
  )
}
await lightgbm.terminate()
const heldOutMemory = saved.get('ho-memory')?.memory ?? []
const memoryOnHeldOut = heldOutMemory.reduce(
  (n, q) => n + [...q.judgements.keys()].filter((doc) => heldOut.has(doc)).length,
  0,
)

// 4. evaluation
const FIRST = 'first stage'
const runOf = (
  pick: (r: RankedQuery) => RunEntry[],
  key: string,
  filter: (doc: string) => boolean,
): Run =>
  toRun(
    key,
    (rankings.get(key) ?? []).map((r) => [r.id, pick(r).filter((e) => filter(e.docId))]),
  )
const runsFor = (filter: (doc: string) => boolean): Map<string, Run> =>
  new Map<string, Run>([
    [FIRST, runOf((r) => r.first, 'full-179', filter)],
    ...models.map((m) => [m.label, runOf((r) => r.shipped, m.key, filter)] as const),
  ])
const restrictQrels = (filter: (doc: string) => boolean): Qrels => {
  const out: Qrels = new Map()
  for (const [id, judged] of devQrels) {
    const kept = new Map([...judged].filter(([doc]) => filter(doc)))
    if ([...kept.values()].some((grade) => grade > 0)) {
      out.set(id, kept)
    }
  }
  return out
}
const all = (): boolean => true
const isHeldOut = (doc: string): boolean => heldOut.has(doc)
const isSeen = (doc: string): boolean => !heldOut.has(doc)
interface Evaluation {
  readonly key: string
  readonly title: string
  readonly qrels: Qrels
  readonly comparison: RunComparison
  /** The held-out-trained models against each other: memory vs 179. */
  readonly memoryVs179: RunComparison
  readonly fullMemoryVs179: RunComparison
}
const evaluation = (
  key: string,
  title: string,
  docs: (doc: string) => boolean,
  runsFilter: (doc: string) => boolean,
): Evaluation => {
  const qrels = restrictQrels(docs)
  const runs = runsFor(runsFilter)
  const pair = (a: string, b: string): RunComparison =>
    compare(
      new Map([
        [a, runs.get(a)!],
        [b, runs.get(b)!],
      ]),
      qrels,
    )
  return {
    key,
    title,
    qrels,
    comparison: compare(runs, qrels),
    memoryVs179: pair(models[2]!.label, models[3]!.label),
    fullMemoryVs179: pair(models[0]!.label, models[1]!.label),
  }
}
const evaluations: Evaluation[] = [
  evaluation('full', 'full dev (all documents)', all, all),
  evaluation(
    'held-out',
    'held-out documents only (runs and qrels restricted to them)',
    isHeldOut,
    isHeldOut,
  ),
  evaluation(
    'seen',
    'the other four fifths only (runs and qrels restricted to them)',
    isSeen,
    isSeen,
  ),
  evaluation(
    'held-out-in-full',
    'held-out documents judged, full rankings (other documents count as non-relevant)',
    isHeldOut,
    all,
  ),
]
const relevantPairs = (qrels: Qrels): number =>
  [...qrels.values()].reduce((n, judged) => n + [...judged.values()].filter((g) => g > 0).length, 0)
for (const e of evaluations) {
  log(
    `${e.title}: ${e.qrels.size} queries; nDCG@10 ` +
      [FIRST, ...models.map((m) => m.label)]
        .map((run) => `${run.split(';')[0]} ${cellText(rowCells(e.comparison, run)[0], false)}`)
        .join(', '),
  )
}

// ---- report ----
const lines: string[] = []
lines.push(`## Held-out documents: what the query memory can claim (study 2)${RERANK_DEPTH === undefined ? '' : `, reranking depth ${RERANK_DEPTH}`}

Run ${startedAt.toISOString()} – ${new Date().toISOString()}; ${machine()}; load average before ${loadBefore}, after ${load()}.
Command: \`pnpm --filter @pubmatch/bench-ltr bench:memory\` (\`node dist/memory-holdout.js --depth ${DEPTH} --memory-k ${MEMORY_K} --seed ${SEED} --fraction ${FRACTION}${RERANK_DEPTH === undefined ? '' : ` --rerank-depth ${RERANK_DEPTH}`}${LIMIT === Infinity ? '' : ` --limit ${LIMIT}`}\`).
Setup: ${collection.setup}. Training: train q-titles (${trainTitles.length} queries), \`train/s-3.qrel\`, depth ${DEPTH}, validation dev
q-titles; reranking depth ${RERANK_DEPTH ?? `${DEPTH} (the model's training depth, the engine's default)`}; runs are \`engine.run\` with the default fallback
(queries left in first-stage order: ${models.map((m) => `${m.key} ${rankings.get(m.key)!.filter((r) => r.fallback !== undefined).length}`).join(', ')} of ${devTitles.length}).

### How much of dev the training judgements already name

Counted by this program from the qrels (NFCorpus \`s-3.qrel\` grades are 1 and 2, so every judged pair is relevant):

${markdownTable(
  [
    'dev relevant (query, document) pairs',
    'pairs',
    'document relevant to some training query',
    'share',
    'distinct documents',
    'of them named by training',
    'share',
  ],
  [
    [
      'all dev q-titles pairs; training = every query of train/s-3.qrel',
      String(covAll.pairs),
      String(covAll.covered),
      pct(covAll.covered, covAll.pairs),
      String(covAll.docs),
      String(covAll.docsCovered),
      pct(covAll.docsCovered, covAll.docs),
    ],
    [
      'all dev q-titles pairs; training = the train q-titles queries (the memory)',
      String(covTitles.pairs),
      String(covTitles.covered),
      pct(covTitles.covered, covTitles.pairs),
      String(covTitles.docs),
      String(covTitles.docsCovered),
      pct(covTitles.docsCovered, covTitles.docs),
    ],
    [
      'pairs on held-out documents, before dropping',
      String(covHeldOutBefore.pairs),
      String(covHeldOutBefore.covered),
      pct(covHeldOutBefore.covered, covHeldOutBefore.pairs),
      String(covHeldOutBefore.docs),
      String(covHeldOutBefore.docsCovered),
      pct(covHeldOutBefore.docsCovered, covHeldOutBefore.docs),
    ],
    [
      'pairs on held-out documents, after dropping',
      String(covHeldOutAfter.pairs),
      String(covHeldOutAfter.covered),
      pct(covHeldOutAfter.covered, covHeldOutAfter.pairs),
      String(covHeldOutAfter.docs),
      String(covHeldOutAfter.docsCovered),
      pct(covHeldOutAfter.docsCovered, covHeldOutAfter.docs),
    ],
  ],
)}

### The held-out documents

The corpus's ${collection.docIds.length} document ids in code-point order, shuffled with \`shuffle(ids, ${SEED})\` of \`@pubmatch/eval\`;
the first ${heldOut.size} (${(FRACTION * 100).toFixed(0)} %) are held out. Every judgement on them is removed from the training queries
(${trainDropped.dropped} of ${trainTitles.reduce((n, q) => n + q.judgements.size, 0)} train q-titles judgements; the memory is built from these
same reduced queries, and this program checked that it holds ${memoryOnHeldOut} judgements on held-out documents) and from the
validation queries used for early stopping (${validDropped.dropped} dev judgements), so nothing about a held-out document's relevance
reaches training. The index and the forward store are unchanged (every document stays searchable; only labels are withheld).

Evaluation on held-out documents: for every dev q-titles query, the qrels keep only the judgements on held-out documents
and the query is kept when one of them is relevant (${evaluations[1]!.qrels.size} queries, ${relevantPairs(evaluations[1]!.qrels)} relevant pairs);
every run keeps only its held-out documents, in their order and with their scores (each ranking is filtered to the
held-out subsequence, so rank 1 is the best-ranked held-out document). This asks how well each model orders documents
no training judgement mentions. The other four fifths are evaluated the same way for contrast
(${evaluations[2]!.qrels.size} queries, ${relevantPairs(evaluations[2]!.qrels)} relevant pairs), and, as a secondary view, the held-out judgements
against the unfiltered rankings (other documents count as non-relevant: it also charges a model for ranking seen documents
above held-out ones).`)

lines.push(`### Summary: nDCG@10

${markdownTable(
  ['model', ...evaluations.map((e) => `${e.title} (${e.qrels.size} q)`)],
  [FIRST, ...models.map((m) => m.label)].map((run) => [
    run,
    ...evaluations.map((e) => cellText(rowCells(e.comparison, run)[0], false)),
  ]),
)}

Memory against the 179 alone (paired randomisation test, nDCG@10; Δ = memory − 179):

${markdownTable(
  ['training judgements', ...evaluations.map((e) => e.title)],
  [
    ['all', ...evaluations.map((e) => pairText(e.fullMemoryVs179, models[1]!.label))],
    [
      'held-out documents’ judgements dropped',
      ...evaluations.map((e) => pairText(e.memoryVs179, models[3]!.label)),
    ],
  ],
)}`)

function pairText(comparison: RunComparison, run: string): string {
  const cell = rowCells(comparison, run)[0]
  if (cell === undefined || cell.pValue === undefined) {
    return '–'
  }
  const sign = cell.difference >= 0 ? '+' : '−'
  return `${sign}${Math.abs(cell.difference).toFixed(4)}${cell.significant ? (cell.difference > 0 ? ' ▲' : ' ▼') : ''} (p ${cell.pValue < 0.0001 ? '<0.0001' : cell.pValue.toFixed(4)})`
}

for (const e of evaluations) {
  lines.push(`### ${e.title}

${e.qrels.size} queries, ${relevantPairs(e.qrels)} relevant pairs.

${markdownTable(
  ['run', ...MEASURE_COLUMNS.map(([, title]) => title)],
  [FIRST, ...models.map((m) => m.label)].map((run) => [
    run,
    ...rowCells(e.comparison, run).map((cell) => cellText(cell)),
  ]),
)}`)
}

lines.push(`### Models

${markdownTable(
  ['model', 'training queries kept', 'rows', 'trees', 'memory queries', 'valid nDCG@20'],
  models.map((m) => {
    const s = saved.get(m.key)!
    return [
      m.label,
      String(s.trainQueries),
      s.trainRows.toLocaleString('en-US'),
      String(s.manifest.lightgbm.iterations),
      s.memory === undefined ? '–' : String(s.memory.length),
      (s.manifest.metrics['valid_ndcg@20'] ?? Number.NaN).toFixed(4),
    ]
  }),
)}`)

await writeSection(
  outFile,
  RESULTS_HEADER,
  RERANK_DEPTH === undefined ? 'memory' : `memory-depth${RERANK_DEPTH}`,
  lines.join('\n\n'),
)
log(`wrote ${outFile}`)
