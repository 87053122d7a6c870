// First-stage latency benchmark (run `pnpm build` first; `pnpm bench` does not build).
// Index: NFCorpus corpus.docs replicated ×30 (101,820 documents, ids suffixed `#k`, the approach of
// packages/index/bench), `testCollectionFields()` (the default `biomedical` analyzer), merged into
// one segment. Queries: the 325 NFCorpus dev title queries as plain text, `match: 'any'`, the
// default ranker (BM25F). Every query runs with and without pruning in each round (alternating,
// so that load changes hit both alike); the hits are checked to be identical.
//
// Usage: node bench/search.bench.mjs [--times 30] [--rounds 5] [--limits 10,100,500,1000]
// Prints Markdown tables (for BENCHMARKS.md). PUBMATCH_SHARED overrides the data folder.
import { cpus, loadavg } from 'node:os'
import {
  buildTemporaryIndex,
  nfcorpusSearcher,
  readCorpus,
  readSplit,
} from '../scripts/nfcorpus-lib.mjs'

const args = process.argv.slice(2)
const arg = (name, fallback) => {
  const at = args.indexOf(`--${name}`)
  return at === -1 ? fallback : args[at + 1]
}
const times = Number(arg('times', '30'))
const rounds = Number(arg('rounds', '5'))
const limits = arg('limits', '10,100,500,1000').split(',').map(Number)

const quantile = (sorted, q) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]
const ms = (value) => value.toFixed(2)
const int = (value) => Math.round(value).toLocaleString('en-US')

const load0 = loadavg()[0]
const buildStart = performance.now()
const articles = await readCorpus(times)
const { reader, dispose } = await buildTemporaryIndex(articles, 'biomedical')
const buildSeconds = (performance.now() - buildStart) / 1000
const { queries } = await readSplit('dev')
const searcher = nfcorpusSearcher(reader, { tieBreak: 'docNumber' })

console.log(
  `Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? '?'}; ${new Date().toISOString()}`,
)
console.log(
  `index: ${reader.docCount.toLocaleString('en-US')} documents, built and opened in ${buildSeconds.toFixed(1)} s`,
)

// Warm-up: every query once in each mode (JIT, term dictionary and n(t) caches).
for (const query of queries) {
  searcher.search(query.text, { limit: 500 })
  searcher.search(query.text, { limit: 500, pruning: false })
}

const rows = []
for (const limit of limits) {
  const modes = [
    { name: 'pruned', options: { limit } },
    { name: 'exhaustive', options: { limit, pruning: false } },
  ]
  const samples = modes.map(() => [])
  const cpu = modes.map(() => 0)
  const stats = modes.map(() => ({ postings: 0, docs: 0, matched: 0, windows: 0, skipped: 0 }))
  for (let round = 0; round < rounds; round++) {
    for (const query of queries) {
      const hits = []
      modes.forEach((mode, m) => {
        const c0 = process.cpuUsage()
        const t0 = performance.now()
        const result = searcher.search(query.text, mode.options)
        samples[m].push(performance.now() - t0)
        const c = process.cpuUsage(c0)
        cpu[m] += (c.user + c.system) / 1000
        hits.push(result.hits)
        if (round === 0) {
          stats[m].postings += result.stats.postingsScored
          stats[m].docs += result.stats.docsScored
          stats[m].matched += result.stats.docsMatched
          stats[m].windows += result.stats.windows
          stats[m].skipped += result.stats.blocksSkipped
        }
      })
      const [a, b] = hits
      if (
        a.length !== b.length ||
        a.some((hit, i) => hit.docNumber !== b[i].docNumber || hit.score !== b[i].score)
      ) {
        throw new Error(`pruned and exhaustive hits differ for ${query.id} at limit ${limit}`)
      }
    }
  }
  modes.forEach((mode, m) => {
    const sorted = [...samples[m]].sort((x, y) => x - y)
    const mean = sorted.reduce((s, v) => s + v, 0) / sorted.length
    rows.push({
      limit,
      mode: mode.name,
      p50: quantile(sorted, 0.5),
      p95: quantile(sorted, 0.95),
      p99: quantile(sorted, 0.99),
      mean,
      cpuMean: cpu[m] / sorted.length,
      qps: 1000 / mean,
      ...stats[m],
    })
  })
}

console.log(
  `\nload average: ${load0.toFixed(1)} at start, ${loadavg()[0].toFixed(1)} at the end; ${rounds} rounds × ${queries.length} queries per cell`,
)
console.log(
  '\n| hits | mode | p50 ms | p95 ms | p99 ms | mean ms | CPU ms/query | postings scored / query | docs scored / query | windows skipped / query |',
)
console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|')
for (const r of rows) {
  const q = queries.length
  console.log(
    `| ${r.limit} | ${r.mode} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.p99)} | ${ms(r.mean)} | ${ms(r.cpuMean)} | ${int(r.postings / q)} | ${int(r.docs / q)} | ${r.mode === 'pruned' ? `${int(r.skipped / q)} of ${int(r.windows / q)}` : '–'} |`,
  )
}
dispose()
