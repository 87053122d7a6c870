import { analyzeTerms, type Analyzer, type TermSink, type TermStep } from '@pubmatch/analysis'
import { compareCodePoints } from '@pubmatch/core'
import type { ExtractedDocument } from '../document/extract.ts'
import { IntBuffer } from '../io/int-buffer.ts'
import type { ByteWriter } from '../io/byte-writer.ts'
import { normalizeKeyword } from '../schema/keyword.ts'
import type { FieldSchema, IndexSchema } from '../schema/schema.ts'
import type { SegmentSource, TermPostings } from './segment-source.ts'
import { StoredFieldsWriter } from './stored-fields.ts'

/**
 * Term ids in UTF-8 byte order of their terms. Without surrogates (characters above
 * U+FFFF) UTF-16 order is UTF-8 order and the engine's native string comparison serves.
 */
function sortedTermOrder(terms: readonly string[]): number[] {
  const order = Array.from(terms.keys())
  const surrogates = terms.some((term) => /[\ud800-\udfff]/.test(term))
  if (surrogates) {
    return order.sort((a, b) => compareCodePoints(terms[a]!, terms[b]!))
  }
  return order.sort((a, b) => {
    const x = terms[a]!
    const y = terms[b]!
    return x < y ? -1 : x > y ? 1 : 0
  })
}

/** What {@link SurfaceIds.get} returns for a surface term it does not hold. */
export const ABSENT = -2

/**
 * Term ids by surface term (−1: a surface term the analyzer drops), or by term: open addressing over one
 * `Int32Array` of (hash, entry) pairs with the surface terms beside it, so that a lookup
 * usually reads one slot and compares one string (a `Map` of strings reads more memory per
 * lookup, which dominates inversion with a large vocabulary).
 */
export class SurfaceIds {
  private slots = new Int32Array(2 * 4096)
  private mask = 4096 - 1
  private readonly keys: string[] = []
  private values = new Int32Array(2048)
  // Where the last missed lookup would insert.
  private missSlot = 0
  private missHash = 0

  /** The value of `surface`, or {@link ABSENT}. */
  get(surface: string): number {
    let h = 0x811c9dc5
    for (let i = 0; i < surface.length; i++) {
      h = Math.imul(h ^ surface.charCodeAt(i), 0x01000193)
    }
    const slots = this.slots
    const mask = this.mask
    let slot = h & mask
    for (;;) {
      const entry = slots[2 * slot + 1]!
      if (entry === 0) {
        this.missSlot = slot
        this.missHash = h
        return ABSENT
      }
      if (slots[2 * slot] === h && this.keys[entry - 1] === surface) {
        return this.values[entry - 1]!
      }
      slot = (slot + 1) & mask
    }
  }

  /** Adds `surface` right after {@link SurfaceIds.get} missed it. */
  addMissed(surface: string, value: number): void {
    const entry = this.keys.length
    this.keys.push(surface)
    if (entry === this.values.length) {
      const grown = new Int32Array(entry * 2)
      grown.set(this.values)
      this.values = grown
    }
    this.values[entry] = value
    this.slots[2 * this.missSlot] = this.missHash
    this.slots[2 * this.missSlot + 1] = entry + 1
    if (2 * (entry + 1) > this.mask) {
      this.rehash()
    }
  }

  /** Doubles the table (kept at most half full). */
  private rehash(): void {
    const old = this.slots
    const size = 2 * (this.mask + 1)
    const slots = new Int32Array(2 * size)
    const mask = size - 1
    for (let i = 0; i < old.length; i += 2) {
      const entry = old[i + 1]!
      if (entry !== 0) {
        const h = old[i]!
        let slot = h & mask
        while (slots[2 * slot + 1] !== 0) {
          slot = (slot + 1) & mask
        }
        slots[2 * slot] = h
        slots[2 * slot + 1] = entry
      }
    }
    this.slots = slots
    this.mask = mask
  }
}

/**
 * Inverts one field of the documents added so far. Tokens are appended to flat typed
 * arrays (term id, document, position, span) — no per-term arrays, so building allocates
 * little — and grouped by term with one counting sort when the segment is written.
 */
