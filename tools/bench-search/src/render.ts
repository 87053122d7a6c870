import { markdownTable } from '@pubmatch/bench-kit'
import { ANCHOR_NAMES, ANCHORS, type AnchorName } from './anchors.ts'
import { cellLabel } from './plan.ts'
import {
  planShards,
  powerLawExponent,
  projectLinear,
  projectPerDocLogLinear,
  projectPowerLaw,
  type MachineSpec,
  type ScalingInputs,
  type TwoSizes,
} from './projection.ts'
import type { SearchCell } from './query-sets.ts'
import { fmt, fmtMs, fmtRatio } from './report.ts'
import {
  ENGINES,
  type BenchResults,
  type BuildResult,
  type CaseRecord,
  type CellResult,
  type CorpusResults,
  type Engine,
  type ServeResult,
} from './results.ts'

/** PubMed's size the projection aims at (articles). */
export const PUBMED_ARTICLES = 36_000_000

/** Node 20's largest `Buffer` (`buffer.constants.MAX_LENGTH`): a reader holds each segment file in one. */
export const NODE20_MAX_BUFFER: number = 2 ** 32

const MIB = 2 ** 20
const GIB = 2 ** 30

const load = (values: readonly number[]): string => values[0]!.toFixed(1)
const loads = (r: CaseRecord<unknown>): string => `${load(r.loadBefore)} → ${load(r.loadAfter)}`
const time = (iso: string): string => iso.slice(11, 16)

/** docs/s of a build without the input production time. */
export function buildRate(b: BuildResult): number {
  return b.docs / (b.seconds - b.inputSeconds)
}

/** docs per CPU-second of a build, the input production time taken off the CPU time. */
export function buildCpuRate(b: BuildResult): number {
  return b.docs / Math.max(1e-9, b.cpuSeconds - b.inputSeconds)
}

/** An engine's name in tables: `pubmatch`, `tantivy`, `PISA`, `Xapian`. */
export function engineLabel(engine: Engine): string {
  return engine === 'pubmatch' ? 'pubmatch' : ANCHORS[engine].label
}

/** The anchors with any measurement in the run, in report order. */
function anchorsIn(corpora: readonly CorpusResults[]): AnchorName[] {
  return ANCHOR_NAMES.filter((a) =>
    corpora.some((c) => c.build[a] !== undefined || c.serve[a] !== undefined),
  )
}

function buildTable(corpora: readonly CorpusResults[]): string {
  const rows: string[][] = []
  for (const c of corpora) {
    for (const engine of ENGINES) {
      const record = c.build[engine]
      if (record === undefined) {
        continue
      }
      const b = record.result
      rows.push([
        c.label,
        engineLabel(b.engine),
        fmt(b.docs),
        fmt(b.seconds, 1),
        fmt(b.inputSeconds, 1),
        fmt(buildRate(b)),
        fmt(b.cpuSeconds, 1),
        fmt(buildCpuRate(b)),
        fmt(b.tailSeconds, 1),
        fmt(b.peakRssMiB),
        fmt(b.peakHeapMiB),
        fmt(b.indexBytes / MIB, 1),
        fmt(b.indexBytes / b.docs),
        fmt(b.postingsBytes === undefined ? undefined : b.postingsBytes / b.docs),
        fmt(b.storedBytes === undefined ? undefined : b.storedBytes / b.docs),
        fmt(b.segments),
        loads(record),
        record.cached === true ? `cached (${b.date.slice(0, 16).replace('T', ' ')})` : time(b.date),
      ])
    }
  }
  return markdownTable(
    [
      'corpus',
      'engine',
      'docs',
      'wall s',
      'input s',
      'docs/s',
      'CPU s',
      'docs/CPU-s',
      'tail s',
      'peak RSS MiB',
      'peak heap MiB',
      'index MiB',
      'bytes/doc',
      'postings + positions bytes/doc',
      'stored bytes/doc',
      'segments',
      'load before → after',
      'measured (UTC)',
    ],
    rows,
    2,
  )
}

