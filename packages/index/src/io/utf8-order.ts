/**
 * Compares two strings in Unicode code point order, which is the order of their UTF-8 bytes
 * (the order of every term dictionary). JavaScript's `<` compares UTF-16 code units, which
 * differs for supplementary characters (surrogates, 0xD800–0xDFFF) against BMP characters
 * from 0xE000 up; this shifts the two ranges so that they compare as code points do.
 * @param a - a string
 * @param b - another string
 * @returns negative, 0 or positive
 */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i)
    let y = b.charCodeAt(i)
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) {
        x = x >= 0xe000 ? x - 0x800 : x + 0x2000
        y = y >= 0xe000 ? y - 0x800 : y + 0x2000
      }
      return x - y
    }
  }
  return a.length - b.length
}
