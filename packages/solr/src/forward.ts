/**
 * The forward field of a Solr document: its title, abstract and MeSH token streams (the streams
 * of `@pubmatch/ltr`'s forward store, from `createTokenStreamer` of `@pubmatch/analysis/internal`)
 * encoded into one binary doc value, so that a shard can compute Best Match's features of its own
 * documents. The Java side (`org.pubmatch.solr.shard.ShardDocumentReader`) decodes it.
 *
 * Format 1 (all integers are unsigned LEB128 varints, Lucene's `VInt`):
 *
 * ```
 * byte     format (1)
 * varint   n, the document's distinct terms
 * n ×      varint byte length, then the term's UTF-8 bytes    (first-occurrence order)
 * 3 ×      title, abstract, MeSH:
 *   varint   token count
 *   count ×  varint (ref << 3) | flags    ref 0: a stop word without a term, else 1 + term index
 * ```
 *
 * `flags` are the token's `TOKEN_STOPWORD | TOKEN_INDEFINITE | TOKEN_DEFINITE` bits (1, 2, 4).
 * A per-document term dictionary keeps a repeated term's bytes once (an abstract repeats its
 * terms), so that a token is one byte for the document's first 15 terms and two up to 2,047,
 * and a reader compares each distinct term with the query terms once per document instead of once
 * per token.
 */
import type { TokenStreamer, TokenStreamTexts } from '@pubmatch/analysis/internal'
import { PubmatchError } from '@pubmatch/core'

/** The Solr field holding the forward token streams (binary doc values only). */
export const FORWARD_FIELD = 'pubmatch_fwd'

/** The format byte the encoder writes first. */
export const FORWARD_FORMAT = 1

/** How many low bits of a token's varint hold its flags. */
const FLAG_BITS = 3

/** Growable byte output with LEB128 varints. */
class ByteWriter {
  bytes = new Uint8Array(256)
  length = 0

  private reserve(n: number): void {
    if (this.length + n > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n))
      grown.set(this.bytes.subarray(0, this.length))
      this.bytes = grown
    }
  }

  byte(value: number): void {
    this.reserve(1)
    this.bytes[this.length++] = value
  }

  varint(value: number): void {
    this.reserve(5)
    let v = value >>> 0
    while (v >= 0x80) {
      this.bytes[this.length++] = (v & 0x7f) | 0x80
      v >>>= 7
    }
    this.bytes[this.length++] = v
  }

  raw(part: Uint8Array): void {
    this.reserve(part.length)
    this.bytes.set(part, this.length)
    this.length += part.length
  }
}

const utf8 = new TextEncoder()

/**
 * Encodes a document's token streams in the forward field's format (see the module comment).
 * @param streamer - the token streamer of the collection's analyzer
 * @param texts - the document's texts (`tokenStreamTexts(article)`)
 * @throws PubmatchError `INVALID_ARGUMENT` when a token's flags do not fit in 3 bits or the
 *   document has more than 2^28 distinct terms (neither happens with the built-in flags)
 */
export function encodeForwardStreams(streamer: TokenStreamer, texts: TokenStreamTexts): Uint8Array {
  const termIndex = new Map<string, number>()
  const terms: string[] = []
  const fields: number[][] = [[], [], []]
  const collect = (tokens: number[]) => (term: string | null, flags: number): void => {
    if (flags < 0 || flags >= 1 << FLAG_BITS) {
      throw new PubmatchError('INVALID_ARGUMENT', `token flags ${flags} do not fit in ${FLAG_BITS} bits`)
    }
    let ref = 0
    if (term !== null) {
      let index = termIndex.get(term)
      if (index === undefined) {
        index = terms.length
        terms.push(term)
        termIndex.set(term, index)
      }
      ref = index + 1
    }
    if (ref >= 1 << (32 - FLAG_BITS)) {
      throw new PubmatchError('INVALID_ARGUMENT', `a document with more than ${(1 << (32 - FLAG_BITS)) - 1} distinct terms cannot be encoded`)
    }
    tokens.push(ref * (1 << FLAG_BITS) + flags)
  }
  streamer.tokens(texts.title, collect(fields[0]!))
  streamer.tokens(texts.abstract, collect(fields[1]!))
  const mesh = collect(fields[2]!)
  for (const heading of texts.mesh) {
    streamer.tokens(heading, mesh)
  }
  const out = new ByteWriter()
  out.byte(FORWARD_FORMAT)
  out.varint(terms.length)
  for (const term of terms) {
    const bytes = utf8.encode(term)
    out.varint(bytes.length)
    out.raw(bytes)
  }
  for (const tokens of fields) {
    out.varint(tokens.length)
    for (const token of tokens) {
      out.varint(token)
    }
  }
  return out.bytes.slice(0, out.length)
}
