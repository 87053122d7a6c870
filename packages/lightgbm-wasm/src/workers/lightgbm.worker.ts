// Piscina worker entry (`@pubmatch/lightgbm-wasm/worker`): one LightGBM WebAssembly
// instance per worker thread, created on the first task and reused for the next ones.
// The pool's `workerData` may be `{ threads: N }` (`LightGbmWorkerData`): each worker then
// loads the threaded build with N threads (N - 1 nested worker threads of its own).
// The entry also exports the protocol a pool owner needs: the task and outcome types and
// `unwrapWorkerOutcome` (importing it in the main thread loads no WebAssembly).
import { workerData } from 'node:worker_threads'
import { loadLightGbm, type LightGbm } from '../lightgbm.ts'
import { lightGbmWorkerOptions, runWorkerTaskSafely, type WorkerOutcome, type WorkerTask } from '../worker-task.ts'

export { unwrapWorkerOutcome } from '../worker-task.ts'
export type {
  LightGbmWorkerData,
  PredictTask,
  PredictTaskResult,
  TrainTask,
  TrainTaskResult,
  WorkerOutcome,
  WorkerTask,
  WorkerTaskResult,
} from '../worker-task.ts'

let instance: Promise<LightGbm> | undefined

/**
 * Trains or predicts. Failures come back as `{ ok: false, error }`; pass the outcome to
 * `unwrapWorkerOutcome` to get the result or the rethrown error.
 * @param task - a {@link WorkerTask}
 */
export default async function runTask(task: WorkerTask): Promise<WorkerOutcome> {
  instance ??= loadLightGbm(lightGbmWorkerOptions(workerData))
  return runWorkerTaskSafely(await instance, task)
}
