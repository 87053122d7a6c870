import type { EvaluationResult } from '../src/evaluate.ts'

/**
 * An evaluation with the given per-query values of one measure (queries q1…qn).
 * @param measure - output name
 * @param values - per-query values
 */
export function fakeResult(measure: string, values: number[]): EvaluationResult {
  const perQuery = new Map(values.map((v, i) => [`q${i + 1}`, { [measure]: v }]))
  return {
    perQuery,
    mean: { [measure]: values.reduce((s, v) => s + v, 0) / values.length },
    measures: [measure],
  }
}
