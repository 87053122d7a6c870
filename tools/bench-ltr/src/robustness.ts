/**
 * `pnpm --filter @pubmatch/bench-ltr bench:robustness` (study 1 of RESULTS-robustness.md): is the
 * reranked run at least as good as the first stage on every NFCorpus dev query variant
 * (q-titles, q-all, q-vidtitles, q-viddesc, q-nontopictitles)? Trains the 179-feature and the 179 + memory models on
 * train q-titles and on mixed train variants, and evaluates each on every dev variant: first stage,
 * reranked as shipped (queries outside the accepted range of the query-level features left in
 * first-stage order), reranked without that fallback, and the fallback rule with other margins
 * training-range widths instead of 1. Writes its section of `RESULTS-robustness.md`.
 */
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import type { Qrels, Run } from '@pubmatch/core'
import { openSearch, readLabelledQueries } from '@pubmatch/engine'
import { readQrels, type RunComparison } from '@pubmatch/eval'
import { loadLightGbm } from '@pubmatch/lightgbm-wasm'
import { DEFAULT_RANGE_MARGIN, BEST_MATCH_SCHEMA, type LabelledQuery, type QueryRange } from '@pubmatch/ltr'
import { acceptedRange } from '@pubmatch/ltr/internal'
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
  outsideRange,
  qrelsFor,
  rankQueries,
  RESULTS_HEADER,
  rowCells,
  significantLoss,
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
    configs: { type: 'string', default: 'a,b,c,d' },
    limit: { type: 'string' },
    out: { type: 'string' },
    work: { type: 'string' },
  },
})
const DEPTH = Number(args.depth)
const RERANK_DEPTH = args['rerank-depth'] === undefined ? undefined : Number(args['rerank-depth'])
const MEMORY_K = Number(args['memory-k'])
const LIMIT = args.limit === undefined ? Infinity : Number(args.limit)
const CONFIGS = new Set(args.configs.split(','))
const MARGINS = [0, 1, 3, Infinity] as const

const packageDir = fileURLToPath(new URL('..', import.meta.url))
const work = args.work ?? join(packageDir, '.cache/robustness')
const outFile = args.out ?? join(packageDir, 'RESULTS-robustness.md')
const startedAt = new Date()
const loadBefore = load()
log(`load average before: ${loadBefore}`)
const shared = sharedDataDir()
const nf = (path: string): string => join(shared, 'nfcorpus', path)

const collection = await openNfcorpus(shared, work)
const { engine: firstStage } = collection
const take = <T>(items: readonly T[]): T[] => items.slice(0, LIMIT)

const trainTitles = take(
  await readLabelledQueries(nf('train/q-titles.queries'), nf('train/s-3.qrel')),
)
const devTitles = take(await readLabelledQueries(nf('dev/q-titles.queries'), nf('dev/s-3.qrel')))
const devQrels: Qrels = await readQrels(nf('dev/s-3.qrel'))
const VARIANTS = ['q-titles', 'q-all', 'q-vidtitles', 'q-viddesc', 'q-nontopictitles'] as const
const devVariants = new Map<string, LabelledQuery[]>()
for (const variant of VARIANTS) {
  devVariants.set(
    variant,
    take(await readLabelledQueries(nf(`dev/${variant}.queries`), nf('dev/s-3.qrel'))),
  )
}

