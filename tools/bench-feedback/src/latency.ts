/**
 * `pnpm --filter @pubmatch/bench-feedback bench:latency`: how long a feedback round takes on a
 * 3,000-document candidate set — `session.grade(round)` (Rocchio update: the graded documents'
 * vectors, IDF) plus `session.next()` (re-ranking every candidate under the new vector) — and
 * how long starting a session takes (first stage, candidate set, initial vector + PRF, first
 * ranking). NFCorpus dev title queries; simulated grades from the qrels; every configuration on a
 * fresh candidate set, so the first execution of each round is cold (new documents analysed,
 * new terms' postings walked); then the same round again on the same state (warm).
 * Writes the `latency` section of RESULTS.md and the raw samples to `.cache/latency.json`.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import type { SearchEngine } from '@pubmatch/engine'
import { analyzerOf, engineInternals } from '@pubmatch/engine/internal'
import { shuffle } from '@pubmatch/eval'
import {
  indexCandidates,
  startSession,
  type FeedbackGrade,
  type IdfMode,
  type Ranking,
} from '@pubmatch/feedback'
import { markdownTable, ms, summarize, type Summary } from './report.ts'
import { simulatedGrade } from './residual.ts'
import { memoisedCandidates } from './what-if.ts'
import {
  CACHE_DIR,
  load,
  log,
  machine,
  openNfcorpus,
  readSplit,
  sharedDataDir,
  writeResultsSection,
} from './setup.ts'

/** Options of {@link runLatency}. */
export interface LatencyOptions {
  /** Judged dev queries timed (a sample shuffled with `seed`); `Infinity` for all. Defaults to `40`. */
  readonly queries?: number
  /** Warm repetitions of each round. Defaults to `2`. */
  readonly warm?: number
  /** Rounds per session. Defaults to `5`. */
  readonly rounds?: number
  /** Candidate-set size. Defaults to `3000`. */
  readonly candidates?: number
  /** Sample seed. Defaults to `12`. */
  readonly seed?: number
}

interface Config {
  readonly name: string
  readonly ranking: Ranking
  readonly idf: IdfMode
}

const CONFIGS: readonly Config[] = (['global', 'local'] as const).flatMap((idf) =>
  (['tfidf', 'bm25', 'borda', 'maxnorm'] as const).map((ranking) => ({
    name: `${ranking} ${idf}`,
    ranking,
    idf,
  })),
)

/** How a candidate set is made: padded to the full size or as retrieved; `what-if`: padded, built by {@link memoisedCandidates}. */
type SetKind = 'padded' | 'retrieved' | 'what-if'

const KINDS: readonly SetKind[] = ['padded', 'retrieved', 'what-if']

/** Timings of one configuration on one kind of candidate set (milliseconds). */
interface Samples {
  search: number[]
  candidates: number[]
  start: number[]
  firstNext: number[]
  /** Whole session start: candidate set + startSession + first next(). */
  sessionStart: number[]
  round1Cold: number[]
  laterCold: number[]
  warm: number[]
  /** grade() and next() apart, warm. */
  warmGrade: number[]
  warmNext: number[]
  setSizes: number[]
  /** A hash of the ranking after the start and after each round, per query. */
  signatures: string[]
}

function emptySamples(): Samples {
  return {
    search: [],
    candidates: [],
    start: [],
    firstNext: [],
    sessionStart: [],
    round1Cold: [],
    laterCold: [],
    warm: [],
    warmGrade: [],
    warmNext: [],
    setSizes: [],
    signatures: [],
  }
}

/**
 * The candidates' document numbers: the first stage's top `size`, and with `padded`, then the
 * index's other documents in document order until there are `size`.
 */
function candidateDocs(
  engine: SearchEngine,
  text: string,
  size: number,
  kind: SetKind,
): { docs: number[]; searchMs: number } {
  const { reader } = engineInternals(engine)
  const started = performance.now()
  const result = engine.firstStageSearch(text, { limit: size, tieBreak: 'idDescending' })
  const searchMs = performance.now() - started
  const docs = result.hits.map((hit) => hit.docNumber)
  if (kind !== 'retrieved' && docs.length < size) {
    const taken = new Set(docs)
    for (let doc = 0; doc < reader.docCount && docs.length < size; doc++) {
      if (!taken.has(doc)) {
        docs.push(doc)
      }
    }
  }
  return { docs, searchMs }
}

