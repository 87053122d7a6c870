/**
 * The metrics of a screening simulation, computed exactly as `asreview-insights` 1.6.1 computes
 * them (`asreviewcontrib/insights/algorithms.py` and `metrics.py`), so that pubmatch's figures and
 * ASReview's are comparable:
 *
 * - the input is the list of labels in screening order **after the prior records** (insights'
 *   default `priors=False`), padded with zeros to `N − priors` when the simulation stopped early;
 * - recall at a share `p` screened: the recall after the last position `i` with `i/n ≤ p`
 *   (`_slice_metric` over `_recall_values`), 0 before the first position;
 * - WSS@r ("work saved over sampling", Cohen et al. 2006): insights' form compares the position
 *   at which the k-th relevant record is found with the position at which random screening would
 *   find it: `random = round(linspace(0, n_pos, n))` (NumPy's round half to even), `WSS(k) =
 *   (firstIndex(random ≥ k) − firstIndex(cumsum ≥ k)) / n`, and WSS@r is `WSS(k)` for the largest
 *   `k` with `k/n_pos ≤ r` (so WSS@95 with 3 relevant records is taken at 2 of them). Cohen's
 *   original `(TN + FN)/N − (1 − r)` at the first point the recall reaches `r` ({@link cohenWss})
 *   can differ from it a lot on small reviews; the benchmark reports insights' form;
 * - time to discovery: the 1-based position of each relevant record; its mean is the ATD.
 */
import { PubmatchError } from '@pubmatch/core'

/** NumPy's `np.round`: to the nearest integer, halves to even. */
export function roundHalfEven(x: number): number {
  const floor = Math.floor(x)
  const diff = x - floor
  if (diff > 0.5) {
    return floor + 1
  }
  if (diff < 0.5) {
    return floor
  }
  return floor % 2 === 0 ? floor : floor + 1
}

function check(labels: readonly number[]): number {
  let positives = 0
  for (const label of labels) {
    if (label !== 0 && label !== 1) {
      throw new PubmatchError('INVALID_ARGUMENT', `labels must be 0 or 1, got ${label}`)
    }
    positives += label
  }
  if (labels.length === 0 || positives === 0) {
    throw new PubmatchError('INVALID_ARGUMENT', `the labels need at least one relevant record (got ${labels.length} labels, ${positives} relevant)`)
  }
  return positives
}

/**
 * Recall after screening a share of the records (insights' `recall` with `x_absolute=False`).
 * @param labels - labels in screening order after the priors
 * @param share - the share screened, in [0, 1]
 */
export function recallAt(labels: readonly number[], share: number): number {
  const positives = check(labels)
  const n = labels.length
  let found = 0
  let last = -1
  for (let i = 0; i < n; i++) {
    if ((i + 1) / n > share) {
      break
    }
    found += labels[i]!
    last = i
  }
  return last < 0 ? 0 : found / positives
}

/** The 0-based index at which the cumulative count first reaches each of 1…positives. */
function whenFound(cumulative: ArrayLike<number>, positives: number): number[] {
  const out: number[] = []
  let k = 1
  for (let i = 0; i < cumulative.length && k <= positives; i++) {
    while (k <= positives && cumulative[i]! >= k) {
      out.push(i)
      k++
    }
  }
  while (out.length < positives) {
    out.push(cumulative.length)
  }
  return out
}

/**
 * Work saved over sampling at a recall level, as insights computes it (share of all `n` records).
 * @param labels - labels in screening order after the priors
 * @param recall - the recall level, e.g. `0.95`
 */
