import type { JudgedRanking } from './judged-ranking.ts'

/*
 * Pure measures over a JudgedRanking, each a transcription of the arithmetic of the
 * trec_eval 10.0 source file named in its doc comment (same operation order, so results
 * agree to the last bits). Cutoff measures treat missing ranks as non-relevant.
 */

/** Number of relevant documents among the top `k` (all of them when k = Infinity). */
function relevantInTop(r: JudgedRanking, k: number): number {
  let count = 0
  const end = Math.min(k, r.rels.length)
  for (let i = 0; i < end; i++) {
    if ((r.rels[i] ?? 0) >= r.relevanceLevel) {
      count++
    }
  }
  return count
}

/**
 * Precision at `k` (`P.k`, m_P.c): relevant in the top k divided by k, even when fewer
 * than k documents were retrieved.
 * @param r - the judged ranking
 * @param k - the cutoff (≥ 1)
 */
export function precisionAt(r: JudgedRanking, k: number): number {
  return relevantInTop(r, k) / k
}

/**
 * Recall at `k` (`recall.k`, m_recall.c): relevant in the top k divided by the number of
 * relevant documents; 0 when the query has none.
 * @param r - the judged ranking
 * @param k - the cutoff (≥ 1)
 */
export function recallAt(r: JudgedRanking, k: number): number {
  return r.numRel === 0 ? 0 : relevantInTop(r, k) / r.numRel
}

/**
 * Success at `k` (`success.k`, m_success.c): 1 if a relevant document is in the top k.
 * @param r - the judged ranking
 * @param k - the cutoff (≥ 1)
 */
export function successAt(r: JudgedRanking, k: number): number {
  return relevantInTop(r, k) > 0 ? 1 : 0
}

/**
 * Average precision (`map`, m_map.c), or AP over the top `k` only (`map_cut.k`,
 * m_map_cut.c). Divided by all relevant documents of the query; 0 when there are none.
 * @param r - the judged ranking
 * @param k - cutoff. Defaults to `Infinity` (the whole ranking).
 */
export function averagePrecision(r: JudgedRanking, k: number = Infinity): number {
  if (r.numRel === 0) {
    return 0
  }
  let relSoFar = 0
  let sum = 0
  const end = Math.min(k, r.rels.length)
  for (let i = 0; i < end; i++) {
    if ((r.rels[i] ?? 0) >= r.relevanceLevel) {
      relSoFar++
      sum += relSoFar / (i + 1)
    }
  }
  return sum / r.numRel
}

/**
 * Reciprocal rank of the first relevant document (`recip_rank`, m_recip_rank.c); 0 if none
 * is retrieved.
 * @param r - the judged ranking
 */
export function reciprocalRank(r: JudgedRanking): number {
  const i = r.rels.findIndex((rel) => rel >= r.relevanceLevel)
  return i < 0 ? 0 : 1 / (i + 1)
}

/**
 * R-precision (`Rprec`, m_Rprec.c): precision after R = (number relevant) documents,
 * counting only retrieved ones (so a short ranking is not padded).
 * @param r - the judged ranking
 */
export function rPrecision(r: JudgedRanking): number {
  const look = Math.min(r.numRet, r.numRel)
  return look === 0 ? 0 : relevantInTop(r, look) / r.numRel
}

/**
 * bpref (`bpref`, m_bpref.c; Buckley & Voorhees 2004): for each retrieved relevant
 * document, 1 − min(judged non-relevant above it, R) / min(judged non-relevant, R);
 * averaged over R. Unjudged and unpooled documents are skipped.
 * @param r - the judged ranking
 */
export function bpref(r: JudgedRanking): number {
  let numNonrel = 0
  for (let g = 0; g < r.relevanceLevel; g++) {
    numNonrel += r.gradeCounts[g] ?? 0
  }
  let nonrelSoFar = 0
  let sum = 0
  for (const rel of r.rels) {
    if (rel < 0) {
      continue
    }
    if (rel < r.relevanceLevel) {
      nonrelSoFar++
    } else if (nonrelSoFar > 0) {
      sum += 1 - Math.min(nonrelSoFar, r.numRel) / Math.min(numNonrel, r.numRel)
    } else {
      sum += 1
    }
  }
  return r.numRel === 0 ? sum : sum / r.numRel
}

/** trec_eval's `INFAP_EPSILON`. */
const INFAP_EPSILON = 0.00001

/**
 * trec_eval's `infAP` (m_infap.c; Yilmaz & Aslam, CIKM 2006): inferred AP when the pool
 * was judged by uniform random sampling. Qrels grades < 0 mark pooled-but-unjudged
 * documents. For stratified samples (qrels with a stratum column) use {@link infAP}.
 * @param r - the judged ranking
 */
