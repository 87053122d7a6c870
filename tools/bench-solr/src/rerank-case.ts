/**
 * One case of the rerank benchmark in a process of its own (started by `rerank-scale.ts`):
 * `node --expose-gc dist/rerank-case.js '<case JSON>'`. Prints the result as JSON on its last
 * stdout line; progress goes to stderr.
 */
import { json, parseJson, type JsonShape } from '@pubmatch/core'
import { serveEmbeddedReranked, type RerankEmbeddedCase } from './rerank-embedded.ts'
import { runRerankSetup, type RerankSetupCase } from './rerank-setup.ts'
import { serveSolrReranked, type RerankSolrCase } from './rerank-solr.ts'

/** One child-process case. */
export type RerankCase = RerankSetupCase | RerankEmbeddedCase | RerankSolrCase

const strings = json.array(json.string)
const numbers = json.array(json.number)

/** The shape of a {@link RerankCase}, checked before it runs. */
export const RERANK_CASE: JsonShape<RerankCase> = json.tagged('kind', {
  setup: json.object({
    kind: json.literal('setup'),
    dir: json.string,
    docs: json.count,
    seed: json.integer,
    queries: json.count,
    warmup: json.count,
    trainQueries: json.count,
    trees: json.count,
    depth: json.count,
  }),
  embedded: json.object({
    kind: json.literal('embedded'),
    index: json.string,
    model: json.string,
    queries: json.count,
    warmup: json.count,
    rows: json.count,
    depth: json.count,
    rates: numbers,
    pacedRequests: json.count,
    checkQueries: json.count,
  }),
  solr: json.object({
    kind: json.literal('solr'),
    clusterDir: json.string,
    collection: json.string,
    queries: json.count,
    warmup: json.count,
    accepted: strings,
    rows: json.count,
    depth: json.count,
    rates: numbers,
    pacedRequests: json.count,
    checkQueries: json.count,
    modelA: json.string,
    modelB: json.string,
    modelBDir: json.string,
    faultRate: json.number,
    faultRequests: json.count,
    stopNode: json.count,
    swapRate: json.number,
    swapRequests: json.count,
    shardQueries: json.count,
  }),
})

async function run(request: RerankCase): Promise<unknown> {
  switch (request.kind) {
    case 'setup':
      return runRerankSetup(request)
    case 'embedded':
      return serveEmbeddedReranked(request)
    case 'solr':
      return serveSolrReranked(request)
  }
}

const request = parseJson(process.argv[2] ?? '', RERANK_CASE, {
  file: 'the case request (argument 1)',
  code: 'INVALID_ARGUMENT',
})
const output = await run(request)
process.stdout.write(`${JSON.stringify(output)}\n`)
process.exit(0)
