import type { AnalyzedToken, Analyzer, AnalyzerRegistry } from '@pubmatch/analysis'
import { resolve } from 'node:path'
import { PubmatchError, isPubmatchError, truncateForMessage } from '@pubmatch/core'
import { readManifest, type Manifest } from './commit/manifest.ts'
import { IndexPostings, type PostingsPart } from './postings/index-postings.ts'
import type { PostingsCursor } from './postings/postings-cursor.ts'
import { BLOCK_SIZE, NO_MORE_DOCS, type TermInfo } from './postings/postings-format.ts'
import type { StoredDocument } from './schema/config.ts'
import { normalizeKeyword } from './schema/keyword.ts'
import { fieldAnalyzer, type FieldSchema, type IndexSchema } from './schema/schema.ts'
import { SegmentReader } from './segment/segment-reader.ts'
import type { TermEntry } from './terms/term-dictionary.ts'
import { TermMerge } from './terms/term-merge.ts'

/**
 * Collection statistics of one field. `docCount`, `docsWithField`, `sumLength` and
 * `avgLength` are exact at all times (lengths of deleted documents are subtracted);
 * `sumDocFreq` and `sumTotalTermFreq` count deleted documents until their segment is
 * merged, like Lucene's.
 */
export interface FieldStats {
  /** Live documents in the index (N). */
  readonly docCount: number
  /** Live documents whose field has at least one token. */
  readonly docsWithField: number
  /** Sum of the field's lengths over live documents. */
  readonly sumLength: number
  /** `sumLength / docCount` (0 for an empty index): documents without the field count as length 0. */
  readonly avgLength: number
  /** Postings entries over all terms (approximate between merges). */
  readonly sumDocFreq: number
  /** Occurrences over all terms (approximate between merges). */
  readonly sumTotalTermFreq: number
}

/** A term of a field with its index-wide statistics (approximate between merges). */
export interface IndexTermEntry {
  readonly term: string
  readonly docFreq: number
  readonly totalTermFreq: number
}

/** A segment of an open index. */
export interface IndexSegmentInfo {
  readonly name: string
  /** Its first global document number. */
  readonly docBase: number
  /** Documents, deleted ones included. */
  readonly docCount: number
  readonly deletedCount: number
}

/** Options of {@link openIndex}. */
export interface OpenIndexOptions {
  /** Where `IndexReader.analyzer` looks analyzer names up. Defaults to the built-ins. */
  analyzers?: AnalyzerRegistry
  /**
   * A reader of an earlier commit of the same directory: the segments the new commit still lists
   * with the same files (size and CRC-32 in the manifest) are shared with it instead of read and
   * verified again (a segment whose deletions changed reads only its `.del` file). Ignored when it
   * is a reader of another directory or schema. Defaults to none.
   */
  reuse?: IndexReader
}

/**
 * A point-in-time view of a committed index (the manifest generation it was opened at);
 * later commits are not seen — open again to refresh. Documents have global numbers
 * `0 … maxDoc−1` (segment base + local number), valid for this reader only; use
 * {@link IndexReader.externalId} / {@link IndexReader.docNumber} to go to and from ids.
 *
 * Exactness: `docCount`, field lengths and the length statistics of {@link FieldStats} are
 * exact. `docFreq`, `totalTermFreq`, `docFreqAny` and term enumeration include documents
 * deleted since their segment was written, until a merge rewrites it (Lucene's semantics);
 * `liveDocFreq` is exact at the cost of a postings scan, and after `forceMerge()` every
 * statistic is exact.
 */
