/**
 * A forward store of document text: each document's title, abstract and MeSH headings as
 * token streams (interned term ids plus flag bytes), which the inverted index does not keep
 * and the Best Match features need (positions, spans, stop-word counts).
 *
 * The token streams come from `createTokenStreamer` of `@pubmatch/analysis/internal` (its module
 * comment gives the stop-word rule and the analyzer variants), the same streams that
 * `@pubmatch/solr` writes into each Solr document. Stop-word tokens the index analyzer drops get
 * term id `-1`.
 */
import { createHash } from 'node:crypto'
import { open, readFile, type FileHandle } from 'node:fs/promises'
import { type Analyzer, type AnalyzerRegistry } from '@pubmatch/analysis'
import { createTokenStreamer, tokenFlags as flagsOfWord } from '@pubmatch/analysis/internal'
import { checkJson, json, parseJson, PubmatchError, truncateForMessage, type JsonShape } from '@pubmatch/core'
import { writeFileAtomic } from '@pubmatch/core/node'

/** A document as the forward store takes it. */
export interface ForwardDocument {
  /** The external id (PMID or collection document id), as the index knows it. */
  readonly id: string
  readonly title: string
  /** The abstract as one text (sections joined by spaces). */
  readonly abstract: string
  /** MeSH descriptor names. Defaults to none. */
  readonly mesh?: readonly string[]
}

/** Options of {@link buildForwardIndex}. */
export interface ForwardIndexOptions {
  /** The index's text analyzer, e.g. `reader.analyzer('title')`; see the module comment for how stop words are kept. */
  readonly analyzer: Analyzer
  /** Where the stop-word-keeping variant is looked up. Defaults to the built-in analyzers. */
  readonly analyzers?: AnalyzerRegistry
  /**
   * A store to start from (an index update): its documents are kept, token streams and term ids
   * as they are, except those in `drop`, and new documents are added after them. It must have
   * been built for the same analyzer. Defaults to none.
   */
  readonly base?: ForwardIndex
  /** With `base`: ids of its documents to leave out (deleted, or replaced by a newer version). */
  readonly drop?: ReadonlySet<string>
}

/** The fields of the forward store. */
export type ForwardFieldName = 'title' | 'abstract' | 'mesh'

/** The field names, in storage order. */
export const FORWARD_FIELDS: readonly ForwardFieldName[] = Object.freeze(['title', 'abstract', 'mesh'])

/**
 * One field of every document, column-wise: document `d`'s tokens are
 * `terms[offsets[d] … offsets[d + 1] − 1]` with the parallel `flags`. Shared arrays: do not modify.
 */
export interface ForwardField {
  /** `docCount + 1` token offsets. */
  readonly offsets: Uint32Array
  /** Interned term id of each token; `-1` for stop words the index analyzer drops. */
  readonly terms: Int32Array
  /** `TOKEN_STOPWORD | TOKEN_INDEFINITE | TOKEN_DEFINITE` bits of each token. */
  readonly flags: Uint8Array
}

/** A read-only forward store; see {@link buildForwardIndex} and {@link loadForwardIndex}. */
export interface ForwardIndex {
  /** The name of the index analyzer it was built for (`IndexReader.analyzer('title').name`). */
  readonly analyzer: string
  /** The analyzer that produced the token streams (the stop-word-keeping variant). */
  readonly tokenAnalyzer: string
  readonly docCount: number
  /** Distinct terms interned. */
  readonly termCount: number
  /**
   * The forward document number of an external id, `-1` when absent.
   * @param id - the external id
   */
  docIndex(id: string): number
  /**
   * The external id of a forward document number.
   * @param doc - a forward document number
   */
  id(doc: number): string
  /**
   * The id of an analyzed term, `-1` when no document holds it.
   * @param term - an analyzed (stemmed) term
   */
  termId(term: string): number
  /**
   * The term of an id.
   * @param termId - a term id
   */
  term(termId: number): string
  /**
   * A field's columns.
   * @param name - the field
   */
  field(name: ForwardFieldName): ForwardField
  /**
   * Writes the store to one file, crash-safe (temporary file, fsync, rename, directory fsync).
   * @param file - the file to create or replace
   * @throws PubmatchError `IO`
   */
  save(file: string): Promise<void>
}