export function wssAt(labels: readonly number[], recall: number): number {
  const positives = check(labels)
  const n = labels.length
  const cumulative = new Float64Array(n)
  let sum = 0
  for (let i = 0; i < n; i++) {
    sum += labels[i]!
    cumulative[i] = sum
  }
  // np.linspace(0, n_pos, n): step = n_pos / (n − 1), y[i] = i · step, the last exactly n_pos
  const random = new Float64Array(n)
  const step = n > 1 ? positives / (n - 1) : 0
  for (let i = 0; i < n; i++) {
    random[i] = roundHalfEven(i === n - 1 ? positives : i * step)
  }
  const found = whenFound(cumulative, positives)
  const foundRandom = whenFound(random, positives)
  // _slice_metric: the last k (1-based) with k / n_pos ≤ recall
  let k = 0
  while (k < positives && (k + 1) / positives <= recall) {
    k++
  }
  if (k === 0) {
    throw new PubmatchError('INVALID_ARGUMENT', `recall ${recall} is below 1/${positives}, the first recall level of these labels`)
  }
  return (foundRandom[k - 1]! - found[k - 1]!) / n
}

/**
 * Cohen et al. 2006's WSS: `(TN + FN)/N − (1 − recall)` at the first point where the recall
 * reaches `recall` (everything after that point is not screened: TN + FN of those records).
 * @param labels - labels in screening order after the priors
 * @param recall - the recall level, e.g. `0.95`
 */
export function cohenWss(labels: readonly number[], recall: number): number {
  check(labels)
  const screened = recordsToRecall(labels, recall)
  return (labels.length - screened) / labels.length - (1 - recall)
}

/**
 * The records screened (after the priors) until the recall first reaches a level, i.e. the
 * position of the `⌈recall · n_pos⌉`-th relevant record.
 * @param labels - labels in screening order after the priors
 * @param recall - the recall level in (0, 1]
 */
export function recordsToRecall(labels: readonly number[], recall: number): number {
  const positives = check(labels)
  const needed = Math.ceil(recall * positives - 1e-9)
  let found = 0
  for (let i = 0; i < labels.length; i++) {
    found += labels[i]!
    if (found >= needed) {
      return i + 1
    }
  }
  return labels.length
}

/**
 * Time to discovery: the 1-based position of each relevant record (insights' `_time_to_discovery`).
 * @param labels - labels in screening order after the priors
 */
export function timesToDiscovery(labels: readonly number[]): number[] {
  return labels.flatMap((label, i) => (label === 1 ? [i + 1] : []))
}

/** The metrics of one simulation. */
export interface ScreeningMetrics {
  /** Records after the priors (`n`). */
  readonly records: number
  /** Relevant records after the priors. */
  readonly relevant: number
  readonly wss95: number
  readonly wss100: number
  readonly recallAt10: number
  readonly recallAt25: number
  /** Records screened to find 95 % / 100 % of the relevant ones. */
  readonly toRecall95: number
  readonly toRecall100: number
  /** Average time to discovery (mean 1-based position of the relevant records). */
  readonly atd: number
  /** ATD as a share of `n`. */
  readonly atdShare: number
}

/**
 * Every metric of a simulation from its labels in screening order (after the priors), padded
 * with zeros to `total` when the simulation stopped before screening every record.
 * @param labels - labels in screening order after the priors
 * @param total - the number of records after the priors. Defaults to `labels.length`.
 */
export function screeningMetrics(labels: readonly number[], total: number = labels.length): ScreeningMetrics {
  if (total < labels.length) {
    throw new PubmatchError('INVALID_ARGUMENT', `total ${total} is less than the ${labels.length} labels`)
  }
  const padded = labels.length === total ? labels : [...labels, ...new Array<number>(total - labels.length).fill(0)]
  const td = timesToDiscovery(padded)
  const atd = td.reduce((a, b) => a + b, 0) / td.length
  return {
    records: total,
    relevant: td.length,
    wss95: wssAt(padded, 0.95),
    wss100: wssAt(padded, 1),
    recallAt10: recallAt(padded, 0.1),
    recallAt25: recallAt(padded, 0.25),
    toRecall95: recordsToRecall(padded, 0.95),
    toRecall100: recordsToRecall(padded, 1),
    atd,
    atdShare: atd / total,
  }
}
