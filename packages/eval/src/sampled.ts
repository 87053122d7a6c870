import { compareCodePoints, type Run, type RunEntry } from '@pubmatch/core'
import type { SampledJudgement, SampledQrels } from './io/qrels.ts'
import { compareTrecOrder } from './trec-order.ts'

/*
 * Stratified-sampling estimates of Yilmaz, Kanoulas & Aslam (SIGIR 2008), computed as NIST's
 * sample_eval.pl (change log through 10 Oct 2011, the version TREC CDS/PM distribute) does,
 * down to its summation order, its +0.00001/+0.00003 smoothing and its rounding of the
 * estimated number of relevant documents per grade when building the ideal DCG.
 */

/** One query's sampled judgements summarised per stratum (sample_eval's per-topic tables). */
export interface TopicSample {
  /** Document id → stratum and grade. */
  readonly judged: ReadonlyMap<string, SampledJudgement>
  /** Strata in sample_eval's iteration order (string order). */
  readonly strata: readonly string[]
  /** Stratum → documents in it (pool size). */
  readonly poolSize: ReadonlyMap<string, number>
  /** Stratum → sampled (judged, grade ≥ 0) documents. */
  readonly sampled: ReadonlyMap<string, number>
  /** Stratum → sampled relevant (grade > 0) documents. */
  readonly sampledRelevant: ReadonlyMap<string, number>
  /** Estimated number of relevant documents, Σ_s sampledRelevant·poolSize/sampled. */
  readonly estimatedRelevant: number
  /** Ideal DCG from the estimated number of documents per grade (first `maxResults` ranks). */
  readonly idealDcg: number
}

/** Options of the sampled estimators. */
export interface SampledOptions {
  /** Ranks considered (sample_eval's `$maxResultSize`). Defaults to `1000`. */
  maxResults?: number
  /** Cutoffs of the inferred precision `iP<k>`. Defaults to `[10, 50, 1000]` (sample_eval's). */
  precisionCutoffs?: readonly number[]
}

/**
 * Summarises one query's sampled qrels per stratum.
 * @param judged - document id → stratum and grade for the query
 * @param options - see {@link SampledOptions}
 */
export function summariseSample(
  judged: ReadonlyMap<string, SampledJudgement>,
  options: SampledOptions = {},
): TopicSample {
  const maxResults = options.maxResults ?? 1000
  const poolSize = new Map<string, number>()
  const sampled = new Map<string, number>()
  const sampledRelevant = new Map<string, number>()
  const perGrade = new Map<string, Map<number, number>>()
  for (const j of judged.values()) {
    poolSize.set(j.stratum, (poolSize.get(j.stratum) ?? 0) + 1)
    if (j.grade >= 0) {
      sampled.set(j.stratum, (sampled.get(j.stratum) ?? 0) + 1)
    }
    if (j.grade > 0) {
      sampledRelevant.set(j.stratum, (sampledRelevant.get(j.stratum) ?? 0) + 1)
      let grades = perGrade.get(j.stratum)
      if (grades === undefined) {
        grades = new Map()
        perGrade.set(j.stratum, grades)
      }
      grades.set(j.grade, (grades.get(j.grade) ?? 0) + 1)
    }
  }
  const strata = [...poolSize.keys()].sort(compareCodePoints)
  let estimatedRelevant = 0
  const estimatedPerGrade = new Map<number, number>()
  for (const s of strata) {
    const n = sampled.get(s) ?? 0
    if (n !== 0) {
      estimatedRelevant += ((sampledRelevant.get(s) ?? 0) * (poolSize.get(s) ?? 0)) / n
    }
    const grades = perGrade.get(s)
    for (const g of [...(grades?.keys() ?? [])].sort((a, b) =>
      compareCodePoints(String(a), String(b)),
    )) {
      estimatedPerGrade.set(
        g,
        (estimatedPerGrade.get(g) ?? 0) + ((grades?.get(g) ?? 0) * (poolSize.get(s) ?? 0)) / n,
      )
    }
  }
  let idealDcg = 0
  let start = 0
  const gradesDescending = [...estimatedPerGrade.keys()].sort((a, b) =>
    compareCodePoints(String(b), String(a)),
  )
  for (const g of gradesDescending) {
    const count = Math.trunc((estimatedPerGrade.get(g) ?? 0) + 0.5)
    for (let r = start + 1; r <= start + count; r++) {
      idealDcg += g / (Math.log(r + 1) / Math.log(2))
      if (r >= maxResults) {
        break
      }
    }
    start += count
  }
  return { judged, strata, poolSize, sampled, sampledRelevant, estimatedRelevant, idealDcg }
}

