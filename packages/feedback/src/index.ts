// candidate sets: an index's first-stage candidates, or texts
export { indexCandidates, textCandidates } from './candidates.ts'
export type { CandidateDocument, CandidateSet, CandidateText, TextCandidatesOptions } from './candidates.ts'
// sessions: rounds of graded documents, Rocchio, re-ranking
export { startSession } from './session.ts'
export type { FeedbackRound, FeedbackSession, FeedbackSettings, ProposedDocument, Ranking, StartSessionOptions } from './session.ts'
export { ERF_DEFAULTS, explicitFeedback, FEEDBACK_GRADES, initialQueryVector } from './rocchio.ts'
export type { ExplicitFeedbackOptions } from './rocchio.ts'
export { rerankScores } from './rerank.ts'
export type { FeedbackGrade } from './rocchio.ts'
export type { FeedbackExplanation, IdfMode, QueryVector, RerankerName } from './rerank.ts'
// sessions that survive a restart: the session log and the manager over it
export { createSessionStore } from './session-store.ts'
export type { SessionEvent, SessionRound, SessionSource, SessionStart, SessionStore, StoredSession } from './session-store.ts'
export { createSessionManager } from './sessions.ts'
export type { SessionManager, SessionManagerOptions, StartedSession } from './sessions.ts'
// metasearch: a session over articles fetched from Entrez
export { metasearch } from './metasearch.ts'
export type { MetasearchOptions, MetasearchResult } from './metasearch.ts'