function timeQuery(
  engine: SearchEngine,
  query: { readonly text: string },
  judgements: ReadonlyMap<string, number> | undefined,
  config: Config,
  kind: SetKind,
  options: Required<Omit<LatencyOptions, 'queries' | 'seed'>>,
  into: Samples,
): void {
  const { reader } = engineInternals(engine)
  const { docs, searchMs } = candidateDocs(engine, query.text, options.candidates, kind)
  const t0 = performance.now()
  const candidates =
    kind === 'what-if'
      ? memoisedCandidates(reader, docs)
      : indexCandidates(reader, docs)
  const t1 = performance.now()
  let session = startSession({
    query: query.text,
    candidates,
    analyzer: analyzerOf(engine),
    ranking: config.ranking,
    idf: config.idf,
    prf: true,
  })
  const t2 = performance.now()
  let proposed = session.next().map((doc) => doc.id)
  const t3 = performance.now()
  into.search.push(searchMs)
  into.candidates.push(t1 - t0)
  into.start.push(t2 - t1)
  into.firstNext.push(t3 - t2)
  into.sessionStart.push(t3 - t0)
  into.setSizes.push(docs.length)
  const hashes = [rankingHash(session.ranking())]
  for (let k = 1; k <= options.rounds && proposed.length > 0; k++) {
    const round = {
      shown: proposed,
      grades: new Map<string, FeedbackGrade>(
        proposed.map((id) => [id, simulatedGrade(judgements, id)]),
      ),
    }
    const c0 = performance.now()
    const next = session.grade(round)
    const nextProposed = next.next().map((doc) => doc.id)
    const c1 = performance.now()
    ;(k === 1 ? into.round1Cold : into.laterCold).push(c1 - c0)
    for (let w = 0; w < options.warm; w++) {
      const w0 = performance.now()
      const again = session.grade(round)
      const w1 = performance.now()
      again.next()
      const w2 = performance.now()
      into.warm.push(w2 - w0)
      into.warmGrade.push(w1 - w0)
      into.warmNext.push(w2 - w1)
    }
    session = next
    proposed = nextProposed
    hashes.push(rankingHash(session.ranking()))
  }
  into.signatures.push(hashes.join(' '))
}

/** FNV-1a over the ranked ids (a ranking's fingerprint). */
function rankingHash(ranking: ReadonlyArray<{ readonly id: string }>): string {
  let h = 0x811c9dc5
  for (const { id } of ranking) {
    for (let i = 0; i < id.length; i++) {
      h = Math.imul(h ^ id.charCodeAt(i), 0x01000193)
    }
    h = Math.imul(h ^ 0x2c, 0x01000193)
  }
  return (h >>> 0).toString(16)
}

function row(label: string, s: Summary): string[] {
  return [label, String(s.n), ms(s.p50), ms(s.p90), ms(s.p99), ms(s.mean), ms(s.max)]
}

const HEADER = ['', 'n', 'p50 ms', 'p90 ms', 'p99 ms', 'mean ms', 'max ms']

/**
 * Times the sessions and writes the report section.
 * @param options - see {@link LatencyOptions}
 * @returns the Markdown section
 */
