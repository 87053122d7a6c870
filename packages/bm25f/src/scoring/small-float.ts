/**
 * Lucene's one-byte encodings of field norms (`org.apache.lucene.util.SmallFloat`), so that
 * TF-IDF can reproduce Lucene's quantised length normalisation. Bytes are unsigned (0–255); Java's
 * signed byte −1 is 255 here.
 */

const floatView = new Float32Array(1)
const bitsView = new Int32Array(floatView.buffer)

/** The raw IEEE-754 bits of `value` rounded to float32, as a signed 32-bit integer. */
function floatBits(value: number): number {
  floatView[0] = value
  return bitsView[0]!
}

/** The float32 whose raw bits are `bits`. */
function bitsToFloat(bits: number): number {
  bitsView[0] = bits
  return floatView[0]!
}

/**
 * Lucene ≤ 6's norm encoding (`floatToByte315`: "3 mantissa bits", zero exponent 15): keeps 3
 * significant bits, truncating (never rounding up), so the codes 120–127 are 0.5, 0.625, 0.75,
 * 0.875, 1, 1.25, 1.5, 1.75. `1` → 124, `0.5` → 120; 0 and negatives → 0; underflow → 1;
 * overflow → 255.
 * @param value - the value to encode (first rounded to float32, as Lucene's `float`)
 */
export function floatToByte315(value: number): number {
  const bits = floatBits(value)
  const small = bits >> 21
  const zero = (63 - 15) << 3
  if (small <= zero) {
    return bits <= 0 ? 0 : 1
  }
  if (small >= zero + 0x100) {
    return 255
  }
  return small - zero
}

/**
 * Decodes {@link floatToByte315}: byte 124 → 1, 120 → 0.5, 0 → 0.
 * @param byte - an unsigned byte, 0–255
 */
export function byte315ToFloat(byte: number): number {
  if ((byte & 0xff) === 0) {
    return 0
  }
  return bitsToFloat(((byte & 0xff) << 21) + ((63 - 15) << 24))
}

/** Encodes a non-negative integer keeping 4 significant bits (Lucene's `longToInt4`). */
function longToInt4(value: number): number {
  const numBits = 32 - Math.clz32(value)
  if (numBits < 4) {
    return value
  }
  const shift = numBits - 4
  return ((Math.floor(value / 2 ** shift) & 0x07) | ((shift + 1) << 3)) >>> 0
}

/** Decodes {@link longToInt4}. */
function int4ToLong(encoded: number): number {
  const bits = encoded & 0x07
  const shift = (encoded >>> 3) - 1
  return shift === -1 ? bits : (bits | 0x08) * 2 ** shift
}

/** 255 − longToInt4(2^31 − 1) = 24: lengths below this are stored exactly. */
const NUM_FREE_VALUES = 255 - longToInt4(2 ** 31 - 1)

/**
 * Lucene ≥ 7's length encoding (`SmallFloat.intToByte4`): exact below 24, then 4 significant bits
 * of `length − 24`, truncated, so the decoded length is at most the true length and above 8/9 of it.
 * @param length - a non-negative integer below 2^31
 */
export function intToByte4(length: number): number {
  if (length < NUM_FREE_VALUES) {
    return length
  }
  return NUM_FREE_VALUES + longToInt4(length - NUM_FREE_VALUES)
}

/**
 * Decodes {@link intToByte4}.
 * @param byte - an unsigned byte, 0–255
 */
export function byte4ToInt(byte: number): number {
  const unsigned = byte & 0xff
  if (unsigned < NUM_FREE_VALUES) {
    return unsigned
  }
  return NUM_FREE_VALUES + int4ToLong(unsigned - NUM_FREE_VALUES)
}