function serveTable(corpora: readonly CorpusResults[]): string {
  const rows: string[][] = []
  for (const c of corpora) {
    for (const engine of ENGINES) {
      const record = c.serve[engine]
      if (record === undefined) {
        continue
      }
      const s = record.result
      rows.push([
        c.label,
        engineLabel(s.engine),
        fmt(s.openMs),
        fmt(s.rssAfterOpenMiB),
        fmt(s.heapAfterOpenMiB),
        fmt(s.peakRssMiB),
        fmt(s.peakHeapMiB),
        fmt(s.indexBytes / MIB, 1),
        fmt((s.rssAfterOpenMiB * MIB) / s.docs),
        fmt(record.processSeconds),
        loads(record),
      ])
    }
  }
  return markdownTable(
    [
      'corpus',
      'engine',
      'open ms',
      'RSS after open MiB',
      'heap after open MiB',
      'peak RSS MiB',
      'peak heap MiB',
      'index MiB',
      'RSS bytes/doc',
      'process s',
      'load before → after',
    ],
    rows,
    2,
  )
}

function latencyRow(label: string, engine: Engine, cell: CellResult): string[] {
  const failed =
    cell.errors === 0
      ? '0'
      : `${cell.errors} (${Object.entries(cell.errorCodes ?? {})
          .map(([code, n]) => `${code} ${n}`)
          .join(', ')})`
  return [
    label,
    engineLabel(engine),
    cellLabel(cell),
    `${cell.queries} × ${cell.rounds}`,
    failed,
    fmtMs(cell.latency.p50),
    fmtMs(cell.latency.p95),
    fmtMs(cell.latency.p99),
    fmtMs(cell.latency.mean),
    `${fmtMs(cell.firstRound.p50)} / ${fmtMs(cell.firstRound.p99)} / ${fmtMs(cell.firstRound.mean)}`,
    fmtMs(cell.cpuMsPerQuery),
    fmt(cell.postingsPerQuery),
    fmt(cell.matchesPerQuery),
    fmt(cell.emptyQueries),
  ]
}

function latencyTable(corpora: readonly CorpusResults[]): string {
  const rows: string[][] = []
  for (const c of corpora) {
    for (const engine of ENGINES) {
      for (const cell of c.serve[engine]?.result.cells ?? []) {
        rows.push(latencyRow(c.label, engine, cell))
      }
    }
  }
  return markdownTable(
    [
      'corpus',
      'engine',
      'queries, match, hits',
      'queries × rounds',
      'failed',
      'p50 ms',
      'p95 ms',
      'p99 ms',
      'mean ms',
      'round 1 (cold) p50 / p99 / mean ms',
      'CPU ms/query',
      'postings scored/query',
      'matches/query',
      'no hit',
    ],
    rows,
    3,
  )
}

const sameCell = (a: SearchCell, b: SearchCell): boolean =>
  a.set === b.set && a.match === b.match && a.limit === b.limit && a.pruning === b.pruning

/**
 * The best of the anchors' values of one figure: the lowest (times, sizes) or the highest
 * (rates); `undefined` when no anchor has the figure.
 * @param values - each anchor's value (missing or not finite: left out)
 * @param better - which way is better
 */
export function bestAnchor(
  values: Readonly<Partial<Record<AnchorName, number>>>,
  better: 'lower' | 'higher',
): { readonly anchor: AnchorName; readonly value: number } | undefined {
  let best: { anchor: AnchorName; value: number } | undefined
  for (const anchor of ANCHOR_NAMES) {
    const value = values[anchor]
    if (value === undefined || !Number.isFinite(value)) {
      continue
    }
    if (best === undefined || (better === 'lower' ? value < best.value : value > best.value)) {
      best = { anchor, value }
    }
  }
  return best
}

/**
 * pubmatch against the anchors, query cell by query cell: p50 and p99 of every engine, the
 * fastest anchor and pubmatch's figures as ratios (pubmatch ÷ anchor: above 1, pubmatch is
 * slower). `null` when no anchor ran a cell pubmatch ran.
 */
