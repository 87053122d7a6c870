/**
 * The work `scale.ts` runs in child processes (so that each has its own peak RSS and the
 * orchestrating process stays a lean Solr client): the embedded build and serving cases, and the
 * preparation of the Solr batches file.
 */
import { json, PubmatchError, truncateForMessage, type JsonShape } from '@pubmatch/core'
import { prepareBatches, type BatchesFile } from './scale-batches.ts'
import {
  buildEmbedded,
  serveEmbedded,
  type EmbeddedBuildCase,
  type EmbeddedServeCase,
} from './scale-embedded.ts'
import type { EmbeddedBuild, EmbeddedServe } from './scale-results.ts'

/** Write the Solr batches file (see `prepareBatches`). */
export interface BatchesCase {
  readonly kind: 'batches'
  readonly dir: string
  readonly docs: number
  readonly seed: number
  readonly batchSize: number
}

/** One child-process case. */
export type ScaleCase = EmbeddedBuildCase | EmbeddedServeCase | BatchesCase

/** The shape of a {@link ScaleCase}, checked before a case runs. */
export const SCALE_CASE: JsonShape<ScaleCase> = json.tagged('kind', {
  build: json.object({ kind: json.literal('build'), dir: json.string, docs: json.count, seed: json.integer, workers: json.count, timeLimitMs: json.number }),
  serve: json.object({
    kind: json.literal('serve'),
    dir: json.string,
    queries: json.count,
    warmup: json.count,
    passes: json.count,
    timeLimitMs: json.number,
  }),
  batches: json.object({ kind: json.literal('batches'), dir: json.string, docs: json.count, seed: json.integer, batchSize: json.count }),
})

/** What each case returns. */
export interface ScaleCaseResult {
  build: EmbeddedBuild
  serve: EmbeddedServe
  batches: BatchesFile
}

/**
 * Runs one case.
 * @param request - the case
 * @throws PubmatchError `INVALID_ARGUMENT` for an unknown kind
 */
export async function runScaleCase(
  request: ScaleCase,
): Promise<ScaleCaseResult[ScaleCase['kind']]> {
  switch (request.kind) {
    case 'build':
      return buildEmbedded(request)
    case 'serve':
      return serveEmbedded(request)
    case 'batches':
      return prepareBatches(
        request.dir,
        request.docs,
        request.seed,
        request.batchSize,
        (written) => {
          if (written % 100_000 === 0) {
            process.stderr.write(
              `bench-solr scale: batches file: ${written.toLocaleString('en-US')} docs written\n`,
            )
          }
        },
      )
    default:
      throw new PubmatchError(
        'INVALID_ARGUMENT',
        `@pubmatch/bench-solr: unknown case ${truncateForMessage(JSON.stringify(request))}`,
      )
  }
}