// mixed training set: train q-titles, then the other train variants with ids `<id>#v<n>`; a
// phrasing identical to one already in the set (same id, same text) adds nothing and is left out
const TRAIN_VARIANTS = ['q-titles', 'q-vidtitles', 'q-viddesc', 'q-nontopictitles'] as const
const mixed: LabelledQuery[] = []
const mixedStats: Array<{ variant: string; queries: number; added: number; identical: number }> = []
const textsById = new Map<string, Set<string>>()
for (const [n, variant] of TRAIN_VARIANTS.entries()) {
  const queries =
    n === 0
      ? trainTitles
      : take(await readLabelledQueries(nf(`train/${variant}.queries`), nf('train/s-3.qrel')))
  let added = 0
  let identical = 0
  for (const query of queries) {
    const texts = textsById.get(query.id) ?? new Set<string>()
    textsById.set(query.id, texts)
    if (texts.has(query.text)) {
      identical++
      continue
    }
    texts.add(query.text)
    mixed.push(n === 0 ? query : { ...query, id: `${query.id}#v${n}` })
    added++
  }
  mixedStats.push({ variant, queries: queries.length, added, identical })
}
log(
  `mixed training set: ${mixedStats.map((s) => `${s.variant} ${s.added} added, ${s.identical} identical`).join('; ')}`,
)

interface Config {
  readonly key: string
  readonly label: string
  readonly queries: readonly LabelledQuery[]
  readonly memory: boolean
  readonly training: string
}
const configs: Config[] = [
  {
    key: 'a',
    label: '(a) 179, train q-titles',
    queries: trainTitles,
    memory: false,
    training: 'train/q-titles.queries',
  },
  {
    key: 'b',
    label: '(b) 179 + memory, train q-titles (README recipe)',
    queries: trainTitles,
    memory: true,
    training: 'train/q-titles.queries',
  },
  {
    key: 'c',
    label: '(c) 179, mixed train variants',
    queries: mixed,
    memory: false,
    training: 'train/q-{titles,vidtitles,viddesc,nontopictitles}.queries',
  },
  {
    key: 'd',
    label: '(d) 179 + memory, mixed train variants',
    queries: mixed,
    memory: true,
    training: 'train/q-{titles,vidtitles,viddesc,nontopictitles}.queries',
  },
].filter((config) => CONFIGS.has(config.key))

const RUN_FIRST = 'first stage'
const RUN_SHIPPED = `reranked, fallback (default, margin ${DEFAULT_RANGE_MARGIN})`
const RUN_NO_FALLBACK = 'reranked, no fallback'
const marginRun = (margin: number): string =>
  margin === DEFAULT_RANGE_MARGIN ? RUN_SHIPPED : margin === Infinity ? RUN_NO_FALLBACK : `fallback margin ${margin}`

interface VariantResult {
  readonly variant: string
  readonly comparison: RunComparison
  /** Judged queries evaluated. */
  readonly queries: number
  /** Per margin: judged queries left in first-stage order. */
  readonly fellBack: ReadonlyMap<number, number>
  /** Shipped run: which feature made judged queries fall back. */
  readonly triggers: ReadonlyMap<string, number>
  /** Queries (all, judged or not) where the recomputed default-margin rule disagrees with the engine. */
  readonly disagreements: number
}
interface ConfigResult {
  readonly config: Config
  readonly model: SavedModel
  readonly variants: VariantResult[]
}

