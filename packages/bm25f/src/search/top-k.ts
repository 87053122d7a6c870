/**
 * Top-k retrieval: Boolean matching of the plan, scoring of the clauses, and block-max MaxScore
 * dynamic pruning (exact: the same hits as scoring every match).
 *
 * The loop runs in two modes. Until `limit` documents are held and a score of 0 could no longer
 * enter, it walks the match plan document by document and scores every match. Then it works in
 * windows of document numbers bounded by block ends: each clause's block impacts give an upper
 * bound of its score in the window (`TermScorer.upperBound`); a window whose bounds sum to no more
 * than the k-th best score is skipped whole; otherwise the clauses are split MaxScore-style into
 * non-essential ones (the lowest bounds, summing to at most the k-th score) and essential ones, and
 * only documents of essential clauses are candidates. A candidate is checked against the plan,
 * then scored clause by clause (essential first, then non-essential by decreasing bound) and
 * dropped as soon as its partial score plus the remaining bounds cannot enter.
 *
 * Why this is exact: a document outside every essential clause scores at most the sum of the
 * non-essential bounds ≤ the k-th score; a document in a skipped window at most the window's
 * bound ≤ the k-th score. With ties broken by ascending document number, a later document with
 * an equal score never enters, so `≤` suffices (for `idDescending`, `<` is used). Bounds carry a
 * relative slack (the scorers add 1e-12; comparisons keep another 1e-10 of the k-th score), so
 * rounding never prunes a document that would enter.
 */
import { compareCodePoints } from '@pubmatch/core'
import type { IndexReader } from '@pubmatch/index'
import { NO_MORE_DOCS, type PostingsCursor } from '@pubmatch/index/internal'
import type { PreparedQuery } from '../scoring/term-scorer.ts'
import { ClauseRuntime } from './clause.ts'
import {
  ConjunctionIterator,
  DisjunctionIterator,
  DocListIterator,
  EMPTY_ITERATOR,
  ExclusionIterator,
  PostingsIterator,
  PredicateIterator,
  type DocIterator,
} from './doc-iterators.ts'
import type { LengthRangeMin } from './length-bounds.ts'
import type { ClauseSpec, MatchPlan } from './plan.ts'
import { PositionalIterator, type PositionSlot } from './positional.ts'
import { checkDeadline, type Deadline } from './deadline.ts'
import { TopHeap, type TopKOutput } from './top-heap.ts'
import { fieldwiseQuery, runTermAtATime, type TermAtATimeScratch } from './term-at-a-time.ts'
import { conjunctiveCoverage, runConjunction } from './conjunction.ts'
import type { TieBreak } from './types.ts'

/** Relative margin kept below the k-th score before pruning (beyond the scorers' own slack). */
const PRUNE_MARGIN = 1e-10

/**
 * Builds the iterator of a match plan.
 * @param plan - the plan
 * @param reader - the index
 * @param unions - precomputed unions of `terms` plans (shared by the passes of one search)
 */
export function planIterator(
  plan: MatchPlan,
  reader: IndexReader,
  unions: Map<MatchPlan, Int32Array> = new Map(),
): DocIterator {
  switch (plan.kind) {
    case 'none':
      return EMPTY_ITERATOR
    case 'all':
      return new PredicateIterator(reader.maxDoc, (d) => reader.isLive(d))
    case 'term': {
      const cursor = reader.postings(plan.field, plan.term)
      return cursor === null ? EMPTY_ITERATOR : new PostingsIterator(cursor)
    }
    case 'terms': {
      let docs = unions.get(plan)
      if (docs === undefined) {
        docs = unionDocs(
          reader,
          plan.terms.map((term) => ({ field: plan.field, term })),
        )
        unions.set(plan, docs)
      }
      return docs.length === 0 ? EMPTY_ITERATOR : new DocListIterator(docs)
    }
    case 'positional': {
      const slots: PositionSlot[] = []
      for (const slot of plan.slots) {
        const cursors = slot.terms
          .map((term) => reader.postings(plan.field, term))
          .filter((c): c is PostingsCursor => c !== null)
        if (cursors.length === 0) {
          return EMPTY_ITERATOR
        }
        slots.push({ cursors, offset: slot.offset })
      }
      return new PositionalIterator(slots, plan.mode)
    }
    case 'range': {
      const values = reader.numericValues(plan.docValue)
      const { min, max } = plan
      return new PredicateIterator(reader.maxDoc, (d) => {
        const v = values[d]!
        return v >= min && v <= max && reader.isLive(d)
      })
    }
    case 'sortedSet': {
      const wanted = new Set(plan.values)
      const name = plan.docValue
      return new PredicateIterator(
        reader.maxDoc,
        (d) => reader.isLive(d) && reader.sortedSetValues(name, d).some((v) => wanted.has(v)),
      )
    }
    case 'docs':
      return new DocListIterator(Int32Array.from(plan.docs.filter((d) => reader.isLive(d))))
    case 'and':
      return new ConjunctionIterator(
        plan.children.map((child) => planIterator(child, reader, unions)),
      )
    case 'or':
      return new DisjunctionIterator(
        plan.children.map((child) => planIterator(child, reader, unions)),
      )
    case 'not':
      return new ExclusionIterator(
        planIterator(plan.include, reader, unions),
        planIterator(plan.exclude, reader, unions),
      )
  }
}

