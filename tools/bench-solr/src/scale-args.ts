/**
 * The scale benchmark's command line.
 */
import { fileURLToPath } from 'node:url'
import { PubmatchError, truncateForMessage } from '@pubmatch/core'

/** What one run does. */
export interface ScaleOptions {
  /** Synthetic articles. Defaults to `1000000` (`20000` with `--quick`). */
  readonly docs: number
  /** Measured log queries. Defaults to `500` (`100` with `--quick`). */
  readonly queries: number
  /** Warm-up log queries, disjoint from the measured ones. Defaults to `100` (`50` with `--quick`). */
  readonly warmup: number
  /** Measured passes over the queries. Defaults to `3` (`2` with `--quick`). */
  readonly passes: number
  /** Working directory (indexes, cluster, batches file, results). Defaults to `tools/bench-solr/.cache`. */
  readonly dir: string
  readonly quick: boolean
  /** Hard time limit of each phase, minutes. Defaults to `75` (`15` with `--quick`). */
  readonly timeoutMin: number
  /** Documents per update request. Defaults to `1000`. */
  readonly batchSize: number
  /** Update requests in flight. Defaults to `2`. */
  readonly concurrency: number
  /** The cluster JVM's heap. Defaults to `4g`. */
  readonly heap: string
  /** Synthetic corpus seed. Defaults to `1` (tools/bench-search's). */
  readonly seed: number
  /** `buildIndex` segment-build workers of the embedded build. Defaults to `0` (as tools/bench-search). */
  readonly embeddedWorkers: number
  /**
   * Projection: a shard of the projected cluster holds at most the measured documents per shard
   * times this factor. Defaults to `6` (3M articles per shard from 1M on 2 shards, tools/bench-search's plan).
   */
  readonly shardFactor: number
  /** Skip the embedded engine (Solr only). Defaults to `false`. */
  readonly skipEmbedded: boolean
}

/** The default working directory: `.cache/` of this package (same path from `src/` and `dist/`). */
export function defaultCacheDir(): string {
  return fileURLToPath(new URL('../.cache/', import.meta.url))
}

const INTEGER_FLAGS = {
  '--docs': 'docs',
  '--queries': 'queries',
  '--warmup': 'warmup',
  '--passes': 'passes',
  '--timeout-min': 'timeoutMin',
  '--batch-size': 'batchSize',
  '--concurrency': 'concurrency',
  '--seed': 'seed',
  '--embedded-workers': 'embeddedWorkers',
  '--shard-factor': 'shardFactor',
} as const satisfies Record<string, keyof ScaleOptions>

type IntegerOption = (typeof INTEGER_FLAGS)[keyof typeof INTEGER_FLAGS]

/** The log has 918 queries of 1–5 terms; warm-up and measured queries are drawn without repeats. */
export const MAX_LOG_QUERIES = 918

function invalid(message: string): PubmatchError {
  return new PubmatchError('INVALID_ARGUMENT', `@pubmatch/bench-solr: ${message}`)
}

function parseInteger(flag: string, value: string | undefined): number {
  const parsed = Number(value)
  if (value === undefined || !Number.isInteger(parsed) || parsed < 0) {
    throw invalid(`${flag} needs a non-negative integer, got ${truncateForMessage(String(value))}`)
  }
  return parsed
}

function defaults(quick: boolean): ScaleOptions {
  return {
    docs: quick ? 20_000 : 1_000_000,
    queries: quick ? 100 : 500,
    warmup: quick ? 50 : 100,
    passes: quick ? 2 : 3,
    dir: defaultCacheDir(),
    quick,
    timeoutMin: quick ? 15 : 75,
    batchSize: 1000,
    concurrency: 2,
    heap: '4g',
    seed: 1,
    embeddedWorkers: 0,
    shardFactor: 6,
    skipEmbedded: false,
  }
}

function check(options: ScaleOptions): ScaleOptions {
  for (const key of [
    'docs',
    'queries',
    'passes',
    'timeoutMin',
    'batchSize',
    'concurrency',
    'shardFactor',
  ] as const) {
    if (options[key] < 1) {
      throw invalid(`--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} must be at least 1`)
    }
  }
  if (options.queries + options.warmup > MAX_LOG_QUERIES) {
    throw invalid(
      `--queries + --warmup must be at most ${MAX_LOG_QUERIES} (the log's distinct 1–5-term queries), got ${options.queries + options.warmup}`,
    )
  }
  if (!/^\d+[mg]$/i.test(options.heap)) {
    throw invalid(`--heap needs a JVM size such as 4g, got ${truncateForMessage(options.heap)}`)
  }
  return options
}

/**
 * Parses the flags (`process.argv.slice(2)`); `--quick` changes the defaults of the flags not given.
 * @param argv - the arguments
 * @throws PubmatchError `INVALID_ARGUMENT` for an unknown flag or a bad value
 */
export function parseScaleArgs(argv: readonly string[]): ScaleOptions {
  const quick = argv.includes('--quick')
  const given: Partial<Record<IntegerOption, number>> & {
    dir?: string
    heap?: string
    skipEmbedded?: boolean
  } = {}
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!
    if (flag === '--quick') {
      continue
    }
    if (flag === '--skip-embedded') {
      given.skipEmbedded = true
    } else if (flag === '--dir' || flag === '--heap') {
      const value = argv[++i]
      if (value === undefined || value.startsWith('--')) {
        throw invalid(`${flag} needs a value`)
      }
      given[flag === '--dir' ? 'dir' : 'heap'] = value
    } else if (flag in INTEGER_FLAGS) {
      given[INTEGER_FLAGS[flag as keyof typeof INTEGER_FLAGS]] = parseInteger(flag, argv[++i])
    } else {
      throw invalid(
        `unknown flag ${truncateForMessage(flag)} (--docs N --queries N --warmup N --passes N --dir DIR --quick --timeout-min N --batch-size N --concurrency N --heap 4g --seed N --embedded-workers N --shard-factor N --skip-embedded)`,
      )
    }
  }
  return check({ ...defaults(quick), ...given })
}
