import { PubmatchError } from '@pubmatch/core'
import type { JudgedRanking } from './judged-ranking.ts'
import {
  averagePrecision,
  bpref,
  interpolatedPrecision,
  ndcg,
  ndcgAt,
  precisionAt,
  rPrecision,
  recallAt,
  reciprocalRank,
  successAt,
  trecInfAP,
} from './metrics.ts'

/** How a measure's per-query values combine into the summary ("all") value. */
export type Aggregation = 'mean' | 'sum'

/** One requested measure, resolved: its output names and how to compute them. */
export interface ResolvedMeasure {
  /** Root name as trec_eval spells it, e.g. `ndcg_cut`. */
  readonly name: string
  /** Output names, e.g. `ndcg_cut_10`, `ndcg_cut_20`. */
  readonly keys: readonly string[]
  /** How per-query values combine. */
  readonly aggregation: Aggregation
  /** Values in the order of `keys`. */
  compute(r: JudgedRanking): number[]
}

const DEFAULT_CUTOFFS = [5, 10, 15, 20, 30, 100, 200, 500, 1000]
const DEFAULT_RECALL_LEVELS = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]

interface MeasureDefinition {
  readonly name: string
  resolve(params: string | undefined): ResolvedMeasure
}

const single = (
  name: string,
  compute: (r: JudgedRanking) => number,
  aggregation: Aggregation = 'mean',
): MeasureDefinition => ({
  name,
  resolve: (params) => {
    if (params !== undefined) {
      throw badMeasure(`${name}.${params}`, `${name} takes no parameters`)
    }
    return { name, keys: [name], aggregation, compute: (r) => [compute(r)] }
  },
})

const cutoffs = (
  name: string,
  compute: (r: JudgedRanking, k: number) => number,
  defaults: readonly number[] = DEFAULT_CUTOFFS,
): MeasureDefinition => ({
  name,
  resolve: (params) => {
    const ks = params === undefined ? defaults : parseCutoffs(name, params)
    return {
      name,
      keys: ks.map((k) => `${name}_${k}`),
      aggregation: 'mean',
      compute: (r) => ks.map((k) => compute(r, k)),
    }
  },
})

/**
 * Every measure {@link evaluate} knows, in trec_eval's output order (measures.c). Names
 * and parameter syntax follow `trec_eval -m`.
 */
const DEFINITIONS: readonly MeasureDefinition[] = [
  {
    name: 'num_q',
    resolve: () => ({ name: 'num_q', keys: ['num_q'], aggregation: 'sum', compute: () => [1] }),
  },
  single('num_ret', (r) => r.numRet, 'sum'),
  single('num_rel', (r) => r.numRel, 'sum'),
  single('num_rel_ret', (r) => r.numRelRet, 'sum'),
  single('map', (r) => averagePrecision(r)),
  single('Rprec', rPrecision),
  single('bpref', bpref),
  single('recip_rank', reciprocalRank),
  {
    name: 'iprec_at_recall',
    resolve: (params) => {
      const levels =
        params === undefined
          ? DEFAULT_RECALL_LEVELS
          : [...new Set(params.split(',').map(Number))].sort((a, b) => a - b)
      if (levels.some((l) => !Number.isFinite(l))) {
        throw badMeasure(`iprec_at_recall.${params ?? ''}`, 'recall levels must be numbers')
      }
      return {
        name: 'iprec_at_recall',
        keys: levels.map((l) => `iprec_at_recall_${l.toFixed(2)}`),
        aggregation: 'mean',
        compute: (r) => interpolatedPrecision(r, levels),
      }
    },
  },
  cutoffs('P', precisionAt),
  cutoffs('recall', recallAt),
  single('infAP', trecInfAP),
  {
    name: 'ndcg',
    resolve: (params) => {
      const gains = params === undefined ? new Map<number, number>() : parseGains(params)
      const key = params === undefined ? 'ndcg' : `ndcg_${params}`
      return { name: 'ndcg', keys: [key], aggregation: 'mean', compute: (r) => [ndcg(r, gains)] }
    },
  },
  cutoffs('ndcg_cut', (r, k) => ndcgAt(r, k)),
  cutoffs('ndcg_exp_cut', (r, k) => ndcgAt(r, k, { gain: 'exponential' })),
  cutoffs('map_cut', averagePrecision),
  cutoffs('success', successAt, [1, 5, 10]),
  single(
    'num_nonrel_judged_ret',
    (r) => r.numRet - r.numNonpool - r.numUnjudged - r.numRelRet,
    'sum',
  ),
]