/** Per-query output of the sampled estimators, named as sample_eval.pl prints them. */
export interface SampledMeasures {
  /** Inferred (extended) average precision, xinfAP. */
  readonly infAP: number
  /** Inferred nDCG over the whole ranking (gain = grade, discount log2(rank + 1)). */
  readonly infNDCG: number
  /** Estimated relevant documents retrieved. */
  readonly inumRelRet: number
  /** Estimated relevant documents. */
  readonly inumRel: number
  /** Documents retrieved (run lines for the query, as sample_eval counts them). */
  readonly numRet: number
  /** Inferred precision at each cutoff, keyed `iP<k>`. */
  readonly precision: Readonly<Record<string, number>>
  /** Estimated relevant retrieved at each rank 1…n (for interpolated precision). */
  readonly relevantAtRank: readonly number[]
}

const SMOOTH_REL = 0.00001
const SMOOTH_SAMPLED = 0.00003

/**
 * xinfAP, infNDCG and inferred precision of one ranking, exactly as sample_eval.pl
 * computes them. Documents outside the pool count as non-relevant and unseen.
 * @param ranked - document ids in rank order (see {@link compareTrecOrder}), without duplicates
 * @param sample - the query's summarised sample ({@link summariseSample})
 * @param options - see {@link SampledOptions}
 * @param numRet - what to report as `numRet`. Defaults to `ranked.length`.
 */
export function sampledMeasures(
  ranked: readonly string[],
  sample: TopicSample,
  options: SampledOptions = {},
  numRet: number = ranked.length,
): SampledMeasures {
  const maxResults = options.maxResults ?? 1000
  const cutoffs = options.precisionCutoffs ?? [10, 50, maxResults]
  const docs = new Map<string, number>()
  const sampledSoFar = new Map<string, number>()
  const relevantSoFar = new Map<string, number>()
  const gain = new Map<string, number>()
  const sap = new Map<string, number>()
  for (const s of sample.strata) {
    docs.set(s, 0)
    sampledSoFar.set(s, 0)
    relevantSoFar.set(s, 0)
    gain.set(s, 0)
    sap.set(s, 0)
  }
  let inPool = 0
  const relevantAtRank: number[] = []
  const precision: Record<string, number> = {}
  const end = Math.min(ranked.length, maxResults)
  for (let i = 0; i < end; i++) {
    const rank = i + 1
    const judgement = sample.judged.get(ranked[i] ?? '')
    const rel = judgement?.grade ?? -1
    const stratum = judgement?.stratum ?? ''
    if (rel > 0) {
      let precAbove = 0
      for (const s of sample.strata) {
        if (inPool !== 0) {
          const p = (docs.get(s) ?? 0) / inPool
          if (p !== 0) {
            precAbove +=
              (p * ((relevantSoFar.get(s) ?? 0) + SMOOTH_REL)) /
              ((sampledSoFar.get(s) ?? 0) + SMOOTH_SAMPLED)
          }
        }
      }
      const prec = 1 / rank + (inPool / rank) * precAbove
      sap.set(stratum, (sap.get(stratum) ?? 0) + prec)
      relevantSoFar.set(stratum, (relevantSoFar.get(stratum) ?? 0) + 1)
      gain.set(stratum, (gain.get(stratum) ?? 0) + rel / (Math.log(rank + 1) / Math.log(2)))
    }
    if (judgement !== undefined) {
      inPool++
      docs.set(stratum, (docs.get(stratum) ?? 0) + 1)
      if (rel >= 0) {
        sampledSoFar.set(stratum, (sampledSoFar.get(stratum) ?? 0) + 1)
      }
    }
    let estimate = 0
    for (const s of sample.strata) {
      estimate +=
        ((docs.get(s) ?? 0) * ((relevantSoFar.get(s) ?? 0) + SMOOTH_REL)) /
        ((sampledSoFar.get(s) ?? 0) + SMOOTH_SAMPLED)
    }
    relevantAtRank.push(estimate)
    for (const k of cutoffs) {
      if (rank === k) {
        precision[`iP${k}`] = estimate / k
      }
    }
  }
  const inumRelRet = relevantAtRank[relevantAtRank.length - 1] ?? 0
  for (const k of cutoffs) {
    precision[`iP${k}`] ??= inumRelRet / k
  }
  let ap = 0
  for (const s of sample.strata) {
    const n = sample.sampled.get(s) ?? 0
    if (n !== 0 && sample.estimatedRelevant !== 0) {
      const rel = sample.sampledRelevant.get(s) ?? 0
      const estimateInStratum = (rel * (sample.poolSize.get(s) ?? 0)) / n
      const p = estimateInStratum / sample.estimatedRelevant
      ap += p * (rel !== 0 ? (sap.get(s) ?? 0) / rel : 0)
    }
  }
  let dcg = 0
  for (const s of sample.strata) {
    if (inPool !== 0) {
      const p = (docs.get(s) ?? 0) / inPool
      const n = sampledSoFar.get(s) ?? 0
      if (n !== 0) {
        dcg += (p * (gain.get(s) ?? 0)) / n
      }
    }
  }
  const infNDCG = sample.idealDcg !== 0 ? (inPool * dcg) / sample.idealDcg : 0
  return {
    infAP: ap,
    infNDCG,
    inumRelRet,
    inumRel: sample.estimatedRelevant,
    numRet,
    precision,
    relevantAtRank,
  }
}

