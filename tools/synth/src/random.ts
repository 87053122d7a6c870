/**
 * Seeded pseudo-random numbers. The generator is xoshiro128** (Blackman & Vigna,
 * https://prng.di.unimi.it/xoshiro128starstar.c): 128 bits of state, 32-bit outputs, only
 * 32-bit integer operations, so it is fast in JavaScript and gives the same stream on every
 * platform. Seeds are expanded with the MurmurHash3 finaliser so that nearby seeds (1, 2, 3 …)
 * and nearby article indexes give unrelated streams.
 */

/** A stream of pseudo-random numbers. Every method advances the stream. */
export interface Rng {
  /** The next 32-bit output, as an unsigned integer in [0, 2^32). */
  next(): number
  /** A float in [0, 1) with 32 bits of randomness. */
  float(): number
  /**
   * An integer in [0, n).
   * @param n - the bound, a positive integer below 2^32
   */
  int(n: number): number
  /** A standard normal variate (Box–Muller; uses two outputs). */
  normal(): number
}

const TWO_32 = 4294967296

/**
 * The MurmurHash3 32-bit finaliser (`fmix32`): a bijection on 32-bit integers with full
 * avalanche, used to expand seeds and to hash indexes.
 * @param value - any number; only its low 32 bits are used
 * @returns an unsigned 32-bit integer
 */
export function mix32(value: number): number {
  let h = value | 0
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/**
 * A 32-bit FNV-1a hash of a string's UTF-16 code units, finalised with {@link mix32}; used for
 * deterministic tie-breaking and hash assignments.
 * @param text - the string
 * @returns an unsigned 32-bit integer
 */
export function hashString(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return mix32(h)
}

const INV_2_32 = 1 / TWO_32

/** xoshiro128** as a class: fields stay 32-bit integers and V8 inlines the calls. */
class Xoshiro128 implements Rng {
  private s0: number
  private s1: number
  private s2: number
  private s3: number
  private spare = Number.NaN

  constructor(s0: number, s1: number, s2: number, s3: number) {
    this.s0 = s0 | 0
    this.s1 = s1 | 0
    this.s2 = s2 | 0
    this.s3 = s3 | 0
  }

  /** The next output as a signed 32-bit integer (the bits of {@link Rng.next}). */
  private step(): number {
    const s1 = this.s1
    const x = Math.imul(s1, 5)
    const result = Math.imul((x << 7) | (x >>> 25), 9)
    const t = s1 << 9
    const s2 = this.s2 ^ this.s0
    const s3 = this.s3 ^ s1
    this.s1 = s1 ^ s2
    this.s0 = this.s0 ^ s3
    this.s2 = s2 ^ t
    this.s3 = (s3 << 11) | (s3 >>> 21)
    return result
  }

  next(): number {
    return this.step() >>> 0
  }

  float(): number {
    return (this.step() >>> 0) * INV_2_32
  }

  int(n: number): number {
    return Math.floor((this.step() >>> 0) * INV_2_32 * n)
  }

  normal(): number {
    if (this.spare === this.spare) {
      const value = this.spare
      this.spare = Number.NaN
      return value
    }
    // 1 - u is in (0, 1], so the logarithm is finite.
    const radius = Math.sqrt(-2 * Math.log(1 - this.float()))
    const angle = 2 * Math.PI * this.float()
    this.spare = radius * Math.sin(angle)
    return radius * Math.cos(angle)
  }
}

/**
 * A xoshiro128** generator started from an explicit state, as in the reference C code.
 * @param state - four 32-bit words; not all zero
 * @throws RangeError when the state is all zero (the generator would output only zeros)
 */
export function createXoshiro128(state: readonly [number, number, number, number]): Rng {
  if ((state[0] | state[1] | state[2] | state[3]) === 0) {
    throw new RangeError('@pubmatch/synth: xoshiro128** state must not be all zero')
  }
  return new Xoshiro128(state[0], state[1], state[2], state[3])
}

/**
 * A generator for `(seed, stream)`: the state words are `mix32` hashes of the two, so every
 * article index (the stream) of a corpus seed gets its own independent-looking sequence and
 * article `i` can be produced without producing articles `0 … i - 1`.
 * @param seed - any integer (its low 32 bits are used)
 * @param stream - a second integer, e.g. the article index. Defaults to `0`.
 */
export function createRng(seed: number, stream = 0): Rng {
  const a = mix32(seed ^ 0x9e3779b9)
  const b = mix32(stream + Math.imul(a, 0x85ebca6b) + 0x6a09e667)
  const s0 = mix32(a + 0x243f6a88)
  const s1 = mix32(b ^ 0x13198a2e)
  const s2 = mix32(a + b + 0x03707344)
  const s3 = mix32(b - a + 0x299f31d0)
  return createXoshiro128([s0, s1, s2, s3 === 0 && (s0 | s1 | s2) === 0 ? 1 : s3])
}