/** Incremental construction of a {@link ForwardIndex} (e.g. from an asynchronous corpus stream). */
export interface ForwardIndexBuilder {
  /**
   * Adds one document.
   * @param doc - the document
   * @throws PubmatchError `INVALID_ARGUMENT` for a duplicate id
   */
  add(doc: ForwardDocument): void
  /** The store of the documents added so far; the builder must not be used afterwards. */
  finish(): ForwardIndex
}

/**
 * The flag bits of a surface word.
 * @param word - the surface form (any case)
 */
export function tokenFlags(word: string): number {
  return flagsOfWord(word)
}

class Column {
  terms = new Int32Array(1024)
  flags = new Uint8Array(1024)
  length = 0
  offsets: number[] = [0]

  /** Appends another store's tokens `from … to − 1` (term ids kept). */
  copy(field: ForwardField, from: number, to: number): void {
    while (this.length + (to - from) > this.terms.length) {
      const terms = new Int32Array(this.terms.length * 2)
      terms.set(this.terms)
      this.terms = terms
      const f = new Uint8Array(this.flags.length * 2)
      f.set(this.flags)
      this.flags = f
    }
    this.terms.set(field.terms.subarray(from, to), this.length)
    this.flags.set(field.flags.subarray(from, to), this.length)
    this.length += to - from
  }

  push(term: number, flags: number): void {
    if (this.length === this.terms.length) {
      const terms = new Int32Array(this.length * 2)
      terms.set(this.terms)
      this.terms = terms
      const f = new Uint8Array(this.length * 2)
      f.set(this.flags)
      this.flags = f
    }
    this.terms[this.length] = term
    this.flags[this.length] = flags
    this.length++
  }

  endDocument(): void {
    this.offsets.push(this.length)
  }

  done(): ForwardField {
    return {
      offsets: Uint32Array.from(this.offsets),
      terms: this.terms.slice(0, this.length),
      flags: this.flags.slice(0, this.length),
    }
  }
}

/**
 * Starts a forward store for documents analyzed like an index with `options.analyzer`.
 * @param options - see {@link ForwardIndexOptions}
 */
export function createForwardIndexBuilder(options: ForwardIndexOptions): ForwardIndexBuilder {
  const source = options.analyzer
  const streamer = createTokenStreamer(source, options.analyzers)
  const termIds = new Map<string, number>()
  const terms: string[] = []
  const ids: string[] = []
  const docs = new Map<string, number>()
  const columns = { title: new Column(), abstract: new Column(), mesh: new Column() }
  let finished = false
  const base = options.base
  if (base !== undefined) {
    if (base.analyzer !== source.name || base.tokenAnalyzer !== streamer.tokenAnalyzer) {
      throw new PubmatchError(
        'SCHEMA_MISMATCH',
        `the forward index to extend was built for analyzer ${base.analyzer} (${base.tokenAnalyzer}), not ${source.name} (${streamer.tokenAnalyzer})`,
      )
    }
    for (let t = 0; t < base.termCount; t++) {
      const term = base.term(t)
      terms.push(term)
      termIds.set(term, t)
    }
    const fields = { title: base.field('title'), abstract: base.field('abstract'), mesh: base.field('mesh') }
    for (let d = 0; d < base.docCount; d++) {
      const id = base.id(d)
      if (options.drop?.has(id) === true) {
        continue
      }
      docs.set(id, ids.length)
      ids.push(id)
      for (const name of FORWARD_FIELDS) {
        const field = fields[name]
        columns[name].copy(field, field.offsets[d]!, field.offsets[d + 1]!)
        columns[name].endDocument()
      }
    }
  }

  const intern = (term: string): number => {
    let id = termIds.get(term)
    if (id === undefined) {
      id = terms.length
      terms.push(term)
      termIds.set(term, id)
    }
    return id
  }

  const append = (column: Column, text: string): void => {
    streamer.tokens(text, (term, flags) => column.push(term === null ? -1 : intern(term), flags))
  }

  return {
    add(doc: ForwardDocument): void {
      if (finished) {
        throw new PubmatchError('INVALID_ARGUMENT', 'the forward index builder is finished')
      }
      if (docs.has(doc.id)) {
        throw new PubmatchError('INVALID_ARGUMENT', `duplicate document id "${truncateForMessage(doc.id)}" in the forward index`)
      }
      docs.set(doc.id, ids.length)
      ids.push(doc.id)
      append(columns.title, doc.title)
      columns.title.endDocument()
      append(columns.abstract, doc.abstract)
      columns.abstract.endDocument()
      for (const heading of doc.mesh ?? []) {
        append(columns.mesh, heading)
      }
      columns.mesh.endDocument()
    },
    finish(): ForwardIndex {
      finished = true
      return new Forward(source.name, streamer.tokenAnalyzer, ids, docs, terms, termIds, {
        title: columns.title.done(),
        abstract: columns.abstract.done(),
        mesh: columns.mesh.done(),
      })
    },
  }
}

