/**
 * The anchors' Python drivers (`python/*_driver.py`, protocol in `python/anchor_common.py`):
 * running a build or a serving process, and checking and converting what they print into the
 * results pubmatch's cases produce (the same latency statistics code for every engine).
 */
import { writeFileSync } from 'node:fs'
import { lastJsonLine } from '@pubmatch/bench-kit'
import { json, PubmatchError, type JsonShape } from '@pubmatch/core'
import { ANCHORS, type AnchorName } from './anchors.ts'
import { summarizeRounds } from './latency.ts'
import { runProcess } from './measure.ts'
import type { SearchCell } from './query-sets.ts'
import type { BuildResult, CellResult, ServeResult } from './results.ts'

/** What a driver's `build` prints. */
export interface DriverBuildOutput {
  readonly docs: number
  /** Wall seconds of the whole build, input included. */
  readonly seconds: number
  /** Wall seconds reading and converting the input (left out of docs/s). */
  readonly parseSeconds: number
  /** Wall seconds after the last document (commit, merges, compaction, compression). */
  readonly tailSeconds: number
  readonly cpuSeconds: number
  readonly peakRssMiB: number
  /** Bytes of the index a query process reads. */
  readonly indexBytes: number
  /** Bytes written during the build, intermediate files included (when they differ). */
  readonly buildBytes?: number
  /** Bytes of postings and positions (tantivy: `.idx` and `.pos`). */
  readonly postingsBytes?: number
  /** Bytes of stored records (tantivy: `.store`). */
  readonly storedBytes?: number
  readonly segments?: number
  /** The engine's version (the Python package's for tantivy and PISA). */
  readonly version: string
  /** The driver's configuration, one sentence per aspect (`fields`, `analysis`, …). */
  readonly config: Readonly<Record<string, string>>
}

/** The shape of {@link DriverBuildOutput}. */
export const DRIVER_BUILD_OUTPUT: JsonShape<DriverBuildOutput> = json.object({
  docs: json.count,
  seconds: json.number,
  parseSeconds: json.number,
  tailSeconds: json.number,
  cpuSeconds: json.number,
  peakRssMiB: json.number,
  indexBytes: json.count,
  buildBytes: json.optional(json.count),
  postingsBytes: json.optional(json.count),
  storedBytes: json.optional(json.count),
  segments: json.optional(json.count),
  version: json.string,
  config: json.record(json.string),
})

/** One cell of a driver's `query` output. */
export interface DriverCellOutput {
  /** Distinct measured queries. */
  readonly queries: number
  /** Every round's latencies, round after round (`queries × rounds` values). */
  readonly latenciesMs: readonly number[]
  /** The process CPU time of each of those queries. */
  readonly cpuMs: readonly number[]
  /** Matches over round 1 (Xapian: its estimates; tantivy: exact counts), `null` when unknown (PISA). */
  readonly matches: number | null
  /** Round-1 queries without a hit. */
  readonly emptyQueries: number
}

/** What a driver's `query` prints. */
export interface DriverQueryOutput {
  readonly openMs: number
  readonly rssAfterOpenMiB: number
  readonly peakRssMiB: number
  readonly indexBytes: number
  readonly docs: number
  readonly cells: readonly DriverCellOutput[]
}

/** The shape of {@link DriverQueryOutput}. */
export const DRIVER_QUERY_OUTPUT: JsonShape<DriverQueryOutput> = json.object({
  openMs: json.number,
  rssAfterOpenMiB: json.number,
  peakRssMiB: json.number,
  indexBytes: json.count,
  docs: json.count,
  cells: json.array(
    json.object({
      queries: json.count,
      latenciesMs: json.array(json.number),
      cpuMs: json.array(json.number),
      matches: json.nullable(json.number),
      emptyQueries: json.count,
    }),
  ),
})

/**
 * A driver's build output as a {@link BuildResult}.
 * @param anchor - the anchor
 * @param corpus - the corpus name
 * @param raw - the driver's output
 * @param date - when it was measured. Defaults to now.
 */
export function anchorBuildResult(
  anchor: AnchorName,
  corpus: string,
  raw: DriverBuildOutput,
  date: Date = new Date(),
): BuildResult {
  return {
    engine: anchor,
    corpus,
    docs: raw.docs,
    seconds: raw.seconds,
    inputSeconds: raw.parseSeconds,
    tailSeconds: raw.tailSeconds,
    cpuSeconds: raw.cpuSeconds,
    peakRssMiB: raw.peakRssMiB,
    indexBytes: raw.indexBytes,
    ...(raw.buildBytes === undefined ? {} : { buildBytes: raw.buildBytes }),
    ...(raw.postingsBytes === undefined ? {} : { postingsBytes: raw.postingsBytes }),
    ...(raw.storedBytes === undefined ? {} : { storedBytes: raw.storedBytes }),
    ...(raw.segments === undefined ? {} : { segments: raw.segments }),
    date: date.toISOString(),
    version: raw.version,
    config: raw.config,
  }
}

