import { describe, expect, it } from 'vitest'
import { mix32 } from './random.ts'
import { FUNCTION_WORDS, tokenTerms } from './text.ts'
import { capitalize, MIN_SYLLABLES, SYNTHETIC_WORD_CAPACITY, syntheticWord } from './words.ts'

/** Size of the 3-syllable class: (35 onsets × 10 nuclei)^3 × 11 codas. */
const CLASS_3 = 350 ** 3 * 11

describe('syntheticWord', () => {
  it('spells index 0 from the first syllable and the hash-shifted ones after it', () => {
    // Syllable 0 = onset 0 + nucleus 0 = "ba"; syllable 1 = (0 + fmix32(0·7919 + 1)) mod 350 = 27
    // = onset 27 ("pl") + nucleus 0 ("a"); the coda of index 0 is "".
    expect(mix32(1) % 350).toBe(27)
    expect(syntheticWord(0).startsWith('bapla')).toBe(true)
    expect(syntheticWord(0)).toMatch(/^bapla[a-z]+$/)
    // The first syllable changes fastest: index 1 starts with syllable 1 = "ca".
    expect(syntheticWord(1).startsWith('ca')).toBe(true)
  })

  it('gives distinct lower-case words of at least three syllables', () => {
    const n = 200_000
    const words = new Set<string>()
    let malformed = 0
    for (let i = 0; i < n; i++) {
      const word = syntheticWord(i)
      words.add(word)
      const syllables = word.match(/[aeiou]+/g)?.length ?? 0
      if (!/^[a-z]+$/.test(word) || syllables < MIN_SYLLABLES) {
        malformed++
      }
    }
    expect(words.size).toBe(n)
    expect(malformed).toBe(0)
  })

  it('moves to four syllables after the three-syllable class', () => {
    const last3 = syntheticWord(CLASS_3 - 1)
    const first4 = syntheticWord(CLASS_3)
    expect(last3.match(/[aeiou]+/g)).toHaveLength(3)
    expect(first4.match(/[aeiou]+/g)).toHaveLength(4)
    expect(last3).not.toBe(first4)
  })

  it('makes words that the tokenizer keeps as one token and that are not stop words', () => {
    let bad = 0
    for (let i = 0; i < 20_000; i += 7) {
      const word = syntheticWord(i)
      const terms = tokenTerms(capitalize(word))
      if (terms.length !== 1 || terms[0] !== word || FUNCTION_WORDS.has(word)) {
        bad++
      }
    }
    expect(bad).toBe(0)
  })

  it('rejects indexes out of range', () => {
    expect(() => syntheticWord(-1)).toThrow(/out of range/)
    expect(() => syntheticWord(SYNTHETIC_WORD_CAPACITY)).toThrow(/out of range/)
    expect(() => syntheticWord(1.5)).toThrow(/out of range/)
  })
})
