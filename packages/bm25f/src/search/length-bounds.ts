/**
 * Lower bounds of field lengths over ranges of document numbers, for upper bounds of scorers whose
 * score depends on the lengths of fields that do not contain the term (S1's weighted document
 * length, the bag length of BM25, TF-IDF, DFR and Xapian).
 */

/** Documents per chunk: the granularity of the minima (a range is widened to whole chunks). */
const CHUNK_SHIFT = 7

/** Minimum of a field's lengths over a range of document numbers, in O(1) (a sparse table of chunk minima). */
export class LengthRangeMin {
  private readonly levels: readonly Uint32Array[]
  private readonly maxChunk: number

  /**
   * @param lengths - the field length of every document (`IndexReader.fieldLengths`)
   */
  constructor(lengths: Uint32Array) {
    const chunks = Math.max(1, Math.ceil(lengths.length / (1 << CHUNK_SHIFT)))
    const first = new Uint32Array(chunks).fill(0xffffffff)
    for (let d = 0; d < lengths.length; d++) {
      const c = d >>> CHUNK_SHIFT
      if (lengths[d]! < first[c]!) {
        first[c] = lengths[d]!
      }
    }
    if (lengths.length === 0) {
      first[0] = 0
    }
    const levels: Uint32Array[] = [first]
    for (let span = 2; span <= chunks; span *= 2) {
      const previous = levels[levels.length - 1]!
      const half = span / 2
      const level = new Uint32Array(chunks - span + 1)
      for (let i = 0; i < level.length; i++) {
        level[i] = Math.min(previous[i]!, previous[i + half]!)
      }
      levels.push(level)
    }
    this.levels = levels
    this.maxChunk = chunks - 1
  }

  /**
   * A lower bound of the length of every document numbered `from … to` (the exact minimum over
   * the 128-document chunks that hold them).
   * @param from - first document number (≥ 0)
   * @param to - last document number (may exceed the last document)
   */
  min(from: number, to: number): number {
    const a = Math.min(from >>> CHUNK_SHIFT, this.maxChunk)
    const b = Math.min(Math.floor(to / (1 << CHUNK_SHIFT)), this.maxChunk)
    const level = 31 - Math.clz32(b - a + 1)
    const table = this.levels[level]!
    return Math.min(table[a]!, table[b - (1 << level) + 1]!)
  }
}
