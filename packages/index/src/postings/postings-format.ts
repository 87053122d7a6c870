/** Documents per postings block (and per skip entry / impact list). */
export const BLOCK_SIZE = 128

/** What `nextDoc()` / `advance()` return once a cursor is exhausted (as in Lucene). */
export const NO_MORE_DOCS = 2147483647

/** Where one term's postings live in a segment, as its term dictionary records it. */
export interface TermInfo {
  /** Documents that contain the term in this field (deleted ones included). */
  readonly docFreq: number
  /** Occurrences of the term in this field (deleted documents included). */
  readonly totalTermFreq: number
  /** Offset of the term's postings in the segment's `.pst` file. */
  readonly postingsOffset: number
  /** Byte length of the term's postings in `.pst`. */
  readonly postingsLength: number
  /** Offset of the term's positions in `.pos` (0 when the field has none). */
  readonly positionsOffset: number
  /** Byte length of the term's positions in `.pos`. */
  readonly positionsLength: number
}