/**
 * Inferred average precision (xinfAP; Yilmaz, Kanoulas & Aslam 2008) of one ranking over
 * stratified sampled judgements, as NIST's sample_eval.pl computes it.
 * @param ranked - document ids in rank order, without duplicates
 * @param sample - the query's summarised sample ({@link summariseSample})
 * @param options - see {@link SampledOptions}
 */
export function infAP(
  ranked: readonly string[],
  sample: TopicSample,
  options: SampledOptions = {},
): number {
  return sampledMeasures(ranked, sample, options).infAP
}

/**
 * Inferred nDCG (Yilmaz, Kanoulas & Aslam 2008) of one ranking over stratified sampled
 * judgements, as NIST's sample_eval.pl computes it (whole ranking up to `maxResults`).
 * @param ranked - document ids in rank order, without duplicates
 * @param sample - the query's summarised sample ({@link summariseSample})
 * @param options - see {@link SampledOptions}
 */
export function infNDCG(
  ranked: readonly string[],
  sample: TopicSample,
  options: SampledOptions = {},
): number {
  return sampledMeasures(ranked, sample, options).infNDCG
}

/** Result of {@link evaluateSampled}. */
export interface SampledEvaluation {
  /** Query id → measures, in sample_eval's order (numeric query ids ascending). */
  readonly perQuery: ReadonlyMap<string, SampledMeasures>
  /**
   * sample_eval's `all` lines: means of `infAP`, `infNDCG`, `iP<k>` and the 11-point
   * interpolated precision `iprec@rec0.00`…`iprec@rec1.00` over evaluated queries; sums
   * `inum_rel_ret`, `inum_rel` (over *every* query of the qrels) and `num_ret` (documents
   * considered, at most `maxResults` per query).
   */
  readonly mean: Readonly<Record<string, number>>
}

/**
 * Evaluates a run over NIST sampled qrels with sample_eval.pl's semantics: only queries
 * in both run and qrels count (there is no `-c`); leading zeros are stripped from the
 * run's query ids; a document listed twice keeps its last score; ties are broken by
 * document id descending; only the top `maxResults` documents are considered.
 * @param run - the run
 * @param qrels - sampled qrels ({@link readSampledQrels})
 * @param options - see {@link SampledOptions}
 */
