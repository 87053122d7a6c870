/**
 * What `run.ts` asks a case process (`case.ts`) to do, passed as JSON in its first argument and
 * checked before the case runs.
 */
import { json, type JsonShape } from '@pubmatch/core'
import type { LogSampleSize, SearchCell } from './query-sets.ts'

/** What `run.ts` asks a case process to do. */
export type CaseRequest =
  | { readonly kind: 'build'; readonly corpus: string; readonly dir: string }
  | {
      readonly kind: 'serve'
      readonly corpus: string
      readonly dir: string
      readonly cells: readonly SearchCell[]
      readonly rounds: number
      readonly log: LogSampleSize
      readonly ndcg: boolean
    }
  | { readonly kind: 'export'; readonly corpus: string; readonly path: string }

/** The shape of a {@link CaseRequest}. */
export const CASE_REQUEST: JsonShape<CaseRequest> = json.tagged('kind', {
  build: json.object({ kind: json.literal('build'), corpus: json.string, dir: json.string }),
  serve: json.object({
    kind: json.literal('serve'),
    corpus: json.string,
    dir: json.string,
    cells: json.array(
      json.object({ set: json.literal('nfcorpus-dev', 'log-pubmed', 'log-bag'), match: json.literal('all', 'any'), limit: json.count, pruning: json.boolean }),
    ),
    rounds: json.count,
    log: json.object({ measured: json.count, warmup: json.count }),
    ndcg: json.boolean,
  }),
  export: json.object({ kind: json.literal('export'), corpus: json.string, path: json.string }),
})
