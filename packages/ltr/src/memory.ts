/**
 * Query memory: what earlier, similar queries found relevant. PubMed learns from its logs which
 * documents people chose for a query; a new query that resembles logged ones can borrow that
 * evidence. The memory holds labelled queries (judgements, or labels derived from a search log
 * by `labelQueries`); for a new query it finds the `k` most similar remembered queries (cosine
 * of TF-IDF vectors over the index analyzer's terms) and gives each candidate three values:
 *
 * - M1 `memory_evidence`: Σ over those queries of similarity × grade of the candidate;
 * - M2 `memory_max_similarity`: the highest similarity of a remembered query that judged the
 *   candidate relevant (grade > 0), 0 if none;
 * - M3 `memory_votes`: how many of those queries judged it relevant.
 *
 * The block follows F179 in the feature schema (`bestmatch-179+memory-3`), so the 179 stay
 * exactly NCBI's. A training query must not see its own judgements: `exclude` leaves it out.
 */
import type { Analyzer } from '@pubmatch/analysis'
import { textTerms } from '@pubmatch/analysis'
import { PubmatchError } from '@pubmatch/core'
import type { SearchResult } from '@pubmatch/bm25f'
import type { FeatureDefinition, FeatureExtractor, FeatureSchema, LabelledQuery } from './types.ts'

/** Options of {@link createQueryMemory}. */
export interface QueryMemoryOptions {
  /** The remembered queries with their grades. */
  readonly queries: readonly LabelledQuery[]
  /** Turns query text into terms; use the index's analyzer so variants meet (`reader.analyzer('title')`). */
  readonly analyzer: Analyzer
  /** Similar queries consulted. Defaults to `20`. */
  readonly k?: number
}

/** Evidence for candidates from similar remembered queries. */
export interface QueryMemory {
  /** Remembered queries. */
  readonly size: number
  readonly k: number
  /**
   * The `k` most similar remembered queries, best first (ties: memory order).
   * @param text - the query text
   * @param exclude - a query id to leave out (the query itself, when training): remembered
   *   queries of the same query are skipped — this id, and every variant of it (`<id>#<n>`,
   *   e.g. `PLAIN-10#2`, carrying the same judgements); a variant id excludes its base query too
   */
  similar(text: string, exclude?: string): Array<{ readonly id: string; readonly similarity: number }>
  /**
   * M1–M3 for each document id.
   * @param text - the query text
   * @param ids - candidate document ids
   * @param exclude - a remembered query id to leave out
   * @returns `ids.length × 3` values, row-major
   */
  evidence(text: string, ids: readonly string[], exclude?: string): Float64Array
}

/** The definitions of M1–M3; columns are set when the block is appended to a schema. */
export const MEMORY_FEATURES: ReadonlyArray<Omit<FeatureDefinition, 'column'>> = [
  {
    id: 'M1',
    name: 'memory_evidence',
    group: 'query-document',
    description: 'Σ over the k most similar remembered queries of cosine similarity × the grade they gave the document',
    neutral: 0,
  },
  {
    id: 'M2',
    name: 'memory_max_similarity',
    group: 'query-document',
    description: 'the highest similarity of a remembered query (among the k) that judged the document relevant',
    neutral: 0,
  },
  {
    id: 'M3',
    name: 'memory_votes',
    group: 'query-document',
    description: 'how many of the k most similar remembered queries judged the document relevant',
    neutral: 0,
  },
]

function terms(analyzer: Analyzer, text: string): Map<string, number> {
  const counts = new Map<string, number>()
  for (const term of textTerms(analyzer, text)) {
    counts.set(term, (counts.get(term) ?? 0) + 1)
  }
  return counts
}

/**
 * Builds a query memory. Vectors are `(1 + ln tf) · ln(1 + M / (1 + df))` over the memory's
 * `M` queries, L2-normalised; similarity is their dot product.
 * @param options - see {@link QueryMemoryOptions}
 * @throws PubmatchError `INVALID_ARGUMENT` for k < 1 or a duplicate query id
 */
