import { ByteReader, decodeUtf8Range, readU32 } from '../io/byte-reader.ts'
import { ByteWriter } from '../io/byte-writer.ts'
import type { TermInfo } from '../postings/postings-format.ts'

/** Terms per front-coded block of the term dictionary. */
export const TERMS_PER_BLOCK = 16

/**
 * Builds one field's section of a `.tdx` file: terms in UTF-8 byte order, front-coded in
 * blocks of {@link TERMS_PER_BLOCK}. Layout: `u32 termCount`, `u32 blockCount`,
 * `u32 blockOffset[blockCount]` (relative to the first block), then the blocks. A block is
 * `vint(postingsOffset)`, `vint(positionsOffset)` (fields with positions only) of its first
 * term, then per term `vint(shared prefix bytes)`, `vint(suffix bytes)`, the suffix,
 * `vint(docFreq)`, `vint(totalTermFreq − docFreq)`, `vint(postings bytes)` and
 * `vint(positions bytes)` (fields with positions only). A block's first term shares nothing.
 */
export class TermDictionaryWriter {
  private readonly withPositions: boolean
  private readonly entries = new ByteWriter(4096)
  private readonly blockOffsets: number[] = []
  private previous = Buffer.alloc(256)
  private previousLength = 0
  private current = Buffer.alloc(256)
  private count = 0

  /**
   * @param withPositions - whether the field stores positions
   */
  constructor(withPositions: boolean) {
    this.withPositions = withPositions
  }

  /** Terms added so far. */
  get termCount(): number {
    return this.count
  }

  /**
   * Adds the next term; terms must come in strictly increasing UTF-8 byte order.
   * @param term - the term
   * @param info - where its postings are
   */
  add(term: string, info: TermInfo): void {
    const byteLength = Buffer.byteLength(term, 'utf8')
    if (this.current.length < byteLength) {
      this.current = Buffer.alloc(byteLength * 2)
    }
    const bytes = this.current
    bytes.write(term, 0, byteLength, 'utf8')
    const out = this.entries
    let shared = 0
    if (this.count % TERMS_PER_BLOCK === 0) {
      this.blockOffsets.push(out.length)
      out.vint(info.postingsOffset)
      if (this.withPositions) {
        out.vint(info.positionsOffset)
      }
    } else {
      const previous = this.previous
      const max = Math.min(this.previousLength, byteLength)
      while (shared < max && previous[shared] === bytes[shared]) {
        shared++
      }
    }
    out.vint(shared)
    out.vint(byteLength - shared)
    out.bytes(bytes.subarray(shared, byteLength))
    out.vint(info.docFreq)
    out.vint(info.totalTermFreq - info.docFreq)
    out.vint(info.postingsLength)
    if (this.withPositions) {
      out.vint(info.positionsLength)
    }
    this.current = this.previous
    this.previous = bytes
    this.previousLength = byteLength
    this.count++
  }

  /**
   * Appends the finished section to `out`.
   * @param out - the `.tdx` body
   */
  finish(out: ByteWriter): void {
    out.u32(this.count)
    out.u32(this.blockOffsets.length)
    for (const offset of this.blockOffsets) {
      out.u32(offset)
    }
    out.bytes(this.entries.view())
  }
}

/** A term and its dictionary entry. */
export interface TermEntry extends TermInfo {
  readonly term: string
}

/**
 * Reads one field's term dictionary section in place: opening reads two integers; a lookup
 * binary-searches the blocks' first terms and scans one block.
 */
export class TermDictionary {
  /** Distinct terms in the field (in this segment). */
  readonly termCount: number
  private readonly bytes: Buffer
  private readonly blockCount: number
  private readonly offsetsAt: number
  private readonly entriesAt: number
  private readonly withPositions: boolean
  /** The lookups' reader over `bytes` (one per dictionary: lookups are synchronous). */
  private readonly reader: ByteReader

