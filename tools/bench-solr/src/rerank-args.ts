/**
 * The rerank benchmark's command line.
 */
import { PubmatchError, truncateForMessage } from '@pubmatch/core'
import { defaultCacheDir, MAX_LOG_QUERIES } from './scale-args.ts'

/** What one run does. */
export interface RerankOptions {
  /** Synthetic articles. Defaults to `100000` (`20000` with `--quick`). */
  readonly docs: number
  /** Measured log queries (one client: each once). Defaults to `200` (`40` with `--quick`). */
  readonly queries: number
  /** Warm-up log queries, disjoint. Defaults to `50` (`10` with `--quick`). */
  readonly warmup: number
  /** Training queries per model (at most). Defaults to `150` (`40` with `--quick`). */
  readonly trainQueries: number
  /** Trees of each model. Defaults to `500`. */
  readonly trees: number
  /** Candidates reranked (the first stage's top). Defaults to `500`. */
  readonly depth: number
  /** Hits returned per reranked search. Defaults to `20`. */
  readonly rows: number
  /** Paced rates, requests per second. Defaults to `5,10`. */
  readonly rates: readonly number[]
  /** Requests of each paced run. Defaults to `300` (`60` with `--quick`). */
  readonly pacedRequests: number
  /** The fault run: rate and requests. Defaults to `5` and `300` (`100` with `--quick`). */
  readonly faultRate: number
  readonly faultRequests: number
  /** The node stopped (0-based). Defaults to `0`: the first URL the client tries. */
  readonly stopNode: number
  /** The swap run: rate and requests. Defaults to `5` and `200` (`100` with `--quick`). */
  readonly swapRate: number
  readonly swapRequests: number
  /** Queries whose top ids are compared (before and after the fault; Solr against embedded). Defaults to `20`. */
  readonly checkQueries: number
  /** Queries measured on each shard alone. Defaults to `100` (`20` with `--quick`). */
  readonly shardQueries: number
  /** Working directory. Defaults to `tools/bench-solr/.cache`. */
  readonly dir: string
  readonly quick: boolean
  /** Hard time limit of each phase, minutes. Defaults to `60` (`15` with `--quick`). */
  readonly timeoutMin: number
  /** The cluster JVM's heap. Defaults to `4g`. */
  readonly heap: string
  readonly seed: number
  /** Projection: articles per shard at most (the measured shard stretched to it). Defaults to `3000000` (tools/bench-search's plan: 12 shards for 36M). */
  readonly shardDocs: number
  /** Skip the embedded engine. */
  readonly skipEmbedded: boolean
  /** A note printed under the report's heading (why this size, what else ran). Defaults to none. */
  readonly note?: string
}

const INTEGER_FLAGS = {
  '--docs': 'docs',
  '--queries': 'queries',
  '--warmup': 'warmup',
  '--train-queries': 'trainQueries',
  '--trees': 'trees',
  '--depth': 'depth',
  '--rows': 'rows',
  '--paced-requests': 'pacedRequests',
  '--fault-rate': 'faultRate',
  '--fault-requests': 'faultRequests',
  '--stop-node': 'stopNode',
  '--swap-rate': 'swapRate',
  '--swap-requests': 'swapRequests',
  '--check-queries': 'checkQueries',
  '--shard-queries': 'shardQueries',
  '--timeout-min': 'timeoutMin',
  '--seed': 'seed',
  '--shard-docs': 'shardDocs',
} as const satisfies Record<string, keyof RerankOptions>

type IntegerOption = (typeof INTEGER_FLAGS)[keyof typeof INTEGER_FLAGS]

const USAGE =
  '--docs N --queries N --warmup N --train-queries N --trees N --depth N --rows N --rates 5,10 --paced-requests N --fault-rate R --fault-requests N --stop-node I --swap-rate R --swap-requests N --check-queries N --shard-queries N --dir DIR --quick --timeout-min N --heap 4g --seed N --shard-docs N --skip-embedded --note TEXT'

function invalid(message: string): PubmatchError {
  return new PubmatchError('INVALID_ARGUMENT', `@pubmatch/bench-solr: ${message}`)
}