/**
 * Builds a forward store of documents' title, abstract and MeSH token streams.
 * @param docs - the documents (ids must be unique)
 * @param options - see {@link ForwardIndexOptions}
 * @throws PubmatchError `INVALID_ARGUMENT` for a duplicate id
 */
export function buildForwardIndex(docs: Iterable<ForwardDocument>, options: ForwardIndexOptions): ForwardIndex {
  const builder = createForwardIndexBuilder(options)
  for (const doc of docs) {
    builder.add(doc)
  }
  return builder.finish()
}

const MAGIC = Buffer.from('PMFWD01\n', 'latin1')
const FORMAT = 1
const DIGEST = 32

interface Header {
  format: number
  analyzer: string
  tokenAnalyzer: string
  docCount: number
  termCount: number
  tokens: Record<ForwardFieldName, number>
  ids: number
  terms: number
}

const HEADER: JsonShape<Header> = json.object({
  format: json.integer,
  analyzer: json.string,
  tokenAnalyzer: json.string,
  docCount: json.count,
  termCount: json.count,
  tokens: json.object({ title: json.count, abstract: json.count, mesh: json.count }),
  ids: json.count,
  terms: json.count,
})

class Forward implements ForwardIndex {
  readonly analyzer: string
  readonly tokenAnalyzer: string
  readonly docCount: number
  readonly termCount: number
  private readonly ids: readonly string[]
  private readonly docs: ReadonlyMap<string, number>
  private readonly terms: readonly string[]
  private readonly termIds: ReadonlyMap<string, number>
  private readonly fields: Readonly<Record<ForwardFieldName, ForwardField>>

  constructor(
    analyzer: string,
    tokenAnalyzer: string,
    ids: readonly string[],
    docs: ReadonlyMap<string, number>,
    terms: readonly string[],
    termIds: ReadonlyMap<string, number>,
    fields: Readonly<Record<ForwardFieldName, ForwardField>>,
  ) {
    this.analyzer = analyzer
    this.tokenAnalyzer = tokenAnalyzer
    this.ids = ids
    this.docs = docs
    this.terms = terms
    this.termIds = termIds
    this.fields = fields
    this.docCount = ids.length
    this.termCount = terms.length
  }

  docIndex(id: string): number {
    return this.docs.get(id) ?? -1
  }

  id(doc: number): string {
    const id = this.ids[doc]
    if (id === undefined) {
      throw new PubmatchError('INVALID_ARGUMENT', `forward document ${doc} is outside 0…${this.docCount - 1}`)
    }
    return id
  }

