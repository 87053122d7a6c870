/**
 * The messages between the benchmark and its feature-extraction workers: a slice of a
 * first-stage result goes out as typed arrays (ids, document numbers, scores, ranks) plus the
 * result's small header; the feature rows come back as one transferred `Float64Array`.
 */
import type { Candidate, SearchResult } from '@pubmatch/bm25f'
import { PubmatchError } from '@pubmatch/core'

/** What a worker is created with (piscina `workerData`). */
export interface ExtractWorkerData {
  /** The index directory the first stage searched. */
  readonly indexDir: string
  /** The forward store file (`ForwardIndex.save`). */
  readonly forwardFile: string
  /** Query words dropped before the query features (the first stage's plain-text stop words). */
  readonly queryStopwords: readonly string[]
  /** Remembered queries for the memory block M1–M3 (`[id, text, [doc, grade][]]`); none: the 179 only. */
  readonly memory?: ReadonlyArray<readonly [string, string, ReadonlyArray<readonly [string, number]>]>
  /** Similar remembered queries consulted. */
  readonly memoryK?: number
}

/** One extraction job: candidates `[start, end)` of a first-stage result. */
export interface ExtractTask {
  readonly query: string
  readonly header: Omit<SearchResult, 'hits'>
  readonly ids: readonly string[]
  readonly docNumbers: Int32Array
  readonly scores: Float64Array
  readonly ranks: Int32Array
}

/** A worker's answer. */
export interface ExtractReply {
  /** Row-major features of the task's candidates. */
  readonly data: Float64Array
  readonly numRows: number
  readonly numFeatures: number
  /** Milliseconds the worker spent extracting (the rest of the round trip is messaging). */
  readonly computeMs: number
}

/**
 * The task for candidates `[start, end)` of a result.
 * @param query - the query text
 * @param result - the first-stage result
 * @param start - first candidate (0-based)
 * @param end - one past the last
 * @throws PubmatchError `INVALID_ARGUMENT` for a range outside the hits
 */
export function encodeTask(query: string, result: SearchResult, start = 0, end: number = result.hits.length): ExtractTask {
  if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && end <= result.hits.length)) {
    throw new PubmatchError('INVALID_ARGUMENT', `@pubmatch/bench-ltr: candidates [${start}, ${end}) of ${result.hits.length}`)
  }
  const n = end - start
  const ids: string[] = new Array<string>(n)
  const docNumbers = new Int32Array(n)
  const scores = new Float64Array(n)
  const ranks = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    const hit = result.hits[start + i]!
    ids[i] = hit.id
    docNumbers[i] = hit.docNumber
    scores[i] = hit.score
    ranks[i] = hit.rank
  }
  const { total, totalRelation, query: parsed, warnings, stats } = result
  return { query, header: { total, totalRelation, query: parsed, warnings, stats }, ids, docNumbers, scores, ranks }
}

/**
 * The first-stage result a task stands for (its candidates only).
 * @param task - from {@link encodeTask}
 */
export function decodeTask(task: ExtractTask): SearchResult {
  const hits: Candidate[] = task.ids.map((id, i) => ({
    id,
    docNumber: task.docNumbers[i]!,
    score: task.scores[i]!,
    rank: task.ranks[i]!,
  }))
  return { ...task.header, hits }
}

/**
 * Joins worker replies, in order, into one row-major matrix.
 * @param replies - the parts' replies, in candidate order
 * @throws PubmatchError `FEATURE_COUNT_MISMATCH` when the parts disagree on the feature count
 */
export function joinReplies(replies: readonly ExtractReply[]): { data: Float64Array; numRows: number; numFeatures: number } {
  const numFeatures = replies[0]?.numFeatures ?? 0
  let numRows = 0
  for (const reply of replies) {
    if (reply.numFeatures !== numFeatures) {
      throw new PubmatchError('FEATURE_COUNT_MISMATCH', `@pubmatch/bench-ltr: a part has ${reply.numFeatures} features, the first ${numFeatures}`)
    }
    numRows += reply.numRows
  }
  const data = new Float64Array(numRows * numFeatures)
  let offset = 0
  for (const reply of replies) {
    data.set(reply.data.subarray(0, reply.numRows * numFeatures), offset)
    offset += reply.numRows * numFeatures
  }
  return { data, numRows, numFeatures }
}