function parseInteger(flag: string, value: string | undefined): number {
  const parsed = Number(value)
  if (value === undefined || value.trim() === '' || !Number.isInteger(parsed) || parsed < 0) {
    throw invalid(`${flag} needs a non-negative integer, got ${truncateForMessage(String(value))}`)
  }
  return parsed
}

/**
 * Parses `--rates 5,10`: positive numbers, comma-separated.
 * @param value - the flag's value
 * @throws PubmatchError `INVALID_ARGUMENT`
 */
export function parseRates(value: string | undefined): number[] {
  const rates = (value ?? '').split(',').map((part) => Number(part.trim()))
  if (
    value === undefined ||
    value.trim() === '' ||
    rates.some((rate) => !(rate > 0) || !Number.isFinite(rate))
  ) {
    throw invalid(
      `--rates needs positive numbers separated by commas, got ${truncateForMessage(String(value))}`,
    )
  }
  return rates
}

function defaults(quick: boolean): RerankOptions {
  return {
    docs: quick ? 20_000 : 100_000,
    queries: quick ? 40 : 200,
    warmup: quick ? 10 : 50,
    trainQueries: quick ? 40 : 150,
    trees: 500,
    depth: 500,
    rows: 20,
    rates: [5, 10],
    pacedRequests: quick ? 60 : 300,
    faultRate: 5,
    faultRequests: quick ? 100 : 300,
    stopNode: 0,
    swapRate: 5,
    swapRequests: quick ? 100 : 200,
    checkQueries: 20,
    shardQueries: quick ? 20 : 100,
    dir: defaultCacheDir(),
    quick,
    timeoutMin: quick ? 15 : 60,
    heap: '4g',
    seed: 1,
    shardDocs: 3_000_000,
    skipEmbedded: false,
  }
}

function check(options: RerankOptions): RerankOptions {
  for (const key of [
    'docs',
    'queries',
    'trainQueries',
    'trees',
    'depth',
    'rows',
    'pacedRequests',
    'faultRate',
    'faultRequests',
    'swapRate',
    'swapRequests',
    'timeoutMin',
    'shardDocs',
  ] as const) {
    if (options[key] < 1) {
      throw invalid(`--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} must be at least 1`)
    }
  }
  if (options.stopNode > 1) {
    throw invalid(`--stop-node must be 0 or 1 (the cluster has 2 nodes), got ${options.stopNode}`)
  }
  // the rest of the draw trains the models: leave at least 2 × train-queries of it
  const left = MAX_LOG_QUERIES - options.queries - options.warmup
  if (left < 2 * options.trainQueries) {
    throw invalid(
      `--queries + --warmup + 2 × --train-queries must be at most ${MAX_LOG_QUERIES} (the log's distinct 1–5-term queries; the models train on the rest), got ${options.queries + options.warmup + 2 * options.trainQueries}`,
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
export function parseRerankArgs(argv: readonly string[]): RerankOptions {
  const quick = argv.includes('--quick')
  const given: Partial<Record<IntegerOption, number>> & {
    dir?: string
    heap?: string
    note?: string
    rates?: number[]
    skipEmbedded?: boolean
  } = {}
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!
    if (flag === '--quick') {
      continue
    }
    if (flag === '--skip-embedded') {
      given.skipEmbedded = true
    } else if (flag === '--dir' || flag === '--heap' || flag === '--note') {
      const value = argv[++i]
      if (value === undefined || value.startsWith('--')) {
        throw invalid(`${flag} needs a value`)
      }
      given[flag === '--dir' ? 'dir' : flag === '--heap' ? 'heap' : 'note'] = value
    } else if (flag === '--rates') {
      given.rates = parseRates(argv[++i])
    } else if (flag in INTEGER_FLAGS) {
      given[INTEGER_FLAGS[flag as keyof typeof INTEGER_FLAGS]] = parseInteger(flag, argv[++i])
    } else {
      throw invalid(`unknown flag ${truncateForMessage(flag)} (${USAGE})`)
    }
  }
  return check({ ...defaults(quick), ...given })
}
