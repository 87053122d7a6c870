import { withTerm, withTermStep, type TokenFilter } from '../analyzer.ts'
import { GREEK_NAME_BY_CODE, MICRO_SIGN, MICRO_UNITS, SMALL_MU } from '../greek-letters.ts'

const isGreekCode = (c: number): boolean => c === MICRO_SIGN || (c >= 0x0370 && c <= 0x03ff)
/** Fast path: a regex test beats a charCodeAt loop on short strings. */
const HAS_GREEK = /[\u00b5\u0370-\u03ff]/
const isAsciiLetter = (c: number): boolean => (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a

/** Whether the `μ` at `i` is the micro prefix of a unit (`μg`, `5μl`), i.e. should read `u`. */
function isMicroPrefix(text: string, i: number): boolean {
  if (i > 0) {
    const prev = text.charCodeAt(i - 1)
    if (isAsciiLetter(prev) || isGreekCode(prev)) {
      return false
    }
  }
  let k = i + 1
  while (k < text.length && isAsciiLetter(text.charCodeAt(k))) {
    k++
  }
  if (k === i + 1 || (k < text.length && isGreekCode(text.charCodeAt(k)))) {
    return false
  }
  return MICRO_UNITS.has(text.slice(i + 1, k).toLowerCase())
}

/**
 * Replaces every Greek letter in `text` by its English name (`α` → `alpha`, `il1β` → `il1beta`,
 * `Ω` → `omega`, final `ς` → `sigma`), so that `TNF-α` and `TNF-alpha` give the same terms.
 * Spelled-out names are left alone. The micro sign `µ` and `μ` before a unit read `u`
 * (`μg` → `ug`, `5μm` → `5um`, like the ASCII spellings); elsewhere `μ` is `mu`. Pure function.
 * @param text - a term (or any text)
 */
export function spellGreekLetters(text: string): string {
  if (!HAS_GREEK.test(text)) {
    return text
  }
  let i = 0
  while (i < text.length && !isGreekCode(text.charCodeAt(i))) {
    i++
  }
  let out = text.slice(0, i)
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i)
    const name = isGreekCode(c) ? GREEK_NAME_BY_CODE.get(c) : undefined
    if (name === undefined) {
      out += text[i]!
    } else if ((c === SMALL_MU || c === MICRO_SIGN) && isMicroPrefix(text, i)) {
      out += 'u'
    } else {
      out += name
    }
  }
  return out
}

/**
 * Token filter form of {@link spellGreekLetters}.
 * @param token - the token
 */
export const greekFilter: TokenFilter = withTermStep((token) => {
  const term = spellGreekLetters(token.term)
  return term === token.term ? token : withTerm(token, term)
}, spellGreekLetters)
