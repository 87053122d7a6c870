/**
 * Top k of a conjunction of scoring clauses (`match: 'all'` bags of words): the documents holding
 * every clause, each scored with every clause, found by intersecting the clauses from the rarest
 * up instead of walking the match plan document by document.
 *
 *   1. the rarest clause (fewest postings) is read straight through, as term at a time does: its
 *      documents are the candidates, each with that clause's score;
 *   2. each further clause, rarest first, either moves its cursors to each candidate in turn
 *      (`advance`, skipping whole blocks with the skip data) or, when it has few postings per
 *      candidate, is read straight through into the per-document accumulators; candidates it
 *      does not hold are dropped, the others get its score;
 *   3. each surviving document's score is the sum of its clauses' scores in clause order (the
 *      document-at-a-time loop's sum, `0 + s₀ + s₁ + …`), and the k best are selected.
 *
 * A clause's score is the fieldwise BM25F value `TermScorer.score` computes (fields in order,
 * `tf~ = 0 + Σ_f w(f)·occ/(offset(f) + slope(f)·l(f, d))`, then `tf~/(k1 + tf~)·weight`), the same
 * operations on the same operands, so every score is the same float64 as the document-at-a-time
 * loop's; with the same total order the hits are the same. Every match is visited, so the total
 * is exact.
 *
 * Applies when the plan is an `AND` whose every operand is exactly one clause's postings (see
 * {@link conjunctiveCoverage}), every clause is required, and the query is fieldwise and additive.
 */
import type { IndexReader } from '@pubmatch/index'
import type { FieldwiseTerm, PreparedQuery } from '../scoring/term-scorer.ts'
import { checkDeadline, type Deadline } from './deadline.ts'
import type { ClauseSpec, ClauseTerm, MatchPlan } from './plan.ts'
import { selectTop } from './select.ts'
import {
  clauseFields,
  readClause,
  type FieldPostings,
  type TermAtATimeScratch,
} from './term-at-a-time.ts'
import type { TopKOutput } from './top-heap.ts'

/**
 * A clause with at least this many postings per remaining candidate is intersected by moving its
 * cursors to each candidate (skipping blocks); below, it is read straight through.
 */
export const ADVANCE_MIN_POSTINGS_PER_CANDIDATE = 4

/** The leaves of a pure disjunction of postings, appended to `out`; `false` for any other plan. */
function leaves(plan: MatchPlan, out: ClauseTerm[]): boolean {
  switch (plan.kind) {
    case 'term':
      out.push(plan)
      return true
    case 'terms':
      for (const term of plan.terms) {
        out.push({ field: plan.field, term })
      }
      return true
    case 'or':
      return plan.children.every((child) => leaves(child, out))
    default:
      return false
  }
}

/** Up to this many terms a side, sets of terms are compared by scanning (no keys built). */
const SCAN_MAX = 16

const has = (terms: readonly ClauseTerm[], t: ClauseTerm): boolean =>
  terms.some((u) => u.term === t.term && u.field === t.field)

/** Whether two lists hold the same (field, term) pairs, as sets. */
function sameTerms(a: readonly ClauseTerm[], b: readonly ClauseTerm[]): boolean {
  if (a.length <= SCAN_MAX && b.length <= SCAN_MAX) {
    return a.every((t) => has(b, t)) && b.every((t) => has(a, t))
  }
  const key = (t: ClauseTerm): string => `${t.field}\u0000${t.term}`
  const setA = new Set(a.map(key))
  const setB = new Set(b.map(key))
  return setA.size === setB.size && [...setA].every((k) => setB.has(k))
}

/**
 * Whether the plan is exactly the intersection of the clauses' postings: an `AND` each of whose
 * operands is a pure disjunction of postings equal (as a set) to one clause's postings, with every
 * clause the set of some operand (so every clause is required, and no operand matches anything
 * but a clause's documents).
 * @param plan - the match plan
 * @param clauses - the scoring clauses
 */
export function conjunctiveCoverage(plan: MatchPlan, clauses: readonly ClauseSpec[]): boolean {
  if (plan.kind !== 'and' || clauses.length === 0) {
    return false
  }
  const covered = new Uint8Array(clauses.length)
  const found: ClauseTerm[] = []
  for (const child of plan.children) {
    found.length = 0
    if (!leaves(child, found)) {
      return false
    }
    const k = clauses.findIndex((clause) => sameTerms(clause.terms, found))
    if (k < 0) {
      return false
    }
    covered[k] = 1
  }
  return covered.every((c) => c === 1)
}

