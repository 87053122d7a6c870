// Worker entry of writeCorpusJsonl({ workers > 1 }): generates ranges of articles as JSON lines.
// Runs from dist/ only (worker threads load JavaScript).
import { parentPort, workerData } from 'node:worker_threads'
import { createArticleGenerator } from '../generate.ts'
import { toJsonlRecord } from '../jsonl-record.ts'
import { loadCorpusModel, type CorpusModel } from '../model.ts'

/** What the worker is started with. */
export interface GenerateWorkerData {
  /** A model file, or the model itself. */
  model: string | CorpusModel | undefined
  /** Write whole articles instead of JSONL records. */
  whole: boolean
  firstPmid: number | undefined
}

/** One task: articles `start … start + count − 1` of a seed. */
export interface GenerateTask {
  chunk: number
  seed: number
  start: number
  count: number
}

/** The answer to a task. */
export interface GenerateResult {
  chunk: number
  text: string
}

const data = workerData as GenerateWorkerData
const model = typeof data.model === 'object' ? data.model : loadCorpusModel(data.model)
const generator = createArticleGenerator(model)

parentPort?.on('message', (task: GenerateTask) => {
  let text = ''
  for (let i = task.start; i < task.start + task.count; i++) {
    const article = generator.article(task.seed, i, data.firstPmid)
    text += `${JSON.stringify(data.whole ? article : toJsonlRecord(article))}\n`
  }
  const result: GenerateResult = { chunk: task.chunk, text }
  parentPort?.postMessage(result)
})