class FieldInverter {
  private readonly field: FieldSchema
  private readonly analyzer: Analyzer | null
  private readonly termIds = new SurfaceIds()
  private readonly terms: string[] = []
  private readonly hasSpan: number[] = []
  private readonly tokenTerm = new IntBuffer(1 << 14)
  private readonly tokenDoc = new IntBuffer(1 << 14)
  private readonly tokenPosition = new IntBuffer(1 << 14)
  private readonly tokenSpan = new IntBuffer(1 << 14)
  readonly lengths = new IntBuffer(1024)
  // The tokens of the value being analysed (scratch reused across values): term id, position, span.
  private readonly valueIds = new IntBuffer(256)
  private readonly valuePositions = new IntBuffer(256)
  private readonly valueSpans = new IntBuffer(256)
  /**
   * The term id of each surface term the analyzer's tokenizer gave (−1: dropped by its
   * filters), when the analyzer has a term stream: one lookup per token. For a keyword field,
   * the term id of each raw value.
   */
  private readonly surfaceIds = new SurfaceIds()
  /** The term ids of the current document's keyword values. */
  private readonly seenIds = new Set<number>()
  private readonly termStep: TermStep | null
  private readonly collectSurface: TermSink = (surface, position, span) => {
    let id = this.surfaceIds.get(surface)
    if (id === ABSENT) {
      const term = this.termStep!(surface)
      id = term === null ? -1 : this.termId(term)
      this.surfaceIds.addMissed(surface, id)
    }
    if (id >= 0) {
      this.valueIds.push(id)
      this.valuePositions.push(position)
      this.valueSpans.push(span)
    }
  }
  private readonly collectTerm: TermSink = (term, position, span) => {
    this.valueIds.push(this.termId(term))
    this.valuePositions.push(position)
    this.valueSpans.push(span)
  }

  constructor(field: FieldSchema, analyzer: Analyzer | null) {
    this.field = field
    this.analyzer = analyzer
    this.termStep = analyzer?.termStream?.term ?? null
  }

  add(doc: number, values: readonly string[]): void {
    this.lengths.grow(doc + 1)
    this.lengths.length = doc + 1
    if (this.field.keyword) {
      this.addKeywords(doc, values)
      return
    }
    const analyzer = this.analyzer!
    const stream = analyzer.termStream
    const { valueIds, valuePositions, valueSpans } = this
    let base = 0
    let length = 0
    for (const value of values) {
      valueIds.clear()
      valuePositions.clear()
      valueSpans.clear()
      if (stream === undefined) {
        analyzeTerms(analyzer, value, this.collectTerm)
      } else {
        stream.tokens(value, this.collectSurface)
      }
      const n = valueIds.length
      if (n === 0) {
        continue
      }
      const ids = valueIds.data
      const positions = valuePositions.data
      const spans = valueSpans.data
      let order: number[] | null = null
      for (let i = 1; i < n; i++) {
        if (positions[i]! < positions[i - 1]!) {
          // Out of position order (a custom analyzer): add them sorted by position, stably.
          order = Array.from({ length: n }, (_, k) => k).sort((a, b) => positions[a]! - positions[b]! || a - b)
          break
        }
      }
      let last = 0
      for (let k = 0; k < n; k++) {
        const i = order === null ? k : order[k]!
        const span = spans[i]!
        if (span <= 1) {
          length++
        }
        last = base + positions[i]!
        this.addToken(doc, ids[i]!, last, span)
      }
      base = last + 1 + this.field.positionGap
    }
    this.lengths.data[doc] = length
  }

  private addKeywords(doc: number, values: readonly string[]): void {
    // Term ids by raw value (−1: normalises to nothing), so a value seen before is neither
    // normalised nor looked up again; a document's terms count once each.
    const seen = this.seenIds
    seen.clear()
    for (const value of values) {
      let id = this.surfaceIds.get(value)
      if (id === ABSENT) {
        const term = normalizeKeyword(value)
        id = term === '' ? -1 : this.termId(term)
        this.surfaceIds.addMissed(value, id)
      }
      if (id >= 0 && !seen.has(id)) {
        this.addToken(doc, id, seen.size, 1)
        seen.add(id)
      }
    }
    this.lengths.data[doc] = seen.size
  }

  /** The id of a term, a new one for a term not seen before. */
  private termId(term: string): number {
    let id = this.termIds.get(term)
    if (id === ABSENT) {
      id = this.terms.length
      this.termIds.addMissed(term, id)
      this.terms.push(term)
      this.hasSpan.push(0)
    }
    return id
  }

  private addToken(doc: number, id: number, position: number, span: number): void {
    if (span > 1) {
      this.hasSpan[id] = 1
    }
    this.tokenTerm.push(id)
    this.tokenDoc.push(doc)
    this.tokenPosition.push(position)
    this.tokenSpan.push(span)
  }

