/**
 * NFCorpus dev through SolrCloud against the embedded engine, end to end from the CLI: ingest and
 * index (embedded), a local 2-node SolrCloud, `pubmatch index --solr` into 2 shards × 2
 * replicas, the documented Best Match recipe trained on train (179 features + query memory,
 * depth 100, dev for early stopping), then the dev runs (first stage and reranked at depth 500,
 * each embedded and through Solr; reranked through Solr twice: the Solr first stage reranked here,
 * and the model deployed into the collection (`deployModel`) reranking on the shards,
 * `createSolrFirstStage` top 1000 + `createSolrReranker` over its top 500) evaluated exactly as
 * trec_eval -c, with paired randomisation tests of Solr against embedded. Output: Markdown on
 * stdout and RESULTS-nfcorpus.md.
 *
 *   node dist/nfcorpus.js [--shared ../../../shared/data] [--dir .cache/nfcorpus] [--keep-cluster]
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { cpus, loadavg, totalmem } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { openSearch } from '@pubmatch/engine'
import { engineInternals } from '@pubmatch/engine/internal'
import { compareRuns, evaluate, formatTable, readQrels, readRun, writeRun, type EvaluationResult } from '@pubmatch/eval'
import {
  createSolrClient,
  createSolrFirstStage,
  createSolrReranker,
  deployModel,
  listModels,
  removeModel,
  solrFields,
  startLocalCluster,
  type SolrClient,
} from '@pubmatch/solr'
import { readCollectionState } from '@pubmatch/solr/internal'
import { createFeatureParityCheck, renderFeatureParity, type FeatureParity } from './nfcorpus-parity.ts'

const here = fileURLToPath(new URL('.', import.meta.url))
const { values: args } = parseArgs({
  options: {
    shared: { type: 'string', default: resolve(here, '../../../../shared/data') },
    dir: { type: 'string', default: resolve(here, '../.cache/nfcorpus') },
    'keep-cluster': { type: 'boolean', default: false },
  },
})
const shared = resolve(args.shared)
const work = resolve(args.dir)
const cli = resolve(here, '../../../apps/cli/dist/bin.js')
const nf = (path: string): string => join(shared, 'nfcorpus', path)

/** The run reranked inside Solr. */
const IN_SOLR = 'Solr reranked in Solr'

const log = (text: string): void => {
  process.stderr.write(`[bench-solr ${new Date().toISOString().slice(11, 19)}] ${text}\n`)
}

/** Runs `pubmatch …`, returning its stdout and the wall time. */
function pubmatch(...argv: string[]): { out: string; seconds: number } {
  const started = performance.now()
  log(`pubmatch ${argv.join(' ')}`)
  const out = execFileSync(process.execPath, [cli, ...argv], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 28 })
  return { out, seconds: (performance.now() - started) / 1000 }
}

await mkdir(work, { recursive: true })
const corpus = join(work, 'corpus')
const index = join(work, 'index')
const model = join(work, 'model')
const timings: Array<[string, number]> = []
const load = [`before: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`]

