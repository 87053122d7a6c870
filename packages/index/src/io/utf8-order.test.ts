import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compareUtf8 } from './utf8-order.ts'

describe('compareUtf8', () => {
  it('orders like the UTF-8 bytes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(Math.sign(compareUtf8(a, b))).toBe(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))))
      }),
    )
  })

  it('puts a supplementary character after U+FFFD, unlike UTF-16 order', () => {
    const emoji = '\u{1F600}'
    expect(emoji < '\uFFFD').toBe(true)
    expect(compareUtf8(emoji, '\uFFFD')).toBeGreaterThan(0)
  })
})
