const NON_ASCII = /[\u0080-\uffff]/
/** ©, ® and ™: NFKC would glue "TM" to the preceding word, so they become spaces first. */
const SYMBOLS = /[\u00a9\u00ae\u2122]/g
/** Combining diacritical marks (U+0300–U+036F) only; other scripts' marks are kept. */
const DIACRITICS = /[\u0300-\u036f]/g
/** Letters that carry no decomposition but fold to Latin letters. */
const FOLDS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  ı: 'i',
  þ: 'th',
  ħ: 'h',
}
const FOLDABLE = /[ßæœøđðłıþħ]/g
const HAS_FOLDABLE = /[ßæœøđðłıþħ]/
const fold = (ch: string): string => FOLDS[ch] ?? ch

/**
 * Character-level normalisation applied to a whole text before tokenization: Unicode
 * compatibility normalisation (NFKC: full-width forms, ligatures, super/subscripts, `µ` → `μ`),
 * lower-casing, removal of Latin/Greek diacritics (`é` → `e`, `ά` → `α`), and folding of the
 * letters that have no decomposition (`ß` → `ss`, `æ` → `ae`, `ø` → `o`, …). ASCII text is only
 * lower-cased (fast path). Pure function.
 * @param text - any text
 * @returns the normalised text (its length may differ from the input's)
 */
export function normalizeText(text: string): string {
  if (!NON_ASCII.test(text)) {
    return text.toLowerCase()
  }
  // NFKD, then lower-case (NFKD can produce capitals: ℃ → °C), then strip marks, then compose.
  let s = text
    .replace(SYMBOLS, ' ')
    .normalize('NFKD')
    .toLowerCase()
    .replace(DIACRITICS, '')
    .normalize('NFC')
  if (HAS_FOLDABLE.test(s)) {
    s = s.replace(FOLDABLE, fold)
  }
  return s
}