function anchorLatencyTable(
  corpora: readonly CorpusResults[],
  anchors: readonly AnchorName[],
): string | null {
  const rows: string[][] = []
  for (const c of corpora) {
    const ours = c.serve.pubmatch?.result
    if (ours === undefined) {
      continue
    }
    for (const p of ours.cells) {
      const theirs: Partial<Record<AnchorName, CellResult>> = {}
      for (const anchor of anchors) {
        const x = c.serve[anchor]?.result.cells.find((cell) => sameCell(cell, p))
        if (x !== undefined) {
          theirs[anchor] = x
        }
      }
      if (Object.keys(theirs).length === 0) {
        continue
      }
      const pick = (of: (cell: CellResult) => number): Partial<Record<AnchorName, number>> =>
        Object.fromEntries(
          anchors.flatMap((a) => (theirs[a] === undefined ? [] : [[a, of(theirs[a])]])),
        )
      const p50 = bestAnchor(
        pick((x) => x.latency.p50),
        'lower',
      )
      const p99 = bestAnchor(
        pick((x) => x.latency.p99),
        'lower',
      )
      const cpu = bestAnchor(
        pick((x) => x.cpuMsPerQuery),
        'lower',
      )
      const fastest =
        p50 === undefined || p99 === undefined
          ? '–'
          : p50.anchor === p99.anchor
            ? engineLabel(p50.anchor)
            : `${engineLabel(p50.anchor)} / ${engineLabel(p99.anchor)}`
      rows.push([
        c.label,
        `${p.set} ${p.match} ${p.limit}`,
        `${fmtMs(p.latency.p50)} / ${fmtMs(p.latency.p99)}`,
        ...anchors.map((a) => {
          const x = theirs[a]
          return x === undefined ? '–' : `${fmtMs(x.latency.p50)} / ${fmtMs(x.latency.p99)}`
        }),
        fastest,
        `**${fmtRatio(p.latency.p50, p50?.value)}**`,
        `**${fmtRatio(p.latency.p99, p99?.value)}**`,
        fmtRatio(p.cpuMsPerQuery, cpu?.value),
        ...anchors.map((a) => {
          const x = theirs[a]
          return x === undefined
            ? '–'
            : `${fmtRatio(p.latency.p50, x.latency.p50)} / ${fmtRatio(p.latency.p99, x.latency.p99)}`
        }),
      ])
    }
  }
  if (rows.length === 0) {
    return null
  }
  return markdownTable(
    [
      'corpus',
      'queries, match, hits',
      'pubmatch p50 / p99 ms',
      ...anchors.map((a) => `${engineLabel(a)} p50 / p99 ms`),
      'fastest anchor (p50 / p99)',
      'p50 ÷ fastest',
      'p99 ÷ fastest',
      'CPU ms/query ÷ fastest',
      ...anchors.map((a) => `÷ ${engineLabel(a)} p50 / p99`),
    ],
    rows,
    2,
  )
}

/** One row of {@link anchorBuildTable}: a figure, which way is better, how to print it. */
interface BuildFigure {
  readonly name: string
  readonly better: 'lower' | 'higher'
  readonly digits: number
  readonly value: (
    build: BuildResult | undefined,
    serve: ServeResult | undefined,
  ) => number | undefined
}

const BUILD_FIGURES: readonly BuildFigure[] = [
  {
    name: 'build docs/s',
    better: 'higher',
    digits: 0,
    value: (b) => (b === undefined ? undefined : buildRate(b)),
  },
  {
    name: 'build docs/CPU-s',
    better: 'higher',
    digits: 0,
    value: (b) => (b === undefined ? undefined : buildCpuRate(b)),
  },
  { name: 'build peak RSS MiB', better: 'lower', digits: 0, value: (b) => b?.peakRssMiB },
  {
    name: 'index MiB',
    better: 'lower',
    digits: 1,
    value: (b) => (b === undefined ? undefined : b.indexBytes / MIB),
  },
  {
    name: 'postings + positions bytes/doc (title, abstract)',
    better: 'lower',
    digits: 0,
    value: (b) => (b?.postingsBytes === undefined ? undefined : b.postingsBytes / b.docs),
  },
  {
    name: 'stored records bytes/doc',
    better: 'lower',
    digits: 0,
    value: (b) => (b?.storedBytes === undefined ? undefined : b.storedBytes / b.docs),
  },
  { name: 'open ms', better: 'lower', digits: 0, value: (_b, s) => s?.openMs },
  { name: 'RSS after open MiB', better: 'lower', digits: 0, value: (_b, s) => s?.rssAfterOpenMiB },
]

/**
 * pubmatch against the anchors on building, index size, opening and memory: every engine's
 * figure, the best anchor's and pubmatch's as ratios (pubmatch ÷ anchor).
 */
