import { describe, expect, it } from 'vitest'
import { compareCodePoints } from './code-point-order.ts'

const sign = (a: string, b: string): number => Math.sign(compareCodePoints(a, b))

/** Lexicographic order of the UTF-8 bytes (what `strcmp` sees). */
function compareUtf8Bytes(a: string, b: string): number {
  const x = new TextEncoder().encode(a)
  const y = new TextEncoder().encode(b)
  const n = Math.min(x.length, y.length)
  for (let i = 0; i < n; i++) {
    if (x[i] !== y[i]) {
      return x[i]! - y[i]!
    }
  }
  return x.length - y.length
}

describe('compareCodePoints', () => {
  it('orders ASCII and BMP text like strcmp', () => {
    expect(sign('D', 'd')).toBe(-1) // 0x44 < 0x64
    expect(sign('q10', 'q2')).toBe(-1) // '1' < '2'; length does not matter
    expect(sign('', 'a')).toBe(-1)
    expect(sign('ab', 'abc')).toBe(-1) // a prefix sorts first
    expect(sign('abc', 'ab')).toBe(1)
    expect(sign('médecine', 'medecine')).toBe(1) // U+00E9 > U+0065
    expect(compareCodePoints('', '')).toBe(0)
    expect(compareCodePoints('PLAIN-1', 'PLAIN-1')).toBe(0)
    expect(compareCodePoints('\u{1F600}x', '\u{1F600}x')).toBe(0)
  })

  it('puts supplementary characters after BMP characters from U+E000, unlike UTF-16 order', () => {
    // U+FFFD (UTF-8 EF BF BD; UTF-16 FFFD) < U+1F600 (F0 9F 98 80; D83D DE00)
    expect(sign('\uFFFD', '\u{1F600}')).toBe(-1)
    expect('\u{1F600}' < '\uFFFD').toBe(true)
    // U+E000 (EE 80 80; E000) < U+10000 (F0 90 80 80; D800 DC00)
    expect(sign('\uE000', '\u{10000}')).toBe(-1)
    expect('\u{10000}' < '\uE000').toBe(true)
    // U+FF5E (EF BD 9E; FF5E) < U+1F600
    expect(sign('\u{1F600}', '\uFF5E')).toBe(1)
    // the difference inside longer strings: 'a' U+FFFD 'z' < 'a' U+10000
    expect(sign('a\uFFFDz', 'a\u{10000}')).toBe(-1)
    expect(sign('x\u{1F600}', 'x\uE000')).toBe(1)
  })

  it('agrees with UTF-16 order below the surrogates and between supplementary characters', () => {
    // U+D7FF (ED 9F BF), the last BMP character before the surrogates, < U+10000
    expect(sign('\uD7FF', '\u{10000}')).toBe(-1)
    expect(sign('\u{1F600}', '\u{1F601}')).toBe(-1) // same high surrogate, low DE00 < DE01
    expect(sign('\u{1F600}', '\u{20000}')).toBe(-1) // high surrogates D83D < D840
    expect(sign('\u{10FFFF}', '\u{10000}')).toBe(1)
    expect(sign('\u{1F600}', '\u{1F600}a')).toBe(-1)
  })

  it('sorts as a comparator', () => {
    const ids = ['\u{1F600}', '\uFFFD', 'z', '\uE000', '\u{10000}', 'A', '\uD7FF']
    expect([...ids].sort(compareCodePoints)).toEqual([
      'A',
      'z',
      '\uD7FF',
      '\uE000',
      '\uFFFD',
      '\u{10000}',
      '\u{1F600}',
    ])
    // the default sort (UTF-16 units) puts the supplementary characters before U+E000
    expect([...ids].sort()).toEqual([
      'A',
      'z',
      '\uD7FF',
      '\u{10000}',
      '\u{1F600}',
      '\uE000',
      '\uFFFD',
    ])
  })

  it('agrees with the UTF-8 byte order on every pair of boundary characters', () => {
    const samples = [
      '',
      'a',
      'ab',
      '\u007F',
      '\u0080',
      '\u07FF',
      '\u0800',
      '\uD7FF',
      '\uE000',
      '\uF8FF',
      '\uFFFD',
      '\uFFFF',
      '\u{10000}',
      '\u{1F600}',
      '\u{1F601}',
      '\u{20000}',
      '\u{10FFFF}',
      'a\u{1F600}',
      'a\uFFFF',
      '\u{1F600}a',
    ]
    for (const a of samples) {
      for (const b of samples) {
        expect(sign(a, b), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(
          Math.sign(compareUtf8Bytes(a, b)),
        )
        expect(sign(a, b)).toBe(-sign(b, a) || 0)
      }
    }
  })

  it('orders lone surrogates after every BMP character, by unit value among themselves', () => {
    expect(sign('\uD800', '\uFFFF')).toBe(1)
    expect(sign('\uD800', '\uD7FF')).toBe(1)
    expect(sign('\uDC00', '\uD800')).toBe(1)
    expect(sign('\uD83D', '\u{1F600}')).toBe(-1) // a prefix of the pair
  })
})