export async function runLatency(options: LatencyOptions = {}): Promise<string> {
  const settings = {
    warm: options.warm ?? 2,
    rounds: options.rounds ?? 5,
    candidates: options.candidates ?? 3000,
  }
  const seed = options.seed ?? 12
  const startedAt = new Date()
  const loadBefore = load()
  log(`latency: load average before: ${loadBefore}`)
  const shared = sharedDataDir()
  const { engine, setup } = await openNfcorpus(shared)
  const dev = await readSplit(shared, 'dev')
  const judged = dev.queries.filter((q) => dev.qrels.has(q.id))
  const count = Math.min(judged.length, options.queries ?? 40)
  const queries =
    count >= judged.length
      ? judged
      : shuffle(judged, seed)
          .slice(0, count)
          .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  // warm-up: the code paths and the index pages, not measured
  for (const query of queries.slice(0, 5)) {
    timeQuery(
      engine,
      query,
      dev.qrels.get(query.id),
      CONFIGS[0]!,
      'padded',
      { ...settings, rounds: 2, warm: 1 },
      emptySamples(),
    )
  }
  const samples = new Map<string, Samples>()
  const cpuStarted = process.cpuUsage()
  const wallStarted = performance.now()
  for (const kind of KINDS) {
    for (const config of CONFIGS) {
      const into = emptySamples()
      for (const query of queries) {
        timeQuery(engine, query, dev.qrels.get(query.id), config, kind, settings, into)
      }
      samples.set(`${kind}|${config.name}`, into)
      log(
        `latency ${kind} ${config.name}: round p50 cold ${ms(summarize([...into.round1Cold, ...into.laterCold]).p50)} ms, warm ${ms(summarize(into.warm).p50)} ms`,
      )
    }
  }
  const cpu = process.cpuUsage(cpuStarted)
  const wallS = (performance.now() - wallStarted) / 1000
  const cpuShare = (cpu.user + cpu.system) / 1e6 / wallS
  const loadAfter = load()
  log(`latency: load average after: ${loadAfter}`)

  const retrievedSizes = summarize(samples.get(`retrieved|${CONFIGS[0]!.name}`)!.setSizes)
  const sizes = samples.get(`retrieved|${CONFIGS[0]!.name}`)!.setSizes
  const full = sizes.filter((n) => n >= settings.candidates).length
  const size = settings.candidates.toLocaleString('en-US')
  const md: string[] = [
    '## Latency of a feedback round',
    '',
    `Program: \`src/latency.ts\` (\`pnpm --filter @pubmatch/bench-feedback bench:latency --queries ${options.queries === undefined ? 40 : options.queries === Infinity ? 'all' : options.queries} --warm ${settings.warm}\`; \`bench\` runs it with the defaults, 40 and 2). ${setup}.`,
    `Machine: ${machine()}, shared with other jobs. Date: ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC; load average before ${loadBefore}, after ${loadAfter};`,
    `the process used ${(100 * cpuShare).toFixed(0)} % of one core over the timed part (${wallS.toFixed(0)} s wall), so waits for a core are in the figures.`,
    '',
    `${queries.length} judged dev title queries (${queries.length < judged.length ? `a sample of ${judged.length}, shuffled with seed ${seed}` : 'all'}), ${settings.rounds} rounds each, simulated grades from the qrels;`,
    `every configuration gets a fresh candidate set per query. **padded**: the first stage's matches (top ${size}, ties by id descending) then the index's other`,
    `documents in document order until exactly ${size} — the size a PubMed-scale query would give; **retrieved**: the first stage's matches`,
    `alone (match any: ${full} of ${sizes.length} queries reach ${size}; size median ${retrievedSizes.p50}, p90 ${retrievedSizes.p90}, min ${Math.min(...sizes)}).`,
    '',
    '- **round** = `session.grade({ shown, grades })` (Rocchio: vectors of the 10 graded documents, IDF, ≤ 30 terms) + `session.next()`',
    '  (scores every candidate under the new vector — TF-IDF and/or BM25, fused for borda/maxnorm — sorts, and takes the 10 best not shown).',
    "  **cold**: the round's first execution (the graded documents analysed from the stored text for the first time, new terms' postings",
    `  walked over the candidates); round 1 separately (its documents are the PRF ranking's top 10, partly analysed during PRF). **warm**: the same round`,
    `  repeated ${settings.warm}× on the same state (documents and term columns cached), also split into grade() and next().`,
    '- **session start** = `indexCandidates` (lengths, ids) + `startSession` (initial vector, first ranking, PRF from its top 10, ranking again)',
    `  + the first \`next()\`; the first-stage search (top ${size}) is timed apart.`,
    '',
  ]
  for (const kind of ['padded', 'retrieved'] as const) {
    md.push(
      `### ${kind === 'padded' ? `Candidate sets of exactly ${size} (padded)` : `Candidate sets as retrieved (match any, ≤ ${size})`}: one round (grade + next)`,
      '',
    )
    const rows: string[][] = []
    for (const config of CONFIGS) {
      const s = samples.get(`${kind}|${config.name}`)!
      rows.push(row(`${config.name}: round 1, cold`, summarize(s.round1Cold)))
      rows.push(row(`${config.name}: rounds 2–${settings.rounds}, cold`, summarize(s.laterCold)))
      rows.push(row(`${config.name}: warm`, summarize(s.warm)))
    }
    md.push(markdownTable(HEADER, rows), '')
    md.push(`Session start and its parts (${kind}):`, '')
    const startRows: string[][] = []
    for (const config of CONFIGS) {
      const s = samples.get(`${kind}|${config.name}`)!
      startRows.push(
        row(
          `${config.name}: session start (candidates + startSession + next)`,
          summarize(s.sessionStart),
        ),
      )
    }
    const all = [...samples.entries()]
      .filter(([key]) => key.startsWith(`${kind}|`))
      .map(([, s]) => s)
    startRows.push(
      row(`all: first-stage search, top ${size}`, summarize(all.flatMap((s) => s.search))),
    )
    startRows.push(row('all: indexCandidates', summarize(all.flatMap((s) => s.candidates))))
    startRows.push(
      row('all: startSession (vector, PRF, rankings)', summarize(all.flatMap((s) => s.start))),
    )
    startRows.push(row('all: first next()', summarize(all.flatMap((s) => s.firstNext))))
    startRows.push(row('all: warm grade() alone', summarize(all.flatMap((s) => s.warmGrade))))
    startRows.push(row('all: warm next() alone', summarize(all.flatMap((s) => s.warmNext))))
    md.push(markdownTable(HEADER, startRows), '')
  }
  {
    const rows: string[][] = []
    let same = 0
    let compared = 0
    for (const config of CONFIGS) {
      const library = samples.get(`padded|${config.name}`)!
      const whatIf = samples.get(`what-if|${config.name}`)!
      library.signatures.forEach((signature, i) => {
        compared++
        same += whatIf.signatures[i] === signature ? 1 : 0
      })
      const cold = (x: Samples): Summary => summarize([...x.round1Cold, ...x.laterCold])
      rows.push([
        config.name,
        `${ms(cold(library).p50)} / ${ms(cold(library).p90)}`,
        `${ms(cold(whatIf).p50)} / ${ms(cold(whatIf).p90)}`,
        `${ms(summarize(library.warm).p50)} / ${ms(summarize(library.warm).p90)}`,
        `${ms(summarize(whatIf.warm).p50)} / ${ms(summarize(whatIf.warm).p90)}`,
        `${ms(summarize(library.sessionStart).p50)} → ${ms(summarize(whatIf.sessionStart).p50)}`,
      ])
    }
    md.push(
      `### The library against the benchmark's reimplementation (exactly ${size} candidates)`,
      '',
      "`src/what-if.ts` builds the candidate set with the two changes this benchmark first measured here and the library has since taken up: (1) a term's column filled by walking its postings once with a",
      'document → candidate table, (2) local and global document frequencies memoised per term (the library reads a short postings list whole and jumps through a long one). A cross-check of speed and rankings:',
      `same queries, rounds and grades as the padded table; the rankings after the start and after every round are identical in ${same} of ${compared} sessions.`,
      '',
      markdownTable(
        [
          'configuration',
          'cold round p50 / p90 ms, library',
          'what-if',
          'warm round p50 / p90 ms, library',
          'what-if',
          'session start p50 ms, library → what-if',
        ],
        rows,
      ),
      '',
    )
  }
  const padded = CONFIGS.map((config) => {
    const s = samples.get(`padded|${config.name}`)!
    return {
      name: config.name,
      cold: summarize([...s.round1Cold, ...s.laterCold]),
      warm: summarize(s.warm),
    }
  })
  const worstCold = padded.reduce((a, b) => (b.cold.p50 > a.cold.p50 ? b : a))
  const met = padded.every((p) => p.cold.p50 <= 50)
  md.push(
    `Target (a feedback round on a 3,000-document candidate set ≤ 50 ms p50): **${met ? 'met' : 'not met'}** — on exactly ${size} candidates the slowest configuration's`,
    `p50 over every cold round is ${ms(worstCold.cold.p50)} ms (${worstCold.name}); warm p50 ${padded.map((p) => `${p.name} ${ms(p.warm.p50)}`).join(', ')} ms.`,
    '',
  )
  const section = md.join('\n')
  await writeResultsSection('latency', section)
  await mkdir(CACHE_DIR, { recursive: true })
  await writeFile(
    join(CACHE_DIR, 'latency.json'),
    JSON.stringify({
      startedAt,
      loadBefore,
      loadAfter,
      settings,
      queries: queries.length,
      samples: Object.fromEntries(samples),
    }),
  )
  return section
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: {
      queries: { type: 'string' },
      warm: { type: 'string' },
      rounds: { type: 'string' },
      candidates: { type: 'string' },
      seed: { type: 'string' },
    },
  })
  const number = (v: string): number => (v === 'all' ? Infinity : Number(v))
  const section = await runLatency({
    ...(values.queries === undefined ? {} : { queries: number(values.queries) }),
    ...(values.warm === undefined ? {} : { warm: number(values.warm) }),
    ...(values.rounds === undefined ? {} : { rounds: number(values.rounds) }),
    ...(values.candidates === undefined ? {} : { candidates: number(values.candidates) }),
    ...(values.seed === undefined ? {} : { seed: number(values.seed) }),
  })
  process.stdout.write(`${section}\n`)
}
