/**
 * Positional matching in one field: phrases (`"heart attack"`, tagged runs) and proximity
 * (`"hip pain"[tiab:~2]`). A slot is one word of the query with its alternatives (one term, or
 * the expansions of a truncated word); a document matches when the slots occur at the required
 * positions.
 */
import { NO_MORE_DOCS, type PostingsCursor } from '@pubmatch/index/internal'
import type { DocIterator } from './doc-iterators.ts'

/** One word of a positional query. */
export interface PositionSlot {
  /** Cursors of the word's alternatives in the field (at least one). */
  readonly cursors: readonly PostingsCursor[]
  /** Its position relative to the phrase's first word (phrases only; gaps of stop words kept). */
  readonly offset: number
}

/** What the slots must satisfy. */
export type PositionalMode =
  | { readonly kind: 'phrase' }
  | {
      readonly kind: 'near'
      /** The most other words allowed between one query word and the next, in any order. */
      readonly distance: number
    }

/** The most words a proximity search may have (its check is exponential in them). */
export const MAX_PROXIMITY_WORDS = 12

const EMPTY_POSITIONS = new Int32Array(0)

class Slot {
  readonly cursors: readonly PostingsCursor[]
  readonly offset: number
  readonly cost: number
  doc = -1

  constructor(slot: PositionSlot) {
    this.cursors = slot.cursors
    this.offset = slot.offset
    this.cost = slot.cursors.reduce((sum, cursor) => sum + cursor.docFreq, 0)
  }

  advance(target: number): number {
    if (this.doc >= target) {
      return this.doc
    }
    let min = NO_MORE_DOCS
    for (const cursor of this.cursors) {
      const d = cursor.docID() < target ? cursor.advance(target) : cursor.docID()
      if (d < min) {
        min = d
      }
    }
    return (this.doc = min)
  }

  /** The positions of the slot's alternatives in the current document, ascending, distinct. */
  positions(): Int32Array {
    let only: PostingsCursor | undefined
    let count = 0
    for (const cursor of this.cursors) {
      if (cursor.docID() === this.doc) {
        only = cursor
        count++
      }
    }
    if (count <= 1) {
      return only === undefined ? EMPTY_POSITIONS : only.positions()
    }
    const merged: number[] = []
    for (const cursor of this.cursors) {
      if (cursor.docID() === this.doc) {
        merged.push(...cursor.positions())
      }
    }
    merged.sort((a, b) => a - b)
    return Int32Array.from(merged.filter((p, i) => i === 0 || p !== merged[i - 1]))
  }
}

function contains(sorted: Int32Array, value: number): boolean {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    const v = sorted[mid]!
    if (v === value) {
      return true
    }
    if (v < value) {
      lo = mid + 1
    } else {
      hi = mid
    }
  }
  return false
}

/**
 * Whether some position of each slot can be chosen so that, sorted, each chosen position is at
 * most `distance + 1` after the previous one (at most `distance` other words between neighbours).
 * Dynamic programming over the merged positions: `latest[mask]` is the latest end of a chain
 * using the slots in `mask`.
 * @param positions - per slot, its positions ascending
 * @param distance - words allowed between neighbours
 */
export function nearMatch(positions: readonly Int32Array[], distance: number): boolean {
  const k = positions.length
  if (k === 0) {
    return false
  }
  if (k === 1) {
    return positions[0]!.length > 0
  }
  const entries: number[] = []
  positions.forEach((list, slot) => {
    for (const p of list) {
      entries.push(p * 64 + slot)
    }
  })
  entries.sort((a, b) => a - b)
  const full = (1 << k) - 1
  const latest = new Float64Array(1 << k).fill(Number.NEGATIVE_INFINITY)
  for (const entry of entries) {
    const slot = entry & 63
    const p = (entry - slot) / 64
    const bit = 1 << slot
    // Extend every chain that ends close enough and lacks this slot (or start a new one).
    for (let mask = full; mask > 0; mask--) {
      if ((mask & bit) === 0 && latest[mask]! >= p - distance - 1) {
        latest[mask | bit] = p
      }
    }
    latest[bit] = p
    if (latest[full]! >= 0) {
      return true
    }
  }
  return false
}

/** Documents where the slots occur as a phrase, or near each other. */
export class PositionalIterator implements DocIterator {
  readonly cost: number
  private readonly slots: readonly Slot[]
  private readonly mode: PositionalMode
  private doc = -1

  /**
   * @param slots - the words, at least one
   * @param mode - phrase or proximity
   */
  constructor(slots: readonly PositionSlot[], mode: PositionalMode) {
    this.slots = slots.map((slot) => new Slot(slot)).sort((a, b) => a.cost - b.cost)
    this.mode = mode
    this.cost = this.slots[0]?.cost ?? 0
  }

  docID(): number {
    return this.doc
  }

  advance(target: number): number {
    if (this.doc >= target) {
      return this.doc
    }
    const slots = this.slots
    const lead = slots[0]!
    let d = lead.advance(target)
    while (d !== NO_MORE_DOCS) {
      let i = 1
      while (i < slots.length) {
        const s = slots[i]!.advance(d)
        if (s === d) {
          i++
        } else {
          d = lead.advance(s)
          i = 1
          if (d === NO_MORE_DOCS) {
            break
          }
        }
      }
      if (d === NO_MORE_DOCS || this.positionsMatch()) {
        break
      }
      d = lead.advance(d + 1)
    }
    return (this.doc = d)
  }

  private positionsMatch(): boolean {
    const slots = this.slots
    if (this.mode.kind === 'near') {
      return nearMatch(
        slots.map((slot) => slot.positions()),
        this.mode.distance,
      )
    }
    // Anchor on the slot with the fewest positions; check the others by binary search.
    const lists = slots.map((slot) => slot.positions())
    let anchor = 0
    for (let i = 1; i < lists.length; i++) {
      if (lists[i]!.length < lists[anchor]!.length) {
        anchor = i
      }
    }
    const base = slots[anchor]!.offset
    for (const p of lists[anchor]!) {
      let ok = true
      for (let i = 0; i < slots.length && ok; i++) {
        if (i !== anchor) {
          ok = contains(lists[i]!, p - base + slots[i]!.offset)
        }
      }
      if (ok) {
        return true
      }
    }
    return false
  }
}
