import { PubmatchError, truncateForMessage } from '@pubmatch/core'

/** One LightGBM parameter value; arrays become LightGBM's comma-separated lists. */
export type LightGbmParamValue = string | number | boolean | readonly (string | number)[]

/**
 * LightGBM parameters, passed through unchanged (see LightGBM's Parameters page). The named
 * keys are the ones the ranking stage uses; any other LightGBM parameter is accepted too.
 * Unset parameters take LightGBM's defaults, noted below.
 */
export interface LightGbmParams {
  /** e.g. `lambdarank`, `rank_xendcg`, `binary`, `regression`. Defaults to `regression`. */
  readonly objective?: string
  /** e.g. `ndcg`, `map`, or a list. Defaults to the objective's own metric. */
  readonly metric?: string | readonly string[]
  /** Cut-offs of `ndcg@k`/`map@k`. Defaults to `[1, 2, 3, 4, 5]`. */
  readonly eval_at?: number | readonly number[]
  /**
   * Gain of each integer label for lambdarank and NDCG, as a list or LightGBM's
   * comma-separated string. Defaults to `2^i - 1` for i in 0..30.
   */
  readonly label_gain?: readonly number[] | string
  /** Leaves per tree. Defaults to `31`. */
  readonly num_leaves?: number
  /** Shrinkage. Defaults to `0.1`. */
  readonly learning_rate?: number
  /** Boosting rounds when `train` is given no `numBoostRound`. Defaults to `100`. */
  readonly num_iterations?: number
  /** Minimal number of rows in a leaf. Defaults to `20`. */
  readonly min_data_in_leaf?: number
  /** Fraction of features sampled per tree. Defaults to `1`. */
  readonly feature_fraction?: number
  /** Seed of every random choice. Defaults to LightGBM's fixed seeds. */
  readonly seed?: number
  /** `-1` silences LightGBM's log, `1` prints info. Defaults to `1`. */
  readonly verbosity?: number
  /** Indices (or names) of categorical features. Defaults to none. */
  readonly categorical_feature?: number | string | readonly (string | number)[]
  /** Any other LightGBM parameter. */
  readonly [name: string]: LightGbmParamValue | undefined
}

const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/
const FORBIDDEN_IN_VALUE = /[\s=,]/

function formatScalar(name: string, value: string | number | boolean, inList: boolean): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) {
      throw new PubmatchError('INVALID_ARGUMENT', `parameter "${name}" must be a finite number, got ${value}`, {
        details: { record: name },
      })
    }
    return String(value)
  }
  if (typeof value === 'boolean') {
    return value ? 'true' : 'false'
  }
  const text = String(value)
  if (text === '' || (inList ? FORBIDDEN_IN_VALUE : /[\s=]/).test(text)) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `parameter "${name}" has a value LightGBM cannot parse: "${truncateForMessage(text)}"`,
      { details: { record: name } },
    )
  }
  return text
}

/**
 * Renders parameters as the `key=value key=value` string LightGBM's C API parses. Arrays
 * become comma-separated lists, booleans `true`/`false`; `undefined` values are left out.
 * @param params - LightGBM parameters
 * @throws PubmatchError `INVALID_ARGUMENT` for a key that is not an identifier, a
 *   non-finite number, or a value with whitespace or `=` (which would split it)
 */
export function formatParams(params: LightGbmParams): string {
  const parts: string[] = []
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) {
      continue
    }
    if (!KEY.test(name)) {
      throw new PubmatchError('INVALID_ARGUMENT', `"${truncateForMessage(name)}" is not a LightGBM parameter name`, {
        details: { record: name },
      })
    }
    if (Array.isArray(value)) {
      const list = value as readonly (string | number)[]
      if (list.length === 0) {
        throw new PubmatchError('INVALID_ARGUMENT', `parameter "${name}" is an empty list`, {
          details: { record: name },
        })
      }
      parts.push(`${name}=${list.map((item) => formatScalar(name, item, true)).join(',')}`)
    } else {
      parts.push(`${name}=${formatScalar(name, value as string | number | boolean, false)}`)
    }
  }
  return parts.join(' ')
}

const RANKING_OBJECTIVES = new Set(['lambdarank', 'rank_xendcg', 'xendcg', 'xe_ndcg', 'xe_ndcg_mart', 'xendcg_mart'])

/**
 * Whether the parameters select a learning-to-rank objective (lambdarank or rank_xendcg,
 * under any of LightGBM's aliases: `objective`, `objective_type`, `app`, `application`, `loss`).
 * @param params - LightGBM parameters
 */
export function isRankingObjective(params: LightGbmParams): boolean {
  const objective = params.objective ?? params.objective_type ?? params.app ?? params.application ?? params.loss
  return typeof objective === 'string' && RANKING_OBJECTIVES.has(objective)
}

/** LightGBM's default `label_gain`: `2^i - 1` for i in 0..30. */
export const DEFAULT_LABEL_GAIN: readonly number[] = Array.from({ length: 31 }, (_, i) => 2 ** i - 1)

/**
 * How many distinct integer labels the ranking objective and NDCG accept: the length of
 * `label_gain` (LightGBM's default has 31 entries, so labels 0..30).
 * @param params - LightGBM parameters
 */
export function labelGainLength(params: LightGbmParams): number {
  const gain = params.label_gain
  if (gain === undefined) {
    return DEFAULT_LABEL_GAIN.length
  }
  if (typeof gain === 'string') {
    return gain.split(',').length
  }
  return gain.length
}