export function evaluateSampled(
  run: Run,
  qrels: SampledQrels,
  options: SampledOptions = {},
): SampledEvaluation {
  const maxResults = options.maxResults ?? 1000
  const cutoffs = options.precisionCutoffs ?? [10, 50, maxResults]
  const scores = new Map<string, Map<string, number>>()
  const lines = new Map<string, number>()
  for (const [rawQid, entries] of run.queries) {
    const qid = rawQid.replace(/^0*/, '')
    let docs = scores.get(qid)
    if (docs === undefined) {
      docs = new Map()
      scores.set(qid, docs)
    }
    for (const e of entries) {
      docs.set(e.docId, e.score)
    }
    lines.set(qid, (lines.get(qid) ?? 0) + entries.length)
  }
  const samples = new Map<string, TopicSample>()
  let sumRel = 0
  for (const qid of [...qrels.keys()].sort(compareCodePoints)) {
    const sample = summariseSample(qrels.get(qid) ?? new Map(), options)
    samples.set(qid, sample)
    sumRel += sample.estimatedRelevant
  }
  const perQuery = new Map<string, SampledMeasures>()
  let sumAP = 0
  let sumNDCG = 0
  let sumRelRet = 0
  let sumRet = 0
  const sumPrecision = cutoffs.map(() => 0)
  const interpolated = Array.from({ length: 11 }, () => 0)
  for (const qid of [...scores.keys()].sort(compareTopics)) {
    const sample = samples.get(qid)
    if (sample === undefined) {
      continue
    }
    const entries: RunEntry[] = [...(scores.get(qid) ?? new Map<string, number>())].map(
      ([docId, score]) => ({
        docId,
        score,
      }),
    )
    const ranked = entries.sort(compareTrecOrder).map((e) => e.docId)
    const m = sampledMeasures(ranked, sample, options, lines.get(qid) ?? ranked.length)
    perQuery.set(qid, m)
    sumAP += m.infAP
    sumNDCG += m.infNDCG
    sumRelRet += m.inumRelRet
    sumRet += m.relevantAtRank.length
    cutoffs.forEach((k, i) => {
      sumPrecision[i] = (sumPrecision[i] ?? 0) + (m.precision[`iP${k}`] ?? 0)
    })
    addInterpolated(interpolated, m.relevantAtRank, m.inumRel, m.inumRelRet)
  }
  const n = perQuery.size
  const mean: Record<string, number> = {
    infAP: n === 0 ? 0 : sumAP / n,
    infNDCG: n === 0 ? 0 : sumNDCG / n,
  }
  interpolated.forEach((v, i) => {
    mean[`iprec@rec${(i / 10).toFixed(2)}`] = n === 0 ? 0 : v / n
  })
  cutoffs.forEach((k, i) => {
    mean[`iP${k}`] = n === 0 ? 0 : (sumPrecision[i] ?? 0) / n
  })
  mean.inum_rel_ret = sumRelRet
  mean.inum_rel = sumRel
  mean.num_ret = sumRet
  return { perQuery, mean }
}

/** sample_eval's 11-point interpolated precision over estimated counts (one query). */
function addInterpolated(
  into: number[],
  relevantAtRank: readonly number[],
  estimatedRelevant: number,
  relevantRetrieved: number,
): void {
  const levels = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]
  const cutoffs = levels.map((l) => l * estimatedRelevant)
  let cut = cutoffs.length - 1
  while (cut >= 0 && (cutoffs[cut] ?? 0) > relevantRetrieved) {
    cut--
  }
  let intPrec = 0
  for (let rank = relevantAtRank.length; rank >= 1; rank--) {
    const atRank = relevantAtRank[rank - 1] ?? 0
    const prec = atRank / rank
    if (intPrec < prec) {
      intPrec = prec
    }
    if (cut >= 0 && (cutoffs[cut] ?? 0) > atRank) {
      into[cut] = (into[cut] ?? 0) + intPrec
      cut--
    }
  }
  while (cut >= 0) {
    into[cut] = (into[cut] ?? 0) + intPrec
    cut--
  }
}

/** Perl's `$a <=> $b` on topic ids: numeric when both are numbers, else by code point. */
function compareTopics(a: string, b: string): number {
  const x = Number(a)
  const y = Number(b)
  return Number.isFinite(x) && Number.isFinite(y) && x !== y ? x - y : compareCodePoints(a, b)
}
