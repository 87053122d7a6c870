import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sharedDataPath } from '@pubmatch/core/testing'
import type { ModelManifest } from '@pubmatch/ltr'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bin, pubmatch } from '../test/run-cli.ts'
import { writeSampleCollection, type SampleCollection } from '../test/sample-collection.ts'

/** The real data set's NFCorpus (only in the suite tagged `real-data`), with a trailing slash. */
const nf = `${sharedDataPath('nfcorpus')}/`


async function ok(...args: string[]): Promise<string> {
  const result = await pubmatch(...args)
  expect(result.stderr.split('\n').filter((l) => l.startsWith('pubmatch:'))).toEqual([])
  expect(result.code).toBe(0)
  return result.stdout
}

function ndcg10(evalOutput: string): number {
  return Number(/^ndcg_cut_10\s+all\s+([\d.]+)$/m.exec(evalOutput)![1])
}

describe.runIf(existsSync(bin))('pubmatch second stage from the CLI (sample corpus, known-item title queries)', () => {
  let dir: string
  let index: string
  let sample: SampleCollection
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pubmatch-ltr-sample-'))
    index = join(dir, 'index')
    sample = await writeSampleCollection(dir)
    await ok('ingest', sample.corpus, '-c', join(dir, 'corpus'), '-q')
    await ok('index', '-c', join(dir, 'corpus'), '-i', index, '-q')
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('trains a reranker with the query memory, reranks a run and a search, explains and exports it', async () => {
    const model = join(dir, 'model')
    const trained = await ok('train', '-i', index, '--queries', sample.queries, '--qrels', sample.qrels, '--depth', '20', '--trees', '20', '--memory', '-o', model, '-q')
    expect(trained).toMatch(/^wrote .*model: \d+ trees/m)
    const manifest = JSON.parse(await readFile(join(model, 'manifest.json'), 'utf8')) as { schema: { version: string; features: string[] } }
    expect(manifest.schema.version).toBe('bestmatch-179/1+memory-3/1')
    expect(manifest.schema.features).toHaveLength(182)

    await ok('run', '-i', index, '--queries', sample.queries, '-o', join(dir, 'ltr.run'), '--rerank', model, '-q')
    const evaluated = await ok('eval', join(dir, 'ltr.run'), sample.qrels, '--trec-eval', '-m', 'ndcg_cut.10')
    expect(evaluated).toMatch(/^ndcg_cut_10\s+all\s+[01]\.\d{4}$/m)
    // a training title, inside the query-level feature ranges the model accepts
    const title = (await readFile(sample.queries, 'utf8')).split('\n')[0]!.split('\t')[1]!
    const explained = await ok('search', title, '-i', index, '--rerank', model, '--explain', '-n', '2')
    expect(explained).toContain('reranked by LambdaMART')
    expect(explained).toMatch(/= bias -?[\d.]+ \+ (F|M)\d+=/)

    await ok('model', 'export-solr', model, '-o', join(dir, 'solr.json'))
    const solr = JSON.parse(await readFile(join(dir, 'solr.json'), 'utf8')) as { class: string; features: unknown[] }
    expect(solr.class).toBe('org.apache.solr.ltr.model.MultipleAdditiveTreesModel')
    expect(solr.features).toHaveLength(182)

    // --threads 2 trains on LightGBM's threaded build: the same model
    const single = join(dir, 'single')
    const threaded = join(dir, 'threaded')
    await ok('train', '-i', index, '--queries', sample.queries, '--qrels', sample.qrels, '--depth', '20', '--trees', '5', '-o', single, '-q')
    await ok('train', '-i', index, '--queries', sample.queries, '--qrels', sample.qrels, '--depth', '20', '--trees', '5', '--threads', '2', '-o', threaded, '-q')
    const withoutThreads = (text: string): string => text.replace(/^\[num_threads: \d+\]$/m, '')
    expect(withoutThreads(await readFile(join(threaded, 'model.txt'), 'utf8'))).toBe(withoutThreads(await readFile(join(single, 'model.txt'), 'utf8')))
    // a model trained on other features is refused with a clear error
    const text = await readFile(join(single, 'manifest.json'), 'utf8')
    await writeFile(join(single, 'manifest.json'), text.replace('"bestmatch-179/1"', '"bestmatch-178/1"'))
    const refused = await pubmatch('search', 'cancer', '-i', index, '--rerank', single)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/^pubmatch: SCHEMA_MISMATCH: .*"bestmatch-178\/1".*"bestmatch-179\/1"/)
  })

  it('writes the features of a query set as LETOR', async () => {
    const queries = (await readFile(sample.queries, 'utf8')).split('\n').slice(0, 2).join('\n')
    await writeFile(join(dir, 'two.queries'), `${queries}\n`)
    const out = join(dir, 'two.letor')
    expect(await ok('features', '-i', index, '--queries', join(dir, 'two.queries'), '--qrels', sample.qrels, '--depth', '10', '-o', out, '-q')).toMatch(/2 queries, 20 rows × 179 features/)
    const lines = (await readFile(out, 'utf8')).trim().split('\n')
    expect(lines).toHaveLength(20)
    expect(lines[0]).toMatch(/^\d+ qid:S\d+ 1:\S+ 2:\S+ .* 179:\S+ # \d+$/)
  })

  it('runs the search-log path: simulated clicks → labels → model', async () => {
    const log = join(dir, 'clicks')
    const simulated = await ok('clicks', 'simulate', '-i', index, '--queries', sample.queries, '--qrels', sample.qrels, '--log', log, '--sessions', '30')
    expect(simulated).toContain(`${30 * sample.count} sessions over ${sample.count} queries`)
    const labelled = await ok('clicks', 'labels', '--log', log, '--queries-out', join(dir, 'clicks.queries'), '--qrels-out', join(dir, 'clicks.qrel'), '--min-clicked', '5')
    expect(Number(/wrote (\d+) labelled queries/.exec(labelled)![1])).toBeGreaterThan(0)
    await ok('train', '-i', index, '--queries', join(dir, 'clicks.queries'), '--qrels', join(dir, 'clicks.qrel'), '--depth', '20', '--trees', '20', '--usage-log', log, '-o', join(dir, 'click-model'), '-q')
    expect(existsSync(join(dir, 'click-model', 'model.txt'))).toBe(true)
  })
})