/** trec_eval's `official` measure set (without `runid` and `gm_map`, which pubmatch does not compute). */
export const OFFICIAL_MEASURES: readonly string[] = [
  'num_q',
  'num_ret',
  'num_rel',
  'num_rel_ret',
  'map',
  'Rprec',
  'bpref',
  'recip_rank',
  'iprec_at_recall',
  'P',
]

/**
 * trec_eval's `all_trec` set restricted to the measures pubmatch implements (no `runid`,
 * `gm_map`, `gm_bpref`, `relstring`, `utility`, `11pt_avg`, `Rndcg`, `binG`, `G`, `set_*`,
 * `relative_P`, `Rprec_mult`, `ndcg_rel`, `unj`, `rbp`).
 */
export const ALL_TREC_MEASURES: readonly string[] = [
  ...OFFICIAL_MEASURES,
  'recall',
  'infAP',
  'ndcg',
  'success',
  'map_cut',
  'ndcg_cut',
  'num_nonrel_judged_ret',
]

/**
 * Resolves measure specifications written as for `trec_eval -m`: a name (`map`), a name
 * with parameters (`P.5,10`, `ndcg_cut.10,20`, `ndcg.1=3,2=9`), or a nickname
 * (`official`, `all_trec`). Output follows trec_eval's measure order; a measure named
 * twice keeps its last parameters, as in trec_eval.
 * @param specs - measure specifications
 * @throws PubmatchError `INVALID_ARGUMENT` for unknown names or bad parameters
 */
export function resolveMeasures(specs: readonly string[]): ResolvedMeasure[] {
  const requested = new Map<string, string | undefined>()
  for (const spec of specs) {
    const dot = spec.indexOf('.')
    const name = dot < 0 ? spec : spec.slice(0, dot)
    const params = dot < 0 ? undefined : spec.slice(dot + 1)
    const nick =
      name === 'official' ? OFFICIAL_MEASURES : name === 'all_trec' ? ALL_TREC_MEASURES : undefined
    if (nick !== undefined) {
      for (const m of nick) {
        if (!requested.has(m)) {
          requested.set(m, undefined)
        }
      }
      continue
    }
    if (!DEFINITIONS.some((d) => d.name === name)) {
      throw badMeasure(spec, `unknown measure; known: ${DEFINITIONS.map((d) => d.name).join(', ')}`)
    }
    if (params === '') {
      throw badMeasure(spec, 'empty parameter list')
    }
    requested.set(name, params)
  }
  return DEFINITIONS.filter((d) => requested.has(d.name)).map((d) =>
    d.resolve(requested.get(d.name)),
  )
}

function parseCutoffs(name: string, params: string): number[] {
  const ks = params.split(',').map((p) => Number(p.trim()))
  if (ks.some((k) => !Number.isInteger(k) || k <= 0)) {
    throw badMeasure(`${name}.${params}`, 'cutoffs must be positive integers')
  }
  const sorted = ks.sort((a, b) => a - b)
  if (sorted.some((k, i) => i > 0 && k === sorted[i - 1])) {
    throw badMeasure(`${name}.${params}`, 'duplicate cutoffs')
  }
  return sorted
}

function parseGains(params: string): Map<number, number> {
  const gains = new Map<number, number>()
  for (const pair of params.split(',')) {
    const [level, gain] = pair.split('=')
    const l = Number(level)
    const g = Number(gain)
    if (level === undefined || gain === undefined || !Number.isInteger(l) || !Number.isFinite(g)) {
      throw badMeasure(`ndcg.${params}`, 'gains are written grade=gain, e.g. ndcg.1=3,2=9')
    }
    gains.set(l, g)
  }
  return gains
}

function badMeasure(spec: string, why: string): PubmatchError {
  return new PubmatchError(
    'INVALID_ARGUMENT',
    `bad measure ${JSON.stringify(spec)}: ${why}`,
    {
      details: { measure: spec },
    },
  )
}
