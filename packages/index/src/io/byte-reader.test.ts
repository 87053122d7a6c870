import { describe, expect, it } from 'vitest'
import { decodeUtf8Range } from './byte-reader.ts'

const encoder = new TextEncoder()

describe('decodeUtf8Range', () => {
  it('decodes ASCII and non-ASCII runs of Buffers and plain byte arrays to the encoded text', () => {
    const texts = [
      '',
      '12345678',
      'PLAIN-1017',
      'MED-5065',
      'café',
      'ß',
      '中文',
      '😀x',
      'a'.repeat(32),
      'b'.repeat(300),
      `${'c'.repeat(31)}é`,
      '\u007f~',
    ]
    for (const text of texts) {
      const bytes = encoder.encode(text)
      const padded = new Uint8Array([0x41, ...bytes, 0xc3, 0xa9])
      expect(decodeUtf8Range(padded, 1, 1 + bytes.length)).toBe(text)
      expect(decodeUtf8Range(Buffer.from(padded), 1, 1 + bytes.length)).toBe(text)
    }
  })
})
