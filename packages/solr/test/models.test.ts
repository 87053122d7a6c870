/**
 * Deploying pubmatch models into a collection on a real local SolrCloud (2 nodes, embedded
 * ZooKeeper): the collection made from the bundled PubMed sample records its first stage, models
 * trained by LightGBM (in WebAssembly) with pubmatch's manifest are deployed, listed, loaded on
 * every replica through each node's `ModelCache`, removed, and refused with a readable reason
 * (another first stage, a corrupt `model.txt`, a feature count off the schema, a taken name); a
 * model larger than a ZooKeeper node is split into chunks and read back identical. Needs the Maven
 * module built (`pnpm build` with a JDK 17 and Maven); CI always has it.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getAnalyzer, textTerms } from '@pubmatch/analysis'
import { PubmatchError } from '@pubmatch/core'
import { defaultReaders, ingestFiles, openCorpus } from '@pubmatch/ingest'
import { loadLightGbm, type LightGbm, type LightGbmParams } from '@pubmatch/lightgbm-wasm'
import { createSyntheticRankingSet } from '@pubmatch/lightgbm-wasm/testing'
import { samplePath } from '@pubmatch/sample-data'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSolrClient, type SolrClient } from '../src/client.ts'
import { javaBuilt, startLocalCluster, type LocalCluster } from '../src/cluster.ts'
import { solrFields } from '../src/configset.ts'
import { indexCorpus } from '../src/indexer.ts'
import {
  collectionFirstStage,
  deployModel,
  FIRST_STAGE_PROPERTY,
  listModels,
  loadModelOnReplicas,
  MODELS_HANDLER,
  readDeployedFile,
  removeModel,
} from '../src/models.ts'

const RUN = javaBuilt() || process.env.CI !== undefined

/** Best Match's feature ids (`@pubmatch/ltr`'s schema `bestmatch-179/1`: F1–F179). */
const FEATURES = Array.from({ length: 179 }, (_, i) => `F${i + 1}`)

/**
 * Trains a LambdaMART model on synthetic ranking data with 179 features and writes it as a
 * pubmatch model folder (the manifest as `saveBestMatchModel` writes it, format 2).
 */
async function trainModelFolder(
  lightgbm: LightGbm,
  dir: string,
  options: { rounds: number; params?: LightGbmParams; queries?: number; memory?: string[] },
): Promise<{ text: string; trees: number }> {
  const train = createSyntheticRankingSet({
    numQueries: options.queries ?? 40,
    docsPerQuery: [20, 40],
    numFeatures: FEATURES.length,
    seed: 7,
  })
  const params: LightGbmParams = {
    objective: 'lambdarank',
    verbosity: -1,
    min_data_in_leaf: 3,
    seed: 7,
    ...options.params,
  }
  const { booster } = lightgbm.train({ params, train, numBoostRound: options.rounds })
  let text: string
  try {
    text = booster.saveModel()
  } finally {
    booster.free()
  }
  const trees = (text.match(/^Tree=/gm) ?? []).length
  const manifest = {
    format: 'pubmatch-ltr-model/2',
    createdAt: '2026-11-28T00:00:00.000Z',
    schema: { version: 'bestmatch-179/1', features: FEATURES },
    firstStage: {
      ranker: 'bm25f',
      params: {},
      analyzer: 'biomedical',
      fieldSet: 'pubmed',
      fields: solrFields('pubmed').text,
      match: 'all',
      syntax: 'pubmed',
      depth: 500,
    },
    training: {
      queries: 'synthetic ranking set (@pubmatch/lightgbm-wasm/testing, seed 7)',
      qrels: 'its grades',
      validation: 'none',
      usageLog: null,
      depth: 40,
      trainQueries: options.queries ?? 40,
      trainRows: train.labels.length,
      validQueries: 0,
      testQueries: 0,
      seconds: 0,
      seed: 7,
      memory: options.memory === undefined ? null : { queries: options.memory.length, k: 5 },
    },
    lightgbm: { params, iterations: trees },
    metrics: {},
  }
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, 'model.txt'), text)
  await writeFile(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  if (options.memory !== undefined) {
    await writeFile(join(dir, 'memory.jsonl'), `${options.memory.join('\n')}\n`)
  }
  return { text, trees }
}