  termId(term: string): number {
    return this.termIds.get(term) ?? -1
  }

  term(termId: number): string {
    const term = this.terms[termId]
    if (term === undefined) {
      throw new PubmatchError('INVALID_ARGUMENT', `term id ${termId} is outside 0…${this.termCount - 1}`)
    }
    return term
  }

  field(name: ForwardFieldName): ForwardField {
    return this.fields[name]
  }

  async save(file: string): Promise<void> {
    const idsJson = Buffer.from(JSON.stringify(this.ids), 'utf8')
    const termsJson = Buffer.from(JSON.stringify(this.terms), 'utf8')
    const header: Header = {
      format: FORMAT,
      analyzer: this.analyzer,
      tokenAnalyzer: this.tokenAnalyzer,
      docCount: this.docCount,
      termCount: this.termCount,
      tokens: { title: this.fields.title.terms.length, abstract: this.fields.abstract.terms.length, mesh: this.fields.mesh.terms.length },
      ids: idsJson.length,
      terms: termsJson.length,
    }
    const headerJson = Buffer.from(JSON.stringify(header), 'utf8')
    const length = Buffer.alloc(4)
    length.writeUInt32LE(headerJson.length)
    const parts: Uint8Array[] = [length, headerJson, idsJson, termsJson]
    for (const name of FORWARD_FIELDS) {
      const f = this.fields[name]
      parts.push(bytesOf(f.offsets), bytesOf(f.terms), f.flags)
    }
    const payload = Buffer.concat(parts)
    const digest = createHash('sha256').update(payload).digest()
    try {
      await writeFileAtomic(file, Buffer.concat([MAGIC, digest, payload]))
    } catch (error) {
      throw new PubmatchError('IO', `cannot write the forward index ${truncateForMessage(file)}`, { cause: error, details: { file } })
    }
  }
}

function bytesOf(array: Uint32Array | Int32Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength)
}

function corrupted(file: string, what: string): PubmatchError {
  return new PubmatchError('INDEX_CORRUPTED', `forward index ${truncateForMessage(file)} is damaged: ${what}`, { details: { file } })
}

/** Bytes hashed or copied between two turns of the event loop while a store loads. */
const LOAD_STEP_BYTES = 1 << 20

/** Ids or terms put in a lookup between two turns of the event loop while a store loads. */
const LOAD_STEP_ENTRIES = 20_000

/** Lets the event loop run what is waiting (a server's requests) before the load goes on. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

/**
 * Reads a store written by {@link ForwardIndex.save}; its checksum is verified first. The work is
 * done in steps of a few milliseconds (the checksum and the copies 4 MiB at a time) that let the
 * event loop run in between, so that a server loading a new store keeps answering meanwhile.
 * @param file - the file
 * @throws PubmatchError `NOT_FOUND` when missing, `IO` when unreadable, `INDEX_CORRUPTED` when
 *   damaged (bad magic, checksum mismatch, truncated), `SCHEMA_MISMATCH` for another format version
 */