function anchorBuildTable(
  corpora: readonly CorpusResults[],
  anchors: readonly AnchorName[],
): string | null {
  const rows: string[][] = []
  for (const c of corpora) {
    if (!anchors.some((a) => c.build[a] !== undefined || c.serve[a] !== undefined)) {
      continue
    }
    for (const figure of BUILD_FIGURES) {
      const of = (engine: Engine): number | undefined =>
        figure.value(c.build[engine]?.result, c.serve[engine]?.result)
      const ours = of('pubmatch')
      const values = Object.fromEntries(anchors.map((a) => [a, of(a)])) as Partial<
        Record<AnchorName, number>
      >
      const best = bestAnchor(values, figure.better)
      if (best === undefined) {
        continue
      }
      rows.push([
        c.label,
        `${figure.name} (${figure.better} is better)`,
        fmt(ours, figure.digits),
        ...anchors.map((a) => fmt(values[a], figure.digits)),
        engineLabel(best.anchor),
        `**${fmtRatio(ours, best.value)}**`,
        ...anchors.map((a) => fmtRatio(ours, values[a])),
      ])
    }
  }
  if (rows.length === 0) {
    return null
  }
  return markdownTable(
    [
      'corpus',
      'figure',
      'pubmatch',
      ...anchors.map(engineLabel),
      'best anchor',
      'pubmatch ÷ best',
      ...anchors.map((a) => `÷ ${engineLabel(a)}`),
    ],
    rows,
    2,
  )
}

/** The configuration table: what each anchor's driver said it does (its latest build). */
function anchorConfigTable(
  corpora: readonly CorpusResults[],
  anchors: readonly AnchorName[],
): string | null {
  const rows: string[][] = []
  for (const anchor of anchors) {
    const b = corpora.map((c) => c.build[anchor]?.result).find((r) => r?.config !== undefined)
    if (b?.config === undefined) {
      continue
    }
    rows.push([
      engineLabel(anchor),
      b.version ?? '–',
      ...CONFIG_ASPECTS.map((aspect) => b.config?.[aspect] ?? '–'),
    ])
  }
  if (rows.length === 0) {
    return null
  }
  return markdownTable(['anchor', 'version', ...CONFIG_ASPECTS], rows, 2 + CONFIG_ASPECTS.length)
}

/** The aspects of an anchor's configuration its driver states, in the report's order. */
export const CONFIG_ASPECTS: readonly string[] = [
  'fields',
  'analysis',
  'stopwords',
  'scoring',
  'query',
  'count',
  'build',
]

function jsLibraries(corpora: readonly CorpusResults[]): string | null {
  const x30 = corpora.find((c) => c.corpus === 'nfcorpus-x30')
  const build = x30?.build.pubmatch?.result
  const devCell = (engine: Engine): CellResult | undefined =>
    x30?.serve[engine]?.result.cells.find(
      (c) => c.set === 'nfcorpus-dev' && c.match === 'any' && c.limit === 1000 && c.pruning,
    )
  const cell = devCell('pubmatch')
  if (x30 === undefined || build === undefined || cell === undefined) {
    return null
  }
  const rows = [
    ['FlexSearch (reference README, not measured here)', '5,431', '251 MB heap', '3.5', '77'],
    ['MiniSearch (reference README, not measured here)', '2,557', '545 MB heap', '12', '315'],
    [
      'pubmatch (this run)',
      fmt(buildRate(build)),
      `${fmt(build.peakHeapMiB)} MiB heap peak, ${fmt(build.peakRssMiB)} MiB RSS peak`,
      fmtMs(cell.latency.p50),
      fmtMs(cell.latency.p99),
    ],
  ]
  for (const anchor of ANCHOR_NAMES) {
    const ab = x30.build[anchor]?.result
    const ac = devCell(anchor)
    if (ab !== undefined && ac !== undefined) {
      rows.push([
        `${engineLabel(anchor)} ${ab.version ?? ''} (this run)`.replace('  ', ' '),
        fmt(buildRate(ab)),
        `${fmt(ab.peakRssMiB)} MiB RSS peak`,
        fmtMs(ac.latency.p50),
        fmtMs(ac.latency.p99),
      ])
    }
  }
  return markdownTable(
    [
      'NFCorpus ×30 (101,820 docs), 1,000-hit dev queries',
      'build docs/s',
      'memory',
      'p50 ms',
      'p99 ms',
    ],
    rows,
  )
}