  /**
   * @param bytes - the whole `.tdx` file
   * @param offset - where the field's section starts
   * @param withPositions - whether the field stores positions
   */
  constructor(bytes: Buffer, offset: number, withPositions: boolean) {
    this.bytes = bytes
    this.withPositions = withPositions
    this.termCount = readU32(bytes, offset)
    this.blockCount = readU32(bytes, offset + 4)
    this.offsetsAt = offset + 8
    this.entriesAt = this.offsetsAt + 4 * this.blockCount
    this.reader = new ByteReader(bytes)
  }

  /**
   * The entry of `term`, or `null` when the field does not have it.
   * @param term - the term
   */
  lookup(term: string): TermInfo | null {
    if (this.termCount === 0) {
      return null
    }
    const bytes = this.bytes
    // the term's UTF-8 bytes in a scratch array (no allocation per lookup)
    if (lookupTarget.length < term.length * 3) {
      lookupTarget = new Uint8Array(term.length * 3)
    }
    const target = lookupTarget
    const targetLength = textEncoder.encodeInto(term, target).written
    const reader = this.reader
    // the last block whose first term is ≤ target
    let lo = 0
    let hi = this.blockCount - 1
    let block = -1
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      reader.pos = this.blockAt(mid)
      reader.vint()
      if (this.withPositions) {
        reader.vint()
      }
      reader.vint() // shared prefix: 0
      const length = reader.vint()
      if (compareBytes(bytes, reader.pos, length, target, targetLength) <= 0) {
        block = mid
        lo = mid + 1
      } else {
        hi = mid - 1
      }
    }
    if (block < 0) {
      return null
    }
    // scan the block's front-coded terms, rebuilding each in a scratch array
    reader.pos = this.blockAt(block)
    let postingsOffset = reader.vint()
    let positionsOffset = this.withPositions ? reader.vint() : 0
    const end = Math.min(this.termCount - block * TERMS_PER_BLOCK, TERMS_PER_BLOCK)
    let current = lookupTerm
    for (let i = 0; i < end; i++) {
      const shared = reader.vint()
      const suffix = reader.vint()
      const length = shared + suffix
      if (current.length < length) {
        const grown = new Uint8Array(length * 2)
        grown.set(current.subarray(0, shared))
        current = lookupTerm = grown
      }
      const pos = reader.pos
      for (let j = 0; j < suffix; j++) {
        current[shared + j] = bytes[pos + j]!
      }
      reader.pos = pos + suffix
      const docFreq = reader.vint()
      const extraFreq = reader.vint()
      const postingsLength = reader.vint()
      const positionsLength = this.withPositions ? reader.vint() : 0
      const c = compareBytes(current, 0, length, target, targetLength)
      if (c === 0) {
        return { docFreq, totalTermFreq: docFreq + extraFreq, postingsOffset, postingsLength, positionsOffset, positionsLength }
      }
      if (c > 0) {
        return null
      }
      postingsOffset += postingsLength
      positionsOffset += positionsLength
    }
    return null
  }

  /**
   * Terms from the first one ≥ `from`, in UTF-8 byte order.
   * @param from - where to start; `''` starts at the first term. Defaults to `''`.
   */
  *entries(from = ''): Generator<TermEntry> {
    if (this.termCount === 0) {
      return
    }
    const target = Buffer.from(from, 'utf8')
    const block = Math.max(0, this.findBlock(target))
    const iterator = new BlockIterator(this, block)
    while (iterator.next()) {
      if (Buffer.compare(iterator.termBytes(), target) >= 0) {
        yield { term: iterator.term(), ...iterator.info() }
      }
    }
  }

  /**
   * Terms that start with `prefix`, in UTF-8 byte order.
   * @param prefix - the prefix; `''` gives every term
   */
  *withPrefix(prefix: string): Generator<TermEntry> {
    for (const entry of this.entries(prefix)) {
      if (!entry.term.startsWith(prefix)) {
        return
      }
      yield entry
    }
  }

  /** @internal The absolute offset of block `b`. */
  blockAt(b: number): number {
    return this.entriesAt + readU32(this.bytes, this.offsetsAt + 4 * b)
  }

  /** @internal The raw bytes and layout flag, for {@link BlockIterator}. */
  raw(): { bytes: Buffer; withPositions: boolean } {
    return { bytes: this.bytes, withPositions: this.withPositions }
  }

  /** The last block whose first term is ≤ target, or -1. */
  private findBlock(target: Buffer): number {
    let lo = 0
    let hi = this.blockCount - 1
    let found = -1
    const reader = new ByteReader(this.bytes)
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      reader.pos = this.blockAt(mid)
      reader.vint()
      if (this.withPositions) {
        reader.vint()
      }
      reader.vint() // shared prefix: 0
      const length = reader.vint()
      const start = reader.pos
      const c = this.bytes.compare(target, 0, target.length, start, start + length)
      if (c <= 0) {
        found = mid
        lo = mid + 1
      } else {
        hi = mid - 1
      }
    }
    return found
  }
}

