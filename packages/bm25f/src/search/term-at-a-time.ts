/**
 * Term-at-a-time top k for a disjunction whose every match is scored anyway: a large `limit`
 * keeps the k-th score low, so block-max pruning skips almost nothing and its per-document
 * bookkeeping (the union of the cursors, the windows, the bounds) is pure overhead. Here each
 * clause's postings are read straight through into dense per-document accumulators:
 *
 *   for each clause, in clause order:
 *     for each scored field f, in field order:   tf~[d] += w(f)·occ / (offset(f) + slope(f)·l(f, d))
 *     for each document d the clause touched:    score[d] += tf~ === 0 ? 0 : tf~/(k1 + tf~) · weight
 *   then the k best of the touched documents are selected (`selectTop`).
 *
 * These are the operations of `TermScorer.score` (`fieldwise`) and of the document-at-a-time
 * loop's sum over clauses, in the same order on the same operands, so every score is the same
 * float64 as the document-at-a-time loop's, and with the same total order (score, then the
 * tie-break) the hits are the same. Every match is visited, so the total is exact.
 *
 * Applies when the plan is exactly the union of the clauses' postings (`coverage: 'equal'`) and
 * every clause's scorer is `fieldwise` (BM25F) in an additive query.
 */
import { PubmatchError } from '@pubmatch/core'
import type { IndexReader } from '@pubmatch/index'
import type { PostingsCursor } from '@pubmatch/index/internal'
import type { FieldwiseTerm, PreparedQuery } from '../scoring/term-scorer.ts'
import { checkDeadline, type Deadline } from './deadline.ts'
import type { ClauseSpec } from './plan.ts'
import { selectTop } from './select.ts'
import type { TopKOutput } from './top-heap.ts'

/** Postings read at once: one block. */
const CHUNK = 128
/** The largest stamp (stamps are Int32Array entries). */
const MAX_STAMP = 0x7fffffff
/** Stamps one search may take (it takes one, plus one per clause and per truncated field). */
export const STAMP_HEADROOM: number = 1 << 24

/**
 * The per-document arrays of the term-at-a-time loop, reused by the searches of one reader (one
 * search at a time: searches are synchronous). Entries are valid only where their stamp is the
 * current one, so nothing is cleared between searches, and a search that throws leaves nothing
 * behind.
 */
export class TermAtATimeScratch {
  readonly maxDoc: number
  /** Per document: its score so far in the current search. */
  readonly scores: Float64Array
  readonly scoreStamp: Int32Array
  /** Per document: the current clause's tf~ so far. */
  readonly tf: Float64Array
  readonly tfStamp: Int32Array
  /** The documents of the current search, and of the current clause. */
  readonly touched: Int32Array
  readonly clauseTouched: Int32Array
  /** One block of postings read in bulk. */
  readonly chunkDocs: Int32Array = new Int32Array(CHUNK)
  readonly chunkFreqs: Int32Array = new Int32Array(CHUNK)
  /** Per document: the summed occurrences of a field's several postings (truncation), made on demand. */
  private occArrays: { occ: Float64Array; stamp: Int32Array; touched: Int32Array } | null = null
  /** Per clause and candidate: the clause's score (the conjunction loop), grown on demand. */
  private contributionArray: Float64Array | null = null
  private stamp = 0

  /** @param maxDoc - one past the reader's last document number */
  constructor(maxDoc: number) {
    this.maxDoc = maxDoc
    this.scores = new Float64Array(maxDoc)
    this.scoreStamp = new Int32Array(maxDoc)
    this.tf = new Float64Array(maxDoc)
    this.tfStamp = new Int32Array(maxDoc)
    this.touched = new Int32Array(maxDoc)
    this.clauseTouched = new Int32Array(maxDoc)
  }

  /** The stamp {@link nextStamp} gave last. */
  currentStamp(): number {
    return this.stamp
  }

