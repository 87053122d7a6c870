/**
 * A stopping aid for screening: an estimate of the recall reached, and the knee method of
 * Cormack & Grossman (2016, "Engineering quality and reliability in technology-assisted review",
 * SIGIR). Neither is a guarantee: they tell a reviewer when stopping looks reasonable, with the
 * risk stated, never that every relevant record was found.
 *
 * The knee method looks at the gain curve (relevant records found against records screened, in
 * screening order). Its knee is the point farthest from the straight line between the origin and
 * the current point (Satopää et al.'s Kneedle, as Cormack & Grossman locate it). The slope ratio
 * is the gain rate before the knee over the rate after it, smoothed by one:
 * `ρ = (rel(knee)/knee) / ((rel(s) − rel(knee) + 1)/(s − knee))`. Stop when at least 150 records
 * are screened and `ρ ≥ 156 − min(rel(s), 150)` (the adjusted target of their paper, which lowers
 * the bar as more relevant records are found).
 */

/** The knee method's state after some screening. */
export interface KneeStop {
  /** Records screened. */
  readonly screened: number
  /** Relevant records found. */
  readonly found: number
  /** The knee's position (records screened up to the knee), 0 before any relevant record. */
  readonly knee: number
  /** The slope ratio ρ (`NaN` when it is not defined yet). */
  readonly slopeRatio: number
  /** The ratio the rule asks for: `156 − min(found, 150)`. */
  readonly target: number
  /** Whether the rule says to stop. */
  readonly stop: boolean
}

/**
 * The knee method on labels in screening order.
 * @param labels - 1 (included) or 0, in the order screened
 */
export function kneeStop(labels: readonly number[]): KneeStop {
  const s = labels.length
  const cumulative: number[] = []
  let found = 0
  for (const label of labels) {
    found += label === 1 ? 1 : 0
    cumulative.push(found)
  }
  const target = 156 - Math.min(found, 150)
  if (s === 0 || found === 0) {
    return { screened: s, found, knee: 0, slopeRatio: Number.NaN, target, stop: false }
  }
  // the point (i, rel(i)) farthest from the line (0,0)–(s, rel(s)): maximise rel(i)·s − i·rel(s)
  // (ties: the earliest point)
  let knee = 1
  let best = -Infinity
  for (let i = 1; i <= s; i++) {
    const distance = cumulative[i - 1]! * s - i * found
    if (distance > best) {
      best = distance
      knee = i
    }
  }
  const relKnee = cumulative[knee - 1]!
  const slopeRatio = knee === s ? Number.NaN : relKnee / knee / ((found - relKnee + 1) / (s - knee))
  return { screened: s, found, knee, slopeRatio, target, stop: s >= 150 && slopeRatio >= target }
}

/**
 * An estimate of the recall reached: found / (found + Σ p) over the unscreened records, `p` the
 * model's probability of relevance. The class-balanced model overstates the probabilities of a
 * rare class, so this tends to understate recall (a cautious estimate), but it is an estimate
 * from the model's own view, not a measurement.
 * @param found - relevant records found
 * @param probabilities - the unscreened records' probabilities of relevance
 */
export function estimatedRecall(found: number, probabilities: Iterable<number>): number {
  let rest = 0
  for (const p of probabilities) {
    rest += p
  }
  return found + rest === 0 ? 0 : found / (found + rest)
}

/** Includes the model needs before {@link recallEstimateReadiness} lets it estimate recall. */
export const MIN_INCLUDED_FOR_ESTIMATE = 5
/** Excludes the model needs before {@link recallEstimateReadiness} lets it estimate recall. */
export const MIN_EXCLUDED_FOR_ESTIMATE = 20

/**
 * Whether the model's recall estimate means anything yet: a model fitted on a handful of
 * decisions gives every unscreened record a probability near ½, so that `found / (found + Σ p)`
 * is near 0 % whatever the truth. The estimate is given from
 * {@link MIN_INCLUDED_FOR_ESTIMATE} includes and {@link MIN_EXCLUDED_FOR_ESTIMATE} excludes on.
 * @returns `undefined` when it can be given, else the reason it cannot, in words
 */
export function recallEstimateReadiness(included: number, excluded: number): string | undefined {
  const missing: string[] = []
  if (included < MIN_INCLUDED_FOR_ESTIMATE) missing.push(`${included} of the ${MIN_INCLUDED_FOR_ESTIMATE} includes`)
  if (excluded < MIN_EXCLUDED_FOR_ESTIMATE) missing.push(`${excluded} of the ${MIN_EXCLUDED_FOR_ESTIMATE} excludes`)
  return missing.length === 0
    ? undefined
    : `not enough decisions yet for a recall estimate: it needs at least ${MIN_INCLUDED_FOR_ESTIMATE} includes and ${MIN_EXCLUDED_FOR_ESTIMATE} excludes (has ${missing.join(' and ')}); a model fitted on fewer gives every unscreened record a probability near ½`
}

/**
 * A class-weighted model's probability of relevance, moved back to the prevalence of the records
 * it was trained on (King & Zeng's prior correction, 2001): the model was fitted as if the
 * relevant class had `share` of the weight, so its log-odds are `z + ln(π/(1 − π)) − ln(share/(1 − share))`
 * with `π = included / (included + excluded)`. The screened records hold more relevant ones than
 * the rest (the ranker screens likely ones first), so the probabilities still overstate the rest's
 * relevance and the recall estimate stays cautious.
 * @param score - the model's decision value `w·x + b`
 */
export function correctedProbability(score: number, included: number, excluded: number, share = 0.5): number {
  const z = score + Math.log(included / excluded) - Math.log(share / (1 - share))
  return 1 / (1 + Math.exp(-z))
}