export interface IndexReader {
  readonly dir: string
  /** The manifest generation this reader sees. */
  readonly generation: number
  readonly schema: IndexSchema
  /** One past the largest document number (live + deleted). */
  readonly maxDoc: number
  /** Live documents. */
  readonly docCount: number
  /** Deleted documents still held by segments. */
  readonly deletedCount: number
  readonly segments: readonly IndexSegmentInfo[]
  /**
   * A field's schema.
   * @param field - the field name
   * @throws PubmatchError `UNKNOWN_FIELD`
   */
  field(field: string): FieldSchema
  /**
   * Whether the index has a field.
   * @param field - the field name
   */
  hasField(field: string): boolean
  /**
   * The analyzer to run query text through for a field (keyword fields: the whole text,
   * normalised by `normalizeKeyword`, as one token).
   * @param field - the field name
   */
  analyzer(field: string): Analyzer
  /**
   * A field's collection statistics.
   * @param field - the field name
   */
  fieldStats(field: string): FieldStats
  /**
   * Documents containing the term in the field (deleted ones until merged).
   * @param field - the field name
   * @param term - an analyzed term
   */
  docFreq(field: string, term: string): number
  /**
   * Occurrences of the term in the field (deleted documents until merged).
   * @param field - the field name
   * @param term - an analyzed term
   */
  totalTermFreq(field: string, term: string): number
  /**
   * Live documents containing the term in the field (exact; scans the postings).
   * @param field - the field name
   * @param term - an analyzed term
   */
  liveDocFreq(field: string, term: string): number
  /**
   * Documents containing the term in any of the fields — BM25F's n(t) (deleted documents
   * until merged, unless `live`).
   * @param term - an analyzed term
   * @param fields - the field names
   * @param live - count live documents only (exact). Defaults to `false`.
   */
  docFreqAny(term: string, fields: readonly string[], live?: boolean): number
  /**
   * A cursor over the term's postings in the field, skipping deleted documents; `null`
   * when no segment has the term.
   * @param field - the field name
   * @param term - an analyzed term
   */
  postings(field: string, term: string): PostingsCursor | null
  /**
   * The field's terms starting with `prefix` (all terms for `''`), in UTF-8 byte order,
   * for truncation (`term*`) and vocabulary listings.
   * @param field - the field name
   * @param prefix - the prefix. Defaults to `''`.
   */
  terms(field: string, prefix?: string): Iterable<IndexTermEntry>
  /**
   * A document's exact field length (tokens; joined compound forms not counted).
   * @param field - the field name
   * @param doc - a document number
   */
  fieldLength(field: string, doc: number): number
  /**
   * Every document's field length, indexed by document number (a shared array: do not modify).
   * @param field - the field name
   */
  fieldLengths(field: string): Uint32Array
  /**
   * Whether a document is live (not deleted).
   * @param doc - a document number
   */
  isLive(doc: number): boolean
  /**
   * A numeric doc value, `undefined` when the document has none.
   * @param name - the doc value name, e.g. `year`
   * @param doc - a document number
   */
  numericValue(name: string, doc: number): number | undefined
  /**
   * A numeric doc value of every document, `NaN` where missing (a shared array: do not modify).
   * @param name - the doc value name
   */
  numericValues(name: string): Float64Array
  /**
   * A sorted-set doc value of a document, in UTF-8 byte order.
   * @param name - the doc value name, e.g. `pubtype`
   * @param doc - a document number
   */
  sortedSetValues(name: string, doc: number): readonly string[]
  /**
   * A document's stored record.
   * @param doc - a document number
   */
  stored(doc: number): StoredDocument
  /**
   * The live document with an external id, or `undefined`.
   * @param id - a PMID or collection document id
   */
  docNumber(id: string): number | undefined
  /**
   * A document's external id.
   * @param doc - a document number
   */
  externalId(doc: number): string
}

interface Leaf {
  readonly reader: SegmentReader
  readonly base: number
}

const TERM_CACHE_SIZE = 4096

function unknownField(kind: string, name: string, known: readonly string[]): PubmatchError {
  return new PubmatchError(
    'UNKNOWN_FIELD',
    `unknown ${kind} "${truncateForMessage(name)}" (known: ${truncateForMessage(known.join(', '))})`,
  )
}

function keywordAnalyzer(): Analyzer {
  return {
    name: 'keyword',
    analyze(text: string): AnalyzedToken[] {
      const term = normalizeKeyword(text)
      return term === '' ? [] : [{ term, position: 0, original: text }]
    },
  }
}

class Reader implements IndexReader {
  readonly dir: string
  readonly generation: number
  readonly schema: IndexSchema
  readonly maxDoc: number
  readonly docCount: number
  readonly deletedCount: number
  readonly segments: readonly IndexSegmentInfo[]
  private readonly leaves: readonly Leaf[]
  private readonly fieldIndex: Map<string, number>
  private readonly numericIndex: Map<string, number>
  private readonly setIndex: Map<string, number>
  private readonly analyzers: AnalyzerRegistry | undefined
  private readonly termCache = new Map<string, readonly (TermInfo | null)[]>()
  private readonly lengthColumns = new Map<number, Uint32Array>()
  private readonly numericColumns = new Map<number, Float64Array>()
  private readonly statsCache = new Map<number, FieldStats>()

