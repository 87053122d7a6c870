/**
 * A failure the replay server injects instead of (or into) a normal answer.
 *
 * - `status`: answers with an HTTP error status (429, 500, 502, 503…), optionally with a
 *   `Retry-After` header (seconds or an HTTP date) and a body.
 * - `slow`: holds the answer back for `delayMs` (longer than the client's timeout), then
 *   sends it if the client is still connected.
 * - `truncate`: announces the full `Content-Length`, sends only the first `keepFraction` of
 *   the body, then destroys the socket.
 * - `malformed`: sends a complete HTTP answer whose body is the normal body cut to
 *   `keepFraction` (so the XML/JSON is unfinished) with a matching `Content-Length`.
 * - `esearch-error`: HTTP 200 with an ESearch error body `<eSearchResult><ERROR>…</ERROR>`.
 * - `reset`: destroys the connection without answering.
 */
export type ReplayFault =
  | {
      readonly kind: 'status'
      readonly status: number
      readonly retryAfter?: string
      readonly body?: string
    }
  | { readonly kind: 'slow'; readonly delayMs: number }
  | { readonly kind: 'truncate'; readonly keepFraction?: number }
  | { readonly kind: 'malformed'; readonly keepFraction?: number }
  | { readonly kind: 'esearch-error'; readonly message?: string }
  | { readonly kind: 'reset' }

/** One step of a scripted fault plan. */
export interface PlannedFault {
  /** The E-utility it applies to (`efetch`, `esearch`…); any when absent. */
  readonly utility?: string
  /** Let this many matching requests through untouched before injecting. Defaults to `0`. */
  readonly skip?: number
  /** What to inject. */
  readonly fault: ReplayFault
}

/**
 * A scripted plan of faults, consumed in order: each request takes the first pending step
 * whose `utility` matches; that step either lets it through (while its `skip` lasts) or
 * injects its fault and is removed.
 */
export interface FaultPlan {
  /** Steps not yet used. */
  readonly pending: number
  /** Appends steps to the plan. */
  add(...steps: PlannedFault[]): void
  /** The fault for the next request to `utility`, if the plan has one for it now. */
  next(utility: string): ReplayFault | undefined
}

/**
 * Creates a fault plan.
 * @param steps - the initial steps
 */
export function createFaultPlan(steps: readonly PlannedFault[] = []): FaultPlan {
  const queue = steps.map((s) => ({ utility: s.utility, skip: s.skip ?? 0, fault: s.fault }))
  return {
    get pending() {
      return queue.length
    },
    add(...more) {
      queue.push(...more.map((s) => ({ utility: s.utility, skip: s.skip ?? 0, fault: s.fault })))
    },
    next(utility) {
      const index = queue.findIndex((s) => s.utility === undefined || s.utility === utility)
      const step = queue[index]
      if (step === undefined) {
        return undefined
      }
      if (step.skip > 0) {
        step.skip -= 1
        return undefined
      }
      queue.splice(index, 1)
      return step.fault
    },
  }
}
