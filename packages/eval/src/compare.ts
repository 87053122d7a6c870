import { PubmatchError } from '@pubmatch/core'
import { perQueryValues, type EvaluationResult } from './evaluate.ts'
import { pairedTTest, randomisationTest } from './stats/significance.ts'

/** Significance test used by {@link compareRuns}. */
export type SignificanceTest = 't-test' | 'randomisation'

/** Options of {@link compareRuns}. */
export interface CompareOptions {
  /** Name of the baseline run (a key of `runs`). Defaults to the first run. */
  baseline?: string
  /** Measures to compare (output names such as `ndcg_cut_10`). Defaults to the baseline's measures except counts. */
  measures?: readonly string[]
  /** Defaults to `'randomisation'`. */
  test?: SignificanceTest
  /** Significance level. Defaults to `0.05`. */
  alpha?: number
  /** Multiple-comparison correction over all (run, measure) tests. Defaults to `'none'`. */
  correction?: 'none' | 'bonferroni' | 'holm'
  /** Randomisation trials. Defaults to `10000`. */
  trials?: number
  /** Randomisation seed. Defaults to `20080101`. */
  seed?: number
}

/** One run's value on one measure, with its test against the baseline. */
export interface ComparisonCell {
  readonly measure: string
  /** Mean over the compared queries. */
  readonly mean: number
  /** Mean minus the baseline's mean (0 for the baseline). */
  readonly difference: number
  /** Two-sided p-value after correction; `undefined` for the baseline. */
  readonly pValue?: number
  /** p-value ≤ alpha. */
  readonly significant: boolean
  /** Queries where the run beats / loses to / ties the baseline. */
  readonly wins: number
  readonly losses: number
  readonly ties: number
}

/** One row of a {@link RunComparison}. */
export interface ComparisonRow {
  readonly run: string
  readonly isBaseline: boolean
  readonly cells: readonly ComparisonCell[]
}

/** A table of runs against a baseline, as {@link formatTable} and {@link renderHtmlReport} print it. */
export interface RunComparison {
  readonly baseline: string
  readonly measures: readonly string[]
  readonly test: SignificanceTest
  readonly alpha: number
  readonly correction: 'none' | 'bonferroni' | 'holm'
  /** The paired queries (the baseline's). */
  readonly queryIds: readonly string[]
  readonly rows: readonly ComparisonRow[]
}

const COUNT_MEASURES = new Set([
  'num_q',
  'num_ret',
  'num_rel',
  'num_rel_ret',
  'num_nonrel_judged_ret',
])

/**
 * Compares runs with a baseline on several measures, testing each difference for
 * significance with a paired test over the baseline's queries (a query another run lacks
 * scores 0, as with trec_eval `-c`).
 * @param runs - run name → evaluation, in display order
 * @param options - see {@link CompareOptions}
 * @throws PubmatchError `INVALID_ARGUMENT` for an unknown baseline or empty input
 */
export function compareRuns(
  runs: ReadonlyMap<string, EvaluationResult> | Readonly<Record<string, EvaluationResult>>,
  options: CompareOptions = {},
): RunComparison {
  const entries = runEntries(runs)
  const first = entries[0]
  if (first === undefined) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      'compareRuns needs at least one run',
    )
  }
  const baselineName = options.baseline ?? first[0]
  const baseline = entries.find(([name]) => name === baselineName)?.[1]
  if (baseline === undefined) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `baseline ${JSON.stringify(baselineName)} is not one of the runs (${entries.map(([n]) => n).join(', ')})`,
    )
  }
  const measures = options.measures ?? baseline.measures.filter((m) => !COUNT_MEASURES.has(m))
  const test = options.test ?? 'randomisation'
  const alpha = options.alpha ?? 0.05
  const correction = options.correction ?? 'none'
  const queryIds = [...baseline.perQuery.keys()]
  const raw = entries.map(([run, result]) => ({
    run,
    isBaseline: run === baselineName,
    cells: measures.map((measure) => {
      const values = perQueryValues(result, measure, queryIds)
      const base = perQueryValues(baseline, measure, queryIds)
      const mean = average(values)
      let wins = 0
      let losses = 0
      values.forEach((v, i) => {
        const b = base[i] ?? 0
        wins += v > b ? 1 : 0
        losses += v < b ? 1 : 0
      })
      const pValue =
        run === baselineName || queryIds.length < 2
          ? undefined
          : test === 't-test'
            ? pairedTTest(values, base).pValue
            : randomisationTest(values, base, { trials: options.trials, seed: options.seed }).pValue
      return {
        measure,
        mean,
        difference: mean - average(base),
        pValue,
        wins,
        losses,
        ties: values.length - wins - losses,
      }
    }),
  }))
  const adjusted = adjust(
    raw.flatMap((r) => r.cells.map((c) => c.pValue)).filter((p): p is number => p !== undefined),
    correction,
  )
  let next = 0
  const rows: ComparisonRow[] = raw.map((r) => ({
    run: r.run,
    isBaseline: r.isBaseline,
    cells: r.cells.map((c) => {
      const pValue = c.pValue === undefined ? undefined : (adjusted[next++] ?? c.pValue)
      return { ...c, pValue, significant: pValue !== undefined && pValue <= alpha }
    }),
  }))
  return { baseline: baselineName, measures, test, alpha, correction, queryIds, rows }
}

/**
 * The (name, evaluation) pairs of a run collection, in order.
 * @param runs - a Map or a plain object of evaluations
 */
export function runEntries(
  runs: ReadonlyMap<string, EvaluationResult> | Readonly<Record<string, EvaluationResult>>,
): [string, EvaluationResult][] {
  return isMap(runs) ? [...runs.entries()] : Object.entries(runs)
}

function isMap<V>(
  value: ReadonlyMap<string, V> | Readonly<Record<string, V>>,
): value is ReadonlyMap<string, V> {
  return value instanceof Map
}

function average(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((s, x) => s + x, 0) / values.length
}

/** Bonferroni or Holm–Bonferroni adjusted p-values, in input order. */
function adjust(pValues: readonly number[], correction: 'none' | 'bonferroni' | 'holm'): number[] {
  const m = pValues.length
  if (correction === 'none') {
    return pValues.slice()
  }
  if (correction === 'bonferroni') {
    return pValues.map((p) => Math.min(1, p * m))
  }
  const order = pValues.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p)
  const out = new Array<number>(m).fill(1)
  let running = 0
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p))
    out[i] = running
  })
  return out
}