  /**
   * Called as a search starts, before it takes its first stamp: when fewer than
   * {@link STAMP_HEADROOM} stamps are left, every stamp array is cleared and the count starts again.
   * Stamps wrap only here, between searches, never under a stamp a search still holds.
   */
  beginSearch(): void {
    if (this.stamp > MAX_STAMP - STAMP_HEADROOM) {
      this.scoreStamp.fill(0)
      this.tfStamp.fill(0)
      this.occArrays?.stamp.fill(0)
      this.stamp = 0
    }
  }

  /**
   * A stamp no entry holds yet.
   * @throws PubmatchError `INTERNAL` if one search took more than {@link STAMP_HEADROOM} stamps
   */
  nextStamp(): number {
    if (this.stamp >= MAX_STAMP) {
      throw new PubmatchError('INTERNAL', `a search took more than ${STAMP_HEADROOM} work-array stamps`)
    }
    return ++this.stamp
  }

  /** @internal For tests: sets the stamp count, as after that many stamps. */
  setStampForTest(stamp: number): void {
    this.stamp = stamp
  }

  /** A work array of at least `size` numbers (contents undefined). */
  contributions(size: number): Float64Array {
    if (this.contributionArray === null || this.contributionArray.length < size) {
      this.contributionArray = new Float64Array(Math.max(size, 1024))
    }
    return this.contributionArray
  }

  occ(): { occ: Float64Array; stamp: Int32Array; touched: Int32Array } {
    this.occArrays ??= {
      occ: new Float64Array(this.maxDoc),
      stamp: new Int32Array(this.maxDoc),
      touched: new Int32Array(this.maxDoc),
    }
    return this.occArrays
  }
}

/** One scoring clause's postings grouped by scored field, ascending. */
export interface FieldPostings {
  readonly slot: number
  readonly cursors: PostingsCursor[]
}

/**
 * Whether the term-at-a-time loop can rank this query exactly: an additive query whose every
 * term scorer is fieldwise.
 * @param prepared - the prepared query
 */
export function fieldwiseQuery(prepared: PreparedQuery | null): boolean {
  return (
    prepared !== null &&
    prepared.additive &&
    prepared.terms.length > 0 &&
    prepared.terms.every((term) => term.fieldwise !== undefined)
  )
}

/** What the term-at-a-time loop needs. */
export interface TermAtATimeInput {
  readonly reader: IndexReader
  readonly clauses: readonly ClauseSpec[]
  /** Fieldwise and additive (see {@link fieldwiseQuery}). */
  readonly prepared: PreparedQuery
  readonly scoredFields: readonly string[]
  readonly limit: number
  readonly tieBetter: ((a: number, b: number) => boolean) | null
  readonly scratch: TermAtATimeScratch
  readonly deadline?: Deadline
}

/**
 * Runs the term-at-a-time loop.
 * @param input - reader, clauses, prepared query, limit, scratch arrays
 */
