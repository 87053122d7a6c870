import { runSearchTask, type SearchTask, type SearchTaskOutcome } from '../search-pool-task.ts'

/**
 * The piscina worker entry of a search pool (`openSearchPool`): opens the engine it was given
 * (once, on its first task) and answers searches with their highlights.
 * @param task - a search, or a warm-up
 */
export default function search(task: SearchTask): Promise<SearchTaskOutcome> {
  return runSearchTask(task)
}