export async function loadForwardIndex(file: string): Promise<ForwardIndex> {
  const direct = await loadInPlace(file)
  if (direct !== undefined) {
    return direct
  }
  let data: Buffer
  try {
    data = await readFile(file)
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT'
    throw new PubmatchError(missing ? 'NOT_FOUND' : 'IO', `cannot read the forward index ${truncateForMessage(file)}`, { cause: error, details: { file } })
  }
  if (data.length < MAGIC.length + DIGEST + 4 || !data.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw corrupted(file, 'not a forward index file (bad magic)')
  }
  const payload = data.subarray(MAGIC.length + DIGEST)
  const hash = createHash('sha256')
  for (let from = 0; from < payload.length; from += LOAD_STEP_BYTES) {
    hash.update(payload.subarray(from, from + LOAD_STEP_BYTES))
    await nextTurn()
  }
  const digest = hash.digest()
  if (!digest.equals(data.subarray(MAGIC.length, MAGIC.length + DIGEST))) {
    throw corrupted(file, 'checksum mismatch')
  }
  let at = 0
  const take = (bytes: number): Buffer => {
    if (!Number.isInteger(bytes) || bytes < 0 || at + bytes > payload.length) {
      throw corrupted(file, 'truncated')
    }
    const part = payload.subarray(at, at + bytes)
    at += bytes
    return part
  }
  let header: Header
  let ids: unknown
  let terms: unknown
  try {
    const source = { file, code: 'INDEX_CORRUPTED' } as const
    const parsed = parseJson(take(payload.readUInt32LE(0) + 4).subarray(4).toString('utf8'), json.object({ format: json.integer }), source)
    if (parsed.format !== FORMAT) {
      throw new PubmatchError('SCHEMA_MISMATCH', `forward index ${truncateForMessage(file)} has format ${String(parsed.format)}, this version reads ${FORMAT}`, { details: { file } })
    }
    header = checkJson(parsed, HEADER, source)
    ids = JSON.parse(take(header.ids).toString('utf8'))
    terms = JSON.parse(take(header.terms).toString('utf8'))
  } catch (error) {
    if (error instanceof PubmatchError) {
      throw error
    }
    throw corrupted(file, 'unreadable header')
  }
  const isStrings = (v: unknown, n: number): v is string[] => Array.isArray(v) && v.length === n && v.every((x) => typeof x === 'string')
  if (!isStrings(ids, header.docCount) || !isStrings(terms, header.termCount)) {
    throw corrupted(file, 'bad id or term table')
  }
  const fields = {} as Record<ForwardFieldName, ForwardField>
  for (const name of FORWARD_FIELDS) {
    const n = header.tokens[name]
    const offsets = new Uint32Array(await copy(take((header.docCount + 1) * 4)))
    const fieldTerms = new Int32Array(await copy(take(n * 4)))
    const flags = new Uint8Array(await copy(take(n)))
    if (offsets[header.docCount] !== n) {
      throw corrupted(file, `bad ${name} offsets`)
    }
    fields[name] = { offsets, terms: fieldTerms, flags }
  }
  if (at !== payload.length) {
    throw corrupted(file, 'trailing bytes')
  }
  const docs = await numbered(ids)
  const termIds = await numbered(terms)
  return new Forward(header.analyzer, header.tokenAnalyzer, ids, docs, terms, termIds, fields)
}

/**
 * {@link loadForwardIndex} of a store whose header describes the file exactly (its format, and
 * parts whose sizes add up to the file's): each part is read from the file straight into the array
 * that keeps it, without reading the whole file into one buffer and copying it out. The checksum
 * is verified over the parts as read, in steps, before anything but the header is used.
 * `undefined` when the header does not describe the file so (a damaged file, another format) or a
 * read fails: the whole file is read and checked instead, which says what is wrong with it.
 */
