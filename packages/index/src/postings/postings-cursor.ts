import type { Impact } from './impacts.ts'

/**
 * Iterates one term's postings in one field, in increasing document order — the first-stage
 * retrieval's view of the index (Lucene's `PostingsEnum` + `ImpactsEnum`).
 *
 * A fresh cursor is positioned before its first document (`docID() === -1`). After the last
 * document, `nextDoc()`/`advance()` return {@link NO_MORE_DOCS}. `freq()`, `positions()` and
 * `positionSpans()` describe the current document.
 */
export interface PostingsCursor {
  /** Documents in the postings, deleted ones included: an upper bound of what it yields. */
  readonly docFreq: number
  /** The current document, `-1` before the start, `NO_MORE_DOCS` at the end. */
  docID(): number
  /** Moves to the next document and returns it. */
  nextDoc(): number
  /**
   * Moves to the first document ≥ `target` and returns it; stays put when the current
   * document is already ≥ `target`. Skips whole blocks with the skip entries.
   * @param target - a document number
   */
  advance(target: number): number
  /**
   * Moves forward over up to `docs.length` documents at once (at most the rest of one block) and
   * writes them and their frequencies into `docs` and `freqs`; returns how many, 0 at the end.
   * The cursor is then past them (`docID()` is the last one written; call `nextDoc()` or
   * `advance()` before `freq()` or `positions()` again): the bulk read of a loop that visits
   * every posting.
   * @param docs - where the documents go
   * @param freqs - where their frequencies go (same length)
   */
  nextDocs(docs: Int32Array, freqs: Int32Array): number
  /** How often the term occurs in the current document's field. */
  freq(): number
  /**
   * The positions of the current document's occurrences, ascending (a view valid until the
   * cursor moves). Empty when the field stores no positions.
   */
  positions(): Int32Array
  /**
   * How many positions each occurrence spans, aligned with `positions()`: 1, or the
   * `positionLength` of a joined compound token (`cox2` spans `cox 2`).
   */
  positionSpans(): Int32Array
  /**
   * Moves the impact pointer (not the cursor) to the block that holds the first document
   * ≥ `target`, without decoding it, and returns that block's last document — the end of the
   * document range `blockImpacts()` bounds. Returns `NO_MORE_DOCS` when no document
   * ≥ `target` is left. `target` should not be below the current document.
   * @param target - a document number
   */
  shallowAdvance(target: number): number
  /**
   * The competitive (freq, length) pairs of the block chosen by the last `shallowAdvance`
   * (or of the current document's block): every document in it has a frequency and field
   * length dominated by one of them. See `competitiveImpacts`.
   */
  blockImpacts(): readonly Impact[]
  /** The competitive (freq, length) pairs over the whole postings list (term-wide bound). */
  maxImpacts(): readonly Impact[]
}