describe.runIf(existsSync(bin))('pubmatch second stage from the CLI (NFCorpus)', { tags: ['real-data'] }, () => {
  let dir: string
  let index: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pubmatch-ltr-'))
    index = join(dir, 'index')
    await ok('ingest', `${nf}corpus.docs`, '-c', join(dir, 'corpus'), '-q')
    await ok('index', '-c', join(dir, 'corpus'), '-i', index, '-q')
    // a slice of the training queries keeps the test quick
    const train = (await readFile(`${nf}train/q-titles.queries`, 'utf8')).split('\n').slice(0, 800).join('\n')
    await writeFile(join(dir, 'train.queries'), `${train}\n`)
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('trains a reranker on train, reranks dev, and beats the first stage it reranks', async () => {
    const model = join(dir, 'model')
    const trained = await ok(
      'train', '-i', index, '--queries', join(dir, 'train.queries'), '--qrels', `${nf}train/s-3.qrel`,
      '--valid-queries', `${nf}dev/q-titles.queries`, '--valid-qrels', `${nf}dev/s-3.qrel`,
      '--depth', '50', '--trees', '150', '--memory', '-o', model, '-q',
    )
    expect(trained).toMatch(/^wrote .*model: \d+ trees/m)
    const manifest = JSON.parse(await readFile(join(model, 'manifest.json'), 'utf8')) as { schema: { version: string; features: string[] } }
    expect(manifest.schema.version).toBe('bestmatch-179/1+memory-3/1')
    expect(manifest.schema.features).toHaveLength(182)
    expect(manifest.schema.features.slice(0, 2)).toEqual(['F1', 'F2'])

    await ok('run', '-i', index, '--queries', `${nf}dev/q-titles.queries`, '-o', join(dir, 'first.run'), '-q')
    await ok('run', '-i', index, '--queries', `${nf}dev/q-titles.queries`, '-o', join(dir, 'ltr.run'), '--rerank', model, '-q')
    const first = ndcg10(await ok('eval', join(dir, 'first.run'), `${nf}dev/s-3.qrel`, '--trec-eval', '-m', 'ndcg_cut.10'))
    const reranked = ndcg10(await ok('eval', join(dir, 'ltr.run'), `${nf}dev/s-3.qrel`, '--trec-eval', '-m', 'ndcg_cut.10'))
    expect(first).toBe(0.3055)
    expect(reranked).toBeGreaterThan(first + 0.02)

    // explain: the reranked score as bias + feature contributions
    const explained = await ok('search', 'vitamin d and breast cancer', '-i', index, '--rerank', model, '--explain', '-n', '2')
    expect(explained).toContain('reranked by LambdaMART')
    expect(explained).toMatch(/= bias -?[\d.]+ \+ (F|M)\d+=/)

    // Solr LTR export
    await ok('model', 'export-solr', model, '-o', join(dir, 'solr.json'))
    const solr = JSON.parse(await readFile(join(dir, 'solr.json'), 'utf8')) as { class: string; features: unknown[] }
    expect(solr.class).toBe('org.apache.solr.ltr.model.MultipleAdditiveTreesModel')
    expect(solr.features).toHaveLength(182)

    // a model trained on other features is refused with a clear error
    const broken = join(dir, 'broken')
    await ok('train', '-i', index, '--queries', join(dir, 'train.queries'), '--qrels', `${nf}train/s-3.qrel`, '--depth', '20', '--trees', '5', '-o', broken, '-q')
    // --threads 2 trains on LightGBM's threaded build: on this small set, the same model
    const threaded = join(dir, 'threaded')
    await ok('train', '-i', index, '--queries', join(dir, 'train.queries'), '--qrels', `${nf}train/s-3.qrel`, '--depth', '20', '--trees', '5', '--threads', '2', '-o', threaded, '-q')
    const withoutThreads = (model: string): string => model.replace(/^\[num_threads: \d+\]$/m, '')
    expect(withoutThreads(await readFile(join(threaded, 'model.txt'), 'utf8'))).toBe(withoutThreads(await readFile(join(broken, 'model.txt'), 'utf8')))
    const threadedManifest = JSON.parse(await readFile(join(threaded, 'manifest.json'), 'utf8')) as ModelManifest
    expect(threadedManifest.lightgbm.params.num_threads).toBe(2)
    const text = await readFile(join(broken, 'manifest.json'), 'utf8')
    await writeFile(join(broken, 'manifest.json'), text.replace('"bestmatch-179/1"', '"bestmatch-178/1"'))
    const refused = await pubmatch('search', 'vitamin d', '-i', index, '--rerank', broken)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/^pubmatch: SCHEMA_MISMATCH: .*"bestmatch-178\/1".*"bestmatch-179\/1"/)
  })

  it('writes the features of any query set as LETOR for other tools', async () => {
    await writeFile(join(dir, 'two.queries'), 'PLAIN-1\twhy deep fried foods may cause cancer\nPLAIN-1007\tddt\n')
    const out = join(dir, 'two.letor')
    expect(await ok('features', '-i', index, '--queries', join(dir, 'two.queries'), '--qrels', `${nf}dev/s-3.qrel`, '--depth', '10', '-o', out, '-q')).toMatch(/2 queries, 20 rows × 179 features/)
    const lines = (await readFile(out, 'utf8')).trim().split('\n')
    expect(lines).toHaveLength(20)
    expect(lines[0]).toMatch(/^\d+ qid:PLAIN-1 1:\S+ 2:\S+ .* 179:\S+ # MED-\d+$/)
  })

  it('runs the search-log path: simulated clicks → labels → model', async () => {
    const log = join(dir, 'clicks')
    const simulated = await ok('clicks', 'simulate', '-i', index, '--queries', join(dir, 'train.queries'), '--qrels', `${nf}train/s-3.qrel`, '--log', log, '--sessions', '30')
    expect(simulated).toMatch(/24000 sessions over 800 queries/)
    const labelled = await ok('clicks', 'labels', '--log', log, '--queries-out', join(dir, 'clicks.queries'), '--qrels-out', join(dir, 'clicks.qrel'), '--min-clicked', '5')
    const kept = Number(/wrote (\d+) labelled queries/.exec(labelled)![1])
    expect(kept).toBeGreaterThan(50)
    const qrels = (await readFile(join(dir, 'clicks.qrel'), 'utf8')).trim().split('\n')
    // NCBI grades: 12 for the most clicked document of a query
    expect(qrels.some((line) => line.endsWith('\t12') || line.endsWith(' 12'))).toBe(true)
    await ok('train', '-i', index, '--queries', join(dir, 'clicks.queries'), '--qrels', join(dir, 'clicks.qrel'), '--depth', '20', '--trees', '20', '--usage-log', log, '-o', join(dir, 'click-model'), '-q')
    expect(existsSync(join(dir, 'click-model', 'model.txt'))).toBe(true)
  })

  it("reads NCBI's Best Match sample: real log queries, gold lists, eligibility", async () => {
    const out = await ok('clicks', 'sample', sharedDataPath('pubmed-best-match'))
    expect(out).toContain('1000 queries: 786 simple; 672 with a gold list, 612 with candidates; 505 eligible')
  })
})
