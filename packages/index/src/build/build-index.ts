import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { PubmatchError, isPubmatchError, type Article, type DeletedCitation } from '@pubmatch/core'
import { workerExecArgv } from '@pubmatch/core/internal'
import { Piscina } from 'piscina'
import { createIndexWriter, type CommitInfo, type IndexProgress } from '../index-writer.ts'
import type { IndexConfig } from '../schema/config.ts'
import type { SegmentMeta } from '../segment/segment-meta.ts'
import type { SegmentBuildRunner, SegmentBuildTask } from './segment-build.ts'

/** What `buildIndex` consumes: articles to add (or replace), and deletions. */
export type BuildInput = Article | { readonly deleted: readonly DeletedCitation[] }

/** Options of {@link buildIndex}. */
export interface BuildIndexOptions {
  /**
   * Worker threads that analyze and write segments while this thread extracts documents;
   * `0` builds everything in this thread. Workers load the built `dist/` of this package
   * (`@pubmatch/index/worker`) and only know the built-in analyzers. Defaults to `0`.
   */
  workers?: number
  /** Progress reports (see `IndexProgress`). Defaults to none. */
  onProgress?: (progress: IndexProgress) => void
  /** Documents per flushed segment. Defaults to `10000`. */
  maxBufferedDocs?: number
  /**
   * Merge down to this many segments at the end (`forceMerge`); `0` leaves merging to the
   * merge policy. Defaults to `0`.
   */
  forceMergeTo?: number
  /**
   * Runs segment builds on a pool the caller owns (e.g. the CLI's piscina pool of
   * `@pubmatch/index/worker`); overrides `workers`. Defaults to none.
   */
  runSegmentBuild?: SegmentBuildRunner
  /** The worker file. Defaults to this package's `dist/workers/build-segment.worker.js`. */
  workerFilename?: string
}

/** What {@link buildIndex} did. */
export interface BuildIndexResult extends CommitInfo {
  /** Articles added or replaced. */
  readonly docsAdded: number
  /** Deletions that removed a document. */
  readonly docsDeleted: number
  /** Articles that could not be indexed (no id, a bad doc value), with why; the rest were. */
  readonly errors: readonly { readonly id: string; readonly error: PubmatchError }[]
}

/**
 * The built worker entry of this package (`dist/workers/build-segment.worker.js`), resolved
 * so that it is the same file from `src/` (tests) and from `dist/`.
 */
export function defaultWorkerFilename(): string {
  return fileURLToPath(new URL('../../dist/workers/build-segment.worker.js', import.meta.url))
}

function isDeletion(input: BuildInput): input is { readonly deleted: readonly DeletedCitation[] } {
  return 'deleted' in input && Array.isArray(input.deleted)
}

/**
 * Indexes a stream of articles into `dir` (a new index, or more documents for an existing
 * one with the same schema) and commits. An article whose id is already indexed replaces
 * it; `{ deleted }` entries delete documents.
 * @param articles - articles and deletions, e.g. `openCorpus(dir).articles()`
 * @param dir - the index directory
 * @param config - fields, doc values, …; e.g. `{ fields: defaultPubmedFields() }`
 * @param options - see {@link BuildIndexOptions}
 */
export async function buildIndex(
  articles: AsyncIterable<BuildInput> | Iterable<BuildInput>,
  dir: string,
  config: IndexConfig,
  options: BuildIndexOptions = {},
): Promise<BuildIndexResult> {
  const workers = options.workers ?? 0
  if (!Number.isInteger(workers) || workers < 0) {
    throw new PubmatchError('INVALID_ARGUMENT', `workers must be a non-negative integer, got ${workers}`)
  }
  let pool: Piscina | null = null
  let run = options.runSegmentBuild
  if (run === undefined && workers > 0) {
    if (config.analyzers !== undefined) {
      throw new PubmatchError(
        'INVALID_ARGUMENT',
        'worker builds use the built-in analyzers only; pass workers: 0 with a custom analyzer registry',
      )
    }
    const filename = options.workerFilename ?? defaultWorkerFilename()
    if (!existsSync(filename)) {
      throw new PubmatchError(
        'NOT_FOUND',
        `the worker ${filename} is missing; run \`pnpm --filter @pubmatch/index build\` first`,
        { details: { file: filename } },
      )
    }
    const threads = new Piscina({
      filename,
      minThreads: workers,
      maxThreads: workers,
      execArgv: workerExecArgv(process.execArgv),
    })
    pool = threads
    // A worker that fails to start rejects no task: surface pool errors through the builds.
    const poolFailure = new Promise<never>((_, reject) => threads.once('error', reject))
    poolFailure.catch(() => undefined)
    run = (task: SegmentBuildTask) => Promise.race([threads.run(task) as Promise<SegmentMeta>, poolFailure])
  }
  let docsDeleted = 0
  try {
    const writer = await createIndexWriter(dir, config, {
      maxBufferedDocs: options.maxBufferedDocs ?? 10_000,
      ...(run === undefined ? {} : { runSegmentBuild: run, maxConcurrentBuilds: Math.max(1, workers) + 1 }),
      ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    })
    let docsAdded = 0
    const errors: { id: string; error: PubmatchError }[] = []
    try {
      for await (const input of articles) {
        if (isDeletion(input)) {
          for (const citation of input.deleted) {
            if (await writer.deleteArticle(citation.id)) {
              docsDeleted++
            }
          }
        } else {
          try {
            await writer.addArticle(input)
            docsAdded++
          } catch (error) {
            if (!isPubmatchError(error, 'INVALID_ARGUMENT')) {
              throw error
            }
            errors.push({ id: String(input.id), error })
          }
        }
      }
      const info =
        (options.forceMergeTo ?? 0) > 0 ? await writer.forceMerge(options.forceMergeTo) : await writer.commit()
      await writer.close()
      return { ...info, docsAdded, docsDeleted, errors }
    } catch (error) {
      await writer.rollback()
      throw error
    }
  } finally {
    await pool?.destroy()
  }
}
