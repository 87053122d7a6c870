/**
 * The command line of `run.ts` (`pnpm --filter @pubmatch/bench-search bench …`), read into a
 * checked {@link BenchArgs}.
 */
import { parseArgs } from 'node:util'
import { PubmatchError, truncateForMessage } from '@pubmatch/core'
import { ANCHOR_NAMES, parseAnchorList, type AnchorName } from './anchors.ts'
import type { LogSampleSize } from './query-sets.ts'

/** What one run of the benchmark does. */
export interface BenchArgs {
  /** Re-render this saved results file instead of running (`--report FILE.json`). */
  readonly report?: string
  /** Small corpora, one round, 100 log queries (`--quick`). */
  readonly quick: boolean
  /** Rebuild every index instead of reusing the cached ones (`--rebuild`). */
  readonly rebuild: boolean
  /** Measured rounds per cell (`--rounds`; 3, or 1 with `--quick`). */
  readonly rounds: number
  /** Log queries measured and warmed up with (`--log-queries`; 500 + 100, or 100 + 20 with `--quick`). */
  readonly log: LogSampleSize
  /** Only these corpora of the plan (`--corpora a,b`). */
  readonly corpora?: readonly string[]
  /** The anchors asked for (`--anchors`, every one by default; `--no-xapian` leaves Xapian out). */
  readonly anchors: readonly AnchorName[]
  /** Include the largest synthetic corpus (`--no-largest` leaves it out). */
  readonly largest: boolean
  /** Also run Xapian on the largest synthetic corpus (`--xapian-largest`). */
  readonly xapianLargest: boolean
  /** Remake the anchors' venv even when it is current (`--refresh-anchors`). */
  readonly refreshAnchors: boolean
  /** Before each case, wait until the 1-minute load average is at most this (`--max-load`). */
  readonly maxLoad?: number
  /** … for at most this long (`--max-wait-min`, default 10 minutes). */
  readonly maxWaitMs: number
}

/** The options `run.ts` takes, as `node:util` `parseArgs` reads them. */
const OPTIONS = {
  report: { type: 'string' },
  quick: { type: 'boolean' },
  rebuild: { type: 'boolean' },
  rounds: { type: 'string' },
  'log-queries': { type: 'string' },
  corpora: { type: 'string' },
  anchors: { type: 'string' },
  'no-xapian': { type: 'boolean' },
  'no-largest': { type: 'boolean' },
  'xapian-largest': { type: 'boolean' },
  'refresh-anchors': { type: 'boolean' },
  'max-load': { type: 'string' },
  'max-wait-min': { type: 'string' },
} as const

function numberOption(
  name: string,
  text: string | undefined,
  fallback: number,
  integer: boolean,
  min: number,
): number {
  if (text === undefined) {
    return fallback
  }
  const value = Number(text)
  if (
    text.trim() === '' ||
    !Number.isFinite(value) ||
    value < min ||
    (integer && !Number.isInteger(value))
  ) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `--${name} must be ${integer ? 'an integer' : 'a number'} ≥ ${min}, not "${truncateForMessage(text)}"`,
    )
  }
  return value
}

/**
 * Reads the benchmark's command line.
 * @param argv - the arguments after the script (`process.argv.slice(2)`)
 * @throws PubmatchError `INVALID_ARGUMENT` for an unknown option, a missing or malformed value,
 *   an unknown anchor
 */
export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  let values
  try {
    ;({ values } = parseArgs({
      args: [...argv],
      options: OPTIONS,
      strict: true,
      allowPositionals: false,
    }))
  } catch (error) {
    throw new PubmatchError('INVALID_ARGUMENT', (error as Error).message, { cause: error })
  }
  const quick = values.quick === true
  const anchors = parseAnchorList(values.anchors ?? ANCHOR_NAMES.join(',')).filter(
    (anchor) => !(anchor === 'xapian' && values['no-xapian'] === true),
  )
  const maxLoad = values['max-load']
  return {
    ...(values.report === undefined ? {} : { report: values.report }),
    quick,
    rebuild: values.rebuild === true,
    rounds: numberOption('rounds', values.rounds, quick ? 1 : 3, true, 1),
    log: {
      measured: numberOption('log-queries', values['log-queries'], quick ? 100 : 500, true, 1),
      warmup: quick ? 20 : 100,
    },
    ...(values.corpora === undefined
      ? {}
      : {
          corpora: values.corpora
            .split(',')
            .map((name) => name.trim())
            .filter((name) => name !== ''),
        }),
    anchors,
    largest: values['no-largest'] !== true,
    xapianLargest: values['xapian-largest'] === true,
    refreshAnchors: values['refresh-anchors'] === true,
    ...(maxLoad === undefined ? {} : { maxLoad: numberOption('max-load', maxLoad, 0, false, 0) }),
    maxWaitMs: numberOption('max-wait-min', values['max-wait-min'], 10, false, 0) * 60_000,
  }
}
