export { indexCandidates, textCandidates } from './candidates.ts'
export type { CandidateDocument, CandidateSet, CandidateText, TextCandidatesOptions } from './candidates.ts'
export {
  bm25Scores,
  bordaFuse,
  explainBm25,
  explainTfidf,
  maxNormalisedSum,
  rankOrder,
  rerankScores,
  tfidfScores,
} from './rerank.ts'
export type { Bm25Params, FeedbackExplanation, IdfMode, QueryVector, RerankerName, WeightedScores } from './rerank.ts'
export {
  documentVector,
  ERF_DEFAULTS,
  explicitFeedback,
  FEEDBACK_GRADES,
  initialQueryVector,
  PRF_DEFAULTS,
  pseudoFeedback,
  remoteExpansionWords,
  rocchio,
} from './rocchio.ts'
export type {
  DocumentVectorOptions,
  ExplicitFeedbackOptions,
  FeedbackClass,
  FeedbackGrade,
  PseudoFeedbackOptions,
  RemoteExpansionOptions,
  RocchioOptions,
} from './rocchio.ts'
export { startSession } from './session.ts'
export type { FeedbackRound, FeedbackSession, FeedbackSettings, ProposedDocument, Ranking, StartSessionOptions } from './session.ts'
export { createSessionStore } from './session-store.ts'
export type { SessionEvent, SessionRound, SessionSource, SessionStart, SessionStore, StoredSession } from './session-store.ts'
export { metasearch, remoteQuery } from './metasearch.ts'
export type { MetasearchOptions, MetasearchResult } from './metasearch.ts'
export { createSessionManager } from './sessions.ts'
export type { SessionManager, SessionManagerOptions, StartedSession } from './sessions.ts'