timings.push(['ingest (embedded)', pubmatch('ingest', nf('corpus.docs'), '-c', corpus, '-q').seconds])
timings.push(['index (embedded)', pubmatch('index', '-c', corpus, '-i', index, '-q').seconds])
const cluster = await startLocalCluster({ dir: join(work, 'solr'), nodes: 2, heap: '2g', ownerPid: process.pid })
try {
  const urls = cluster.urls().join(',')
  const backend = `solr://${cluster.urls()[0]!.replace(/^http:\/\//, '')}/nfcorpus`
  timings.push(['index --solr (2 shards × 2 replicas)', pubmatch('index', '--solr', urls, '--collection', 'nfcorpus', '--shards', '2', '--replicas', '2', '-c', corpus, '-q').seconds])
  const reused = existsSync(join(model, 'manifest.json'))
  if (reused) {
    log(`reusing the model in ${model}`)
  } else {
    timings.push([
      'train (179 + memory, depth 100)',
      pubmatch(
        'train', '-i', index, '--queries', nf('train/q-titles.queries'), '--qrels', nf('train/s-3.qrel'),
        '--valid-queries', nf('dev/q-titles.queries'), '--valid-qrels', nf('dev/s-3.qrel'),
        '--memory', '--depth', '100', '-o', model, '-q',
      ).seconds,
    ])
  }
  const runs: Array<[string, string[]]> = [
    ['embedded first stage', []],
    ['Solr first stage', ['--backend', backend]],
    ['Solr first stage, CombinedFieldQuery', ['--backend', `${backend}?scoring=combined`]],
    ['embedded reranked', ['--rerank', model, '--depth', '500']],
    ['Solr reranked', ['--rerank', model, '--depth', '500', '--backend', backend]],
  ]
  const qrels = await readQrels(nf('dev/s-3.qrel'))
  const results = new Map<string, EvaluationResult>()
  const runFile = (name: string): string => join(work, `${name.replace(/[\s,]+/g, '-')}.run`)
  const measures = ['ndcg_cut.10,20', 'P.10', 'recall.100,1000', 'map']
  for (const [name, extra] of runs) {
    const file = runFile(name)
    timings.push([`run dev: ${name}`, pubmatch('run', '-i', index, '--queries', nf('dev/q-titles.queries'), '-o', file, '-q', ...extra).seconds])
    results.set(name, evaluate(await readRun(file), qrels, { measures }))
  }
  // the same model deployed into the collection, reranking on the shards
  const client = createSolrClient({ urls: cluster.urls() })
  const inSolr = await rerankInSolr(client, 'nfcorpus', index, model, runFile('Solr first stage'), runFile(IN_SOLR))
  timings.push(['deployModel (182 features: 179 + memory)', inSolr.deploySeconds])
  timings.push([`run dev: ${IN_SOLR} (with each candidate's features, compared with the embedded extractor's)`, inSolr.runSeconds])
  results.set(IN_SOLR, evaluate(await readRun(runFile(IN_SOLR)), qrels, { measures }))
  // the same model over the same candidates, here and on the shards: how alike the two runs are
  const agreement = await compareRankings(runFile('Solr reranked'), runFile(IN_SOLR))
  load.push(`after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
  const pick = (names: readonly string[]): Map<string, EvaluationResult> => new Map(names.map((n) => [n, results.get(n)!]))
  const firstStage = compareRuns(pick(['embedded first stage', 'Solr first stage', 'Solr first stage, CombinedFieldQuery']))
  const reranked = compareRuns(pick(['embedded reranked', 'Solr reranked', IN_SOLR]))
  const ndcg = (name: string): number => results.get(name)!.mean['ndcg_cut_10']!
  const gap = (a: string, b: string, target = 0.005): string => {
    const d = ndcg(b) - ndcg(a)
    return `${d >= 0 ? '+' : ''}${d.toFixed(4)} (${Math.abs(d) <= target ? 'within' : 'NOT within'} ${target})`
  }
  const report = `# Solr backend on NFCorpus dev

Command: \`pnpm --filter @pubmatch/bench-solr bench:nfcorpus\` (\`node dist/nfcorpus.js\`), ${new Date().toISOString()}.
Machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; load averages ${load.join(', ')}.

Setup: \`pubmatch ingest\` + \`pubmatch index\` (embedded: BM25F k1 1.2, b 0.75, title ×5,
biomedical analyzer); a local SolrCloud of 2 nodes (\`startLocalCluster\`), \`pubmatch index
--solr … --shards 2 --replicas 2\` (generated configset: Solr's nearest analysis chain, BM25
k1 1.2/b 0.75, \`ExactStatsCache\`); the model is the documented recipe (\`pubmatch train
--memory --depth 100\`, dev for early stopping), reranking the top 500. 325 dev title queries,
\`s-3.qrel\`, trec_eval \`-c\`; ▲/▼ paired randomisation test against the embedded run, p ≤ 0.05.

## First stage: Solr vs embedded

\`Solr first stage\`: the \`bm25f\` parser's default model, Robertson–Zaragoza BM25F as the embedded
first stage (per-field length normalisation, global statistics for every field; lengths from
Lucene's one-byte norms). \`CombinedFieldQuery\`: \`?scoring=combined\`, Lucene's BM25F (one
length normalisation over the weighted fields).

${formatTable(firstStage)}

nDCG@10 gap: ${gap('embedded first stage', 'Solr first stage')}; CombinedFieldQuery ${gap('embedded first stage', 'Solr first stage, CombinedFieldQuery')}.

## Reranked (same model; only the first stage differs, or the whole second stage runs in Solr)

\`Solr reranked\`: the Solr first stage (\`--backend\`), reranked here (local index, forward store
and model). \`${IN_SOLR}\`: the model deployed into the collection (\`deployModel\`, with its query
memory analysed by pubmatch's analyzer, \`memory-terms.jsonl\`); per query
\`createSolrFirstStage\` top 1000 (trec_eval's tie order), then \`createSolrReranker\` over its top
500 in one request: each shard computes its candidates' 182 features (179 + M1–M3) and model
scores, the coordinator merges by score; the run's scores are Solr's (32-bit floats), ranks
501–1000 follow in first-stage order as the embedded reranker writes them. Its first stage
equals the CLI's \`Solr first stage\` run on ${inSolr.sameFirstStage} of ${inSolr.queries} queries; ${inSolr.fallbacks}
queries kept first-stage order (outside the model's range). Against \`Solr reranked\` (the same
candidates and model, reranked here): the same order of all 1,000 hits on ${agreement.same} of
${agreement.queries} queries with hits (the top 10 on ${agreement.sameTop10}), scores within
${agreement.maxRelative.toExponential(2)} relative (Solr's 32-bit floats; documents whose scores are
equal as floats are tied in the run, trec_eval orders them by id).

${formatTable(reranked)}

nDCG@10 gap: Solr reranked ${gap('embedded reranked', 'Solr reranked')}; ${IN_SOLR} ${gap('embedded reranked', IN_SOLR, 0.003)}.

## Feature parity, column by column (\`${IN_SOLR}\` against the embedded extractor)

Each shard's ${inSolr.parity.columns.length} values per candidate (the \`[pubmatch]\` transformer, \`features: true\`)
against \`@pubmatch/ltr\`'s extractor over the embedded index and forward store, given the same
candidates with the Solr first stage's scores (F143) and total (F176), and the query memory built
as \`openReranker\` builds it; model scores against the TypeScript scorer of the same model
(\`tools/bench-solr/src/nfcorpus-parity.ts\`).

${renderFeatureParity(inSolr.parity)}

## Wall times
${reused ? `\nThe model (and corpus, indexes and collection, which the steps below resume) came from an earlier run in ${work}.\n` : ''}
| step | s |
|---|---:|
${timings.map(([step, s]) => `| ${step} | ${s.toFixed(1)} |`).join('\n')}
`
  process.stdout.write(report)
  await writeFile(resolve(here, '../RESULTS-nfcorpus.md'), report)
} finally {
  if (!args['keep-cluster']) {
    await cluster.shutdown()
  }
}

/** How alike two runs of the same queries are: same order, same top 10, largest relative score difference. */
async function compareRankings(a: string, b: string): Promise<{ queries: number; same: number; sameTop10: number; maxRelative: number }> {
  const [left, right] = [await readRun(a), await readRun(b)]
  let same = 0
  let sameTop10 = 0
  let maxRelative = 0
  for (const [qid, entries] of left.queries) {
    const other = right.queries.get(qid) ?? []
    const ids = (list: typeof entries, n = Infinity): string => list.slice(0, n).map((e) => e.docId).join(' ')
    same += ids(entries) === ids(other) ? 1 : 0
    sameTop10 += ids(entries, 10) === ids(other, 10) ? 1 : 0
    const scores = new Map(other.map((e) => [e.docId, e.score]))
    for (const e of entries) {
      const s = scores.get(e.docId)
      const scale = Math.max(Math.abs(e.score), Math.abs(s ?? 0))
      if (s !== undefined && scale > 0) {
        maxRelative = Math.max(maxRelative, Math.abs(e.score - s) / scale)
      }
    }
  }
  return { queries: left.queries.size, same, sameTop10, maxRelative }
}

/**
 * The dev queries reranked inside Solr: the model folder deployed into the collection (after
 * removing an earlier deployment of the name), then per query the Solr first stage's top 1000
 * with the options the CLI's \`--backend\` uses (the local index's analyzer, match, syntax and field
 * weights), its top 500 reranked by the \`pubmatch\` rank query, the rest in first-stage order.
 */
async function rerankInSolr(
  client: SolrClient,
  collection: string,
  indexDir: string,
  modelDir: string,
  cliFirstStageRun: string,
  out: string,
): Promise<{ deploySeconds: number; runSeconds: number; queries: number; sameFirstStage: number; fallbacks: number; parity: FeatureParity }> {
  const name = 'nfcorpus-bm'
  let started = performance.now()
  if ((await listModels({ client, collection })).models.some((m) => m.name === name)) {
    await removeModel({ client, collection, name })
  }
  log(`deployModel ${modelDir} → ${collection}/${name}`)
  await deployModel({ client, collection, dir: modelDir, name })
  const deploySeconds = (performance.now() - started) / 1000
  const engine = await openSearch({ index: indexDir })
  const state = await readCollectionState(client, collection)
  if (state === undefined) {
    throw new Error(`collection ${collection} holds no indexed corpus`)
  }
  const params = engine.firstStage.params as { fieldWeights?: Record<string, number>; defaultFieldWeight?: number; fieldB?: Record<string, number> }
  const options = {
    client,
    collection,
    fields: solrFields(state.fieldSet),
    analyzer: engineInternals(engine).analyzer,
    match: engine.firstStage.match,
    syntax: engine.firstStage.syntax,
    ...(params.fieldWeights === undefined ? {} : { fieldWeights: params.fieldWeights }),
    ...(params.defaultFieldWeight === undefined ? {} : { defaultFieldWeight: params.defaultFieldWeight }),
    ...(params.fieldB === undefined ? {} : { fieldB: params.fieldB }),
  }
  const firstStage = createSolrFirstStage(options)
  const reranker = createSolrReranker({ ...options, model: name })
  const parity = await createFeatureParityCheck(engine, modelDir)
  const cli = await readRun(cliFirstStageRun)
  // QID<TAB>text, as \`pubmatch run --queries\` reads them
  const queries = (await readFile(nf('dev/q-titles.queries'), 'utf8'))
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const tab = line.indexOf('\t')
      return { id: line.slice(0, tab).trim(), text: line.slice(tab + 1).trim() }
    })
  const run = { tag: 'solr-rq', queries: new Map<string, Array<{ docId: string; score: number; rank: number }>>() }
  let sameFirstStage = 0
  let fallbacks = 0
  started = performance.now()
  log(`rerank in Solr: ${queries.length} dev queries`)
  for (const query of queries) {
    const first = await firstStage.search(query.text, { limit: 1000, tieBreak: 'idDescending' })
    const expected = (cli.queries.get(query.id) ?? []).map((e) => e.docId).join(' ')
    sameFirstStage += first.hits.map((h) => h.id).join(' ') === expected ? 1 : 0
    const head = { ...first, hits: first.hits.slice(0, 500) }
    const ranked = head.hits.length === 0 ? { hits: [] } : await reranker.rerank(query.text, head, { rows: head.hits.length, features: true })
    if ('fallback' in ranked && ranked.fallback !== undefined) {
      fallbacks++
    } else if ('qtimeMs' in ranked) {
      parity.add(query.text, head, ranked)
    }
    const hits = ranked.hits.map((hit) => ({ docId: hit.id, score: hit.score, rank: hit.rank }))
    // the tail as the embedded reranker writes it (withTail): below the head, first-stage order
    const floor = hits.length > 0 ? Math.min(...hits.map((h) => h.score)) : 0
    const tail = first.hits.slice(head.hits.length)
    tail.forEach((hit, i) => hits.push({ docId: hit.id, score: floor - 1 - (i + 1) / (tail.length + 1), rank: head.hits.length + i + 1 }))
    run.queries.set(query.id, hits)
  }
  await writeRun(run, out)
  return { deploySeconds, runSeconds: (performance.now() - started) / 1000, queries: queries.length, sameFirstStage, fallbacks, parity: parity.summary() }
}