/** What the conjunction loop needs. */
export interface ConjunctionInput {
  readonly reader: IndexReader
  /** Every one required (see {@link conjunctiveCoverage}). */
  readonly clauses: readonly ClauseSpec[]
  /** Fieldwise and additive (see `fieldwiseQuery`). */
  readonly prepared: PreparedQuery
  readonly scoredFields: readonly string[]
  readonly limit: number
  readonly tieBetter: ((a: number, b: number) => boolean) | null
  readonly scratch: TermAtATimeScratch
  readonly deadline?: Deadline
}

/** One clause, opened. */
interface OpenClause {
  readonly index: number
  readonly term: FieldwiseTerm
  readonly fields: readonly FieldPostings[]
  /** Postings over all its lists (deleted documents included). */
  readonly cost: number
}

function emptyOutput(): TopKOutput {
  return {
    docs: new Int32Array(0),
    scores: new Float64Array(0),
    docsScored: 0,
    postingsScored: 0,
    docsMatched: 0,
    windows: 0,
    blocksSkipped: 0,
    visitedAll: true,
    strategy: 'intersection',
  }
}

/**
 * Runs the conjunction loop.
 * @param input - reader, clauses, prepared query, limit, scratch arrays
 */
export function runConjunction(input: ConjunctionInput): TopKOutput {
  const { reader, prepared, scoredFields, scratch, deadline } = input
  scratch.beginSearch()
  const slotOf = new Map(scoredFields.map((field, slot) => [field, slot]))
  const lengthColumns = scoredFields.map((field) => reader.fieldLengths(field))
  const opened: OpenClause[] = []
  for (let index = 0; index < input.clauses.length; index++) {
    const fields = clauseFields(reader, input.clauses[index]!, slotOf)
    if (fields.length === 0) {
      return emptyOutput() // a required clause with no postings: nothing matches
    }
    let cost = 0
    for (const group of fields) {
      for (const cursor of group.cursors) {
        cost += cursor.docFreq
      }
    }
    opened.push({ index, term: prepared.terms[index]!.fieldwise!, fields, cost })
  }
  const clauseCount = opened.length
  const order = [...opened].sort((a, b) => a.cost - b.cost || a.index - b.index)

  // 1. The rarest clause, read through: candidates and their first contributions.
  checkDeadline(deadline)
  const lead = order[0]!
  const { tf, tfStamp, clauseTouched } = scratch
  const candidates = scratch.touched
  let n = readClause(scratch, lead, lengthColumns, deadline)
  let postingsScored = n
  ascending(clauseTouched, n, candidates)
  const contributions = scratch.contributions(clauseCount * n)
  const capacity = n
  {
    const { k1, weight } = lead.term
    const row = lead.index * capacity
    for (let i = 0; i < n; i++) {
      const t = tf[candidates[i]!]!
      contributions[row + i] = t === 0 ? 0 : (t / (k1 + t)) * weight
    }
  }

  // 2. The other clauses, rarest first, each narrowing the candidates.
  const done: number[] = [lead.index]
  for (let c = 1; c < order.length && n > 0; c++) {
    checkDeadline(deadline)
    const clause = order[c]!
    const { k1, weight, weights, offset, slope } = clause.term
    const row = clause.index * capacity
    let kept = 0
    if (clause.cost < ADVANCE_MIN_POSTINGS_PER_CANDIDATE * n) {
      const stamp = readCandidates(scratch, clause, lengthColumns, candidates, n, deadline)
      for (let i = 0; i < n; i++) {
        const d = candidates[i]!
        if (tfStamp[d] !== stamp) {
          continue
        }
        const t = tf[d]!
        if (kept !== i) {
          moveCandidate(contributions, done, capacity, i, kept)
          candidates[kept] = d
        }
        contributions[row + kept] = t === 0 ? 0 : (t / (k1 + t)) * weight
        kept++
      }
    } else {
      const fields = clause.fields
      for (let i = 0; i < n; i++) {
        if ((i & 4095) === 4095) {
          checkDeadline(deadline)
        }
        const d = candidates[i]!
        let t = 0
        let found = false
        for (let g = 0; g < fields.length; g++) {
          const { slot, cursors } = fields[g]!
          let occ = 0
          for (let s = 0; s < cursors.length; s++) {
            const cursor = cursors[s]!
            let at = cursor.docID()
            if (at < d) {
              at = cursor.advance(d)
            }
            if (at === d) {
              occ += cursor.freq()
            }
          }
          if (occ > 0) {
            t += (weights[slot]! * occ) / (offset[slot]! + slope[slot]! * lengthColumns[slot]![d]!)
            found = true
          }
        }
        if (!found) {
          continue
        }
        if (kept !== i) {
          moveCandidate(contributions, done, capacity, i, kept)
          candidates[kept] = d
        }
        contributions[row + kept] = t === 0 ? 0 : (t / (k1 + t)) * weight
        kept++
      }
    }
    postingsScored += kept
    n = kept
    done.push(clause.index)
  }

  // 3. Scores in clause order, then the top k.
  const { scores } = scratch
  for (let i = 0; i < n; i++) {
    let sum = 0
    for (let k = 0; k < clauseCount; k++) {
      sum += contributions[k * capacity + i]!
    }
    scores[candidates[i]!] = sum
  }
  const { docs, scores: hitScores } = selectTop(
    scores,
    candidates,
    n,
    input.limit,
    input.tieBetter,
    {
      values: tf,
      ties: clauseTouched,
    },
  )
  return {
    docs,
    scores: hitScores,
    docsScored: n,
    postingsScored,
    docsMatched: n,
    windows: 0,
    blocksSkipped: 0,
    visitedAll: true,
    strategy: 'intersection',
  }
}

