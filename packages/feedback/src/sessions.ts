/**
 * Feedback sessions that survive a restart: every start and every graded round is appended to the
 * session log before it takes effect; a session not in memory is rebuilt from the log (its start,
 * then its rounds replayed), with its candidates reopened from their source.
 */
import { randomBytes } from 'node:crypto'
import type { Analyzer } from '@pubmatch/analysis'
import { PubmatchError } from '@pubmatch/core'
import type { CandidateSet } from './candidates.ts'
import type { FeedbackGrade } from './rocchio.ts'
import type { SessionSource, SessionStart, SessionStore } from './session-store.ts'
import { startSession, type FeedbackSession, type FeedbackSettings } from './session.ts'

/** Options of {@link createSessionManager}. */
export interface SessionManagerOptions {
  /** Where sessions are logged. */
  readonly store: SessionStore
  /** The analyzer query terms are analysed with. */
  readonly analyzer: Analyzer
  /**
   * Reopens the candidates of a logged session (its source, its ids in order), to rebuild it.
   * @param start - the session's start event
   */
  readonly reopen: (start: SessionStart) => Promise<CandidateSet>
  /** Sessions kept in memory (least recently used ones are dropped and rebuilt on demand). Defaults to `200`. */
  readonly maxLive?: number
}

/** A started session and its id. */
export interface StartedSession {
  readonly id: string
  readonly session: FeedbackSession
}

/** Feedback sessions by id. */
export interface SessionManager {
  /**
   * Starts and logs a session.
   * @param input - the query, where the candidates came from, the settings and the candidates
   */
  start(input: { readonly query: string; readonly source: SessionSource; readonly settings?: FeedbackSettings; readonly candidates: CandidateSet }): Promise<StartedSession>
  /**
   * A session, from memory or rebuilt from the log.
   * @throws PubmatchError `NOT_FOUND` for an unknown id
   */
  get(id: string): Promise<FeedbackSession>
  /**
   * Logs a round of grades, then applies it. Rounds of one session are applied one at a time.
   * @param id - the session
   * @param round - the ids shown and the grades given
   * @throws PubmatchError `NOT_FOUND`, `INVALID_ARGUMENT` (a grade of a document not shown)
   */
  grade(id: string, round: { readonly shown: readonly string[]; readonly grades: ReadonlyMap<string, FeedbackGrade> }): Promise<FeedbackSession>
  close(): Promise<void>
}

const SESSION_ID = /^[A-Za-z0-9_-]{8,64}$/

/**
 * Creates the session manager over a session log.
 * @param options - see {@link SessionManagerOptions}
 */
export function createSessionManager(options: SessionManagerOptions): SessionManager {
  const live = new Map<string, FeedbackSession>()
  const queues = new Map<string, Promise<unknown>>()
  const maxLive = options.maxLive ?? 200

  const remember = (id: string, session: FeedbackSession): void => {
    live.delete(id)
    live.set(id, session)
    while (live.size > maxLive) {
      live.delete(live.keys().next().value as string)
    }
  }
  const rebuild = async (id: string): Promise<FeedbackSession> => {
    const { sessions } = await options.store.load()
    const stored = sessions.get(id)
    if (stored === undefined) {
      throw new PubmatchError('NOT_FOUND', `no session ${id}`)
    }
    let session = startSession({ ...stored.start.settings, query: stored.start.query, candidates: await options.reopen(stored.start), analyzer: options.analyzer })
    for (const round of stored.rounds) {
      // candidates no longer in the source (a newer index generation) are dropped from the round
      const shown = round.shown.filter((doc) => session.candidates.indexOf(doc) >= 0)
      const grades = new Map(Object.entries(round.grades).filter(([doc]) => shown.includes(doc)))
      session = session.grade({ shown, grades })
    }
    return session
  }
  const serially = <T>(id: string, work: () => Promise<T>): Promise<T> => {
    const done = (queues.get(id) ?? Promise.resolve()).then(work, work)
    queues.set(
      id,
      done.catch(() => undefined),
    )
    return done
  }

  return {
    async start(input) {
      const id = randomBytes(12).toString('base64url')
      const session = startSession({ ...input.settings, query: input.query, candidates: input.candidates, analyzer: options.analyzer })
      await options.store.append({
        type: 'start',
        session: id,
        time: new Date().toISOString(),
        query: input.query,
        source: input.source,
        settings: { ...input.settings, ...session.settings },
        candidates: input.candidates.ids,
      })
      remember(id, session)
      return { id, session }
    },
    async get(id) {
      if (!SESSION_ID.test(id)) {
        throw new PubmatchError('NOT_FOUND', `no session ${id.slice(0, 80)}`)
      }
      const known = live.get(id)
      if (known !== undefined) {
        remember(id, known)
        return known
      }
      const session = await serially(id, () => rebuild(id))
      remember(id, session)
      return session
    },
    grade(id, round) {
      return serially(id, async () => {
        const current = live.get(id) ?? (await rebuild(id))
        const next = current.grade(round) // validates before anything is logged
        await options.store.append({
          type: 'round',
          session: id,
          time: new Date().toISOString(),
          round: current.rounds.length + 1,
          shown: [...round.shown],
          grades: Object.fromEntries(round.grades),
        })
        remember(id, next)
        return next
      })
    },
    async close() {
      await Promise.all(queues.values())
      await options.store.close()
    },
  }
}
