/**
 * NFCorpus dev through SolrCloud against the embedded engine, end to end from the CLI: ingest and
 * index (embedded), a local 2-node SolrCloud, `pubmatch index --solr` into 2 shards × 2
 * replicas, the documented Best Match recipe trained on train (179 features + query memory,
 * depth 100, dev for early stopping), then four dev runs (first stage and reranked at depth 500,
 * each embedded and through Solr) evaluated exactly as trec_eval -c, with paired randomisation
 * tests of Solr against embedded. Output: Markdown on stdout and RESULTS-nfcorpus.md.
 *
 *   node dist/nfcorpus.js [--shared ../../../shared/data] [--dir .cache/nfcorpus] [--keep-cluster]
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { cpus, loadavg, totalmem } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { compareRuns, evaluate, formatTable, readQrels, readRun, type EvaluationResult } from '@pubmatch/eval'
import { startLocalCluster } from '@pubmatch/solr'

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
const cluster = await startLocalCluster({ dir: join(work, 'solr'), nodes: 2, heap: '2g' })
try {
  const urls = cluster.urls().join(',')
  const backend = `solr://${cluster.urls()[0]!.replace(/^http:\/\//, '')}/nfcorpus`
  timings.push(['index --solr (2 shards × 2 replicas)', pubmatch('index', '--solr', urls, '--collection', 'nfcorpus', '--shards', '2', '--replicas', '2', '-c', corpus, '-q').seconds])
  if (!existsSync(join(model, 'manifest.json'))) {
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
  for (const [name, extra] of runs) {
    const file = join(work, `${name.replace(/[\s,]+/g, '-')}.run`)
    timings.push([`run dev: ${name}`, pubmatch('run', '-i', index, '--queries', nf('dev/q-titles.queries'), '-o', file, '-q', ...extra).seconds])
    results.set(name, evaluate(await readRun(file), qrels, { measures: ['ndcg_cut.10,20', 'P.10', 'recall.100,1000', 'map'] }))
  }
  load.push(`after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
  const pick = (names: readonly string[]): Map<string, EvaluationResult> => new Map(names.map((n) => [n, results.get(n)!]))
  const firstStage = compareRuns(pick(['embedded first stage', 'Solr first stage', 'Solr first stage, CombinedFieldQuery']))
  const reranked = compareRuns(pick(['embedded reranked', 'Solr reranked']))
  const ndcg = (name: string): number => results.get(name)!.mean['ndcg_cut_10']!
  const gap = (a: string, b: string): string => {
    const d = ndcg(b) - ndcg(a)
    return `${d >= 0 ? '+' : ''}${d.toFixed(4)} (${Math.abs(d) <= 0.005 ? 'within' : 'NOT within'} 0.005)`
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

## Reranked (same model, features and forward store; only the first stage differs)

${formatTable(reranked)}

nDCG@10 gap: ${gap('embedded reranked', 'Solr reranked')}.

## Wall times

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