  constructor(dir: string, manifest: Manifest, readers: readonly SegmentReader[], analyzers: AnalyzerRegistry | undefined) {
    this.dir = dir
    this.generation = manifest.generation
    this.schema = manifest.schema
    this.analyzers = analyzers
    let base = 0
    this.leaves = readers.map((reader) => {
      const leaf = { reader, base }
      base += reader.docCount
      return leaf
    })
    this.maxDoc = base
    this.docCount = readers.reduce((sum, r) => sum + r.liveCount, 0)
    this.deletedCount = this.maxDoc - this.docCount
    this.segments = this.leaves.map(({ reader, base: docBase }) => ({
      name: reader.meta.name,
      docBase,
      docCount: reader.docCount,
      deletedCount: reader.docCount - reader.liveCount,
    }))
    this.fieldIndex = new Map(this.schema.fields.map((f, i) => [f.name, i]))
    this.numericIndex = new Map(this.schema.numericDocValues.map((n, i) => [n, i]))
    this.setIndex = new Map(this.schema.sortedSetDocValues.map((n, i) => [n, i]))
  }

  field(field: string): FieldSchema {
    return this.schema.fields[this.fieldNumber(field)]!
  }

  /** This reader's segments by name, for a reader of a later commit of `dir` with `schema` (none for another directory or schema). */
  segmentReaders(dir: string, schema: IndexSchema): Map<string, SegmentReader> | undefined {
    if (resolve(dir) !== resolve(this.dir) || JSON.stringify(schema) !== JSON.stringify(this.schema)) {
      return undefined
    }
    return new Map(this.leaves.map(({ reader }) => [reader.meta.name, reader]))
  }

  hasField(field: string): boolean {
    return this.fieldIndex.has(field)
  }

  analyzer(field: string): Analyzer {
    const schema = this.field(field)
    return schema.keyword ? keywordAnalyzer() : fieldAnalyzer(schema, this.analyzers)
  }

  fieldStats(field: string): FieldStats {
    const f = this.fieldNumber(field)
    let stats = this.statsCache.get(f)
    if (stats === undefined) {
      let sumLength = 0
      let docsWithField = 0
      let sumDocFreq = 0
      let sumTotalTermFreq = 0
      for (const { reader } of this.leaves) {
        const segment = reader.meta.fields[f]!
        sumLength += segment.sumLength
        docsWithField += segment.docsWithField
        sumDocFreq += segment.sumDocFreq
        sumTotalTermFreq += segment.sumTotalTermFreq
        if (reader.liveDocs !== null) {
          const lengths = reader.lengths(f)
          for (let d = 0; d < reader.docCount; d++) {
            if (!reader.liveDocs.isLive(d)) {
              sumLength -= lengths[d]!
              if (lengths[d]! > 0) {
                docsWithField--
              }
            }
          }
        }
      }
      stats = {
        docCount: this.docCount,
        docsWithField,
        sumLength,
        avgLength: this.docCount === 0 ? 0 : sumLength / this.docCount,
        sumDocFreq,
        sumTotalTermFreq,
      }
      this.statsCache.set(f, stats)
    }
    return stats
  }

  docFreq(field: string, term: string): number {
    let sum = 0
    for (const info of this.termInfos(this.fieldNumber(field), term)) {
      sum += info?.docFreq ?? 0
    }
    return sum
  }

  totalTermFreq(field: string, term: string): number {
    let sum = 0
    for (const info of this.termInfos(this.fieldNumber(field), term)) {
      sum += info?.totalTermFreq ?? 0
    }
    return sum
  }

  liveDocFreq(field: string, term: string): number {
    const cursor = this.postings(field, term)
    let count = 0
    if (cursor !== null) {
      while (cursor.nextDoc() !== NO_MORE_DOCS) {
        count++
      }
    }
    return count
  }

  docFreqAny(term: string, fields: readonly string[], live = false): number {
    const numbers = [...new Set(fields.map((field) => this.fieldNumber(field)))]
    let total = 0
    this.leaves.forEach(({ reader }, s) => {
      const having = numbers
        .map((f) => ({ f, info: this.termInfos(f, term)[s] ?? null }))
        .filter((x): x is { f: number; info: TermInfo } => x.info !== null)
      if (having.length === 0) {
        return
      }
      if (!live || reader.liveDocs === null) {
        total += unionCount(reader, having)
        return
      }
      const seen = new Uint8Array(reader.docCount)
      const docs = new Int32Array(BLOCK_SIZE)
      const freqs = new Int32Array(BLOCK_SIZE)
      for (const { f, info } of having) {
        const cursor = reader.postings(f, info)
        for (let n = cursor.nextDocs(docs, freqs); n > 0; n = cursor.nextDocs(docs, freqs)) {
          for (let i = 0; i < n; i++) {
            const d = docs[i]!
            if (seen[d] === 0 && (!live || reader.isLive(d))) {
              seen[d] = 1
              total++
            }
          }
        }
      }
    })
    return total
  }