/** The two largest synthetic corpora with a pubmatch build and serve, smaller first. */
function scalingPair(corpora: readonly CorpusResults[]): [CorpusResults, CorpusResults] | null {
  const synth = corpora
    .filter((c) => c.corpus.startsWith('synth-') && c.build.pubmatch && c.serve.pubmatch)
    .sort((a, b) => a.docs - b.docs)
  return synth.length >= 2 ? [synth[synth.length - 2]!, synth[synth.length - 1]!] : null
}

const findCell = (
  c: CorpusResults,
  set: SearchCell['set'],
  match: 'all' | 'any',
  pruning = true,
): CellResult | undefined =>
  c.serve.pubmatch?.result.cells.find(
    (x) => x.set === set && x.match === match && x.limit === 500 && x.pruning === pruning,
  )

/**
 * The scaling inputs of a query class from two corpora (`null` if a cell is missing).
 * @param pair - smaller and larger corpus
 * @param match - the log-pubmed cell's match mode (top 500, pruned)
 */
export function scalingInputs(
  pair: readonly [CorpusResults, CorpusResults],
  match: 'all' | 'any',
): ScalingInputs | null {
  const [a, b] = pair
  const ca = findCell(a, 'log-pubmed', match)
  const cb = findCell(b, 'log-pubmed', match)
  const ba = a.build.pubmatch?.result
  const bb = b.build.pubmatch?.result
  const sa = a.serve.pubmatch?.result
  const sb = b.serve.pubmatch?.result
  if (!ca || !cb || !ba || !bb || !sa || !sb) {
    return null
  }
  const two = (x: number, y: number): TwoSizes => [
    { docs: a.docs, value: x },
    { docs: b.docs, value: y },
  ]
  return {
    bytesPerDoc: two(ba.indexBytes / ba.docs, bb.indexBytes / bb.docs),
    servingRssMiB: two(sa.rssAfterOpenMiB, sb.rssAfterOpenMiB),
    p50Ms: two(ca.latency.p50, cb.latency.p50),
    p99Ms: two(ca.latency.p99, cb.latency.p99),
    cpuMsPerQuery: two(ca.cpuMsPerQuery, cb.cpuMsPerQuery),
  }
}