/**
 * The live documents holding any of the terms, ascending.
 * @param reader - the index
 * @param terms - (field, term) pairs
 */
export function unionDocs(
  reader: IndexReader,
  terms: readonly { readonly field: string; readonly term: string }[],
): Int32Array {
  const seen = new Uint8Array(reader.maxDoc)
  let count = 0
  for (const { field, term } of terms) {
    const cursor = reader.postings(field, term)
    if (cursor === null) {
      continue
    }
    for (let d = cursor.nextDoc(); d !== NO_MORE_DOCS; d = cursor.nextDoc()) {
      if (seen[d] === 0) {
        seen[d] = 1
        count++
      }
    }
  }
  const docs = new Int32Array(count)
  let i = 0
  for (let d = 0; d < seen.length; d++) {
    if (seen[d] === 1) {
      docs[i++] = d
    }
  }
  return docs
}

/** Everything the top-k loop needs. */
export interface TopKInput {
  readonly reader: IndexReader
  readonly plan: MatchPlan
  /** How the plan relates to the clauses' postings (see `planCoverage`). */
  readonly coverage: 'equal' | 'covers' | 'none'
  readonly clauses: readonly ClauseSpec[]
  /** The prepared query (one term scorer per clause, same order); `null` when there are no clauses. */
  readonly prepared: PreparedQuery | null
  /** Scored fields, in the scorer's order. */
  readonly scoredFields: readonly string[]
  /** Whether the scorer's field contributions depend only on fields holding the term (BM25F). */
  readonly separable: boolean
  /** Range minima of each scored field's lengths (built on demand for non-separable scorers). */
  readonly rangeMins: () => readonly LengthRangeMin[]
  readonly limit: number
  readonly pruning: boolean
  readonly tieBreak: TieBreak
  readonly unions: Map<MatchPlan, Int32Array>
  /** Checked every 1,024 documents or windows (term at a time: per clause and per postings list of a truncated word); throws `TIMEOUT` past it. */
  readonly deadline?: Deadline
  /**
   * The reader's term-at-a-time arrays: without them (or when the query does not qualify) the
   * document-at-a-time loop runs.
   */
  readonly termAtATime?: () => TermAtATimeScratch
  /** Whether the search needs its exact total (every match counted): then an exhaustive loop costs nothing extra. */
  readonly exactTotal?: boolean
}

export { checkDeadline, type Deadline } from './deadline.ts'
export type { TopKOutput } from './top-heap.ts'

/** The limit from which a pruned disjunction is ranked term at a time (see {@link chooseTermAtATime}). */
export const TERM_AT_A_TIME_MIN_LIMIT = 100

/**
 * Postings per hit below which a pruned disjunction with a smaller limit is ranked term at a time
 * (with few postings per hit, the k-th score stays low and block-max pruning skips little).
 */
export const TERM_AT_A_TIME_POSTINGS_PER_HIT = 64

/**
 * Whether a search goes term at a time: pruning on (the exhaustive document-at-a-time loop stays
 * the reference), a plan that is exactly the clauses' union, a fieldwise additive scorer (BM25F),
 * and either a limit of at least {@link TERM_AT_A_TIME_MIN_LIMIT} (measured on NFCorpus ×30:
 * with 500 or 1,000 hits block-max skips almost no document) or at most
 * {@link TERM_AT_A_TIME_POSTINGS_PER_HIT} postings per hit.
 * @param input - the top-k input
 */
export function chooseTermAtATime(input: TopKInput): boolean {
  if (
    input.termAtATime === undefined ||
    !input.pruning ||
    input.limit <= 0 ||
    input.coverage !== 'equal' ||
    !fieldwiseQuery(input.prepared)
  ) {
    return false
  }
  if (input.limit >= TERM_AT_A_TIME_MIN_LIMIT) {
    return true
  }
  let postings = 0
  for (const clause of input.clauses) {
    for (const { field, term } of clause.terms) {
      postings += input.reader.docFreq(field, term)
    }
  }
  return postings <= TERM_AT_A_TIME_POSTINGS_PER_HIT * input.limit
}