  postings(field: string, term: string): PostingsCursor | null {
    const f = this.fieldNumber(field)
    const infos = this.termInfos(f, term)
    const parts: PostingsPart[] = []
    this.leaves.forEach(({ reader, base }, s) => {
      const info = infos[s]
      if (info !== null && info !== undefined) {
        parts.push({
          base,
          end: base + reader.docCount,
          docFreq: info.docFreq,
          liveDocs: reader.liveDocs,
          open: () => reader.postings(f, info),
        })
      }
    })
    return parts.length === 0 ? null : new IndexPostings(parts)
  }

  *terms(field: string, prefix = ''): Generator<IndexTermEntry> {
    const f = this.fieldNumber(field)
    const merge = new TermMerge<TermEntry>(this.leaves.map(({ reader }) => reader.terms(f).withPrefix(prefix)))
    while (merge.next()) {
      let docFreq = 0
      let totalTermFreq = 0
      for (let i = 0; i < merge.count; i++) {
        const entry = merge.entries[i]!
        docFreq += entry.docFreq
        totalTermFreq += entry.totalTermFreq
      }
      yield { term: merge.term, docFreq, totalTermFreq }
    }
  }

  fieldLength(field: string, doc: number): number {
    const { reader, base } = this.leaf(doc)
    return reader.lengths(this.fieldNumber(field))[doc - base]!
  }

  fieldLengths(field: string): Uint32Array {
    const f = this.fieldNumber(field)
    let column = this.lengthColumns.get(f)
    if (column === undefined) {
      column = new Uint32Array(this.maxDoc)
      for (const { reader, base } of this.leaves) {
        column.set(reader.lengths(f), base)
      }
      this.lengthColumns.set(f, column)
    }
    return column
  }

  isLive(doc: number): boolean {
    const { reader, base } = this.leaf(doc)
    return reader.isLive(doc - base)
  }

  numericValue(name: string, doc: number): number | undefined {
    const { reader, base } = this.leaf(doc)
    const value = reader.numeric(this.docValueNumber(this.numericIndex, 'numeric doc value', name))[doc - base]!
    return Number.isNaN(value) ? undefined : value
  }

  numericValues(name: string): Float64Array {
    const i = this.docValueNumber(this.numericIndex, 'numeric doc value', name)
    let column = this.numericColumns.get(i)
    if (column === undefined) {
      column = new Float64Array(this.maxDoc)
      for (const { reader, base } of this.leaves) {
        column.set(reader.numeric(i), base)
      }
      this.numericColumns.set(i, column)
    }
    return column
  }

  sortedSetValues(name: string, doc: number): readonly string[] {
    const { reader, base } = this.leaf(doc)
    return reader.setValues(this.docValueNumber(this.setIndex, 'sorted-set doc value', name), doc - base)
  }

  stored(doc: number): StoredDocument {
    const { reader, base } = this.leaf(doc)
    return reader.stored(doc - base)
  }

  docNumber(id: string): number | undefined {
    for (let s = this.leaves.length - 1; s >= 0; s--) {
      const { reader, base } = this.leaves[s]!
      const docs = reader.docsOf(id)
      for (let k = docs.length - 1; k >= 0; k--) {
        if (reader.isLive(docs[k]!)) {
          return base + docs[k]!
        }
      }
    }
    return undefined
  }

  externalId(doc: number): string {
    const { reader, base } = this.leaf(doc)
    return reader.id(doc - base)
  }

  private fieldNumber(field: string): number {
    const f = this.fieldIndex.get(field)
    if (f === undefined) {
      throw unknownField('field', field, [...this.fieldIndex.keys()])
    }
    return f
  }

  private docValueNumber(index: Map<string, number>, kind: string, name: string): number {
    const i = index.get(name)
    if (i === undefined) {
      throw unknownField(kind, name, [...index.keys()])
    }
    return i
  }

  private termInfos(f: number, term: string): readonly (TermInfo | null)[] {
    const key = `${f}\u0000${term}`
    let infos = this.termCache.get(key)
    if (infos === undefined) {
      infos = this.leaves.map(({ reader }) => reader.terms(f).lookup(term))
      if (this.termCache.size >= TERM_CACHE_SIZE) {
        this.termCache.clear()
      }
      this.termCache.set(key, infos)
    }
    return infos
  }

