// Piscina worker entry (`@pubmatch/lightgbm-wasm/worker`): one LightGBM WebAssembly
// instance per worker thread, created on the first task and reused for the next ones.
// The pool's `workerData` may be `{ threads: N }` (`LightGbmWorkerData`): each worker then
// loads the threaded build with N threads (N - 1 nested worker threads of its own).
import { workerData } from 'node:worker_threads'
import { loadLightGbm, type LightGbm } from '../lightgbm.ts'
import { lightGbmWorkerOptions, runWorkerTaskSafely, type WorkerOutcome, type WorkerTask } from '../worker-task.ts'

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