/**
 * Whether a search goes by intersection (see `runConjunction`): pruning on, the term-at-a-time
 * arrays given, a fieldwise additive scorer (BM25F), a plan that is exactly the intersection of
 * the clauses' postings (`match: 'all'` bags of words), and either a limit of at least
 * {@link TERM_AT_A_TIME_MIN_LIMIT} or an exact total asked for (every match is visited anyway).
 * @param input - the top-k input
 */
export function chooseIntersection(input: TopKInput): boolean {
  return (
    input.termAtATime !== undefined &&
    input.pruning &&
    input.limit > 0 &&
    (input.limit >= TERM_AT_A_TIME_MIN_LIMIT || input.exactTotal === true) &&
    fieldwiseQuery(input.prepared) &&
    conjunctiveCoverage(input.plan, input.clauses)
  )
}

/**
 * Opens the postings of the clauses (clauses with none are left out).
 * @param reader - the index
 * @param clauses - the clauses, in the prepared query's order
 * @param prepared - the prepared query (one term scorer per clause)
 * @param scoredFields - the scored fields, in the scorer's order
 */
export function openClauses(
  reader: IndexReader,
  clauses: readonly ClauseSpec[],
  prepared: PreparedQuery,
  scoredFields: readonly string[],
): ClauseRuntime[] {
  const slotOf = new Map(scoredFields.map((field, slot) => [field, slot]))
  const out: ClauseRuntime[] = []
  clauses.forEach((clause, index) => {
    const sources = []
    for (const { field, term } of clause.terms) {
      const cursor = reader.postings(field, term)
      if (cursor !== null) {
        sources.push({ slot: slotOf.get(field)!, cursor })
      }
    }
    if (sources.length > 0) {
      out.push(new ClauseRuntime(index, prepared.terms[index]!, sources, scoredFields.length))
    }
  })
  return out
}

/** The union of the clauses' postings, as a match iterator (moves the clauses' own cursors). */
class ClauseUnion implements DocIterator {
  readonly cost: number
  private readonly clauses: readonly ClauseRuntime[]
  private doc = -1

  constructor(clauses: readonly ClauseRuntime[]) {
    this.clauses = clauses
    this.cost = Number.MAX_SAFE_INTEGER
  }

  docID(): number {
    return this.doc
  }

  advance(target: number): number {
    if (this.doc >= target) {
      return this.doc
    }
    let min = NO_MORE_DOCS
    for (const clause of this.clauses) {
      const d = clause.advance(target)
      if (d < min) {
        min = d
      }
    }
    return (this.doc = min)
  }
}

/**
 * The tie-break as "a ranks before b" on document numbers; `null` for ascending document number
 * (which the heap applies inline).
 * @param reader - the index (for external ids)
 * @param tieBreak - the order of equal scores
 */
export function tieBreaker(
  reader: IndexReader,
  tieBreak: TieBreak,
): ((a: number, b: number) => boolean) | null {
  if (tieBreak === 'docNumber') {
    return null
  }
  const ids = new Map<number, string>()
  const id = (doc: number): string => {
    let value = ids.get(doc)
    if (value === undefined) {
      value = reader.externalId(doc)
      ids.set(doc, value)
    }
    return value
  }
  // Code point order (trec_eval's strcmp on UTF-8), descending.
  return (a, b) => compareCodePoints(id(a), id(b)) > 0
}

/**
 * Runs the top-k loop.
 * @param input - plan, clauses, prepared query, options
 */
export function runTopK(input: TopKInput): TopKOutput {
  if (chooseTermAtATime(input)) {
    return runTermAtATime({
      reader: input.reader,
      clauses: input.clauses,
      prepared: input.prepared!,
      scoredFields: input.scoredFields,
      limit: input.limit,
      tieBetter: tieBreaker(input.reader, input.tieBreak),
      scratch: input.termAtATime!(),
      ...(input.deadline === undefined ? {} : { deadline: input.deadline }),
    })
  }
  if (chooseIntersection(input)) {
    return runConjunction({
      reader: input.reader,
      clauses: input.clauses,
      prepared: input.prepared!,
      scoredFields: input.scoredFields,
      limit: input.limit,
      tieBetter: tieBreaker(input.reader, input.tieBreak),
      scratch: input.termAtATime!(),
      ...(input.deadline === undefined ? {} : { deadline: input.deadline }),
    })
  }
  return new TopKLoop(input).run()
}

