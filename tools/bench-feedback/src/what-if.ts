/**
 * A reimplementation for the latency benchmark, not a replacement: `indexCandidates` of
 * `@pubmatch/feedback` with the two changes this benchmark first measured here (the library has
 * since taken them up in its own way), kept as a cross-check of speed and rankings —
 * 1. term columns built by walking the term's postings once (`nextDoc`) with a document →
 *    candidate table, instead of `advance`-ing the cursor to every candidate (O(df) instead of
 *    O(candidates) per term and field);
 * 2. local and global document frequencies memoised per term (the library recounts the column,
 *    and `docFreqAny` walks both fields' postings for a term in both, on every call).
 * Everything else (ids, lengths, documents) is the library's own candidate set.
 */
import type { EngineInternals } from '@pubmatch/engine/internal'
import { indexCandidates, type CandidateSet } from '@pubmatch/feedback'

/**
 * The library's candidate set with postings-driven term columns and memoised document frequencies.
 * @param reader - the open index
 * @param docNumbers - the candidates' document numbers, in candidate order
 */
export function memoisedCandidates(
  reader: EngineInternals['reader'],
  docNumbers: readonly number[],
): CandidateSet {
  const base = indexCandidates(reader, docNumbers)
  const fields = ['title', 'abstract'].filter((field) => reader.hasField(field))
  const position = new Int32Array(reader.maxDoc).fill(-1)
  docNumbers.forEach((doc, i) => {
    position[doc] = i
  })
  const columns = new Map<string, Float64Array>()
  const local = new Map<string, number>()
  const global = new Map<string, number>()
  const tf = (term: string): Float64Array => {
    let column = columns.get(term)
    if (column !== undefined) {
      return column
    }
    column = new Float64Array(base.size)
    for (const field of fields) {
      const cursor = reader.postings(field, term)
      if (cursor === null) {
        continue
      }
      // NO_MORE_DOCS is above every document number
      for (let doc = cursor.nextDoc(); doc < reader.maxDoc; doc = cursor.nextDoc()) {
        const i = position[doc]!
        if (i >= 0) {
          column[i]! += cursor.freq()
        }
      }
    }
    columns.set(term, column)
    return column
  }
  return {
    ids: base.ids,
    size: base.size,
    lengths: base.lengths,
    avgLength: base.avgLength,
    collectionSize: base.collectionSize,
    tf,
    localDocFreq(term) {
      let df = local.get(term)
      if (df === undefined) {
        df = 0
        for (const f of tf(term)) {
          df += f > 0 ? 1 : 0
        }
        local.set(term, df)
      }
      return df
    },
    globalDocFreq(term) {
      let df = global.get(term)
      if (df === undefined) {
        df = base.globalDocFreq(term)
        global.set(term, df)
      }
      return df
    },
    document: (i) => base.document(i),
    indexOf: (id) => base.indexOf(id),
  }
}