async function loadInPlace(file: string): Promise<ForwardIndex | undefined> {
  let handle: FileHandle
  try {
    handle = await open(file, 'r')
  } catch {
    return undefined
  }
  try {
    const size = (await handle.stat()).size
    const lead = MAGIC.length + DIGEST + 4
    if (size < lead) {
      return undefined
    }
    let at = 0
    const read = async (target: Uint8Array): Promise<boolean> => {
      let filled = 0
      while (filled < target.length) {
        const { bytesRead } = await handle.read(target, filled, target.length - filled, at + filled)
        if (bytesRead === 0) {
          return false
        }
        filled += bytesRead
      }
      at += target.length
      return true
    }
    const start = Buffer.alloc(lead)
    if (!(await read(start)) || !start.subarray(0, MAGIC.length).equals(MAGIC)) {
      return undefined
    }
    const headerLength = start.readUInt32LE(MAGIC.length + DIGEST)
    if (headerLength > size - lead) {
      return undefined
    }
    const headerBytes = Buffer.alloc(headerLength)
    if (!(await read(headerBytes))) {
      return undefined
    }
    let header: Header
    try {
      header = checkJson(JSON.parse(headerBytes.toString('utf8')), HEADER, { file, code: 'INDEX_CORRUPTED' })
    } catch {
      return undefined
    }
    const parts = header.ids + header.terms + FORWARD_FIELDS.reduce((sum, name) => sum + (header.docCount + 1) * 4 + header.tokens[name] * 5, 0)
    if (header.format !== FORMAT || lead + headerLength + parts !== size) {
      return undefined
    }
    const hash = createHash('sha256').update(start.subarray(MAGIC.length + DIGEST)).update(headerBytes)
    const take = async (target: Uint8Array): Promise<boolean> => {
      if (!(await read(target))) {
        return false
      }
      for (let from = 0; from < target.length; from += LOAD_STEP_BYTES) {
        hash.update(target.subarray(from, from + LOAD_STEP_BYTES))
        await nextTurn()
      }
      return true
    }
    const idBytes = Buffer.alloc(header.ids)
    const termBytes = Buffer.alloc(header.terms)
    if (!(await take(idBytes)) || !(await take(termBytes))) {
      return undefined
    }
    const fields = {} as Record<ForwardFieldName, ForwardField>
    for (const name of FORWARD_FIELDS) {
      const n = header.tokens[name]
      const field = { offsets: new Uint32Array(header.docCount + 1), terms: new Int32Array(n), flags: new Uint8Array(n) }
      for (const array of [field.offsets, field.terms, field.flags]) {
        if (!(await take(new Uint8Array(array.buffer)))) {
          return undefined
        }
      }
      fields[name] = field
    }
    if (!hash.digest().equals(start.subarray(MAGIC.length, MAGIC.length + DIGEST))) {
      throw corrupted(file, 'checksum mismatch')
    }
    let ids: unknown
    let terms: unknown
    try {
      ids = JSON.parse(idBytes.toString('utf8'))
      terms = JSON.parse(termBytes.toString('utf8'))
    } catch {
      throw corrupted(file, 'unreadable header')
    }
    const isStrings = (v: unknown, n: number): v is string[] => Array.isArray(v) && v.length === n && v.every((x) => typeof x === 'string')
    if (!isStrings(ids, header.docCount) || !isStrings(terms, header.termCount)) {
      throw corrupted(file, 'bad id or term table')
    }
    for (const name of FORWARD_FIELDS) {
      if (fields[name].offsets[header.docCount] !== header.tokens[name]) {
        throw corrupted(file, `bad ${name} offsets`)
      }
    }
    const docs = await numbered(ids)
    const termIds = await numbered(terms)
    return new Forward(header.analyzer, header.tokenAnalyzer, ids, docs, terms, termIds, fields)
  } catch (error) {
    if (error instanceof PubmatchError) {
      throw error
    }
    // a read that failed: reading the whole file says what is wrong (IO)
    return undefined
  } finally {
    await handle.close().catch(() => undefined)
  }
}

/** Each string's position in `list`, put in the map a step at a time. */
async function numbered(list: readonly string[]): Promise<Map<string, number>> {
  const map = new Map<string, number>()
  for (let from = 0; from < list.length; from += LOAD_STEP_ENTRIES) {
    await nextTurn()
    const end = Math.min(list.length, from + LOAD_STEP_ENTRIES)
    for (let i = from; i < end; i++) {
      map.set(list[i]!, i)
    }
  }
  return map
}

/** The bytes in a buffer of their own (aligned for typed arrays), copied a step at a time. */
async function copy(bytes: Buffer): Promise<ArrayBuffer> {
  const out = new Uint8Array(bytes.length)
  for (let from = 0; from < bytes.length; from += LOAD_STEP_BYTES) {
    out.set(bytes.subarray(from, from + LOAD_STEP_BYTES), from)
    await nextTurn()
  }
  return out.buffer
}
