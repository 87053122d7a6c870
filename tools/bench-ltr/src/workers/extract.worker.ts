/**
 * A feature-extraction worker: opens the index and the forward store once (from `workerData`),
 * then computes the features of the candidates each task carries. Default export for piscina.
 */
import { openIndex } from '@pubmatch/index'
import { loadForwardIndex, type FeatureExtractor } from '@pubmatch/ltr'
import { createFeatureExtractor, createQueryMemory, withQueryMemory } from '@pubmatch/ltr/internal'
import { move, transferableSymbol, valueSymbol, workerData } from 'piscina'
import { decodeTask, type ExtractReply, type ExtractTask, type ExtractWorkerData } from '../protocol.ts'

const data = workerData as ExtractWorkerData
const reader = await openIndex(data.indexDir)
const forward = await loadForwardIndex(data.forwardFile)
const base = createFeatureExtractor({ reader, forward, queryStopwords: data.queryStopwords })
const extractor: FeatureExtractor =
  data.memory === undefined
    ? base
    : withQueryMemory(
        base,
        createQueryMemory({
          queries: data.memory.map(([id, text, judgements]) => ({ id, text, judgements: new Map(judgements) })),
          analyzer: reader.analyzer('title'),
          ...(data.memoryK === undefined ? {} : { k: data.memoryK }),
        }),
      )

/** piscina's transferable wrapper: the reply is posted with its rows' buffer moved, not copied. */
interface MovedReply {
  readonly [transferableSymbol]: ArrayBufferLike[]
  readonly [valueSymbol]: ExtractReply
}

export default function extract(task: ExtractTask): unknown {
  const started = performance.now()
  const matrix = extractor.extract(task.query, decodeTask(task))
  const computeMs = performance.now() - started
  const reply: ExtractReply = { data: matrix.data, numRows: matrix.numRows, numFeatures: matrix.numFeatures, computeMs }
  const moved: MovedReply = { [transferableSymbol]: [matrix.data.buffer], [valueSymbol]: reply }
  return move(moved)
}