/**
 * Indexes the JSON-lines documents into a new index of the anchor (see the driver's header for
 * its configuration) and returns what the driver measured.
 * @param python - the interpreter
 * @param anchor - the anchor
 * @param corpus - the corpus name, for the result
 * @param docsPath - `writeTitleAbstractJsonl` output
 * @param dir - the index directory (overwritten)
 * @param stopwordsPath - the index-time stop words, one per line
 */
export async function anchorBuild(
  python: string,
  anchor: AnchorName,
  corpus: string,
  docsPath: string,
  dir: string,
  stopwordsPath: string,
): Promise<BuildResult> {
  const stdout = await runProcess(python, [
    ANCHORS[anchor].driver,
    'build',
    docsPath,
    dir,
    stopwordsPath,
  ])
  return anchorBuildResult(
    anchor,
    corpus,
    lastJsonLine(stdout, DRIVER_BUILD_OUTPUT, `${anchor}_driver.py build`),
  )
}

/** One anchor cell: what to run, with the files the driver reads. */
export interface AnchorCellSpec {
  readonly cell: SearchCell
  /** JSON lines `{ id, text }`. */
  readonly queries: string
  /** Warm-up queries, or `null`. */
  readonly warmup: string | null
  /** Query-time stop words, one per line. */
  readonly stopwords: string
  /** Write the cell's hits as a TREC run here, or `null`. */
  readonly run: string | null
}

/**
 * Turns a driver's query output into results comparable with pubmatch's (the same latency
 * statistics code for every engine).
 * @param anchor - the anchor
 * @param corpus - the corpus name
 * @param cells - the cells, in the order given to the driver
 * @param rounds - measured rounds
 * @param raw - the driver's output
 * @throws PubmatchError `MALFORMED_JSON` when the output does not match the cells and rounds
 */
export function anchorServeResult(
  anchor: AnchorName,
  corpus: string,
  cells: readonly SearchCell[],
  rounds: number,
  raw: DriverQueryOutput,
): ServeResult {
  if (raw.cells.length !== cells.length) {
    throw new PubmatchError(
      'MALFORMED_JSON',
      `${anchor}_driver.py query: ${raw.cells.length} cells in its output, ${cells.length} asked for`,
    )
  }
  return {
    engine: anchor,
    corpus,
    docs: raw.docs,
    openMs: raw.openMs,
    rssAfterOpenMiB: raw.rssAfterOpenMiB,
    peakRssMiB: raw.peakRssMiB,
    indexBytes: raw.indexBytes,
    cells: raw.cells.map((out, i): CellResult => {
      const cell = cells[i]!
      const expected = out.queries * rounds
      if (out.latenciesMs.length !== expected || out.cpuMs.length !== expected) {
        throw new PubmatchError(
          'MALFORMED_JSON',
          `${anchor}_driver.py query, cell ${i}: ${out.latenciesMs.length} latencies and ${out.cpuMs.length} CPU times, expected ${out.queries} queries × ${rounds} rounds = ${expected}`,
        )
      }
      return {
        ...cell,
        pruning: true,
        queries: out.queries,
        rounds,
        errors: 0,
        ...summarizeRounds(out.latenciesMs, out.cpuMs, out.queries),
        ...(out.matches === null
          ? {}
          : { matchesPerQuery: out.matches / Math.max(1, out.queries) }),
        emptyQueries: out.emptyQueries,
      }
    }),
  }
}

/**
 * Runs an anchor's query cells in one process (warm-up, then `rounds` round-robin passes).
 * @param python - the interpreter
 * @param anchor - the anchor
 * @param corpus - the corpus name
 * @param dir - the index
 * @param specPath - where to write the driver's spec file
 * @param cells - the cells and their files
 * @param rounds - measured rounds
 * @throws PubmatchError `INVALID_ARGUMENT` for no cells
 */
export async function anchorServe(
  python: string,
  anchor: AnchorName,
  corpus: string,
  dir: string,
  specPath: string,
  cells: readonly AnchorCellSpec[],
  rounds: number,
): Promise<ServeResult> {
  if (cells.length === 0) {
    throw new PubmatchError('INVALID_ARGUMENT', 'anchorServe needs at least one cell')
  }
  writeFileSync(
    specPath,
    JSON.stringify({
      rounds,
      cells: cells.map((c) => ({
        queries: c.queries,
        warmup: c.warmup,
        stopwords: c.stopwords,
        op: c.cell.match === 'all' ? 'and' : 'or',
        limit: c.cell.limit,
        run: c.run,
      })),
    }),
  )
  const stdout = await runProcess(python, [ANCHORS[anchor].driver, 'query', dir, specPath])
  return anchorServeResult(
    anchor,
    corpus,
    cells.map((c) => c.cell),
    rounds,
    lastJsonLine(stdout, DRIVER_QUERY_OUTPUT, `${anchor}_driver.py query`),
  )
}