function projectionSection(corpora: readonly CorpusResults[]): string | null {
  const pair = scalingPair(corpora)
  if (pair === null) {
    return null
  }
  const [a, b] = pair
  const N = PUBMED_ARTICLES
  const rows: string[][] = []
  const two = (x: number, y: number): TwoSizes => [
    { docs: a.docs, value: x },
    { docs: b.docs, value: y },
  ]
  const power = (name: string, points: TwoSizes, digits: number, unit = ''): void => {
    rows.push([
      name,
      `${fmt(points[0].value, digits)}${unit}`,
      `${fmt(points[1].value, digits)}${unit}`,
      `α = ${fmt(powerLawExponent(points), 2)}`,
      `${fmt(projectPowerLaw(points, N), digits)}${unit}`,
    ])
  }
  const ba = a.build.pubmatch!.result
  const bb = b.build.pubmatch!.result
  const sa = a.serve.pubmatch!.result
  const sb = b.serve.pubmatch!.result
  const bpd = two(ba.indexBytes / ba.docs, bb.indexBytes / bb.docs)
  const perDoc = projectPerDocLogLinear(bpd, N)
  rows.push([
    'index bytes/doc (log-linear)',
    fmt(bpd[0].value),
    fmt(bpd[1].value),
    `${fmt(bpd[1].value - bpd[0].value, 0)} per decade`,
    `${fmt(perDoc)} → **${fmt((perDoc * N) / GIB, 1)} GiB**`,
  ])
  const kinds = Object.keys(bb.fileBytes ?? {}).filter((k) => (ba.fileBytes ?? {})[k] !== undefined)
  let largestKind = ''
  let largest = 0
  for (const kind of kinds) {
    const at =
      projectPerDocLogLinear(
        two(ba.fileBytes![kind]! / ba.docs, bb.fileBytes![kind]! / bb.docs),
        N,
      ) * N
    if (at > largest) {
      largest = at
      largestKind = kind
    }
  }
  if (largestKind !== '') {
    rows.push([
      `largest file of one segment (\`.${largestKind}\`), bytes/doc`,
      fmt(ba.fileBytes![largestKind]! / ba.docs),
      fmt(bb.fileBytes![largestKind]! / bb.docs),
      'log-linear',
      `${fmt(largest / GIB, 1)} GiB (Node 20 Buffer limit 4 GiB${largest > NODE20_MAX_BUFFER ? ': **exceeded**' : ''})`,
    ])
  }
  const rss = two(sa.rssAfterOpenMiB, sb.rssAfterOpenMiB)
  rows.push([
    'serving RSS after open, MiB (linear)',
    fmt(rss[0].value),
    fmt(rss[1].value),
    `${fmt(((rss[1].value - rss[0].value) * MIB) / (b.docs - a.docs))} bytes/doc`,
    `**${fmt(projectLinear(rss, N) / 1024, 1)} GiB**`,
  ])
  const buildRss = two(ba.peakRssMiB, bb.peakRssMiB)
  rows.push([
    'build peak RSS, MiB (linear)',
    fmt(buildRss[0].value),
    fmt(buildRss[1].value),
    `${fmt(((buildRss[1].value - buildRss[0].value) * MIB) / (b.docs - a.docs))} bytes/doc`,
    `${fmt(projectLinear(buildRss, N) / 1024, 1)} GiB`,
  ])
  const rate = two(buildCpuRate(ba), buildCpuRate(bb))
  rows.push([
    'build docs/CPU-s',
    fmt(rate[0].value),
    fmt(rate[1].value),
    `α = ${fmt(powerLawExponent(rate), 2)}`,
    `${fmt(projectPowerLaw(rate, N))} → ${fmt(N / projectPowerLaw(rate, N) / 3600, 1)} CPU-hours for one index`,
  ])
  for (const match of ['all', 'any'] as const) {
    const ca = findCell(a, 'log-pubmed', match)
    const cb = findCell(b, 'log-pubmed', match)
    if (ca === undefined || cb === undefined) {
      continue
    }
    const name = `log queries, match ${match}, top 500`
    power(`${name}: p50 ms`, two(ca.latency.p50, cb.latency.p50), 2)
    power(`${name}: p95 ms`, two(ca.latency.p95, cb.latency.p95), 1)
    power(`${name}: p99 ms`, two(ca.latency.p99, cb.latency.p99), 1)
    power(`${name}: mean ms`, two(ca.latency.mean, cb.latency.mean), 1)
    power(`${name}: CPU ms/query`, two(ca.cpuMsPerQuery, cb.cpuMsPerQuery), 1)
    if (ca.postingsPerQuery !== undefined && cb.postingsPerQuery !== undefined) {
      power(`${name}: postings scored/query`, two(ca.postingsPerQuery, cb.postingsPerQuery), 0)
    }
  }
  const table = markdownTable(
    ['quantity', a.label, b.label, 'growth', `projected, one index of ${fmt(N)}`],
    rows,
  )
  const machines: MachineSpec[] = [
    { name: 'this machine: 24 GiB, 2 cores', ramGiB: 24, cores: 2, reserveGiB: 4 },
    { name: '64 GiB, 16 cores', ramGiB: 64, cores: 16, reserveGiB: 8 },
  ]
  const plans: string[] = []
  for (const match of ['all', 'any'] as const) {
    const inputs = scalingInputs(pair, match)
    if (inputs === null) {
      continue
    }
    for (const machine of machines) {
      const planRows = [1e6, 2e6, 3e6, 4.5e6, 6e6, 9e6, 12e6, N].map((shardDocs) => {
        const row = planShards(inputs, {
          totalDocs: N,
          shardDocs,
          machine,
          coordinatorMs: shardDocs === N ? 0 : 1,
        })
        return [
          fmt(shardDocs),
          fmt(row.shards),
          fmt(row.indexGiBPerShard, 2),
          fmt(row.ramGiBPerShard, 2),
          fmt(row.shardsPerMachine),
          fmt(row.machines),
          fmtMs(row.p50Ms),
          fmtMs(row.p99Ms),
          fmt(row.cpuMsPerQuery, 0),
          fmt(row.maxQps, 0),
        ]
      })
      plans.push(
        `Match ${match}, top 500 — ${machine.name} (${machine.reserveGiB} GiB kept free):\n\n` +
          markdownTable(
            [
              'docs/shard',
              'shards',
              'index GiB/shard',
              'RAM GiB/shard',
              'shards/machine',
              'machines (1 copy)',
              'p50 ms',
              'p99 ms',
              'CPU ms/query (all shards)',
              'max QPS (1 copy)',
            ],
            planRows,
          ),
      )
    }
  }
  return [
    `Projected from ${a.label} and ${b.label} (pubmatch, PubMed fields, this run):`,
    '',
    table,
    '',
    "Shard layouts (document-partitioned; every figure projected from the two sizes, none measured; p50/p99 = one shard's projected latency + 1 ms coordinator, 0 for one index):",
    '',
    plans.join('\n\n'),
  ].join('\n')
}

