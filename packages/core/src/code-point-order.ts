/**
 * Compares two strings by Unicode code point. This is the byte order of their UTF-8
 * encodings, and so the order of C's `strcmp` on UTF-8 text (trec_eval), Perl's `cmp`
 * (sample_eval.pl) and pubmatch's term dictionaries.
 *
 * JavaScript's `<` and the default `Array.prototype.sort` compare UTF-16 code units
 * instead. The two orders differ when a supplementary character (U+10000 and above, stored
 * as a surrogate pair of units 0xD800–0xDFFF) meets a BMP character from U+E000 to U+FFFF:
 * `'\u{1F600}' < '\uFFFD'` is `true`, but U+1F600 comes after U+FFFD in code point order.
 * Where the units differ and both are at least 0xD800, this function shifts the surrogates
 * above U+E000–U+FFFF, and then compares the units. It does not allocate, and it does not
 * decode code points.
 *
 * Ill-formed strings still get a total order. Lone surrogates compare with each other by unit
 * value, and sort after every BMP character.
 *
 * Use it as a sort comparator: `ids.sort(compareCodePoints)`.
 * @param a - first string
 * @param b - second string
 * @returns a negative number if `a` sorts first, `0` if the strings are equal, and a positive
 *   number if `b` sorts first (only the sign is meaningful, as with `strcmp`)
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i)
    let y = b.charCodeAt(i)
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) {
        // surrogates 0xD800–0xDFFF → 0xF800–0xFFFF; 0xE000–0xFFFF → 0xD800–0xF7FF
        x = x >= 0xe000 ? x - 0x800 : x + 0x2000
        y = y >= 0xe000 ? y - 0x800 : y + 0x2000
      }
      return x - y
    }
  }
  return a.length - b.length
}
