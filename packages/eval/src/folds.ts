import { PubmatchError, compareCodePoints } from '@pubmatch/core'
import { shuffle } from './stats/prng.ts'

/** One fold of a cross-validation split. */
export interface Fold {
  /** 0-based fold number. */
  readonly index: number
  /** Query ids to train (tune) on: every other fold. */
  readonly train: readonly string[]
  /** Query ids to test on. */
  readonly test: readonly string[]
}

/** Options of {@link kFold}. */
export interface KFoldOptions {
  /**
   * Shuffle the (sorted) ids with this seed before dealing them out; without a seed,
   * ids are dealt round-robin in `strcmp` order. Defaults to no shuffle.
   */
  seed?: number
}

function buildFolds(
  ids: readonly string[],
  k: number,
  foldOf: (id: string, position: number) => number,
): Fold[] {
  if (!Number.isInteger(k) || k < 2) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `k-fold needs an integer k ≥ 2, got ${k}`,
    )
  }
  const unique = [...new Set(ids)].sort(compareCodePoints)
  const tests: string[][] = Array.from({ length: k }, () => [])
  unique.forEach((id, position) => tests[foldOf(id, position)]?.push(id))
  return tests.map((test, index) => ({
    index,
    test,
    train: tests
      .filter((_, j) => j !== index)
      .flat()
      .sort(compareCodePoints),
  }))
}

/**
 * Splits query ids into `k` folds of (near) equal size: fold i tests ids i, i + k, i + 2k,
 * … of the sorted (or seeded-shuffled) list and trains on the rest. Duplicate ids count once.
 * @param ids - query ids
 * @param k - number of folds (≥ 2)
 * @param options - see {@link KFoldOptions}
 * @throws PubmatchError `INVALID_ARGUMENT` for k < 2
 */
export function kFold(ids: readonly string[], k: number, options: KFoldOptions = {}): Fold[] {
  const order =
    options.seed === undefined
      ? null
      : shuffle([...new Set(ids)].sort(compareCodePoints), options.seed)
  const position = new Map(order?.map((id, i) => [id, i]))
  return buildFolds(ids, k, (id, sortedPosition) => (position.get(id) ?? sortedPosition) % k)
}

/**
 * The fold of a topic id in a "topic number mod k" split: the number is the id itself when
 * it is all digits, otherwise the digits it contains read as one number (`PLAIN-1007` →
 * 1007, `CD007431` → 7431). Arbitrarily long digit strings work.
 * @param id - query id
 * @param k - number of folds. Defaults to `5`.
 * @throws PubmatchError `INVALID_ARGUMENT` for an id without digits
 */
export function topicFold(id: string, k = 5): number {
  const digits = id.replace(/\D/g, '')
  if (digits === '') {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `topic id ${JSON.stringify(id)} contains no digits, so it has no "mod ${k}" fold`,
      { details: { record: id } },
    )
  }
  let r = 0
  for (const ch of digits) {
    r = (r * 10 + Number(ch)) % k
  }
  return r
}

/**
 * The thesis' topic split: fold = topic number mod 5 (see {@link topicFold}), so the
 * split is stable when topics are added. Fold i tests topics with number ≡ i (mod 5).
 * @param ids - query ids
 * @throws PubmatchError `INVALID_ARGUMENT` for an id without digits
 */
export function mod5Folds(ids: readonly string[]): Fold[] {
  return buildFolds(ids, 5, (id) => topicFold(id, 5))
}
