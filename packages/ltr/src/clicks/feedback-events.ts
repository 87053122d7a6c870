/**
 * Graded relevance feedback as search-log events: the graded round is a search that was shown,
 * and each graded document the actions a user who found it relevant would have taken. The round
 * carries the filter `feedback`, so `labelQueries` keeps it apart from searches people typed (it
 * drops it as it drops any filtered search); the grades are in the log for whoever wants them.
 */
import type { ActionEvent, LogEvent, SearchEvent } from './log-format.ts'

/** A grade of relevance feedback (the feedback package's grades, by name). */
export type FeedbackRoundGrade = 'non-relevant' | 'relevant' | 'highly-relevant'

/** One graded round of a relevance feedback session. */
export interface GradedFeedbackRound {
  /** The feedback session's id. */
  readonly feedbackSession: string
  /** The round's number: rounds graded so far, this one included (1 for the first). */
  readonly round: number
  /** The session's query. */
  readonly query: string
  /** How many documents the session re-ranks (the search's `total`). */
  readonly candidates: number
  /** The documents shown in this round, in the order shown (positions 1, 2, …). */
  readonly shown: readonly string[]
  /** Document id → grade; documents not shown are ignored. */
  readonly grades: Readonly<Record<string, FeedbackRoundGrade>>
  /** The client's session id in the log. Defaults to `feedback-<feedbackSession>` (at most 64 characters). */
  readonly session?: string
  /** When it was graded (ISO 8601), the time of every event. */
  readonly time: string
}

/**
 * The search-log events of a graded feedback round: the round as a shown `search` (id
 * `feedback-<feedbackSession>-<round>`, filter `feedback`), then for each shown document in order
 * an `abstract_click` when it is `relevant` or `highly-relevant`, and a `fulltext_request` too
 * when it is `highly-relevant`. A `non-relevant` or ungraded document is shown and not acted on.
 * @param round - see {@link GradedFeedbackRound}
 */
export function feedbackRoundEvents(round: GradedFeedbackRound): LogEvent[] {
  const searchId = `feedback-${round.feedbackSession}-${round.round}`
  const session = round.session ?? `feedback-${round.feedbackSession}`.slice(0, 64)
  const { time } = round
  const search: SearchEvent = {
    type: 'search',
    id: searchId,
    time,
    session,
    query: round.query,
    filters: ['feedback'],
    total: round.candidates,
    results: round.shown.map((id, i) => ({ position: i + 1, id })),
  }
  const actions: ActionEvent[] = []
  round.shown.forEach((id, i) => {
    const grade = Object.hasOwn(round.grades, id) ? round.grades[id] : undefined
    const action = { type: 'action', time, session, search: searchId, id, position: i + 1 } as const
    if (grade === 'relevant' || grade === 'highly-relevant') {
      actions.push({ ...action, kind: 'abstract_click' })
    }
    if (grade === 'highly-relevant') {
      actions.push({ ...action, kind: 'fulltext_request' })
    }
  })
  return [search, ...actions]
}
