import { PubmatchError } from '@pubmatch/core'
import { mix32 } from './random.ts'

/**
 * Pronounceable synthetic words for the long tail of the vocabulary (ranks beyond the real
 * words of the sample). A word is a run of syllables, each an onset (consonants only) and a
 * nucleus (vowels only), then a coda (consonants only):
 *
 *   word = (onset nucleus){k} coda, k ≥ 3
 *
 * Because every onset is followed by a vowel and the coda is not, a word splits into its parts
 * in exactly one way, so distinct indexes give distinct words (the map is a bijection onto its
 * image). Indexes are read as mixed-radix digits; the fastest-changing digit is the first
 * syllable and every later syllable is shifted by a hash of the one before it, so neighbouring
 * ranks do not share prefixes the way counting would make them.
 */

const ONSETS = [
  'b',
  'c',
  'd',
  'f',
  'g',
  'h',
  'k',
  'l',
  'm',
  'n',
  'p',
  'r',
  's',
  't',
  'v',
  'z',
  'br',
  'cr',
  'dr',
  'fr',
  'gr',
  'pr',
  'tr',
  'bl',
  'cl',
  'fl',
  'gl',
  'pl',
  'ch',
  'sh',
  'th',
  'ph',
  'st',
  'sp',
  'sc',
] as const
const NUCLEI = ['a', 'e', 'i', 'o', 'u', 'ae', 'ei', 'io', 'ia', 'ou'] as const
const CODAS = ['', 'n', 's', 'l', 'r', 'm', 'x', 't', 'nd', 'st', 'ns'] as const

const SYLLABLES: readonly string[] = NUCLEI.flatMap((nucleus) =>
  ONSETS.map((onset) => onset + nucleus),
)
const S = SYLLABLES.length
const C = CODAS.length

/** The fewest syllables a synthetic word has (3 gives a mean of ≈ 8.6 characters). */
export const MIN_SYLLABLES = 3

/** How many distinct synthetic words exist with at most 5 syllables (well above any rank drawn). */
export const SYNTHETIC_WORD_CAPACITY: number = [3, 4, 5].reduce((sum, k) => sum + S ** k * C, 0)

/**
 * The synthetic word for a 0-based index (the `index`-th word after the real vocabulary).
 * Deterministic and injective: different indexes never give the same word.
 * @param index - a non-negative integer below {@link SYNTHETIC_WORD_CAPACITY}
 * @throws PubmatchError `INVALID_ARGUMENT` for an index out of range
 */
export function syntheticWord(index: number): string {
  if (!Number.isInteger(index) || index < 0 || index >= SYNTHETIC_WORD_CAPACITY) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `@pubmatch/synth: synthetic word index ${String(index)} is out of range [0, ${SYNTHETIC_WORD_CAPACITY})`,
    )
  }
  let k = MIN_SYLLABLES
  let rest = index
  while (rest >= S ** k * C) {
    rest -= S ** k * C
    k++
  }
  let word = ''
  let previous = 0
  for (let j = 0; j < k; j++) {
    const digit = rest % S
    rest = Math.floor(rest / S)
    const syllable = j === 0 ? digit : (digit + mix32(previous * 7919 + j)) % S
    word += SYLLABLES[syllable]!
    previous = syllable
  }
  // What is left (< C) picks the coda.
  return word + CODAS[rest]!
}

/**
 * The word with its first letter in upper case (sentence starts, names).
 * @param word - any string
 */
export function capitalize(word: string): string {
  return word.length === 0 ? word : word[0]!.toUpperCase() + word.slice(1)
}

/**
 * A number for the tail of the vocabulary (real abstracts keep coining numbers: `14.5`, `1324`):
 * `⌊index / 1000⌋.ddd`, always three decimals, so distinct indexes give distinct numbers. The
 * tokenizer keeps it as one token (a `.` between digits belongs to the number).
 * @param index - a non-negative integer
 */
export function syntheticNumber(index: number): string {
  return `${Math.floor(index / 1000)}.${String(index % 1000).padStart(3, '0')}`
}
