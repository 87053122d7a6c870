import { describe, expect, it } from 'vitest'
import { decodeUtf8Range } from './byte-reader.ts'

const encoder = new TextEncoder()

describe('decodeUtf8Range', () => {
  it('decodes short ASCII, short non-ASCII and long runs exactly as TextDecoder', () => {
    const texts = ['', '12345678', 'PLAIN-1017', 'MED-5065', 'café', 'ß', '中文', '😀x', 'a'.repeat(32), 'b'.repeat(33), `${'c'.repeat(31)}é`]
    for (const text of texts) {
      const padded = new Uint8Array([0x41, ...encoder.encode(text), 0xc3, 0xa9])
      const bytes = encoder.encode(text)
      expect(decodeUtf8Range(padded, 1, 1 + bytes.length)).toBe(text)
    }
  })
})