/**
 * Reads a clause's postings straight through, as `readClause` does, but adds up its tf~ only for
 * the candidates (marked first in `scoreStamp`, free until the scores are summed): the same
 * operations in the same order for those documents, so the same values, and none for the others.
 * Returns the stamp the candidates it holds carry in `tfStamp`.
 * @param scratch - the per-document arrays
 * @param clause - the clause, opened
 * @param lengthColumns - field lengths per scored field
 * @param candidates - the candidates
 * @param n - how many
 * @param deadline - checked per field
 */
function readCandidates(
  scratch: TermAtATimeScratch,
  clause: OpenClause,
  lengthColumns: readonly Uint32Array[],
  candidates: Int32Array,
  n: number,
  deadline: Deadline | undefined,
): number {
  if (clause.fields.some((group) => group.cursors.length !== 1)) {
    return readClause(scratch, clause, lengthColumns, deadline, true)
  }
  const { tf, tfStamp, scoreStamp, chunkDocs, chunkFreqs } = scratch
  // both stamps first: a wrap-around reset by the second leaves no mark behind
  const mark = scratch.nextStamp()
  const stamp = scratch.nextStamp()
  for (let i = 0; i < n; i++) {
    scoreStamp[candidates[i]!] = mark
  }
  const term = clause.term
  for (const { slot, cursors } of clause.fields) {
    checkDeadline(deadline)
    const w = term.weights[slot]!
    const offset = term.offset[slot]!
    const slope = term.slope[slot]!
    const lengths = lengthColumns[slot]!
    const cursor = cursors[0]!
    for (let m = cursor.nextDocs(chunkDocs, chunkFreqs); m > 0; m = cursor.nextDocs(chunkDocs, chunkFreqs)) {
      for (let i = 0; i < m; i++) {
        const d = chunkDocs[i]!
        if (scoreStamp[d] !== mark) {
          continue
        }
        const part = (w * chunkFreqs[i]!) / (offset + slope * lengths[d]!)
        if (tfStamp[d] === stamp) {
          tf[d]! += part
        } else {
          tfStamp[d] = stamp
          tf[d] = 0 + part
        }
      }
    }
  }
  return stamp
}

/**
 * Copies `src[0 … n − 1]` (distinct documents) into `dst` ascending. The documents of a clause
 * come as one ascending run per field (each field's new documents in postings order), so one or
 * two runs (title and abstract) are copied or merged; more are sorted.
 * @param src - the documents
 * @param n - how many
 * @param dst - where they go, ascending
 */
export function ascending(src: Int32Array, n: number, dst: Int32Array): void {
  let split = -1
  for (let i = 1; i < n; i++) {
    if (src[i]! < src[i - 1]!) {
      if (split >= 0) {
        dst.set(src.subarray(0, n))
        dst.subarray(0, n).sort()
        return
      }
      split = i
    }
  }
  if (split < 0) {
    dst.set(src.subarray(0, n))
    return
  }
  let i = 0
  let j = split
  let k = 0
  while (i < split && j < n) {
    const a = src[i]!
    const b = src[j]!
    if (a < b) {
      dst[k++] = a
      i++
    } else {
      dst[k++] = b
      j++
    }
  }
  while (i < split) {
    dst[k++] = src[i++]!
  }
  while (j < n) {
    dst[k++] = src[j++]!
  }
}

/** Moves candidate `from`'s contributions of the clauses done so far to slot `to`. */
function moveCandidate(
  contributions: Float64Array,
  done: readonly number[],
  capacity: number,
  from: number,
  to: number,
): void {
  for (let k = 0; k < done.length; k++) {
    const row = done[k]! * capacity
    contributions[row + to] = contributions[row + from]!
  }
}