  *sortedTerms(): Generator<TermPostings> {
    const termCount = this.terms.length
    const tokens = this.tokenTerm.length
    const tokenTerm = this.tokenTerm.data
    // Counting sort of the token stream by term id (stable: documents, then positions, stay in order).
    const starts = new Int32Array(termCount + 1)
    for (let i = 0; i < tokens; i++) {
      starts[tokenTerm[i]! + 1]!++
    }
    for (let t = 0; t < termCount; t++) {
      starts[t + 1]! += starts[t]!
    }
    const fill = starts.slice(0, termCount)
    const docs = new Int32Array(tokens)
    const positions = new Int32Array(tokens)
    const spans = new Int32Array(tokens)
    const tokenDoc = this.tokenDoc.data
    const tokenPosition = this.tokenPosition.data
    const tokenSpan = this.tokenSpan.data
    for (let i = 0; i < tokens; i++) {
      const at = fill[tokenTerm[i]!]!++
      docs[at] = tokenDoc[i]!
      positions[at] = tokenPosition[i]!
      spans[at] = tokenSpan[i]!
    }
    let longest = 0
    for (let t = 0; t < termCount; t++) {
      longest = Math.max(longest, starts[t + 1]! - starts[t]!)
    }
    const termDocs = new Int32Array(longest)
    const termFreqs = new Int32Array(longest)
    const order = sortedTermOrder(this.terms)
    const withPositions = this.field.positions
    for (const t of order) {
      const from = starts[t]!
      const to = starts[t + 1]!
      let count = 0
      let previous = -1
      for (let i = from; i < to; i++) {
        const doc = docs[i]!
        if (doc !== previous) {
          termDocs[count] = doc
          termFreqs[count] = 1
          count++
          previous = doc
        } else {
          termFreqs[count - 1]!++
        }
      }
      yield {
        term: this.terms[t]!,
        docs: termDocs,
        freqs: termFreqs,
        count,
        positions: withPositions ? positions.subarray(from, to) : undefined,
        spans: withPositions && this.hasSpan[t] === 1 ? spans.subarray(from, to) : undefined,
      }
    }
  }
}

/**
 * Collects documents in memory and inverts them: the source of a newly flushed segment.
 * Documents get local numbers 0, 1, 2, … in the order they are added.
 */
export class SegmentBuilder implements SegmentSource {
  readonly schema: IndexSchema
  private readonly inverters: FieldInverter[]
  private readonly numeric: number[][]
  private readonly sets: (readonly string[])[][]
  /** Stored records, deflated on the thread pool while documents are analysed. */
  private readonly storedFields = new StoredFieldsWriter({ background: true })
  private readonly externalIds: string[] = []

  /**
   * @param schema - the index schema
   * @param analyzers - per field, its analyzer (`null` for keyword fields)
   */
  constructor(schema: IndexSchema, analyzers: readonly (Analyzer | null)[]) {
    this.schema = schema
    this.inverters = schema.fields.map((field, f) => new FieldInverter(field, analyzers[f] ?? null))
    this.numeric = schema.numericDocValues.map(() => [])
    this.sets = schema.sortedSetDocValues.map(() => [])
  }

  /** Documents added so far. */
  get docCount(): number {
    return this.externalIds.length
  }

  /**
   * Analyzes and inverts a document.
   * @param document - the extracted document
   * @returns its local document number
   */
  add(document: ExtractedDocument): number {
    const doc = this.externalIds.length
    this.inverters.forEach((inverter, f) => inverter.add(doc, document.fields[f] ?? []))
    this.numeric.forEach((column, i) => column.push(document.numeric[i] ?? NaN))
    this.sets.forEach((column, i) => column.push(document.sets[i] ?? []))
    this.storedFields.add(document.stored)
    this.externalIds.push(document.id)
    return doc
  }

  terms(field: number): Iterable<TermPostings> {
    return this.inverters[field]!.sortedTerms()
  }

  fieldLengths(field: number): Uint32Array {
    const lengths = new Uint32Array(this.docCount)
    lengths.set(this.inverters[field]!.lengths.view().subarray(0, this.docCount))
    return lengths
  }

  numericValues(index: number): Float64Array {
    return Float64Array.from(this.numeric[index]!)
  }

  setValues(index: number): readonly (readonly string[])[] {
    return this.sets[index]!
  }

  /**
   * Lets the thread pool catch up when more than `max` stored blocks are being deflated (see
   * `StoredFieldsWriter.drain`); a no-op otherwise.
   * @param max - blocks that may stay in flight
   */
  async drainStored(max: number): Promise<void> {
    if (this.storedFields.deflatingBlocks > max) {
      await this.storedFields.drain(max >>> 1)
    }
  }

  prepareStored(): Promise<void> {
    return this.storedFields.settled()
  }

  writeStored(out: ByteWriter): void {
    this.storedFields.finish(out)
  }

  ids(): readonly string[] {
    return this.externalIds
  }
}