export function createQueryMemory(options: QueryMemoryOptions): QueryMemory {
  const k = options.k ?? 20
  if (!Number.isInteger(k) || k < 1) {
    throw new PubmatchError('INVALID_ARGUMENT', `query memory k must be a positive integer, got ${k}`)
  }
  const { analyzer } = options
  const queries = options.queries
  const seen = new Set<string>()
  const counts = queries.map((query) => {
    if (seen.has(query.id)) {
      throw new PubmatchError('INVALID_ARGUMENT', `query memory: query id ${query.id} appears twice`)
    }
    seen.add(query.id)
    return terms(analyzer, query.text)
  })
  const df = new Map<string, number>()
  for (const c of counts) {
    for (const term of c.keys()) {
      df.set(term, (df.get(term) ?? 0) + 1)
    }
  }
  const m = queries.length
  const weight = (term: string, tf: number): number => (1 + Math.log(tf)) * Math.log(1 + m / (1 + (df.get(term) ?? 0)))
  // postings: term → (query index, normalised weight)
  const postings = new Map<string, Array<[number, number]>>()
  counts.forEach((c, q) => {
    let norm = 0
    for (const [term, tf] of c) {
      norm += weight(term, tf) ** 2
    }
    norm = Math.sqrt(norm)
    if (norm === 0) {
      return
    }
    for (const [term, tf] of c) {
      const list = postings.get(term) ?? []
      list.push([q, weight(term, tf) / norm])
      postings.set(term, list)
    }
  })
  const ids = queries.map((query) => query.id)

  const similar = (text: string, exclude?: string): Array<{ id: string; similarity: number }> => {
    // a query and its variants (`<id>#<n>`) share judgements: leave all of them out
    const base = exclude === undefined ? undefined : baseId(exclude)
    const c = terms(analyzer, text)
    const vector: Array<[string, number]> = []
    let norm = 0
    for (const [term, tf] of c) {
      if (postings.has(term)) {
        const w = weight(term, tf)
        vector.push([term, w])
      }
      norm += weight(term, tf) ** 2
    }
    norm = Math.sqrt(norm)
    if (norm === 0 || vector.length === 0) {
      return []
    }
    const scores = new Map<number, number>()
    for (const [term, w] of vector) {
      for (const [q, x] of postings.get(term)!) {
        scores.set(q, (scores.get(q) ?? 0) + (w / norm) * x)
      }
    }
    const ranked = [...scores]
      .filter(([q]) => base === undefined || baseId(ids[q]!) !== base)
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, k)
    return ranked.map(([q, similarity]) => ({ id: ids[q]!, similarity }))
  }

  const byId = new Map(queries.map((query) => [query.id, query]))
  return {
    size: m,
    k,
    similar,
    evidence(text, docIds, exclude) {
      const out = new Float64Array(docIds.length * 3)
      const neighbours = similar(text, exclude)
      if (neighbours.length === 0) {
        return out
      }
      const row = new Map<string, number>()
      docIds.forEach((id, r) => row.set(id, r))
      for (const { id, similarity } of neighbours) {
        for (const [doc, grade] of byId.get(id)!.judgements) {
          const r = row.get(doc)
          if (r === undefined || grade <= 0) {
            continue
          }
          out[r * 3] = out[r * 3]! + similarity * grade
          out[r * 3 + 1] = Math.max(out[r * 3 + 1]!, similarity)
          out[r * 3 + 2] = out[r * 3 + 2]! + 1
        }
      }
      return out
    },
  }
}

/**
 * The query a remembered id belongs to: variants (`PLAIN-10#2`) carry their query's judgements.
 * @param id - a query id
 */
function baseId(id: string): string {
  const hash = id.indexOf('#')
  return hash < 0 ? id : id.slice(0, hash)
}

/** The version suffix a memory block adds to a schema. */
export const MEMORY_SCHEMA_SUFFIX = '+memory-3/1'

/**
 * The schema of `base` followed by M1–M3.
 * @param base - the base schema (Best Match's 179)
 */
export function withMemorySchema(base: FeatureSchema): FeatureSchema {
  const n = base.features.length
  return {
    version: `${base.version}${MEMORY_SCHEMA_SUFFIX}`,
    features: [...base.features, ...MEMORY_FEATURES.map((feature, i) => ({ ...feature, column: n + i }))],
  }
}

/**
 * An extractor computing `base`'s features and then M1–M3 from a query memory.
 * @param base - the base extractor
 * @param memory - the memory
 * @param exclude - a remembered query id to leave out of every extraction (a training query's own)
 */
export function withQueryMemory(base: FeatureExtractor, memory: QueryMemory, exclude?: string): FeatureExtractor {
  const schema = withMemorySchema(base.schema)
  const width = schema.features.length
  const baseWidth = base.schema.features.length
  return {
    schema,
    extract(query: string, result: SearchResult) {
      const inner = base.extract(query, result)
      const extra = memory.evidence(query, inner.ids, exclude)
      const data = new Float64Array(inner.numRows * width)
      for (let r = 0; r < inner.numRows; r++) {
        data.set(inner.data.subarray(r * baseWidth, (r + 1) * baseWidth), r * width)
        data.set(extra.subarray(r * 3, r * 3 + 3), r * width + baseWidth)
      }
      return { numRows: inner.numRows, numFeatures: width, data, ids: inner.ids }
    },
  }
}

/**
 * A block of extra features appended after the others (the query memory is one; the full-text
 * section scores of `@pubmatch/engine` another): its definitions, the version suffix it adds to the
 * schema, and how to compute its values for a query's candidates.
 */
export interface FeatureBlock {
  /** Added to the schema version, e.g. `+sections-14/1`; a model records it, and needs the block back. */
  readonly suffix: string
  /** The block's features, in column order (columns are set when the block is appended). */
  readonly features: ReadonlyArray<Omit<FeatureDefinition, 'column'>>
  /**
   * The block's values for the candidates.
   * @param query - the query text
   * @param ids - candidate document ids
   * @returns `ids.length × features.length` values, row-major
   */
  compute(query: string, ids: readonly string[]): Float64Array
}

/**
 * An extractor computing `base`'s features and then a block's.
 * @param base - the base extractor
 * @param block - the block
 */
export function withFeatureBlock(base: FeatureExtractor, block: FeatureBlock): FeatureExtractor {
  const n = base.schema.features.length
  const width = n + block.features.length
  const schema: FeatureSchema = {
    version: `${base.schema.version}${block.suffix}`,
    features: [...base.schema.features, ...block.features.map((feature, i) => ({ ...feature, column: n + i }))],
  }
  return {
    schema,
    extract(query: string, result: SearchResult) {
      const inner = base.extract(query, result)
      const extra = block.compute(query, inner.ids)
      const k = block.features.length
      const data = new Float64Array(inner.numRows * width)
      for (let r = 0; r < inner.numRows; r++) {
        data.set(inner.data.subarray(r * n, (r + 1) * n), r * width)
        data.set(extra.subarray(r * k, (r + 1) * k), r * width + n)
      }
      return { numRows: inner.numRows, numFeatures: width, data, ids: inner.ids }
    },
  }
}
