/**
 * Where feedback sessions are kept: an append-only JSON-lines log (`session-000001.jsonl`, …;
 * the log of `@pubmatch/core/node`: one write and an fsync per event, a torn last line detected
 * and skipped, never appended after). A session is its `start` event and its `round` events;
 * replaying them rebuilds it exactly (`startSession` + `grade`), after a restart or a crash.
 */
import { PubmatchError, truncateForMessage } from '@pubmatch/core'
import { createJsonlLog, type LogProblem } from '@pubmatch/core/node'
import { FEEDBACK_GRADES, type FeedbackGrade } from './rocchio.ts'
import type { FeedbackSettings } from './session.ts'

/** Where a session's candidates came from. */
export type SessionSource =
  /** A local index's first-stage candidates. */
  | { readonly kind: 'index'; readonly index: string; readonly generation: number }
  /** Entrez (metasearch): the remote query and database. */
  | { readonly kind: 'entrez'; readonly query: string; readonly db: string }

/** A session began. */
export interface SessionStart {
  readonly type: 'start'
  readonly session: string
  readonly time: string
  readonly query: string
  readonly source: SessionSource
  readonly settings: FeedbackSettings
  /** Candidate ids in first-stage order. */
  readonly candidates: readonly string[]
}

/** A round was graded. */
export interface SessionRound {
  readonly type: 'round'
  readonly session: string
  readonly time: string
  /** 1-based round number. */
  readonly round: number
  readonly shown: readonly string[]
  readonly grades: Readonly<Record<string, FeedbackGrade>>
}

/** One line of the session log. */
export type SessionEvent = SessionStart | SessionRound

/** A session as the log holds it. */
export interface StoredSession {
  readonly start: SessionStart
  readonly rounds: readonly SessionRound[]
}

/** The session log. */
export interface SessionStore {
  readonly dir: string
  /**
   * Appends one event durably (fsync before it resolves).
   * @throws PubmatchError `INVALID_ARGUMENT` (nothing written) or `IO`
   */
  append(event: SessionEvent): Promise<void>
  /** Every session with its rounds in order, and the lines that could not be used. */
  load(): Promise<{ sessions: Map<string, StoredSession>; problems: LogProblem[] }>
  close(): Promise<void>
}

const VERSION = 1
const SESSION_ID = /^[A-Za-z0-9_-]{8,64}$/

function fail(where: { file: string; line: number }, message: string): never {
  throw new PubmatchError('MALFORMED_JSON', `session log ${where.file}:${where.line}: ${message}`, {
    details: { file: where.file, position: where.line },
  })
}

function parseEvent(line: string, where: { file: string; line: number }): SessionEvent {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    fail(where, `not JSON: "${truncateForMessage(line)}"`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(where, 'not a JSON object')
  }
  const obj = value as Record<string, unknown>
  if (obj['v'] !== VERSION) {
    fail(where, `unknown version ${JSON.stringify(obj['v'])}`)
  }
  const text = (key: string): string => {
    const v = obj[key]
    if (typeof v !== 'string' || v === '') {
      fail(where, `field "${key}" must be a non-empty string`)
    }
    return v
  }
  const ids = (key: string): string[] => {
    const v = obj[key]
    if (!Array.isArray(v) || v.some((id) => typeof id !== 'string' || id === '')) {
      fail(where, `field "${key}" must be a list of ids`)
    }
    return v as string[]
  }
  const session = text('session')
  if (!SESSION_ID.test(session)) {
    fail(where, `bad session id "${truncateForMessage(session)}"`)
  }
  const time = text('time')
  if (Number.isNaN(Date.parse(time))) {
    fail(where, `field "time" is not a date-time: "${truncateForMessage(time)}"`)
  }
  if (obj['type'] === 'start') {
    const source = obj['source'] as Record<string, unknown> | undefined
    if (
      typeof source !== 'object' ||
      source === null ||
      !(
        (source['kind'] === 'index' && typeof source['index'] === 'string' && Number.isInteger(source['generation'])) ||
        (source['kind'] === 'entrez' && typeof source['query'] === 'string' && typeof source['db'] === 'string')
      )
    ) {
      fail(where, 'field "source" must be {kind: "index", index, generation} or {kind: "entrez", query, db}')
    }
    const settings = obj['settings']
    if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) {
      fail(where, 'field "settings" must be an object')
    }
    return {
      type: 'start',
      session,
      time,
      query: text('query'),
      source: source as unknown as SessionSource,
      settings: settings,
      candidates: ids('candidates'),
    }
  }
  if (obj['type'] === 'round') {
    const round = obj['round']
    if (!Number.isInteger(round) || (round as number) < 1) {
      fail(where, 'field "round" must be an integer ≥ 1')
    }
    const grades = obj['grades']
    if (typeof grades !== 'object' || grades === null || Array.isArray(grades)) {
      fail(where, 'field "grades" must be an object of id → grade')
    }
    for (const [id, grade] of Object.entries(grades as Record<string, unknown>)) {
      if (!FEEDBACK_GRADES.includes(grade as FeedbackGrade)) {
        fail(where, `grade of ${truncateForMessage(id)} must be one of ${FEEDBACK_GRADES.join(', ')}, got ${JSON.stringify(grade)}`)
      }
    }
    return { type: 'round', session, time, round: round as number, shown: ids('shown'), grades: grades as Record<string, FeedbackGrade> }
  }
  fail(where, `unknown type ${JSON.stringify(obj['type'])}`)
}

/**
 * Opens the session log in `dir` (created on the first append).
 * @param dir - the directory
 */
export function createSessionStore(dir: string): SessionStore {
  const log = createJsonlLog<SessionEvent>(dir, {
    prefix: 'session',
    name: 'session log',
    format: (event) => JSON.stringify({ v: VERSION, ...event }),
    parse: parseEvent,
  })
  return {
    dir,
    append: (event) => log.append([event]),
    async load() {
      const { records, problems } = await log.readAll()
      const sessions = new Map<string, StoredSession>()
      for (const event of records) {
        if (event.type === 'start') {
          sessions.set(event.session, { start: event, rounds: [] })
          continue
        }
        const stored = sessions.get(event.session)
        if (stored === undefined || event.round !== stored.rounds.length + 1) {
          problems.push({
            file: dir,
            line: 0,
            error: new PubmatchError(
              'MALFORMED_JSON',
              `session log: round ${event.round} of session ${event.session} does not follow ${stored === undefined ? 'a start' : `round ${stored.rounds.length}`}; skipped`,
            ),
          })
          continue
        }
        sessions.set(event.session, { start: stored.start, rounds: [...stored.rounds, event] })
      }
      return { sessions, problems }
    },
    close: () => log.close(),
  }
}