/**
 * One run of the top-k loop: its scratch arrays and counters, the match-driven step, the window
 * step, and the scoring of one document's clauses. A class rather than closures so that the hot
 * path reads fields of one fixed shape.
 */
class TopKLoop {
  docsScored = 0
  postingsScored = 0
  docsMatched = 0
  windows = 0
  blocksSkipped = 0
  visitedAll = true
  private readonly input: TopKInput
  private readonly prepared: PreparedQuery | null
  private readonly heap: TopHeap
  private readonly clauses: readonly ClauseRuntime[]
  /** What decides which documents match: the clauses' union, or the plan's own iterator. */
  private readonly matcher: DocIterator
  private readonly termCount: number
  private readonly fieldCount: number
  private readonly lengthColumns: readonly Uint32Array[]
  /** The current document's length in each scored field. */
  private readonly lengths: Float64Array
  /** Per clause: its score in the current document, when `present`. */
  private readonly contributions: Float64Array
  private readonly present: Uint8Array
  private readonly zero: Float64Array
  /** Per clause: its tfs in the current document (`zero` when absent), for non-additive queries. */
  private readonly tfsView: ArrayLike<number>[]
  private readonly additive: boolean
  /** Whether an equal score can still enter (tie-breaks other than ascending document number). */
  private readonly strict: boolean
  private readonly pruning: boolean
  /** Whether a candidate of the clauses must be checked against the plan. */
  private readonly verify: boolean
  /** Range minima of the scored fields' lengths, built on the first window of a non-separable scorer. */
  private mins: readonly LengthRangeMin[] | null = null
  private readonly rangeMin = (slot: number, lo: number, hi: number): number =>
    this.mins![slot]!.min(lo, hi)

  constructor(input: TopKInput) {
    const { reader, prepared, scoredFields, limit } = input
    this.input = input
    this.prepared = prepared
    this.heap = new TopHeap(limit, tieBreaker(reader, input.tieBreak))
    this.clauses =
      prepared === null ? [] : openClauses(reader, input.clauses, prepared, scoredFields)
    // When the plan is exactly the clauses' union, the clauses drive the search (no second set of
    // cursors over the same postings).
    this.matcher =
      input.coverage === 'equal' && this.clauses.length > 0
        ? new ClauseUnion(this.clauses)
        : planIterator(input.plan, reader, input.unions)
    this.termCount = prepared?.terms.length ?? 0
    this.fieldCount = scoredFields.length
    this.lengthColumns = scoredFields.map((field) => reader.fieldLengths(field))
    this.lengths = new Float64Array(this.fieldCount)
    this.contributions = new Float64Array(this.termCount)
    this.present = new Uint8Array(this.termCount)
    this.zero = new Float64Array(this.fieldCount)
    this.tfsView = Array.from({ length: this.termCount }, () => this.zero)
    this.additive = prepared?.additive ?? true
    this.strict = input.tieBreak !== 'docNumber'
    this.pruning = input.pruning && limit > 0 && this.clauses.length > 0
    this.verify = input.coverage === 'none'
  }

  run(): TopKOutput {
    let target = 0
    let steps = 0
    for (;;) {
      if ((++steps & 1023) === 0) {
        checkDeadline(this.input.deadline)
      }
      if (!this.pruning || !this.prunable(0)) {
        // Match-driven: every matching document is scored.
        const doc = this.matcher.advance(target)
        if (doc === NO_MORE_DOCS) {
          break
        }
        this.scoreMatch(doc)
        target = doc + 1
        continue
      }
      target = this.window(target)
      if (target < 0) {
        break
      }
    }
    const { docs, scores } = this.heap.sorted()
    return {
      docs,
      scores,
      docsScored: this.docsScored,
      postingsScored: this.postingsScored,
      docsMatched: this.docsMatched,
      windows: this.windows,
      blocksSkipped: this.blocksSkipped,
      visitedAll: this.visitedAll,
      strategy: 'documentAtATime',
    }
  }

  /** Whether a document bounded by `bound` can no longer enter the heap. */
  private prunable(bound: number): boolean {
    const heap = this.heap
    if (!heap.full) {
      return false
    }
    const theta = heap.threshold
    const limitValue = theta - PRUNE_MARGIN * Math.abs(theta)
    return this.strict ? bound < limitValue : bound <= limitValue
  }

  /** Scores a matching document with every clause and offers it (match-driven mode). */
  private scoreMatch(doc: number): void {
    this.docsMatched++
    this.docsScored++
    this.loadLengths(doc)
    for (const clause of this.clauses) {
      clause.advance(doc)
      this.scoreClause(clause, doc)
    }
    this.heap.offer(this.finalScore(), doc)
    this.clearPresent()
  }