export function runTermAtATime(input: TermAtATimeInput): TopKOutput {
  const { reader, clauses, prepared, scoredFields, scratch, deadline } = input
  const slotOf = new Map(scoredFields.map((field, slot) => [field, slot]))
  const lengthColumns = scoredFields.map((field) => reader.fieldLengths(field))
  const { scores, scoreStamp, tf, touched, clauseTouched } = scratch
  scratch.beginSearch()
  const query = scratch.nextStamp()
  let touchedCount = 0
  let postingsScored = 0

  for (let index = 0; index < clauses.length; index++) {
    const fields = clauseFields(reader, clauses[index]!, slotOf)
    if (fields.length === 0) {
      continue
    }
    checkDeadline(deadline)
    const term: FieldwiseTerm = prepared.terms[index]!.fieldwise!
    if (fields.some((group) => group.cursors.length !== 1)) {
      // A truncated word (several postings in a field): the clause's tf~ first, then its scores.
      const clauseCount = readClause(scratch, { term, fields }, lengthColumns, deadline)
      const { k1, weight } = term
      for (let i = 0; i < clauseCount; i++) {
        const d = clauseTouched[i]!
        const t = tf[d]!
        const s = t === 0 ? 0 : (t / (k1 + t)) * weight
        if (scoreStamp[d] === query) {
          scores[d]! += s
        } else {
          scoreStamp[d] = query
          scores[d] = 0 + s
          touched[touchedCount++] = d
        }
      }
      postingsScored += clauseCount
      continue
    }
    const scored = scoreClause(scratch, term, fields, lengthColumns, deadline, query, touchedCount)
    touchedCount = scored.touchedCount
    postingsScored += scored.docs
  }

  // Top k: the clause scratch arrays are free now and serve as the selection's work arrays.
  const { docs, scores: hitScores } = selectTop(
    scores,
    touched,
    touchedCount,
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
    docsScored: touchedCount,
    postingsScored,
    docsMatched: touchedCount,
    windows: 0,
    blocksSkipped: 0,
    visitedAll: true,
    strategy: 'termAtATime',
  }
}

/**
 * Scores one clause into the search's accumulators, its last field fused with the scoring: the
 * postings of the earlier fields go into `tf` (as {@link readClause} does), then each document of
 * the last field gets its tf~ (the earlier fields' sum plus its part, the order of `readClause`),
 * is scored and added at once; the earlier fields' documents it lacked are scored last. Each
 * document's tf~, score and sum are the operations of `readClause` and the loop after it, in the
 * same order on the same operands, so the same floats; only the order in which documents are
 * reached differs. Every field has one postings list (a truncated word goes through
 * `readClause` and the loop after it).
 * @returns the search's touched count after the clause, and the clause's documents
 */
function scoreClause(
  scratch: TermAtATimeScratch,
  term: FieldwiseTerm,
  fields: readonly FieldPostings[],
  lengthColumns: readonly Uint32Array[],
  deadline: Deadline | undefined,
  query: number,
  touchedIn: number,
): { touchedCount: number; docs: number } {
  const { scores, scoreStamp, tf, tfStamp, touched, clauseTouched, chunkDocs, chunkFreqs } = scratch
  const { k1, weight } = term
  let touchedCount = touchedIn
  let earlier = 0
  let stamp = -1
  if (fields.length > 1) {
    // The earlier fields' tf~ (stamped `stamp`, listed in `clauseTouched`).
    earlier = readClause(scratch, { term, fields: fields.slice(0, -1) }, lengthColumns, deadline)
    stamp = scratch.currentStamp()
  }
  const last = fields[fields.length - 1]!
  const cursor = last.cursors[0]!
  const w = term.weights[last.slot]!
  const offset = term.offset[last.slot]!
  const slope = term.slope[last.slot]!
  const lengths = lengthColumns[last.slot]!
  let docs = earlier
  for (let m = cursor.nextDocs(chunkDocs, chunkFreqs); m > 0; m = cursor.nextDocs(chunkDocs, chunkFreqs)) {
    for (let i = 0; i < m; i++) {
      const d = chunkDocs[i]!
      const part = (w * chunkFreqs[i]!) / (offset + slope * lengths[d]!)
      let t: number
      if (tfStamp[d] === stamp) {
        t = tf[d]! + part
        tfStamp[d] = 0 // scored here: not again below
      } else {
        t = 0 + part
        docs++
      }
      const s = t === 0 ? 0 : (t / (k1 + t)) * weight
      if (scoreStamp[d] === query) {
        scores[d]! += s
      } else {
        scoreStamp[d] = query
        scores[d] = 0 + s
        touched[touchedCount++] = d
      }
    }
  }
  // The earlier fields' documents without the last field.
  for (let i = 0; i < earlier; i++) {
    const d = clauseTouched[i]!
    if (tfStamp[d] !== stamp) {
      continue
    }
    const t = tf[d]!
    const s = t === 0 ? 0 : (t / (k1 + t)) * weight
    if (scoreStamp[d] === query) {
      scores[d]! += s
    } else {
      scoreStamp[d] = query
      scores[d] = 0 + s
      touched[touchedCount++] = d
    }
  }
  return { touchedCount, docs }
}

