import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compareCodePoints } from '@pubmatch/core'
import { ByteWriter } from '../io/byte-writer.ts'
import { TERMS_PER_BLOCK, TermDictionary, TermDictionaryWriter } from './term-dictionary.ts'

function build(terms: readonly string[], withPositions: boolean): TermDictionary {
  const writer = new TermDictionaryWriter(withPositions)
  let postingsOffset = 12
  let positionsOffset = 12
  terms.forEach((term, i) => {
    const info = {
      docFreq: i + 1,
      totalTermFreq: 2 * i + 1,
      postingsOffset,
      postingsLength: (i % 7) + 1,
      positionsOffset: withPositions ? positionsOffset : 0,
      positionsLength: withPositions ? (i % 5) + 2 : 0,
    }
    writer.add(term, info)
    postingsOffset += info.postingsLength
    positionsOffset += info.positionsLength
  })
  const out = new ByteWriter()
  out.u32(0xdeadbeef) // the section need not start at 0
  writer.finish(out)
  return new TermDictionary(Buffer.from(out.view()), 4, withPositions)
}

const sortedTerms = fc
  .uniqueArray(fc.string({ unit: 'grapheme', maxLength: 12 }), { maxLength: 80 })
  .map((terms) => terms.sort(compareCodePoints))

describe('TermDictionary', () => {
  it('finds every term with its statistics and offsets', () => {
    fc.assert(
      fc.property(sortedTerms, fc.boolean(), (terms, withPositions) => {
        const dictionary = build(terms, withPositions)
        expect(dictionary.termCount).toBe(terms.length)
        let postingsOffset = 12
        let positionsOffset = 12
        terms.forEach((term, i) => {
          expect(dictionary.lookup(term)).toEqual({
            docFreq: i + 1,
            totalTermFreq: 2 * i + 1,
            postingsOffset,
            postingsLength: (i % 7) + 1,
            positionsOffset: withPositions ? positionsOffset : 0,
            positionsLength: withPositions ? (i % 5) + 2 : 0,
          })
          postingsOffset += (i % 7) + 1
          positionsOffset += withPositions ? (i % 5) + 2 : 0
        })
      }),
    )
  })

  it('finds long terms (beyond its 256-byte scratch), with shared prefixes, and misses near them', () => {
    const long = 'α'.repeat(150) // 300 UTF-8 bytes
    const terms = [`${long}a`, `${long}b`, `${long}b${'c'.repeat(400)}`, 'z'].sort(compareCodePoints)
    const dictionary = build(terms, false)
    terms.forEach((term, i) => expect(dictionary.lookup(term)?.docFreq).toBe(i + 1))
    expect(dictionary.lookup(long)).toBeNull()
    expect(dictionary.lookup(`${long}bc`)).toBeNull()
    expect(dictionary.lookup(`${long}c`)).toBeNull()
    expect(dictionary.lookup('')).toBeNull()
  })

  it('answers null for absent terms', () => {
    fc.assert(
      fc.property(sortedTerms, fc.string({ unit: 'grapheme', maxLength: 12 }), (terms, probe) => {
        fc.pre(!terms.includes(probe))
        expect(build(terms, true).lookup(probe)).toBeNull()
      }),
    )
  })

  it('enumerates the terms with a prefix in byte order', () => {
    fc.assert(
      fc.property(sortedTerms, fc.string({ unit: 'grapheme', maxLength: 2 }), (terms, prefix) => {
        const dictionary = build(terms, false)
        expect([...dictionary.withPrefix(prefix)].map((e) => e.term)).toEqual(
          terms.filter((t) => t.startsWith(prefix)),
        )
        expect([...dictionary.entries()].map((e) => e.term)).toEqual(terms)
      }),
    )
  })

  it('front-codes a block of shared prefixes', () => {
    const terms = Array.from({ length: TERMS_PER_BLOCK + 3 }, (_, i) => `cardiomyopathy${String(i).padStart(2, '0')}`)
    const dictionary = build(terms, false)
    expect(dictionary.lookup('cardiomyopathy17')?.docFreq).toBe(18)
    expect(dictionary.lookup('cardiomyopathy')).toBeNull()
    expect([...dictionary.withPrefix('cardiomyopathy1')]).toHaveLength(9) // 10 … 18
  })
})

describe('term order (compareCodePoints of @pubmatch/core)', () => {
  it('is the order of the UTF-8 bytes the dictionary stores', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))))
      }),
    )
  })
})
