import { once } from 'node:events'
import { createWriteStream, existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { PubmatchError } from '@pubmatch/core'
import { createArticleGenerator } from './generate.ts'
import { toJsonlRecord } from './jsonl-record.ts'
import { loadCorpusModel, type CorpusModel } from './model.ts'
import type { GenerateResult, GenerateTask, GenerateWorkerData } from './workers/generate.worker.ts'

/** Options of {@link writeCorpusJsonl}. */
export interface WriteJsonlOptions {
  /** The output file (overwritten). */
  path: string
  /** Number of articles. */
  size: number
  /** The corpus seed. */
  seed: number
  /** The model, or a model file. Defaults to the committed model. */
  model?: CorpusModel | string
  /**
   * `jsonl`: the ingestible records of {@link toJsonlRecord}; `article`: whole `Article`
   * objects (every field; not readable by `pubmatch ingest`). Defaults to `jsonl`.
   */
  format?: 'jsonl' | 'article'
  /** Index of the first article. Defaults to `0`. */
  start?: number
  /** PMID base (see `GenerateOptions.firstPmid`). Defaults to `10000000`. */
  firstPmid?: number
  /**
   * Worker threads generating chunks in parallel (the output is the same for any number).
   * Workers run the built package (`dist/`). Defaults to `1`: generate in this thread.
   */
  workers?: number
  /** Called about every `progressEvery` articles and at the end. */
  onProgress?: (written: number, bytes: number) => void
  /** Defaults to `10000`. */
  progressEvery?: number
}

/** What {@link writeCorpusJsonl} wrote. */
export interface WriteJsonlResult {
  articles: number
  bytes: number
}

/** Articles per worker task. */
const CHUNK = 2000

/**
 * The compiled worker, from `dist/` (also when this module runs from `src/` under a test
 * runner). Workers start with no inherited `execArgv`, so that a `--conditions` flag of the
 * parent (which would resolve workspace packages to their TypeScript sources) does not apply.
 */
function workerFile(): string {
  const here = new URL('./workers/generate.worker.js', import.meta.url)
  const fromSource = new URL('../dist/workers/generate.worker.js', import.meta.url)
  const file = fileURLToPath(import.meta.url.endsWith('.ts') ? fromSource : here)
  if (!existsSync(file)) {
    throw new PubmatchError(
      'NOT_FOUND',
      `@pubmatch/synth: worker threads need the built package (${file} is missing: run pnpm build)`,
      { details: { file } },
    )
  }
  return file
}

/**
 * Generates a corpus straight into a JSON Lines file, one article per line, with back-pressure
 * (memory stays flat at any size). With `workers > 1` chunks of 2,000 articles are generated
 * in worker threads and written in order, so the file is the same byte for byte.
 * @param options - see {@link WriteJsonlOptions}
 * @throws PubmatchError `IO` when the file cannot be written, `INVALID_ARGUMENT` for a bad
 *   size, start, seed or worker count, `NOT_FOUND` for workers without a build
 */
export async function writeCorpusJsonl(options: WriteJsonlOptions): Promise<WriteJsonlResult> {
  const { path, size, seed } = options
  const start = options.start ?? 0
  const workers = options.workers ?? 1
  if (
    !Number.isInteger(size) ||
    size < 0 ||
    !Number.isInteger(seed) ||
    !Number.isInteger(start) ||
    start < 0 ||
    !Number.isInteger(workers) ||
    workers < 1
  ) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `@pubmatch/synth: writeCorpusJsonl needs integers size ≥ 0, start ≥ 0, seed and workers ≥ 1 (got ${size}, ${start}, ${seed}, ${workers})`,
    )
  }
  const every = options.progressEvery ?? 10_000
  const whole = options.format === 'article'
  const stream = createWriteStream(path)
  let bytes = 0
  let written = 0
  let reported = 0
  const write = async (text: string, articles: number): Promise<void> => {
    bytes += Buffer.byteLength(text)
    written += articles
    if (!stream.write(text)) {
      await once(stream, 'drain')
    }
    if (written - reported >= every && written < size) {
      reported = written
      options.onProgress?.(written, bytes)
    }
  }
  try {
    if (workers === 1 || size <= CHUNK) {
      const model =
        typeof options.model === 'object' ? options.model : loadCorpusModel(options.model)
      const generator = createArticleGenerator(model)
      let batch = ''
      let inBatch = 0
      for (let i = 0; i < size; i++) {
        const article = generator.article(seed, start + i, options.firstPmid)
        batch += `${JSON.stringify(whole ? article : toJsonlRecord(article))}\n`
        inBatch++
        if (inBatch === CHUNK) {
          await write(batch, inBatch)
          batch = ''
          inBatch = 0
        }
      }
      await write(batch, inBatch)
    } else {
      await writeWithWorkers(options, workers, whole, start, write)
    }
    stream.end()
    await once(stream, 'finish')
  } catch (cause) {
    stream.destroy()
    if (cause instanceof PubmatchError) {
      throw cause
    }
    throw new PubmatchError('IO', `@pubmatch/synth: cannot write ${path}`, {
      cause,
      details: { file: path },
    })
  }
  options.onProgress?.(size, bytes)
  return { articles: size, bytes }
}

async function writeWithWorkers(
  options: WriteJsonlOptions,
  count: number,
  whole: boolean,
  start: number,
  write: (text: string, articles: number) => Promise<void>,
): Promise<void> {
  const chunks = Math.ceil(options.size / CHUNK)
  const data: GenerateWorkerData = { model: options.model, whole, firstPmid: options.firstPmid }
  const file = workerFile()
  const pool = Array.from(
    { length: Math.min(count, chunks) },
    () => new Worker(file, { workerData: data, execArgv: [] }),
  )
  const done = new Map<number, string>()
  let nextTask = 0
  let nextWrite = 0
  try {
    await new Promise<void>((resolve, reject) => {
      let writing = false
      const assign = (worker: Worker): void => {
        // Keep at most two finished chunks per worker waiting to be written.
        if (nextTask < chunks && done.size < 2 * pool.length) {
          const chunk = nextTask++
          const task: GenerateTask = {
            chunk,
            seed: options.seed,
            start: start + chunk * CHUNK,
            count: Math.min(CHUNK, options.size - chunk * CHUNK),
          }
          worker.postMessage(task)
        } else {
          idle.push(worker)
        }
      }
      const idle: Worker[] = []
      const drain = async (): Promise<void> => {
        if (writing) {
          return
        }
        writing = true
        try {
          while (done.has(nextWrite)) {
            const text = done.get(nextWrite)!
            done.delete(nextWrite)
            const articles = Math.min(CHUNK, options.size - nextWrite * CHUNK)
            nextWrite++
            await write(text, articles)
            while (idle.length > 0 && nextTask < chunks && done.size < 2 * pool.length) {
              assign(idle.pop()!)
            }
          }
        } finally {
          writing = false
        }
        if (nextWrite === chunks) {
          resolve()
        }
      }
      for (const worker of pool) {
        worker.on('message', (result: GenerateResult) => {
          done.set(result.chunk, result.text)
          assign(worker)
          drain().catch(reject)
        })
        worker.on('error', reject)
        assign(worker)
      }
    })
  } finally {
    await Promise.all(pool.map((worker) => worker.terminate()))
  }
}