/** The parts of a manifest the refusals change. */
interface TestManifest {
  format: string
  schema: { features: string[] }
  firstStage: { analyzer: string; params: Record<string, unknown>; fields: string[] }
  training: { memory: unknown }
}

/** A copy of a model folder with its manifest changed. */
async function withManifest(
  from: string,
  to: string,
  change: (manifest: TestManifest) => void,
): Promise<string> {
  await mkdir(to, { recursive: true })
  const manifest = JSON.parse(await readFile(join(from, 'manifest.json'), 'utf8')) as TestManifest
  change(manifest)
  await writeFile(join(to, 'manifest.json'), JSON.stringify(manifest))
  await writeFile(join(to, 'model.txt'), await readFile(join(from, 'model.txt')))
  return to
}

/** The error a refused call throws. */
async function refusal(call: Promise<unknown>): Promise<PubmatchError> {
  try {
    await call
  } catch (error) {
    if (error instanceof PubmatchError) {
      return error
    }
    throw error
  }
  throw new Error('expected the call to be refused')
}

describe.runIf(RUN)('models deployed into a SolrCloud collection', () => {
  let work: string
  let cluster: LocalCluster
  let client: SolrClient
  let lightgbm: LightGbm
  let small: { dir: string; text: string; trees: number }
  const collection = 'pubmed'

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'pubmatch-solr-models-'))
    const [started] = await Promise.all([
      startLocalCluster({ dir: join(work, 'cluster'), nodes: 2, heap: '1g', ownerPid: process.pid }),
      (async () => {
        const store = await openCorpus(join(work, 'corpus'), { create: true })
        await ingestFiles(store, [samplePath('pubmed', 'medline16n0902.xml.gz')], {
          readers: defaultReaders(),
        })
        await store.close()
      })(),
    ])
    cluster = started
    client = createSolrClient({ urls: cluster.urls(), backoffMs: 100, retries: 8 })
    await indexCorpus({ client, corpus: join(work, 'corpus'), collection, shards: 2, replicas: 2 })
    lightgbm = await loadLightGbm()
    const dir = join(work, 'bm-small')
    const memory = [
      '{"id":"q1","text":"asthma in children","judgements":{"27000001":2}}',
      '{"id":"q2","text":"heart rate","judgements":{}}',
    ]
    small = { dir, ...(await trainModelFolder(lightgbm, dir, { rounds: 20, memory })) }
  })

  afterAll(async () => {
    await cluster?.shutdown()
    if (work !== undefined) {
      await rm(work, { recursive: true, force: true })
    }
  })

  it('records the collection first stage at creation', async () => {
    const answer = await client.request({
      path: `${collection}/${MODELS_HANDLER}`,
      params: { action: 'firstStage' },
    })
    expect(answer.firstStage).toEqual(
      collectionFirstStage({ fieldSet: 'pubmed', analyzer: 'biomedical', k1: 1.2, b: 0.75 }),
    )
  })

  it('deploys a model, lists it and loads it on every replica of both nodes', async () => {
    const deployed = await deployModel({ client, collection, dir: small.dir })
    expect(deployed).toMatchObject({
      name: 'bm-small',
      collection,
      trees: small.trees,
      features: 179,
      schemaVersion: 'bestmatch-179/1',
    })
    expect(Object.keys(deployed.files).sort()).toEqual([
      'manifest.json',
      'memory-terms.jsonl',
      'memory.jsonl',
      'model.txt',
    ])
    // the memory analysed with the manifest's analyzer (biomedical): ids, terms, judgements
    const terms = await readDeployedFile({
      client,
      collection,
      name: 'bm-small',
      file: 'memory-terms.jsonl',
    })
    expect(
      terms.text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual([
      {
        id: 'q1',
        terms: textTerms(getAnalyzer('biomedical'), 'asthma in children'),
        judgements: { '27000001': 2 },
      },
      { id: 'q2', terms: textTerms(getAnalyzer('biomedical'), 'heart rate'), judgements: {} },
    ])
    expect(deployed.files['model.txt']).toMatchObject({
      bytes: Buffer.byteLength(small.text),
      chunks: 1,
    })

    const listing = await listModels({ client, collection })
    expect(listing.models.map((m) => m.name)).toEqual(['bm-small'])
    expect(listing.incomplete).toEqual([])

    const replicas = await loadModelOnReplicas({ client, collection, name: 'bm-small' })
    expect(replicas).toHaveLength(4)
    expect(new Set(replicas.map((r) => r.node)).size).toBe(2)
    expect(new Set(replicas.map((r) => r.shard))).toEqual(new Set(['shard1', 'shard2']))
    for (const replica of replicas) {
      expect(replica).toMatchObject({
        name: 'bm-small',
        uploadId: deployed.uploadId,
        trees: small.trees,
        features: 179,
        schemaFeatures: 179,
        depth: 500,
        memory: true,
      })
    }
    // one cache per node: the node's second core finds it loaded
    expect(replicas.filter((r) => !r.wasCached)).toHaveLength(2)
    const again = await loadModelOnReplicas({ client, collection, name: 'bm-small' })
    expect(again.every((r) => r.wasCached)).toBe(true)
  })

  it('loads a new model once under concurrent first uses, and keeps models immutable per name', async () => {
    const second = await deployModel({ client, collection, dir: small.dir, name: 'bm-second' })
    const core = (await loadModelOnReplicas({ client, collection, name: 'bm-small' }))[0]!.core
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        client.request({
          path: `${core}/${MODELS_HANDLER}`,
          params: { action: 'load', name: 'bm-second' },
        }),
      ),
    )
    expect(new Set(answers.map((a) => a.uploadId))).toEqual(new Set([second.uploadId]))
    expect((await listModels({ client, collection })).models.map((m) => m.name)).toEqual([
      'bm-second',
      'bm-small',
    ])

    const taken = await refusal(
      deployModel({ client, collection, dir: small.dir, name: 'bm-second' }),
    )
    expect(taken.code).toBe('INVALID_ARGUMENT')
    expect(taken.message).toMatch(/^model bm-second already exists in collection pubmed.*immutable/)
    expect(
      (await refusal(deployModel({ client, collection, dir: small.dir, name: '../etc' }))).code,
    ).toBe('INVALID_ARGUMENT')
  })

  it('removes a model: it disappears from the list and from the shards', async () => {
    await deployModel({ client, collection, dir: small.dir, name: 'bm-doomed' })
    await loadModelOnReplicas({ client, collection, name: 'bm-doomed' })
    expect(await removeModel({ client, collection, name: 'bm-doomed' })).toEqual({
      wasComplete: true,
    })
    expect((await listModels({ client, collection })).models.map((m) => m.name)).not.toContain(
      'bm-doomed',
    )
    const gone = await refusal(loadModelOnReplicas({ client, collection, name: 'bm-doomed' }))
    expect(gone.code).toBe('NOT_FOUND')
    expect(gone.message).toMatch(/^model bm-doomed is not deployed in collection pubmed/)
    expect((await refusal(removeModel({ client, collection, name: 'bm-doomed' }))).code).toBe(
      'NOT_FOUND',
    )
    // the others are untouched
    expect(
      (await loadModelOnReplicas({ client, collection, name: 'bm-second' })).every(
        (r) => r.trees === small.trees,
      ),
    ).toBe(true)
  })

  it('refuses a model trained on another first stage, a corrupt model.txt and a feature count off the schema', async () => {
    const before = await listModels({ client, collection })
    const refused = async (dir: string, code: string, message: RegExp | string): Promise<void> => {
      const error = await refusal(deployModel({ client, collection, dir }))
      expect(error.code).toBe(code)
      if (typeof message === 'string') {
        expect(error.message).toBe(message)
      } else {
        expect(error.message).toMatch(message)
      }
    }
    const analyzer = await withManifest(small.dir, join(work, 'bad-analyzer'), (m) => {
      m.firstStage.analyzer = 'whitespace'
      m.training.memory = null
    })
    await refused(
      analyzer,
      'SCHEMA_MISMATCH',
      /^model bad-analyzer was trained on a first stage with analyzer "whitespace", but collection pubmed searches with analyzer "biomedical".*retrain/,
    )
    const k1 = await withManifest(small.dir, join(work, 'bad-k1'), (m) => {
      m.firstStage.params = { k1: 2 }
      m.training.memory = null
    })
    await refused(
      k1,
      'SCHEMA_MISMATCH',
      /^model bad-k1 was trained on a first stage with params\.k1 2\.0, but collection pubmed searches with params\.k1 1\.2/,
    )
    const fields = await withManifest(small.dir, join(work, 'bad-fields'), (m) => {
      m.firstStage.fields = ['title', 'abstract']
      m.training.memory = null
    })
    await refused(fields, 'SCHEMA_MISMATCH', /with fields \["title","abstract"\]/)

    const corrupt = await withManifest(small.dir, join(work, 'corrupt'), (m) => {
      m.training.memory = null
    })
    const text = await readFile(join(corrupt, 'model.txt'), 'utf8')
    await writeFile(join(corrupt, 'model.txt'), text.replace(/^threshold=\S+ /m, 'threshold='))
    await refused(
      corrupt,
      'UNSUPPORTED_FORMAT',
      /^model corrupt: model\.txt line \d+: tree 0: threshold has/,
    )
    const count = await withManifest(small.dir, join(work, 'bad-count'), (m) => {
      m.schema.features = FEATURES.slice(0, 178)
      m.training.memory = null
    })
    await refused(
      count,
      'UNSUPPORTED_FORMAT',
      "model bad-count: model.txt uses 179 features but manifest.json's schema lists 178",
    )
    const noMemory = await withManifest(small.dir, join(work, 'no-memory'), () => {})
    await refused(
      noMemory,
      'UNSUPPORTED_FORMAT',
      /^model no-memory: manifest\.json says the model was trained with a query memory, but memory\.jsonl is missing/,
    )
    const format = await withManifest(small.dir, join(work, 'old-format'), (m) => {
      m.format = 'pubmatch-ltr-model/3'
    })
    await refused(
      format,
      'UNSUPPORTED_FORMAT',
      /^model old-format: manifest\.json has format "pubmatch-ltr-model\/3", expected "pubmatch-ltr-model\/2"/,
    )
    await refused(join(work, 'nothing'), 'NOT_FOUND', /^no model in .*nothing/)
    // nothing was stored, not even half
    expect(await listModels({ client, collection })).toEqual(before)
  })

  it('splits a model larger than a ZooKeeper node into chunks and reads it back identical', async () => {
    const dir = join(work, 'bm-large')
    const large = await trainModelFolder(lightgbm, dir, {
      rounds: 80,
      params: { num_leaves: 255, min_data_in_leaf: 2, min_sum_hessian_in_leaf: 0, max_bin: 63 },
    })
    expect(Buffer.byteLength(large.text)).toBeGreaterThan(2 * 1024 * 1024)
    const deployed = await deployModel({ client, collection, dir })
    const stored = deployed.files['model.txt']!
    // gzip still leaves more than one 512 KiB chunk
    expect(stored.gzipBytes).toBeGreaterThan(512 * 1024)
    expect(stored.chunks).toBeGreaterThanOrEqual(2)
    const back = await readDeployedFile({ client, collection, name: 'bm-large', file: 'model.txt' })
    expect(back.bytes).toBe(Buffer.byteLength(large.text))
    expect(back.text === large.text).toBe(true)
    const replicas = await loadModelOnReplicas({ client, collection, name: 'bm-large' })
    expect(replicas.map((r) => r.trees)).toEqual([
      large.trees,
      large.trees,
      large.trees,
      large.trees,
    ])
  })

  it('records the first stage of a collection that lacks it from its state document', async () => {
    await client.request({
      path: 'admin/collections',
      params: { action: 'COLLECTIONPROP', name: collection, propertyName: FIRST_STAGE_PROPERTY },
    })
    const cleared = await client.request({
      path: `${collection}/${MODELS_HANDLER}`,
      params: { action: 'firstStage' },
    })
    expect(cleared.firstStage).toBeNull()
    await deployModel({ client, collection, dir: small.dir, name: 'bm-adopted' })
    const answer = await client.request({
      path: `${collection}/${MODELS_HANDLER}`,
      params: { action: 'firstStage' },
    })
    expect(answer.firstStage).toEqual(
      collectionFirstStage({ fieldSet: 'pubmed', analyzer: 'biomedical', k1: 1.2, b: 0.75 }),
    )
  })
})