/**
 * A clause's postings by scored field, ascending (fields without postings left out).
 * @param reader - the index
 * @param clause - the clause
 * @param slotOf - each scored field's slot
 */
export function clauseFields(
  reader: IndexReader,
  clause: ClauseSpec,
  slotOf: ReadonlyMap<string, number>,
): FieldPostings[] {
  const out: FieldPostings[] = []
  for (const { field, term } of clause.terms) {
    const cursor = reader.postings(field, term)
    if (cursor === null) {
      continue
    }
    const slot = slotOf.get(field)!
    const group = out.find((g) => g.slot === slot)
    if (group === undefined) {
      out.push({ slot, cursors: [cursor] })
    } else {
      group.cursors.push(cursor)
    }
  }
  return out.sort((a, b) => a.slot - b.slot)
}

/**
 * Reads a clause's postings straight through into `tf` (its tf~ per document, stamped): the
 * term-at-a-time accumulation of one clause. Returns how many documents it touched (listed in
 * `clauseTouched`), or with `stampOnly` the stamp its documents carry in `tfStamp`.
 */
export function readClause(
  scratch: TermAtATimeScratch,
  clause: { readonly term: FieldwiseTerm; readonly fields: readonly FieldPostings[] },
  lengthColumns: readonly Uint32Array[],
  deadline: Deadline | undefined,
  stampOnly = false,
): number {
  const { tf, tfStamp, clauseTouched, chunkDocs, chunkFreqs } = scratch
  const stamp = scratch.nextStamp()
  const term = clause.term
  let count = 0
  for (const { slot, cursors } of clause.fields) {
    const w = term.weights[slot]!
    const offset = term.offset[slot]!
    const slope = term.slope[slot]!
    const lengths = lengthColumns[slot]!
    if (cursors.length === 1) {
      const cursor = cursors[0]!
      for (
        let m = cursor.nextDocs(chunkDocs, chunkFreqs);
        m > 0;
        m = cursor.nextDocs(chunkDocs, chunkFreqs)
      ) {
        for (let i = 0; i < m; i++) {
          const d = chunkDocs[i]!
          const part = (w * chunkFreqs[i]!) / (offset + slope * lengths[d]!)
          if (tfStamp[d] === stamp) {
            tf[d]! += part
          } else {
            tfStamp[d] = stamp
            tf[d] = 0 + part
            clauseTouched[count++] = d
          }
        }
      }
    } else {
      // Several postings in one field (a truncated word): occurrences add up before the division.
      const { occ, stamp: occStamp, touched: occTouched } = scratch.occ()
      const field = scratch.nextStamp()
      let occCount = 0
      for (const cursor of cursors) {
        checkDeadline(deadline)
        for (
          let m = cursor.nextDocs(chunkDocs, chunkFreqs);
          m > 0;
          m = cursor.nextDocs(chunkDocs, chunkFreqs)
        ) {
          for (let i = 0; i < m; i++) {
            const d = chunkDocs[i]!
            if (occStamp[d] === field) {
              occ[d]! += chunkFreqs[i]!
            } else {
              occStamp[d] = field
              occ[d] = chunkFreqs[i]!
              occTouched[occCount++] = d
            }
          }
        }
      }
      for (let i = 0; i < occCount; i++) {
        const d = occTouched[i]!
        const part = (w * occ[d]!) / (offset + slope * lengths[d]!)
        if (tfStamp[d] === stamp) {
          tf[d]! += part
        } else {
          tfStamp[d] = stamp
          tf[d] = 0 + part
          clauseTouched[count++] = d
        }
      }
    }
  }
  return stampOnly ? stamp : count
}
