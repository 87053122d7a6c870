/**
 * The known-item evaluation of full-text section scoring on the real PMC BioC corpus
 * (`../shared/data/pmc/bioc-json`, 267 articles): each article's title is a query whose one
 * relevant article is that article; titles are not indexed (only the 13 section types are).
 * PAV is trained on the queries of a seeded half of the articles and the four strategies are
 * evaluated on the other half's queries (every article of the corpus is a candidate): MRR,
 * success@1/10, nDCG@10, with paired randomisation tests. Also: PAV training time, indexing
 * throughput (BioC, JATS), and query latency of each strategy.
 *
 *   pnpm --filter @pubmatch/bench-fulltext bench      (after `pnpm build`)
 */
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { cpus, loadavg, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { quantile, sharedDataDir } from '@pubmatch/bench-kit'
import type { FullTextDocument, Qrels, Run } from '@pubmatch/core'
import { compareRuns, evaluate, formatPValue, shuffle, type EvaluationResult } from '@pubmatch/eval'
import {
  buildFulltextIndex,
  compileSectionModel,
  FULLTEXT_STRATEGIES,
  openFulltextIndex,
  plotSectionModel,
  rankFulltext,
  saveSectionModel,
  trainSectionModel,
  type FulltextIndex,
  type FulltextStrategy,
  type LabelledFulltextQuery,
} from '@pubmatch/fulltext'
import { readBiocFile } from '@pubmatch/ingest'

const packageDir = fileURLToPath(new URL('..', import.meta.url))
const shared = sharedDataDir()
const resultsDir = join(packageDir, 'results')
const SEED = 20260101

function log(line: string): void {
  process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`)
}

async function readCorpus(dir: string): Promise<FullTextDocument[]> {
  const out: FullTextDocument[] = []
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.json')).sort()) {
    for await (const record of readBiocFile(join(dir, name))) {
      if (record.kind === 'fulltext') {
        out.push(record.document)
      }
    }
  }
  return out
}

const fmt = (value: number | undefined, digits = 4): string => (value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits))

async function main(): Promise<void> {
  const started = new Date()
  const loadBefore = loadavg().map((l) => l.toFixed(2)).join(' / ')
  const corpusDir = join(shared, 'pmc/bioc-json')
  if (!existsSync(corpusDir)) {
    throw new Error(`no BioC corpus at ${corpusDir} (set PUBMATCH_SHARED)`)
  }
  const t0 = performance.now()
  const documents = (await readCorpus(corpusDir)).filter((doc) => (doc.title ?? '').trim() !== '')
  const parseSeconds = (performance.now() - t0) / 1000
  const passageCount = documents.reduce((n, doc) => n + doc.passages.length, 0)
  log(`read ${documents.length} BioC full texts (${passageCount} passages) in ${parseSeconds.toFixed(1)} s`)
  const work = await mkdtemp(join(tmpdir(), 'bench-fulltext-'))
  const indexDir = join(work, 'fulltext')
  const built = await buildFulltextIndex(documents, indexDir)
  log(`indexed ${built.articles} articles, ${built.passages} passages in ${built.seconds.toFixed(1)} s`)
  const index: FulltextIndex = await openFulltextIndex(indexDir)

  // the known items: one query per article (its title), split in seeded halves
  const items = documents.map((doc) => ({ id: doc.pmid ?? doc.pmcid, text: doc.title!.trim() }))
  const order = shuffle(items, SEED)
  const half = Math.floor(order.length / 2)
  const train: LabelledFulltextQuery[] = order.slice(0, half).map((q) => ({ text: q.text, relevant: new Set([q.id]) }))
  const test = order.slice(half)
  const tTrain = performance.now()
  const model = trainSectionModel(index, train)
  const trainSeconds = (performance.now() - tTrain) / 1000
  log(`PAV: ${model.points.toLocaleString('en-US')} points over ${Object.keys(model.sections).length} section types in ${trainSeconds.toFixed(2)} s; prior ${model.prior.toExponential(3)}`)

  const qrels: Qrels = new Map(test.map((q, i) => [`q${i}`, new Map([[q.id, 1]])]))
  const runs = new Map<FulltextStrategy, Run>()
  // the first query of each strategy, as a cold path
  const firstQuery = new Map<string, number>()
  for (const strategy of FULLTEXT_STRATEGIES) {
    const run: Run = { tag: strategy, queries: new Map() }
    for (const [i, q] of test.entries()) {
      const s = performance.now()
      const hits = rankFulltext(index, q.text, strategy, { model, limit: 1000 })
      if (i === 0) {
        firstQuery.set(strategy, performance.now() - s)
      }
      run.queries.set(`q${i}`, hits.map((hit) => ({ docId: hit.id, score: hit.score })))
    }
    runs.set(strategy, run)
  }
  // the compiled section model (what the server uses): its cost once, then its runs
  const compiled = compileSectionModel(index, model)
  log(`compiled the section model: ${compiled.pairs.toLocaleString('en-US')} (term, article) pairs in ${compiled.millis.toFixed(0)} ms`)
  const compiledRuns = new Map<string, Run>()
  for (const strategy of ['sum-logodds', 'max-logodds'] as const) {
    const run: Run = { tag: `${strategy} compiled`, queries: new Map() }
    for (const [i, q] of test.entries()) {
      const s = performance.now()
      const hits = rankFulltext(index, q.text, strategy, { model: compiled, limit: 1000 })
      if (i === 0) {
        firstQuery.set(`${strategy} compiled`, performance.now() - s)
      }
      run.queries.set(`q${i}`, hits.map((hit) => ({ docId: hit.id, score: hit.score })))
    }
    compiledRuns.set(strategy, run)
  }
  // latency: every path, warm, three rounds over the held-out queries, interleaved so that the
  // machine's noise falls on all of them alike
  const paths: Array<[string, (text: string) => unknown]> = [
    ['sum-logodds', (text) => rankFulltext(index, text, 'sum-logodds', { model, limit: 1000 })],
    ['max-logodds', (text) => rankFulltext(index, text, 'max-logodds', { model, limit: 1000 })],
    ['sum-logodds compiled', (text) => rankFulltext(index, text, 'sum-logodds', { model: compiled, limit: 1000 })],
    ['max-logodds compiled', (text) => rankFulltext(index, text, 'max-logodds', { model: compiled, limit: 1000 })],
    ['merged', (text) => rankFulltext(index, text, 'merged', { limit: 1000 })],
    ['abstract', (text) => rankFulltext(index, text, 'abstract', { limit: 1000 })],
  ]
  const latency = new Map<string, number[]>(paths.map(([name]) => [name, []]))
  for (let round = 0; round < 3; round++) {
    for (const q of test) {
      for (const [name, run] of paths) {
        const s = performance.now()
        run(q.text)
        latency.get(name)!.push(performance.now() - s)
      }
    }
  }
  for (const times of latency.values()) {
    times.sort((a, b) => a - b)
  }
  const measures = ['recip_rank', 'success.1,10', 'ndcg_cut.10']
  const results = new Map<string, EvaluationResult>([...runs].map(([name, run]) => [name, evaluate(run, qrels, { measures })]))
  const columns: Array<[string, string]> = [
    ['recip_rank', 'MRR'],
    ['success_1', 'success@1'],
    ['success_10', 'success@10'],
    ['ndcg_cut_10', 'nDCG@10'],
  ]
  const tables: string[] = []
  for (const baseline of ['abstract', 'merged'] as const) {
    const ordered = new Map([[baseline, results.get(baseline)!], ...[...results].filter(([name]) => name !== baseline)])
    const comparison = compareRuns(ordered, { test: 'randomisation' })
    const rows = comparison.rows.map((row) => {
      const cells = columns.map(([key]) => {
        const cell = row.cells.find((c) => c.measure === key)!
        return row.isBaseline ? fmt(cell.mean) : `${fmt(cell.mean)}${cell.significant ? (cell.difference > 0 ? ' ▲' : ' ▼') : ''} (p ${formatPValue(cell.pValue!)})`
      })
      return `| ${row.run}${row.isBaseline ? ' (baseline)' : ''} | ${cells.join(' | ')} |`
    })
    tables.push(
      `Against **${baseline}** BM25 (paired randomisation test, two-sided, p ≤ 0.05: ▲/▼):\n\n| strategy | ${columns.map(([, t]) => t).join(' | ')} |\n|---|${columns.map(() => '---:').join('|')}|\n${rows.join('\n')}`,
    )
  }
  const mrr = (run: Run): number => evaluate(run, qrels, { measures: ['recip_rank'] }).mean['recip_rank'] ?? Number.NaN
  const latencyRows = paths.map(([name]) => {
    const t = latency.get(name)!
    const run = name.endsWith(' compiled') ? compiledRuns.get(name.replace(' compiled', ''))! : runs.get(name as FulltextStrategy)!
    return `| ${name} | ${fmt(firstQuery.get(name), 2)} | ${fmt(quantile(t, 0.5), 3)} | ${fmt(quantile(t, 0.9), 3)} | ${fmt(quantile(t, 0.99), 3)} | ${fmt(mrr(run))} |`
  })
  const p50 = (s: string): number => quantile(latency.get(s)!, 0.5)
  await mkdir(resultsDir, { recursive: true })
  await saveSectionModel(join(resultsDir, 'pav-bioc.json'), model, {
    corpus: 'shared/data/pmc/bioc-json',
    queries: `titles of ${train.length} articles (seeded half, seed ${SEED})`,
    labels: 'known item: the article itself',
    points: model.points,
  })
  await writeFile(join(resultsDir, 'pav-bioc.svg'), plotSectionModel(model, { title: `PAV per section type: P(relevant | section BM25), known-item training (${train.length} titles)` }))
  const report = `# Full-text section scoring: known-item evaluation

Command: \`pnpm --filter @pubmatch/bench-fulltext bench\` (after \`pnpm build\`).
Run ${started.toISOString()}; ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}; load average before ${loadBefore}, after ${loadavg().map((l) => l.toFixed(2)).join(' / ')}.

Corpus: the ${documents.length} PMC articles of \`shared/data/pmc/bioc-json\` that have a title (${passageCount.toLocaleString('en-US')} BioC passages; ${built.passages.toLocaleString('en-US')} of them in the 13 scored section types).
Queries: each article's title; its one relevant document is the article itself. Titles are not indexed
(the article title is front matter, outside the 13 types). Split: a seeded shuffle (seed ${SEED}); PAV is trained
on the first ${train.length} titles and the strategies are evaluated on the other ${test.length}, each ranking every article.

## Effectiveness on the held-out half (${test.length} queries)

${tables.join('\n\n')}

## PAV

${model.points.toLocaleString('en-US')} training points (one per query token, article holding a query token (or relevant), and section type the
article has), fitted in ${trainSeconds.toFixed(2)} s; prior (share of positives) ${model.prior.toExponential(3)}. Curves: \`results/pav-bioc.svg\`;
functions: \`results/pav-bioc.json\` (\`pubmatch fulltext inspect\` prints them).

| section | points | pooled scores | P at score 0 | P at highest score |
|---|---:|---:|---:|---:|
${Object.entries(model.sections)
  .map(([type, f]) => `| ${type} | ${f.points.toLocaleString('en-US')} | ${f.xs.length} | ${f.ys[0]!.toExponential(2)} | ${f.ys.at(-1)!.toFixed(4)} |`)
  .join('\n')}

## Throughput and latency

Reading the BioC JSON: ${documents.length} articles, ${passageCount.toLocaleString('en-US')} passages in ${parseSeconds.toFixed(2)} s (${(documents.length / parseSeconds).toFixed(0)} articles/s, ${(passageCount / parseSeconds).toFixed(0)} passages/s).
Indexing (passages and articles): ${built.seconds.toFixed(2)} s (${(built.passages / built.seconds).toFixed(0)} passages/s).

Query latency (ms; one thread): the first held-out query of each path as its cold path, then
${latency.get('merged')!.length} warm queries per path (the ${test.length} held-out titles three times, the paths interleaved).
"compiled": the section model applied to the whole index once (\`compileSectionModel\`, what \`pubmatch serve\`
does when it opens an index): ${compiled.pairs.toLocaleString('en-US')} (term, article) pairs, ${(compiled.pairs * 20 / 2 ** 20).toFixed(1)} MiB, compiled in ${compiled.millis.toFixed(0)} ms;
without it each query scores its own passages (what a one-off \`pubmatch search --fulltext\` does).

| path | first query | p50 | p90 | p99 | MRR |
|---|---:|---:|---:|---:|---:|
${latencyRows.join('\n')}

Against merged BM25 (one field over whole articles, the first-stage cost of one field), p50: Sum LogOdds compiled
${(p50('sum-logodds compiled') / p50('merged')).toFixed(2)}×, Max LogOdds compiled ${(p50('max-logodds compiled') / p50('merged')).toFixed(2)}×; uncompiled ${(p50('sum-logodds') / p50('merged')).toFixed(2)}× and ${(p50('max-logodds') / p50('merged')).toFixed(2)}×.
Against abstract BM25: Sum LogOdds compiled ${(p50('sum-logodds compiled') / p50('abstract')).toFixed(2)}×, uncompiled ${(p50('sum-logodds') / p50('abstract')).toFixed(2)}×.
`
  await writeFile(join(packageDir, 'RESULTS.md'), report)
  log(`wrote ${join(packageDir, 'RESULTS.md')}`)
  process.stdout.write(report)
  await rm(work, { recursive: true, force: true })
}

await main()