const lightgbm = await loadLightGbm()
const results: ConfigResult[] = []
const queryValues = new Map<string, RankedQuery[]>()
for (const config of configs) {
  log(`config ${config.label}: training on ${config.queries.length} queries`)
  const dir = join(work, 'models', `variants-${config.key}`)
  await mkdir(dir, { recursive: true })
  const model = await trainModel(
    collection,
    lightgbm,
    {
      name: config.key,
      queries: config.queries,
      valid: devTitles,
      memory: config.memory,
      memoryK: MEMORY_K,
      depth: DEPTH,
      sources: { queries: config.training, qrels: 'train/s-3.qrel', valid: 'dev/q-titles.queries' },
    },
    dir,
  )
  const ranked = await openSearch({
    index: collection.indexDir,
    model: dir,
    ...(RERANK_DEPTH === undefined ? {} : { depth: RERANK_DEPTH }),
  })
  const ranges = model.manifest.queryRanges ?? {}
  const variants: VariantResult[] = []
  for (const variant of VARIANTS) {
    const queries = devVariants.get(variant)!
    const started = performance.now()
    const rankings = await rankQueries(firstStage, ranked, queries)
    if (!queryValues.has(variant)) {
      queryValues.set(variant, rankings)
    }
    const qrels = qrelsFor(
      devQrels,
      queries.map((q) => q.id),
    )
    const runs = new Map<string, Run>([
      [
        RUN_FIRST,
        toRun(
          'first',
          rankings.map((r) => [r.id, r.first]),
        ),
      ],
      [
        RUN_SHIPPED,
        toRun(
          'shipped',
          rankings.map((r) => [r.id, r.shipped]),
        ),
      ],
      [
        RUN_NO_FALLBACK,
        toRun(
          'rerank',
          rankings.map((r) => [r.id, r.reranked]),
        ),
      ],
    ])
    const fellBack = new Map<number, number>()
    let disagreements = 0
    for (const margin of MARGINS) {
      const outside = rankings.map((r) => outsideRange(r.queryValues, ranges, margin) !== undefined)
      fellBack.set(margin, rankings.filter((r, i) => outside[i] && qrels.has(r.id)).length)
      if (margin === DEFAULT_RANGE_MARGIN) {
        disagreements = rankings.filter((r, i) => outside[i] !== (r.fallback !== undefined)).length
      } else if (margin !== Infinity) {
        runs.set(
          marginRun(margin),
          toRun(
            `margin${margin}`,
            rankings.map((r, i) => [r.id, outside[i] ? r.first : r.reranked]),
          ),
        )
      }
    }
    const triggers = new Map<string, number>()
    for (const r of rankings) {
      if (r.fallback !== undefined && qrels.has(r.id)) {
        triggers.set(r.fallback.feature, (triggers.get(r.fallback.feature) ?? 0) + 1)
      }
    }
    const comparison = compare(runs, qrels)
    variants.push({ variant, comparison, queries: qrels.size, fellBack, triggers, disagreements })
    const nd = (run: string): string => cellText(rowCells(comparison, run)[0], false)
    log(
      `  ${config.key} ${variant}: ${qrels.size} judged queries, ${fellBack.get(DEFAULT_RANGE_MARGIN)} fell back; nDCG@10 first ${nd(RUN_FIRST)}, ` +
        `shipped ${nd(RUN_SHIPPED)}, no fallback ${nd(RUN_NO_FALLBACK)} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
    )
    if (disagreements > 0) {
      log(
        `  WARNING: the recomputed default-margin rule disagrees with the engine on ${disagreements} queries`,
      )
    }
  }
  results.push({ config, model, variants })
}
await lightgbm.terminate()

// F176 (result_count) is SearchResult.total, a lower bound under match any that grows with the
// search limit: training searches `depth` documents, engine.run searches 1,000
const totals = { differ: 0, queries: 0, ratios: [] as number[] }
for (const query of devTitles) {
  const a = firstStage.firstStageSearch(query.text, { limit: DEPTH })
  const b = firstStage.firstStageSearch(query.text, { limit: Math.max(1000, RERANK_DEPTH ?? DEPTH) })
  if (a.hits.length === 0) {
    continue
  }
  totals.queries++
  if (a.total !== b.total) {
    totals.differ++
  }
  totals.ratios.push(b.total / a.total)
}
totals.ratios.sort((x, y) => x - y)
const median = (values: readonly number[]): number => {
  if (values.length === 0) {
    return Number.NaN
  }
  const sorted = [...values].sort((x, y) => x - y)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

// ---- report ----
const featureName = new Map(BEST_MATCH_SCHEMA.features.map((f) => [f.id, f.name]))
const range = (r: QueryRange): string => `${fmtNumber(r[0])} … ${fmtNumber(r[1])}`
function fmtNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1)
}
const goal = (result: ConfigResult, run: string): boolean =>
  result.variants.every((v) => !significantLoss(v.comparison, run))
const lossList = (result: ConfigResult, run: string): string =>
  result.variants
    .filter((v) => significantLoss(v.comparison, run))
    .map((v) => {
      const lost = MEASURE_COLUMNS.filter((_, i) => {
        const cell = rowCells(v.comparison, run)[i]
        return cell !== undefined && cell.significant && cell.difference < 0
      }).map(([, title]) => title)
      return `${v.variant} (${lost.join(', ')})`
    })
    .join('; ')

const lines: string[] = []
lines.push(`## Query variants (study 1)${RERANK_DEPTH === undefined ? '' : `, reranking depth ${RERANK_DEPTH}`}

Run ${startedAt.toISOString()} – ${new Date().toISOString()}; ${machine()}; load average before ${loadBefore}, after ${load()}.
Command: \`pnpm --filter @pubmatch/bench-ltr bench:robustness\` (\`node dist/robustness.js --depth ${DEPTH} --memory-k ${MEMORY_K}${RERANK_DEPTH === undefined ? '' : ` --rerank-depth ${RERANK_DEPTH}`}${args.configs === 'a,b,c,d' ? '' : ` --configs ${args.configs}`}${LIMIT === Infinity ? '' : ` --limit ${LIMIT}`}\`).
Setup: ${collection.setup}. Reranking depth: ${RERANK_DEPTH === undefined ? `the model's training depth (${DEPTH}), as \`openSearch\`/\`pubmatch run --rerank\` default to` : RERANK_DEPTH}.

Evaluation: every dev variant against \`dev/s-3.qrel\` restricted to that variant's query ids (the judged ones);
all four measures tested against the first stage. Runs: **first stage** (\`engine.run\` without a model);
**${RUN_SHIPPED}** (\`engine.run\` with the model: a query whose query-level feature lies outside
\`acceptedRange\`, the training range widened by ${DEFAULT_RANGE_MARGIN} widths on each side, is left in first-stage order);
**reranked, no fallback** (the top ${RERANK_DEPTH ?? DEPTH} reranked with \`outOfRange: 'rerank'\` + the first-stage tail, as \`rerank\` with \`depth\`
builds it); **fallback margin ${MARGINS.filter((m) => m !== DEFAULT_RANGE_MARGIN && m !== Infinity).join(' / ')}** (computed by this program from \`manifest.queryRanges\` and each query's
F176–F179: the query takes the no-fallback ranking when inside the range widened by that many widths, else the
first-stage ranking; the same computation with the default margin reproduces the engine's decision on
${
  results.every((r) => r.variants.every((v) => v.disagreements === 0))
    ? 'every query'
    : `every query but ${results
        .flatMap((r) => r.variants.filter((v) => v.disagreements > 0).map((v) => `${v.disagreements} of (${r.config.key}) ${v.variant}`))
        .join(', ')}`
}).`)

lines.push(`### Query sets

Dev variants (judged queries evaluated; median query length in white-space separated words, F178; and in characters):

${markdownTable(
  ['dev variant', 'queries', 'judged', 'median words', 'max words', 'median chars'],
  VARIANTS.map((variant) => {
    const queries = devVariants.get(variant)!
    const words = (queryValues.get(variant) ?? [])
      .map((r) => r.queryValues.get('F178'))
      .filter((w): w is number => w !== undefined)
    return [
      variant,
      String(queries.length),
      String(
        qrelsFor(
          devQrels,
          queries.map((q) => q.id),
        ).size,
      ),
      fmtNumber(median(words)),
      fmtNumber(words.length === 0 ? Number.NaN : Math.max(...words)),
      fmtNumber(median(queries.map((q) => q.text.length))),
    ]
  }),
)}

The train and dev \`q-vidtitles\` and \`q-nontopictitles\` queries are the same texts as the \`q-titles\` queries with
the same ids (every one of them, in train and in dev): as dev variants they are subsets of dev q-titles, and in the
mixed training set they add no new phrasing. Mixed training set (train q-titles, then each variant with ids
\`<id>#v<n>\`, a text identical to one already in the set for that id left out; validation: dev q-titles, explicit,
so no 65/15/20 split):

${markdownTable(
  ['train variant', 'queries', 'added', 'identical to an earlier phrasing'],
  mixedStats.map((s) => [s.variant, String(s.queries), String(s.added), String(s.identical)]),
)}

So the mixed set is train q-titles + train q-viddesc (${mixed.length} queries). No train variant resembles dev q-all
(NFCorpus has no train q-all).`)

lines.push(`### Models

${markdownTable(
  [
    'model',
    'training queries',
    'kept (a relevant candidate in the top ' + DEPTH + ')',
    'rows',
    'trees',
    'memory queries',
    'valid nDCG@20',
  ],
  results.map((r) => [
    r.config.label,
    String(r.config.queries.length),
    String(r.model.trainQueries),
    r.model.trainRows.toLocaleString('en-US'),
    String(r.model.manifest.lightgbm.iterations),
    r.model.memory === undefined ? '–' : String(r.model.memory.length),
    (r.model.manifest.metrics['valid_ndcg@20'] ?? Number.NaN).toFixed(4),
  ]),
)}

Training ranges of the query-level features (\`manifest.queryRanges\`) and the accepted range (\`acceptedRange\`):

${markdownTable(
  [
    'feature',
    ...results.map((r) => `${r.config.key}: trained`),
    ...results.map((r) => `${r.config.key}: accepted`),
  ],
  Object.keys(results[0]?.model.manifest.queryRanges ?? {}).map((feature) => [
    `${feature} ${featureName.get(feature) ?? ''}`,
    ...results.map((r) => {
      const q = r.model.manifest.queryRanges?.[feature]
      return q === undefined ? '–' : range(q)
    }),
    ...results.map((r) => {
      const q = r.model.manifest.queryRanges?.[feature]
      return q === undefined ? '–' : range(acceptedRange(q))
    }),
  ]),
)}`)
if (configs.some((c) => c.memory && c.queries === mixed)) {
  lines.push(`Note on (d): in training, the memory leaves out the training query's own id and ids \`<own id>#…\`. A variant
training query \`PLAIN-x#v2\` therefore still sees \`PLAIN-x\` (its title phrasing, with the same judgements) in the
memory, while \`PLAIN-x\` does not see \`PLAIN-x#v2\`: the memory features of the ${mixedStats[2]?.added ?? 0} viddesc training queries
carry their own judgements (a leak the library's id rule cannot avoid for variant training queries; \`createQueryMemory\`
refuses duplicate ids, so the variants cannot share the id either).`)
}

lines.push(`### Summary: nDCG@10 per dev variant

▲/▼ on nDCG@10; "loses" lists every variant where the run is significantly worse than the first stage on any of
nDCG@10, nDCG@20, P@10 or MAP. "goal" = no significant loss on any variant and measure (computed by this program).

${markdownTable(
  ['model', 'run', ...VARIANTS, 'goal', 'loses'],
  [
    [
      'first stage',
      '',
      ...VARIANTS.map((v) =>
        cellText(
          rowCells(results[0]!.variants.find((x) => x.variant === v)!.comparison, RUN_FIRST)[0],
          false,
        ),
      ),
      '',
      '',
    ],
    ...results.flatMap((r) =>
      [RUN_SHIPPED, RUN_NO_FALLBACK].map((run) => [
        r.config.label,
        run,
        ...r.variants.map((v) => cellText(rowCells(v.comparison, run)[0], false)),
        goal(r, run) ? 'met' : 'not met',
        lossList(r, run) || '–',
      ]),
    ),
  ],
)}`)

for (const r of results) {
  lines.push(`### ${r.config.label}

${markdownTable(
  ['dev variant', 'run', 'fell back', ...MEASURE_COLUMNS.map(([, title]) => title)],
  r.variants.flatMap((v) =>
    [RUN_FIRST, RUN_SHIPPED, RUN_NO_FALLBACK].map((run) => [
      run === RUN_FIRST ? `${v.variant} (${v.queries} q)` : '',
      run,
      run === RUN_SHIPPED
        ? `${v.fellBack.get(DEFAULT_RANGE_MARGIN)} / ${v.queries}`
        : run === RUN_NO_FALLBACK
          ? `0 / ${v.queries}`
          : '',
      ...rowCells(v.comparison, run).map((cell) => cellText(cell)),
    ]),
  ),
)}

Queries left in first-stage order by the default rule, by the first feature found outside its accepted range:
${r.variants.map((v) => `${v.variant}: ${v.triggers.size === 0 ? 'none' : [...v.triggers].map(([f, n]) => `${f} ${featureName.get(f) ?? ''} ${n}`).join(', ')}`).join('; ')}.`)
}

lines.push(`### Fallback margin

The rule with the training range widened by ${MARGINS.filter((m) => m !== Infinity).map((m) => (m === DEFAULT_RANGE_MARGIN ? `${m} (the library's default \`acceptedRange\`)` : String(m))).join(', ')} widths, and without a
fallback (∞): nDCG@10 (▲/▼ on nDCG@10) and "n fb" = judged queries left in first-stage order; "goal" over all four measures
and all variants. Computed by this program from the recorded ranges (the default margin, ${DEFAULT_RANGE_MARGIN}, is the engine's own run).

${markdownTable(
  ['model', 'margin', ...VARIANTS.map((v) => `${v}`), 'goal'],
  results.flatMap((r) =>
    MARGINS.map((margin) => {
      const run = marginRun(margin)
      return [
        r.config.label,
        margin === Infinity ? '∞ (no fallback)' : String(margin),
        ...r.variants.map(
          (v) =>
            `${cellText(rowCells(v.comparison, run)[0], false)} · ${v.fellBack.get(margin)} fb`,
        ),
        goal(r, run) ? 'met' : 'not met',
      ]
    }),
  ),
)}`)

lines.push(`### Why F176 is computed exactly

F176 (result_count) is \`SearchResult.total\`. Under match any a pruned search only gives a lower bound that depends
on how far it went, so \`trainBestMatch\` and \`engine.run\` (with a model) both search with \`exactTotal\`, and so do the
runs here. Without it, training (${DEPTH} documents per query) and \`engine.run\` (1,000) would disagree: over the
${totals.queries} dev q-titles queries with candidates, the pruned total differs between the two limits for
${totals.differ}; median ratio (limit 1,000 / limit ${DEPTH}) ${median(totals.ratios).toFixed(2)}, largest ${(totals.ratios.at(-1) ?? Number.NaN).toFixed(2)}.
(Measured by this program.)`)

lines.push(`### Verdict (computed by this program from the tables above)

${results
  .map(
    (r) =>
      `- ${r.config.label}: with the default fallback the goal is **${goal(r, RUN_SHIPPED) ? 'met' : 'not met'}**${goal(r, RUN_SHIPPED) ? '' : ` (significant loss on ${lossList(r, RUN_SHIPPED)})`}; ` +
      `without a fallback **${goal(r, RUN_NO_FALLBACK) ? 'met' : 'not met'}**${goal(r, RUN_NO_FALLBACK) ? '' : ` (${lossList(r, RUN_NO_FALLBACK)})`}.`,
  )
  .join('\n')}`)

await writeSection(
  outFile,
  RESULTS_HEADER,
  RERANK_DEPTH === undefined ? 'variants' : `variants-depth${RERANK_DEPTH}`,
  lines.join('\n\n'),
)
log(`wrote ${outFile}`)