  private leaf(doc: number): Leaf {
    if (!Number.isInteger(doc) || doc < 0 || doc >= this.maxDoc) {
      throw new PubmatchError('INVALID_ARGUMENT', `document number ${doc} is outside 0…${this.maxDoc - 1}`)
    }
    const leaves = this.leaves
    let lo = 0
    let hi = leaves.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1
      if (leaves[mid]!.base <= doc) {
        lo = mid
      } else {
        hi = mid - 1
      }
    }
    return leaves[lo]!
  }
}

/**
 * Opens the last commit of an index directory for reading: reads the manifest, then each
 * segment file once (checksums verified), decoding lazily. If a concurrent commit removes
 * files between the two steps, it retries with the new manifest.
 * @param dir - the index directory
 * @param options - see {@link OpenIndexOptions}
 * @throws PubmatchError `NOT_FOUND` when there is no index, `INDEX_CORRUPTED` when a file is
 *   missing or damaged, `SCHEMA_MISMATCH` for another format version
 */
export async function openIndex(dir: string, options: OpenIndexOptions = {}): Promise<IndexReader> {
  for (let attempt = 0; ; attempt++) {
    const manifest = await readManifest(dir)
    if (manifest === null) {
      throw new PubmatchError('NOT_FOUND', `no index in ${truncateForMessage(dir)} (no INDEX.json)`, {
        details: { file: dir },
      })
    }
    const earlier = options.reuse instanceof Reader ? options.reuse.segmentReaders(dir, manifest.schema) : undefined
    try {
      const readers = await Promise.all(
        manifest.segments.map(
          async (meta) => (await earlier?.get(meta.name)?.reopen(dir, meta, manifest.schema)) ?? SegmentReader.open(dir, meta, manifest.schema),
        ),
      )
      return new Reader(dir, manifest, readers, options.analyzers)
    } catch (error) {
      const missing = isPubmatchError(error, 'INDEX_CORRUPTED') && error.details.errno === 'ENOENT'
      if (missing && attempt < 3) {
        const now = await readManifest(dir)
        if (now !== null && now.generation !== manifest.generation) {
          continue
        }
      }
      throw error
    }
  }
}

/**
 * The generation of an index's last commit, read from its manifest alone (what {@link openIndex}
 * would open now): a caller holding an open reader sees whether the index has moved on without
 * opening its segments.
 * @param dir - the index directory
 * @throws PubmatchError `NOT_FOUND` when the directory holds no index, `INDEX_CORRUPTED` or
 *   `SCHEMA_MISMATCH` as {@link openIndex}
 */
export async function readIndexGeneration(dir: string): Promise<number> {
  const manifest = await readManifest(dir)
  if (manifest === null) {
    throw new PubmatchError('NOT_FOUND', `no index in ${truncateForMessage(dir)} (no INDEX.json)`, {
      details: { file: dir },
    })
  }
  return manifest.generation
}

/**
 * How many documents of a segment hold a term in any of some fields, deleted ones included: the
 * field with the most documents counts them all, and each document of the others that it does not
 * hold counts once. The smaller fields are walked in document order (documents only, no
 * frequencies) and the largest is only advanced to them, through its skip entries, so its blocks
 * between them are not read.
 * @param reader - the segment
 * @param having - the fields (numbers) holding the term, with its entry in each
 */
function unionCount(reader: SegmentReader, having: ReadonlyArray<{ readonly f: number; readonly info: TermInfo }>): number {
  let largest = having[0]!
  for (const field of having) {
    if (field.info.docFreq > largest.info.docFreq) {
      largest = field
    }
  }
  if (having.length === 1) {
    return largest.info.docFreq
  }
  let total = largest.info.docFreq
  const all = reader.postings(largest.f, largest.info)
  const others = having.filter((field) => field !== largest).map(({ f, info }) => reader.postings(f, info))
  for (const cursor of others) {
    cursor.nextDoc()
  }
  for (;;) {
    let doc = NO_MORE_DOCS
    for (const cursor of others) {
      const d = cursor.docID()
      if (d < doc) {
        doc = d
      }
    }
    if (doc === NO_MORE_DOCS) {
      return total
    }
    if (all.advance(doc) !== doc) {
      total++
    }
    for (const cursor of others) {
      if (cursor.docID() === doc) {
        cursor.nextDoc()
      }
    }
  }
}
