import { PubmatchError, truncateForMessage } from '@pubmatch/core'
import type { EvaluationResult } from '../evaluate.ts'
import { fields } from './lines.ts'

/** trec_eval (or sample_eval.pl) output read back: `measure qid value` lines. */
export interface TrecEvalOutput {
  /** Query id → measure → value, for `-q` lines. */
  readonly perQuery: Map<string, Record<string, number>>
  /** The summary (`all`) lines. */
  readonly all: Record<string, number>
}

/**
 * Parses the text trec_eval `-q` (or NIST sample_eval.pl `-q`) prints, e.g. to compare
 * pubmatch's numbers with a reference run. Non-numeric values (`runid`) are skipped;
 * `nan`/`-nan` become `NaN`.
 * @param text - the program's standard output
 * @param file - name used in error messages. Defaults to `<string>`.
 * @throws PubmatchError `UNSUPPORTED_FORMAT` for a line that is not `measure qid value`
 */
export function parseTrecEvalOutput(text: string, file = '<string>'): TrecEvalOutput {
  const perQuery = new Map<string, Record<string, number>>()
  const all: Record<string, number> = {}
  text.split(/\r?\n/).forEach((line, i) => {
    const f = fields(line)
    if (f.length === 0) {
      return
    }
    const [measure, qid, valueText] = f
    if (f.length !== 3 || measure === undefined || qid === undefined || valueText === undefined) {
      throw new PubmatchError(
        'UNSUPPORTED_FORMAT',
        `${file}:${i + 1}: trec_eval output lines have 3 fields (measure qid value): "${truncateForMessage(line)}"`,
        { details: { file, position: i + 1 } },
      )
    }
    // trec_eval prints 0/0 as "-nan" (e.g. iprec_at_recall with -J and an empty ranking)
    const value = /^[+-]?nan$/i.test(valueText) ? Number.NaN : Number(valueText)
    if (!/^[+-]?nan$/i.test(valueText) && !Number.isFinite(value)) {
      return
    }
    if (qid === 'all') {
      all[measure] = value
      return
    }
    let values = perQuery.get(qid)
    if (values === undefined) {
      values = {}
      perQuery.set(qid, values)
    }
    values[measure] = value
  })
  return { perQuery, all }
}

/**
 * Formats like C's `printf("%.*f")` with glibc: the exact binary value rounded to `digits`
 * decimals, exact halves rounded to even (JavaScript's `toFixed` rounds them up:
 * 0.03125 → "0.0313", glibc → "0.0312").
 * @param x - the value
 * @param digits - decimals (0…20)
 */
export function printfFixed(x: number, digits: number): string {
  const long = x.toFixed(100)
  const point = long.indexOf('.')
  const rest = long.slice(point + 1 + digits)
  if (!/^50*$/.test(rest)) {
    return x.toFixed(digits)
  }
  const kept = long.slice(0, point + 1 + digits)
  const last = Number(kept[kept.length - 1] === '.' ? kept[kept.length - 2] : kept[kept.length - 1])
  if (last % 2 === 0) {
    return digits === 0 ? kept.slice(0, -1) : kept
  }
  return x.toFixed(digits)
}

const COUNTS = new Set(['num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'num_nonrel_judged_ret'])

/** Options of {@link formatTrecEval}. */
export interface FormatTrecEvalOptions {
  /** Print per-query lines before the summary (trec_eval `-q`). Defaults to `false`. */
  perQuery?: boolean
  /** Digits after the decimal point. Defaults to `4` (trec_eval's `%6.4f`). */
  digits?: number
}

/**
 * Prints an evaluation exactly as trec_eval does (`%-22s\t%s\t%6.4f`, counts as integers),
 * so existing scripts that read trec_eval output read pubmatch's too.
 * @param result - an evaluation
 * @param options - see {@link FormatTrecEvalOptions}
 */
export function formatTrecEval(
  result: EvaluationResult,
  options: FormatTrecEvalOptions = {},
): string {
  const digits = options.digits ?? 4
  const line = (measure: string, qid: string, value: number): string =>
    `${measure.padEnd(22)}\t${qid}\t${COUNTS.has(measure) ? String(Math.trunc(value)) : printfFixed(value, digits).padStart(6)}\n`
  let out = ''
  if (options.perQuery === true) {
    for (const [qid, values] of result.perQuery) {
      for (const measure of result.measures) {
        if (measure !== 'num_q') {
          out += line(measure, qid, values[measure] ?? 0)
        }
      }
    }
  }
  for (const measure of result.measures) {
    out += line(measure, 'all', result.mean[measure] ?? 0)
  }
  return out
}
