import { MICRO_SIGN } from '../greek-letters.ts'

// Character classes of the biomedical tokenizer (internal).
/** Anything that ends a word and does not join compounds (space, comma, slash, `+`, …). */
export const SEP = 0
/** A letter (any script but Greek) or a combining mark. */
export const ALPHA = 1
/** A Greek letter, or the micro sign. */
export const GREEK = 2
/** A digit (any script). */
export const DIGIT = 3
/** Hyphens, en dash, minus: break points inside a compound. */
export const HYPHEN = 4
/** `( ) [ ] { }`: break points inside a compound, separators elsewhere. */
export const BRACKET = 5
/** Apostrophes and primes: possessive `'s`, or dropped inside a word (`o'brien`). */
export const APOS = 6
/** `.`: a decimal point between digits, a separator elsewhere. */
export const DOT = 7
/** Soft hyphen, zero-width joiners, BOM: skipped without breaking the word. */
export const IGNORE = 8

/** Whether a class starts or continues a word part. */
export function isWordClass(cls: number): boolean {
  return cls === ALPHA || cls === GREEK || cls === DIGIT
}

/** Whether a class can sit in a run linking two parts of one compound. */
export function isJoinerClass(cls: number): boolean {
  return cls === HYPHEN || cls === BRACKET || cls === APOS || cls === IGNORE
}

/** Classes of the ASCII characters, indexed by code unit. */
export const ASCII_CLASS: Uint8Array = new Uint8Array(128)
const ASCII = ASCII_CLASS
for (let c = 0x61; c <= 0x7a; c++) {
  ASCII[c] = ALPHA
  ASCII[c - 0x20] = ALPHA
}
for (let c = 0x30; c <= 0x39; c++) {
  ASCII[c] = DIGIT
}
ASCII[0x2d] = HYPHEN
for (const c of '()[]{}') {
  ASCII[c.charCodeAt(0)] = BRACKET
}
ASCII[0x27] = APOS
ASCII[0x2e] = DOT

const SPECIAL = new Map<number, number>([
  [0x00ad, IGNORE], // soft hyphen
  [0x200c, IGNORE], // zero-width non-joiner
  [0x200d, IGNORE], // zero-width joiner
  [0x2060, IGNORE], // word joiner
  [0xfeff, IGNORE], // BOM / zero-width no-break space
  [0x2010, HYPHEN], // hyphen
  [0x2011, HYPHEN], // non-breaking hyphen
  [0x2012, HYPHEN], // figure dash
  [0x2013, HYPHEN], // en dash
  [0x2212, HYPHEN], // minus sign
  [0xfe63, HYPHEN], // small hyphen-minus
  [0xff0d, HYPHEN], // full-width hyphen-minus
  [0x2018, APOS], // left single quotation mark
  [0x2019, APOS], // right single quotation mark
  [0x02bc, APOS], // modifier letter apostrophe
  [0x2032, APOS], // prime
  [MICRO_SIGN, GREEK],
])

const GREEK_LETTER = /^\p{Script=Greek}$/u
const LETTER_OR_MARK = /^[\p{L}\p{M}]$/u
const NUMBER = /^\p{N}$/u
const CACHE_LIMIT = 4096
const cache = new Map<number, number>()

function classifyCodePoint(cp: number): number {
  const special = SPECIAL.get(cp)
  if (special !== undefined) {
    return special
  }
  const cached = cache.get(cp)
  if (cached !== undefined) {
    return cached
  }
  const ch = String.fromCodePoint(cp)
  let cls = SEP
  if (LETTER_OR_MARK.test(ch)) {
    cls = GREEK_LETTER.test(ch) ? GREEK : ALPHA
  } else if (NUMBER.test(ch)) {
    cls = DIGIT
  }
  if (cache.size < CACHE_LIMIT) {
    cache.set(cp, cls)
  }
  return cls
}

/**
 * The class of the UTF-16 code unit at `i`. Both halves of a surrogate pair get the class of
 * the code point they encode.
 */
export function charClassAt(s: string, i: number): number {
  const c = s.charCodeAt(i)
  if (c < 128) {
    return ASCII[c]!
  }
  if (c >= 0xdc00 && c <= 0xdfff) {
    const prev = i > 0 ? s.charCodeAt(i - 1) : 0
    return prev >= 0xd800 && prev <= 0xdbff ? classifyCodePoint(s.codePointAt(i - 1)!) : SEP
  }
  if (c >= 0xd800 && c <= 0xdbff) {
    const cp = s.codePointAt(i)!
    return cp === c ? SEP : classifyCodePoint(cp)
  }
  return classifyCodePoint(c)
}
