import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { lastJsonLine } from '@pubmatch/bench-kit'
import { json, PubmatchError, type JsonShape } from '@pubmatch/core'
import { summarizeRounds } from './latency.ts'
import { runProcess } from './measure.ts'
import type { SearchCell } from './query-sets.ts'
import type { BuildResult, CellResult, ServeResult } from './results.ts'

/** The Python driver, kept in this package (`python/xapian_driver.py`). */
export const XAPIAN_DRIVER: string = fileURLToPath(
  new URL('../python/xapian_driver.py', import.meta.url),
)

/**
 * The first Python that can `import xapian`: `PUBMATCH_PYTHON`, then Debian's
 * `/usr/bin/python3` (where `apt-get install python3-xapian` puts the module; a pyenv
 * `python3` on the PATH may not see it), then `python3`.
 * @returns the interpreter, or `null` when none has the module
 */
export function findXapianPython(): string | null {
  const candidates = [process.env['PUBMATCH_PYTHON'], '/usr/bin/python3', 'python3']
  for (const python of candidates) {
    if (python === undefined || python === '') {
      continue
    }
    const probe = spawnSync(python, ['-c', 'import xapian'], { stdio: 'ignore' })
    if (probe.status === 0) {
      return python
    }
  }
  return null
}

/** The driver's `build` output. */
interface DriverBuild {
  docs: number
  seconds: number
  compactSeconds: number
  uncompactedBytes: number
  parseSeconds: number
  cpuSeconds: number
  peakRssMiB: number
  indexBytes: number
  xapian: string
}

const DRIVER_BUILD: JsonShape<DriverBuild> = json.object({
  docs: json.count,
  seconds: json.number,
  compactSeconds: json.number,
  uncompactedBytes: json.count,
  parseSeconds: json.number,
  cpuSeconds: json.number,
  peakRssMiB: json.number,
  indexBytes: json.count,
  xapian: json.string,
})

/**
 * Indexes the JSON-lines documents into a new Xapian database (see the driver's header for
 * the configuration) and returns what the driver measured.
 * @param python - the interpreter (`findXapianPython`)
 * @param corpus - the corpus name, for the result
 * @param docsPath - `writeTitleAbstractJsonl` output
 * @param dbDir - the database directory (overwritten)
 * @param stopwordsPath - one word per line
 */
export async function xapianBuild(
  python: string,
  corpus: string,
  docsPath: string,
  dbDir: string,
  stopwordsPath: string,
): Promise<BuildResult & { readonly version: string; readonly uncompactedBytes: number }> {
  const stdout = await runProcess(python, [XAPIAN_DRIVER, 'build', docsPath, dbDir, stopwordsPath])
  const raw = lastJsonLine(stdout, DRIVER_BUILD, 'xapian_driver.py build')
  return {
    engine: 'xapian',
    corpus,
    docs: raw.docs,
    seconds: raw.seconds,
    inputSeconds: raw.parseSeconds,
    tailSeconds: raw.compactSeconds,
    cpuSeconds: raw.cpuSeconds,
    peakRssMiB: raw.peakRssMiB,
    indexBytes: raw.indexBytes,
    uncompactedBytes: raw.uncompactedBytes,
    date: new Date().toISOString(),
    version: raw.xapian,
  }
}

/** One Xapian cell: what to run, with the files the driver reads. */
export interface XapianCellSpec {
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

/** The driver's `query` output. */
export interface DriverQueryOutput {
  openMs: number
  rssAfterOpenMiB: number
  peakRssMiB: number
  indexBytes: number
  docs: number
  cells: {
    queries: number
    latenciesMs: number[]
    cpuMs: number[]
    matchesEstimated: number
    emptyQueries: number
  }[]
}

const DRIVER_QUERY_OUTPUT: JsonShape<DriverQueryOutput> = json.object({
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
      matchesEstimated: json.number,
      emptyQueries: json.count,
    }),
  ),
})

/**
 * Turns the driver's raw query output into results comparable with pubmatch's (the same
 * latency statistics code for both engines).
 * @param corpus - the corpus name
 * @param cells - the cells, in the order given to the driver
 * @param rounds - measured rounds
 * @param raw - the driver's output
 */
export function xapianServeResult(
  corpus: string,
  cells: readonly SearchCell[],
  rounds: number,
  raw: DriverQueryOutput,
): ServeResult {
  return {
    engine: 'xapian',
    corpus,
    docs: raw.docs,
    openMs: raw.openMs,
    rssAfterOpenMiB: raw.rssAfterOpenMiB,
    peakRssMiB: raw.peakRssMiB,
    indexBytes: raw.indexBytes,
    cells: raw.cells.map((out, i): CellResult => {
      const cell = cells[i]!
      return {
        ...cell,
        pruning: true,
        queries: out.queries,
        rounds,
        errors: 0,
        ...summarizeRounds(out.latenciesMs, out.cpuMs, out.queries),
        matchesPerQuery: out.matchesEstimated / Math.max(1, out.queries),
        emptyQueries: out.emptyQueries,
      }
    }),
  }
}

/**
 * Runs Xapian query cells in one process (warm-up, then `rounds` round-robin passes).
 * @param python - the interpreter
 * @param corpus - the corpus name
 * @param dbDir - the database
 * @param specPath - where to write the driver's spec file
 * @param cells - the cells and their files
 * @param rounds - measured rounds
 * @throws PubmatchError `INVALID_ARGUMENT` for no cells
 */
export async function xapianServe(
  python: string,
  corpus: string,
  dbDir: string,
  specPath: string,
  cells: readonly XapianCellSpec[],
  rounds: number,
): Promise<ServeResult> {
  if (cells.length === 0) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      'xapianServe needs at least one cell',
    )
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
  const stdout = await runProcess(python, [XAPIAN_DRIVER, 'query', dbDir, specPath])
  const raw = lastJsonLine(stdout, DRIVER_QUERY_OUTPUT, 'xapian_driver.py query')
  return xapianServeResult(
    corpus,
    cells.map((c) => c.cell),
    rounds,
    raw,
  )
}