const textEncoder = new TextEncoder()
/** The looked-up term's UTF-8 bytes, and the block's term being rebuilt (lookups are synchronous). */
let lookupTarget = new Uint8Array(256)
let lookupTerm = new Uint8Array(256)

/** `a[aStart … aStart + aLength)` against `b[0 … bLength)` in byte order: < 0, 0 or > 0. */
function compareBytes(a: Uint8Array, aStart: number, aLength: number, b: Uint8Array, bLength: number): number {
  const n = aLength < bLength ? aLength : bLength
  for (let i = 0; i < n; i++) {
    const d = a[aStart + i]! - b[i]!
    if (d !== 0) {
      return d
    }
  }
  return aLength - bLength
}

/** Walks the entries of a dictionary from a block on, rebuilding front-coded terms. */
class BlockIterator {
  /** Index of the current term in the field (−1 before the first). */
  index: number
  private readonly dictionary: TermDictionary
  private readonly reader: ByteReader
  private readonly withPositions: boolean
  private scratch = Buffer.alloc(64)
  private length = 0
  private postingsOffset = 0
  private positionsOffset = 0
  private current: TermInfo = {
    docFreq: 0,
    totalTermFreq: 0,
    postingsOffset: 0,
    postingsLength: 0,
    positionsOffset: 0,
    positionsLength: 0,
  }

  constructor(dictionary: TermDictionary, block: number) {
    this.dictionary = dictionary
    const { bytes, withPositions } = dictionary.raw()
    this.withPositions = withPositions
    this.reader = new ByteReader(bytes, dictionary.blockAt(block))
    this.index = block * TERMS_PER_BLOCK - 1
  }

  /** Moves to the next term; false at the end of the field. */
  next(): boolean {
    const index = this.index + 1
    if (index >= this.dictionary.termCount) {
      return false
    }
    this.index = index
    const reader = this.reader
    if (index % TERMS_PER_BLOCK === 0) {
      reader.pos = this.dictionary.blockAt(index / TERMS_PER_BLOCK)
      this.postingsOffset = reader.vint()
      this.positionsOffset = this.withPositions ? reader.vint() : 0
    } else {
      this.postingsOffset += this.current.postingsLength
      this.positionsOffset += this.current.positionsLength
    }
    const shared = reader.vint()
    const suffix = reader.vint()
    const length = shared + suffix
    if (this.scratch.length < length) {
      const grown = Buffer.alloc(length * 2)
      this.scratch.copy(grown, 0, 0, shared)
      this.scratch = grown
    }
    this.scratch.set(reader.bytes.subarray(reader.pos, reader.pos + suffix), shared)
    reader.pos += suffix
    this.length = length
    const docFreq = reader.vint()
    const totalTermFreq = docFreq + reader.vint()
    const postingsLength = reader.vint()
    const positionsLength = this.withPositions ? reader.vint() : 0
    this.current = {
      docFreq,
      totalTermFreq,
      postingsOffset: this.postingsOffset,
      postingsLength,
      positionsOffset: this.positionsOffset,
      positionsLength,
    }
    return true
  }

  termBytes(): Buffer {
    return this.scratch.subarray(0, this.length)
  }

  term(): string {
    return decodeUtf8Range(this.scratch, 0, this.length)
  }

  info(): TermInfo {
    return this.current
  }
}
