import type { AnalyzedToken, Analyzer } from '@pubmatch/analysis'
import { compareCodePoints } from '@pubmatch/core'
import type { ExtractedDocument } from '../document/extract.ts'
import { IntBuffer } from '../io/int-buffer.ts'
import type { ByteWriter } from '../io/byte-writer.ts'
import { normalizeKeyword } from '../schema/keyword.ts'
import type { FieldSchema, IndexSchema } from '../schema/schema.ts'
import type { SegmentSource, TermPostings } from './segment-source.ts'
import { StoredFieldsWriter } from './stored-fields.ts'

const byPosition = (a: AnalyzedToken, b: AnalyzedToken): number => a.position - b.position

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

/**
 * Inverts one field of the documents added so far. Tokens are appended to flat typed
 * arrays (term id, document, position, span) — no per-term arrays, so building allocates
 * little — and grouped by term with one counting sort when the segment is written.
 */
class FieldInverter {
  private readonly field: FieldSchema
  private readonly analyzer: Analyzer | null
  private readonly termIds = new Map<string, number>()
  private readonly terms: string[] = []
  private readonly hasSpan: number[] = []
  private readonly tokenTerm = new IntBuffer(1 << 14)
  private readonly tokenDoc = new IntBuffer(1 << 14)
  private readonly tokenPosition = new IntBuffer(1 << 14)
  private readonly tokenSpan = new IntBuffer(1 << 14)
  readonly lengths = new IntBuffer(1024)

  constructor(field: FieldSchema, analyzer: Analyzer | null) {
    this.field = field
    this.analyzer = analyzer
  }

  add(doc: number, values: readonly string[]): void {
    this.lengths.grow(doc + 1)
    this.lengths.length = doc + 1
    if (this.field.keyword) {
      this.addKeywords(doc, values)
      return
    }
    const analyzer = this.analyzer!
    let base = 0
    let length = 0
    for (const value of values) {
      let tokens = analyzer.analyze(value)
      if (tokens.length === 0) {
        continue
      }
      for (let i = 1; i < tokens.length; i++) {
        if (tokens[i]!.position < tokens[i - 1]!.position) {
          tokens = [...tokens].sort(byPosition)
          break
        }
      }
      let last = 0
      for (const token of tokens) {
        const span = token.positionLength ?? 1
        if (span <= 1) {
          length++
        }
        last = base + token.position
        this.addToken(doc, token.term, last, span)
      }
      base = last + 1 + this.field.positionGap
    }
    this.lengths.data[doc] = length
  }

  private addKeywords(doc: number, values: readonly string[]): void {
    const seen = new Set<string>()
    for (const value of values) {
      const term = normalizeKeyword(value)
      if (term !== '' && !seen.has(term)) {
        this.addToken(doc, term, seen.size, 1)
        seen.add(term)
      }
    }
    this.lengths.data[doc] = seen.size
  }

  private addToken(doc: number, term: string, position: number, span: number): void {
    let id = this.termIds.get(term)
    if (id === undefined) {
      id = this.terms.length
      this.termIds.set(term, id)
      this.terms.push(term)
      this.hasSpan.push(0)
    }
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
