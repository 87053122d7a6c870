/**
 * Time limits of a search.
 */
import { PubmatchError } from '@pubmatch/core'

/** A time limit on a search: `performance.now()` milliseconds after which it stops. */
export interface Deadline {
  readonly at: number
}

/**
 * Throws `TIMEOUT` when a deadline has passed.
 * @param deadline - the deadline, if any
 */
export function checkDeadline(deadline: Deadline | undefined): void {
  if (deadline !== undefined && performance.now() > deadline.at) {
    throw new PubmatchError('TIMEOUT', `the search ran past its deadline`, {
      details: { deadline: deadline.at },
    })
  }
}