export function trecInfAP(r: JudgedRanking): number {
  let nonrelSoFar = 0
  let relSoFar = 0
  let unjudgedSoFar = 0
  let sum = 0
  r.rels.forEach((rel, j) => {
    if (rel === -1) {
      return
    }
    if (rel === -2) {
      unjudgedSoFar++
      return
    }
    if (rel >= 0 && rel < r.relevanceLevel) {
      nonrelSoFar++
      return
    }
    relSoFar++
    if (j === 0) {
      sum += 1
    } else {
      const fj = j
      sum +=
        1 / (fj + 1) +
        (fj / (fj + 1)) *
          ((relSoFar - 1 + nonrelSoFar + unjudgedSoFar) / fj) *
          ((relSoFar - 1 + INFAP_EPSILON) / (relSoFar - 1 + nonrelSoFar + 2 * INFAP_EPSILON))
    }
  })
  return r.numRel === 0 ? sum : sum / r.numRel
}

/** Gain function of an nDCG variant. */
export type NdcgGain = 'linear' | 'exponential'

/** Options of {@link ndcgAt}. */
export interface NdcgOptions {
  /**
   * `'linear'`: gain = grade, as trec_eval's `ndcg_cut` (Järvelin & Kekäläinen).
   * `'exponential'`: gain = 2^grade − 1 (Burges et al. 2005) — **not** trec_eval's; it is
   * reported under the measure name `ndcg_exp_cut`. Defaults to `'linear'`.
   */
  gain?: NdcgGain
}

/**
 * nDCG at `k` (`ndcg_cut.k`, m_ndcg_cut.c): DCG = Σ gain / log2(rank + 1) over the top k,
 * divided by the DCG of the ideal ordering of all judged documents. Grades count as gains
 * whatever the relevance level (as in trec_eval); unjudged and unpooled documents gain 0.
 * @param r - the judged ranking
 * @param k - cutoff. `Infinity` gives nDCG over the whole ranking with default gains.
 * @param options - see {@link NdcgOptions}
 */
export function ndcgAt(r: JudgedRanking, k: number, options: NdcgOptions = {}): number {
  const gainOf = options.gain === 'exponential' ? (g: number) => 2 ** g - 1 : (g: number) => g
  let dcg = 0
  const end = Math.min(k, r.rels.length)
  for (let i = 0; i < end; i++) {
    const rel = r.rels[i] ?? 0
    if (rel > 0) {
      dcg += gainOf(rel) / Math.log2(i + 2)
    }
  }
  let ideal = 0
  let rank = 0
  for (let g = r.gradeCounts.length - 1; g > 0 && rank < k; g--) {
    const count = r.gradeCounts[g] ?? 0
    for (let c = 0; c < count && rank < k; c++) {
      ideal += gainOf(g) / Math.log2(rank + 2)
      rank++
    }
  }
  return ideal > 0 ? dcg / ideal : dcg
}

/**
 * nDCG over the whole ranking with per-grade gains (`ndcg`, m_ndcg.c; `-m ndcg.1=3,2=9`).
 * Grades without an explicit gain keep gain = grade. Negative gains lower DCG and never
 * enter the ideal ranking.
 * @param r - the judged ranking
 * @param gains - grade → gain overrides. Defaults to none.
 */
export function ndcg(r: JudgedRanking, gains: ReadonlyMap<number, number> = new Map()): number {
  const gainOf = (rel: number): number => gains.get(rel) ?? (rel >= 0 ? rel : 0)
  let dcg = 0
  r.rels.forEach((rel, i) => {
    const gain = gainOf(rel)
    if (gain !== 0) {
      dcg += gain / Math.log2(i + 2)
    }
  })
  const levels = r.gradeCounts
    .map((count, grade) => ({ count, gain: gainOf(grade) }))
    .filter((l) => l.count > 0 && l.gain > 0)
    .sort((a, b) => b.gain - a.gain)
  let ideal = 0
  let rank = 0
  for (const level of levels) {
    for (let c = 0; c < level.count; c++) {
      ideal += level.gain / Math.log2(rank + 2)
      rank++
    }
  }
  return ideal > 0 ? dcg / ideal : 0
}

/**
 * Interpolated precision at recall levels (`iprec_at_recall`, m_iprec_at_recall.c):
 * max precision at any rank whose recall ≥ the level, with trec_eval's conversion of
 * a level to a number of relevant documents, floor(level·R + 0.9).
 * @param r - the judged ranking
 * @param levels - recall levels in [0, 1], ascending
 * @returns one value per level
 */
export function interpolatedPrecision(r: JudgedRanking, levels: readonly number[]): number[] {
  const out = levels.map(() => 0)
  if (r.numRet === 0) {
    return out
  }
  const cutoffs = levels.map((l) => Math.trunc(l * r.numRel + 0.9))
  let cut = levels.length - 1
  while (cut >= 0 && (cutoffs[cut] ?? 0) > r.numRelRet) {
    cut--
  }
  let intPrec = r.numRelRet / r.numRet
  let relSoFar = r.numRelRet
  for (let i = r.numRet; i > 0 && relSoFar > 0; i--) {
    const prec = relSoFar / i
    if (intPrec < prec) {
      intPrec = prec
    }
    if ((r.rels[i - 1] ?? 0) >= r.relevanceLevel) {
      while (cut >= 0 && relSoFar === cutoffs[cut]) {
        out[cut] = intPrec
        cut--
      }
      relSoFar--
    }
  }
  while (cut >= 0) {
    out[cut] = intPrec
    cut--
  }
  return out
}