/** NFCorpus dev nDCG@10 of every engine that has it (NFCorpus ×1), or `null`. */
function ndcgLine(corpora: readonly CorpusResults[]): string | null {
  const nf = corpora.find((c) => c.corpus === 'nfcorpus')
  if (nf === undefined) {
    return null
  }
  const values = ENGINES.flatMap((engine): string[] => {
    const value =
      nf.serve[engine]?.result.ndcg10 ?? (engine === 'xapian' ? nf.xapianNdcg10 : undefined)
    return value === undefined ? [] : [`${engineLabel(engine)} ${fmt(value, 4)}`]
  })
  if (values.length === 0) {
    return null
  }
  return `NFCorpus dev nDCG@10 (325 title queries, 1,000 hits, \`s-3.qrel\`, trec_eval -c through @pubmatch/eval): ${values.join(', ')} (reference README: Xapian BM25 + Porter2 0.2979).`
}

/**
 * The Markdown report of a run: build, serving memory, latency, the comparison with the
 * anchors (ratios to the fastest, nDCG@10, their configuration), the JavaScript libraries'
 * reference figures, and the projection to PubMed's size.
 * @param results - a run (`.cache/results/*.json`)
 */
export function renderResults(results: BenchResults): string {
  const { corpora } = results
  const parts: string[] = [
    `# First-stage benchmark (tools/bench-search)`,
    '',
    `- Command: \`${results.command}\``,
    `- Run: ${results.started.replace('T', ' ').slice(0, 16)} → ${results.finished.replace('T', ' ').slice(0, 16)} UTC`,
    `- Machine: ${results.machine}`,
    `- Query rounds per cell: ${results.rounds}; log queries: ${results.logQueries.measured} measured, ${results.logQueries.warmup} warm-up (disjoint); NFCorpus dev: 325 measured, ${results.logQueries.warmup} train queries warm-up`,
    ...(results.xapianSkipped === undefined ? [] : [`- Xapian skipped: ${results.xapianSkipped}`]),
    ...Object.entries(results.anchorsSkipped ?? {}).map(
      ([anchor, reason]) => `- ${engineLabel(anchor as AnchorName)} skipped: ${reason}`,
    ),
    '',
    '## Index build',
    '',
    buildTable(corpora),
    '',
    '## Serving: open and memory',
    '',
    serveTable(corpora),
    '',
    '## Query latency',
    '',
    latencyTable(corpora),
    '',
  ]
  const anchors = anchorsIn(corpora)
  const latency = anchorLatencyTable(corpora, anchors)
  const buildSize = anchorBuildTable(corpora, anchors)
  const config = anchorConfigTable(corpora, anchors)
  const ndcg = ndcgLine(corpora)
  if (latency !== null || buildSize !== null) {
    parts.push(
      '## pubmatch against the anchors (same run, same documents and queries)',
      '',
      'Ratios are pubmatch ÷ anchor: for times above 1 means pubmatch is slower, for rates (docs/s) below 1 means pubmatch is slower. "Fastest" and "best" are the best anchor of this run for that figure. pubmatch runs its pruned cell (block-max MaxScore); the anchors prune with their own bounds.',
      '',
    )
    if (latency !== null) {
      parts.push('### Queries', '', latency, '')
    }
    if (buildSize !== null) {
      parts.push('### Build, index, opening and memory', '', buildSize, '')
    }
    if (ndcg !== null) {
      parts.push('### Effectiveness', '', ndcg, '')
    }
    if (config !== null) {
      parts.push("### The anchors' configuration (as their drivers state it)", '', config, '')
    }
  } else if (ndcg !== null) {
    parts.push('## Effectiveness', '', ndcg, '')
  }
  const js = jsLibraries(corpora)
  if (js !== null) {
    parts.push('## Against the JavaScript libraries', '', js, '')
  }
  const projection = projectionSection(corpora)
  if (projection !== null) {
    parts.push('## Projection to PubMed (36M articles)', '', projection, '')
  }
  return `${parts.join('\n')}\n`
}
