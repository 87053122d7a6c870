/**
 * A seeded pseudo-random generator (mulberry32: 32-bit state, period 2^32), so that
 * randomised tests and fold shuffles are reproducible from their seed.
 * @param seed - any integer; the same seed gives the same sequence
 * @returns a function giving uniform 32-bit unsigned integers
 */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let z = state
    z = Math.imul(z ^ (z >>> 15), z | 1)
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61)
    return (z ^ (z >>> 14)) >>> 0
  }
}

/**
 * Shuffles a copy of `items` with Fisher–Yates driven by {@link createRandom}.
 * @param items - the items
 * @param seed - the seed
 */
export function shuffle<T>(items: readonly T[], seed: number): T[] {
  const out = items.slice()
  const next = createRandom(seed)
  for (let i = out.length - 1; i > 0; i--) {
    const j = next() % (i + 1)
    const tmp = out[i] as T
    out[i] = out[j] as T
    out[j] = tmp
  }
  return out
}