  /**
   * One window of documents from `from` to the nearest block end (window mode): skipped whole when
   * its bounds cannot enter, else its candidates are scored MaxScore-style. Returns the next
   * target, or −1 when no document left can enter.
   */
  private window(from: number): number {
    const clauses = this.clauses
    this.visitedAll = false
    let end = NO_MORE_DOCS
    for (const clause of clauses) {
      const e = clause.updateBlocks(from)
      if (e < end) {
        end = e
      }
    }
    if (end === NO_MORE_DOCS) {
      return -1 // every clause is exhausted: no document left can score above 0
    }
    this.windows++
    if (!this.input.separable && this.mins === null) {
      this.mins = this.input.rangeMins()
    }
    let total = 0
    for (const clause of clauses) {
      clause.ub = clause.bound(this.input.separable, this.rangeMin, from, end)
      total += clause.ub
    }
    if (this.prunable(total)) {
      this.blocksSkipped++
      return end + 1
    }
    const order = [...clauses].sort((a, b) => a.ub - b.ub)
    let split = 0
    let nonEssentialBound = 0
    while (split < order.length && this.prunable(nonEssentialBound + order[split]!.ub)) {
      nonEssentialBound += order[split]!.ub
      split++
    }
    const essential = order.slice(split)
    const nonEssential = order.slice(0, split).reverse() // decreasing bound
    let doc = nextDoc(essential, from)
    while (doc <= end) {
      if (this.verify) {
        const m = this.matcher.advance(doc)
        if (m !== doc) {
          doc = m === NO_MORE_DOCS ? NO_MORE_DOCS : nextDoc(essential, m)
          continue
        }
      }
      this.scoreCandidate(doc, essential, nonEssential, nonEssentialBound)
      doc = nextDoc(essential, doc + 1)
    }
    return end + 1 >= NO_MORE_DOCS ? -1 : end + 1
  }

  /**
   * Scores a candidate of the essential clauses, then the non-essential ones by decreasing bound
   * while its partial score plus their remaining bounds can still enter; offers it if it can.
   */
  private scoreCandidate(
    doc: number,
    essential: readonly ClauseRuntime[],
    nonEssential: readonly ClauseRuntime[],
    nonEssentialBound: number,
  ): void {
    this.docsMatched++
    this.docsScored++
    this.loadLengths(doc)
    let partial = 0
    for (const clause of essential) {
      partial += this.scoreClause(clause, doc)
    }
    let remaining = nonEssentialBound
    let competitive = true
    for (const clause of nonEssential) {
      if (this.prunable(partial + remaining)) {
        competitive = false
        break
      }
      remaining -= clause.ub
      clause.advance(doc)
      partial += this.scoreClause(clause, doc)
    }
    if (competitive) {
      this.heap.offer(this.finalScore(), doc)
    }
    this.clearPresent()
  }

  private loadLengths(doc: number): void {
    const { lengths, lengthColumns } = this
    for (let f = 0; f < this.fieldCount; f++) {
      lengths[f] = lengthColumns[f]![doc]!
    }
  }

  /** Scores `clause` at `doc` if it holds it; returns the contribution (0 when absent). */
  private scoreClause(clause: ClauseRuntime, doc: number): number {
    if (clause.doc !== doc) {
      return 0
    }
    clause.fillTfs(doc)
    const s = clause.scorer.score(clause.tfs, this.lengths)
    this.contributions[clause.index] = s
    this.present[clause.index] = 1
    this.tfsView[clause.index] = clause.tfs
    this.postingsScored++
    return s
  }

  /** The document's score from the contributions of the present clauses, in canonical order. */
  private finalScore(): number {
    const prepared = this.prepared
    if (prepared === null) {
      return 0
    }
    if (this.additive) {
      const { present, contributions } = this
      let sum = 0
      for (let i = 0; i < this.termCount; i++) {
        if (present[i] === 1) {
          sum += contributions[i]!
        }
      }
      return sum
    }
    return prepared.score(this.tfsView, this.lengths)
  }

  private clearPresent(): void {
    const { present, tfsView } = this
    for (const clause of this.clauses) {
      if (present[clause.index] === 1) {
        present[clause.index] = 0
        tfsView[clause.index] = this.zero
      }
    }
  }
}

/** The smallest document ≥ `target` of any of the clauses (moving them there). */
function nextDoc(clauses: readonly ClauseRuntime[], target: number): number {
  let min = NO_MORE_DOCS
  for (const clause of clauses) {
    const d = clause.advance(target)
    if (d < min) {
      min = d
    }
  }
  return min
}
