/**
 * pubmatch models deployed into a SolrCloud collection, for the second stage on the shards: a
 * model folder (`manifest.json`, `model.txt`, optional `memory.jsonl`, and then the memory analysed
 * by pubmatch's analyzer, `memory-terms.jsonl`) sent to the collection's
 * `/pubmatch/models` handler (the Java `org.pubmatch.solr.models.ModelHandler`), which checks it
 * and stores it in ZooKeeper under `/pubmatch/models/<collection>/<name>/`, immutable per name.
 * The collection's first stage, which a model must have been trained on, is the collection
 * property `pubmatch.firstStage` ({@link FIRST_STAGE_PROPERTY}), set when `createCollection`
 * creates the collection, or here from the state document of an older one.
 */
import { readFile } from 'node:fs/promises'
import { basename, join, resolve } from 'node:path'
import { getAnalyzer, textTerms, type Analyzer, type AnalyzerRegistry } from '@pubmatch/analysis'
import { checkJson, isPubmatchError, json, parseJson, PubmatchError } from '@pubmatch/core'
import { createSolrClient, type SolrClient, type SolrResponse } from './client.ts'
import { solrFields, type SolrFieldSet } from './configset.ts'
import { readCollectionState, type CollectionState } from './indexer.ts'

/** The collection property holding the collection's first stage (JSON of {@link CollectionFirstStage}). */
export const FIRST_STAGE_PROPERTY = 'pubmatch.firstStage'

/** The handler's path under a collection (or a core). */
export const MODELS_HANDLER = 'pubmatch/models'

/** The query memory analysed by pubmatch's analyzer, stored beside `memory.jsonl` (the Java `ModelValidator.MEMORY_TERMS_FILE`). */
export const MEMORY_TERMS_FILE = 'memory-terms.jsonl'

/** What a model name may be (as the Java `ModelStore.NAME`). */
const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/

/**
 * The first stage a collection runs, as a model's `firstStage` record has it (without `match`,
 * `syntax` and `depth`, which are per request): Solr's `bm25f` parser with the collection's k1 and
 * b, its analyzer, field set and text fields.
 */
export interface CollectionFirstStage {
  readonly ranker: 'bm25f'
  readonly params: { readonly k1: number; readonly b: number }
  readonly analyzer: string
  readonly fieldSet: SolrFieldSet
  /** The text fields, in schema order. */
  readonly fields: readonly string[]
}

/**
 * The first-stage record of a collection of these settings.
 * @param settings - the collection's field set, analyzer and BM25 k1/b
 */
export function collectionFirstStage(
  settings: Pick<CollectionState, 'fieldSet' | 'analyzer' | 'k1' | 'b'>,
): CollectionFirstStage {
  return {
    ranker: 'bm25f',
    params: { k1: settings.k1, b: settings.b },
    analyzer: settings.analyzer,
    fieldSet: settings.fieldSet,
    fields: solrFields(settings.fieldSet).text,
  }
}

/**
 * Records a collection's first stage in its collection property {@link FIRST_STAGE_PROPERTY}
 * (Collections API `COLLECTIONPROP`), where the models handler reads it.
 * @param client - a client
 * @param collection - the collection
 * @param record - its first stage
 */
export async function recordFirstStage(
  client: SolrClient,
  collection: string,
  record: CollectionFirstStage,
): Promise<void> {
  await client.request({
    path: 'admin/collections',
    params: {
      action: 'COLLECTIONPROP',
      name: collection,
      propertyName: FIRST_STAGE_PROPERTY,
      propertyValue: JSON.stringify(record),
    },
  })
}

/** Sizes of one stored file. */
export interface DeployedFile {
  readonly bytes: number
  readonly gzipBytes: number
  /** ZooKeeper nodes it is split into. */
  readonly chunks: number
  readonly sha256: string
}

/** A model deployed in a collection (the handler's descriptor). */
export interface DeployedModel {
  readonly name: string
  readonly collection: string
  /** A new id at every deployment of a name. */
  readonly uploadId: string
  readonly uploadedAt: string
  readonly trees: number
  readonly features: number
  readonly schemaVersion: string
  /** When the model was trained (its manifest's `createdAt`). */
  readonly createdAt: string
  /** The first stage it was trained on (its manifest's `firstStage`). */
  readonly firstStage: Readonly<Record<string, unknown>>
  readonly files: Readonly<Record<string, DeployedFile>>
}

const DEPLOYED_FILE = json.object({
  bytes: json.count,
  gzipBytes: json.count,
  chunks: json.count,
  sha256: json.string,
})

const DEPLOYED_MODEL = json.object({
  name: json.string,
  collection: json.string,
  uploadId: json.string,
  uploadedAt: json.string,
  trees: json.count,
  features: json.count,
  schemaVersion: json.string,
  createdAt: json.string,
  firstStage: json.record(json.unknown),
  files: json.record(DEPLOYED_FILE),
})

/** What every models call needs. */
export interface ModelsOptions {
  readonly client: SolrClient
  readonly collection: string
}

/** Options of {@link deployModel}. */
export interface DeployModelOptions extends ModelsOptions {
  /** The model folder (`pubmatch train -o DIR`). */
  readonly dir: string
  /** The name in the collection. Defaults to the folder's name. */
  readonly name?: string
  /**
   * Where the model's analyzer (its manifest's `firstStage.analyzer`, the collection's) is looked
   * up to analyse a query memory. Defaults to the built-in analyzers, as `indexCorpus`'s.
   */
  readonly analyzers?: Pick<AnalyzerRegistry, 'get'>
}

const MEMORY_LINE = json.object({
  id: json.string,
  text: json.string,
  judgements: json.record(json.number),
})

/**
 * A model's query memory analysed as pubmatch's memory reads it (`createQueryMemory` of
 * `@pubmatch/ltr`): per remembered query, in the file's order, its id, its terms (`textTerms`:
 * the analyzer's terms in order, duplicates kept, joined compound forms left out) and its
 * judgements. The Java rank query cannot run pubmatch's analyzer, so `deployModel` sends this
 * beside `memory.jsonl` and the shards compute M1–M3 from it.
 * @param memory - the text of `memory.jsonl` (JSON lines `{id, text, judgements}`)
 * @param analyzer - the index's text analyzer (the title's: the collection's analyzer)
 * @param file - the file's name, for messages
 * @returns the text of `memory-terms.jsonl` (JSON lines `{id, terms, judgements}`)
 * @throws PubmatchError `UNSUPPORTED_FORMAT` naming a bad line
 */
export function analyzeQueryMemory(
  memory: string,
  analyzer: Analyzer,
  file = 'memory.jsonl',
): string {
  const lines: string[] = []
  for (const [i, line] of memory.split('\n').entries()) {
    if (line.trim() === '') {
      continue
    }
    const query = parseJson(line, MEMORY_LINE, {
      file: `${file}:${i + 1}`,
      code: 'UNSUPPORTED_FORMAT',
    })
    lines.push(
      JSON.stringify({
        id: query.id,
        terms: textTerms(analyzer, query.text),
        judgements: query.judgements,
      }),
    )
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`
}

/**
 * Deploys a model folder into a collection. The handler checks the manifest (format
 * `pubmatch-ltr-model/2`), parses `model.txt`, compares the feature count with the manifest's
 * schema and the model's first stage with the collection's, then stores it in ZooKeeper; a
 * collection that records no first stage yet gets it from its state document first. A model with a
 * query memory (`memory.jsonl`) also gets the memory's analysed form ({@link analyzeQueryMemory},
 * with the model's analyzer), from which the shards compute M1–M3.
 * @param options - see {@link DeployModelOptions}
 * @throws PubmatchError `NOT_FOUND` (no model in `dir`, no such collection, or a collection without
 *   the models handler or an indexed corpus), `INVALID_ARGUMENT` (a bad name, or the name exists:
 *   models are immutable), `SCHEMA_MISMATCH` (trained on another first stage), `UNSUPPORTED_FORMAT`
 *   (a manifest or model text the handler refuses; the message names the file), `UPSTREAM_HTTP`/`NETWORK`
 */
export async function deployModel(options: DeployModelOptions): Promise<DeployedModel> {
  const { client, collection } = options
  const dir = resolve(options.dir)
  const name = options.name ?? basename(dir)
  checkName(
    name,
    options.name === undefined ? ` (the folder's name; choose one with a name option)` : '',
  )
  const files = await readModelFolder(dir)
  const memoryTerms =
    files.memory === undefined
      ? undefined
      : analyzeQueryMemory(
          files.memory,
          memoryAnalyzer(files.manifest, dir, options.analyzers),
          join(dir, 'memory.jsonl'),
        )
  await ensureFirstStage(client, collection, name)
  const answer = await call(client, collection, name, {
    path: `${collection}/${MODELS_HANDLER}`,
    params: { action: 'upload', name },
    body: {
      manifest: files.manifest,
      model: files.model,
      ...(files.memory === undefined ? {} : { memory: files.memory }),
      ...(memoryTerms === undefined ? {} : { memoryTerms }),
    },
    retry: false,
  })
  return checkJson(answer.model, DEPLOYED_MODEL, {
    file: `${collection}/${MODELS_HANDLER}?action=upload`,
  })
}

/** What {@link listModels} finds. */
export interface ModelListing {
  /** Complete models, by name. */
  readonly models: readonly DeployedModel[]
  /** Names being uploaded, or whose upload was interrupted (remove them with {@link removeModel}). */
  readonly incomplete: readonly string[]
}

/**
 * Lists the models deployed in a collection.
 * @param options - the client and the collection
 * @throws PubmatchError `NOT_FOUND` (no such collection, or no models handler), `UPSTREAM_HTTP`/`NETWORK`
 */
export async function listModels(options: ModelsOptions): Promise<ModelListing> {
  const { client, collection } = options
  const answer = await call(client, collection, undefined, {
    path: `${collection}/${MODELS_HANDLER}`,
    params: { action: 'list' },
  })
  return checkJson(
    { models: answer.models, incomplete: answer.incomplete },
    json.object({ models: json.array(DEPLOYED_MODEL), incomplete: json.array(json.string) }),
    { file: `${collection}/${MODELS_HANDLER}?action=list` },
  )
}

/**
 * Removes a model from a collection (complete or interrupted). Queries that hold it finish with it;
 * the shards drop it from their caches.
 * @param options - the client, the collection and the name
 * @returns whether the model was complete (listed) before
 * @throws PubmatchError `NOT_FOUND` (no such model), `UPSTREAM_HTTP`/`NETWORK`
 */
export async function removeModel(
  options: ModelsOptions & { readonly name: string },
): Promise<{ readonly wasComplete: boolean }> {
  const { client, collection, name } = options
  checkName(name, '')
  const answer = await call(client, collection, name, {
    path: `${collection}/${MODELS_HANDLER}`,
    params: { action: 'delete', name },
    body: {},
    retry: false,
  })
  return { wasComplete: answer.wasComplete === true }
}

/** One replica's answer to {@link loadModelOnReplicas}. */
export interface ReplicaModel {
  readonly node: string
  readonly core: string
  readonly shard: string
  readonly name: string
  readonly uploadId: string
  readonly trees: number
  readonly features: number
  /** The manifest's feature count. */
  readonly schemaFeatures: number
  readonly depth: number
  /** Whether it has a query memory. */
  readonly memory: boolean
  /** Whether the node had it cached before this call. */
  readonly wasCached: boolean
}

const REPLICA_MODEL = json.object({
  node: json.string,
  core: json.string,
  shard: json.string,
  name: json.string,
  uploadId: json.string,
  trees: json.count,
  features: json.count,
  schemaFeatures: json.count,
  depth: json.count,
  memory: json.boolean,
  wasCached: json.boolean,
})

/**
 * Loads a model on every replica of a collection through each node's model cache (as a rerank
 * query would), asking each core directly: a check that every shard can read it, and a warm-up.
 * @param options - the client, the collection and the name
 * @throws PubmatchError as Solr answers for the first replica that cannot load it (the message names
 *   the model and why), `NOT_FOUND` (no such collection)
 */
export async function loadModelOnReplicas(
  options: ModelsOptions & { readonly name: string },
): Promise<ReplicaModel[]> {
  const { client, collection, name } = options
  checkName(name, '')
  const status = await client.request({
    path: 'admin/collections',
    params: { action: 'CLUSTERSTATUS', collection },
  })
  const shape = json.object({
    cluster: json.object({
      collections: json.record(
        json.object({
          shards: json.record(
            json.object({
              replicas: json.record(
                json.object({ core: json.string, base_url: json.string, state: json.string }),
              ),
            }),
          ),
        }),
      ),
    }),
  })
  const { cluster } = checkJson(status, shape, { file: 'admin/collections?action=CLUSTERSTATUS' })
  const state = cluster.collections[collection]
  if (state === undefined) {
    throw new PubmatchError('NOT_FOUND', `no Solr collection ${collection}`)
  }
  const out: ReplicaModel[] = []
  for (const shard of Object.values(state.shards)) {
    for (const replica of Object.values(shard.replicas)) {
      if (replica.state !== 'active') {
        continue
      }
      const node = createSolrClient({ urls: [replica.base_url], retries: 2 })
      const answer = await call(node, collection, name, {
        path: `${replica.core}/${MODELS_HANDLER}`,
        params: { action: 'load', name },
      })
      out.push(
        checkJson(answer, REPLICA_MODEL, {
          file: `${replica.base_url}/${replica.core}/${MODELS_HANDLER}?action=load`,
        }),
      )
    }
  }
  return out
}

/**
 * One file of a deployed model as ZooKeeper holds it, read back by the handler (for checks).
 * @param options - the client, the collection, the name and the file
 * @throws PubmatchError `NOT_FOUND` (no such model or file)
 */
export async function readDeployedFile(
  options: ModelsOptions & {
    readonly name: string
    readonly file: 'model.txt' | 'manifest.json' | 'memory.jsonl' | 'memory-terms.jsonl'
  },
): Promise<{ readonly text: string; readonly bytes: number; readonly sha256: string }> {
  const { client, collection, name, file } = options
  const answer = await call(client, collection, name, {
    path: `${collection}/${MODELS_HANDLER}`,
    params: { action: 'get', name, file },
  })
  return checkJson(
    { text: answer.text, bytes: answer.bytes, sha256: answer.sha256 },
    json.object({ text: json.string, bytes: json.count, sha256: json.string }),
    {
      file: `${collection}/${MODELS_HANDLER}?action=get`,
    },
  )
}

function checkName(name: string, hint: string): void {
  if (!MODEL_NAME.test(name)) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `"${name}" is not a valid model name${hint}: a letter or digit, then up to 127 letters, digits, _ . -`,
    )
  }
}

/** The analyzer a model's memory is read with: its first stage's (the collection's, checked by the handler). */
function memoryAnalyzer(
  manifest: unknown,
  dir: string,
  analyzers: Pick<AnalyzerRegistry, 'get'> | undefined,
): Analyzer {
  const firstStage = (manifest as { firstStage?: { analyzer?: unknown } } | null)?.firstStage
  const name = firstStage?.analyzer
  if (typeof name !== 'string') {
    throw new PubmatchError(
      'UNSUPPORTED_FORMAT',
      `${join(dir, 'manifest.json')}: firstStage.analyzer must be a string (the analyzer the query memory is read with)`,
      { details: { file: join(dir, 'manifest.json') } },
    )
  }
  return (analyzers ?? { get: getAnalyzer }).get(name)
}

/** The files of a model folder, read as they are (the handler checks them). */
async function readModelFolder(
  dir: string,
): Promise<{ manifest: unknown; model: string; memory?: string }> {
  const read = async (file: string): Promise<string | undefined> => {
    try {
      return await readFile(join(dir, file), 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return undefined
      }
      throw new PubmatchError('IO', `cannot read ${join(dir, file)}: ${(error as Error).message}`, {
        cause: error,
        details: { file: join(dir, file) },
      })
    }
  }
  const [manifestText, model, memory] = await Promise.all([
    read('manifest.json'),
    read('model.txt'),
    read('memory.jsonl'),
  ])
  if (manifestText === undefined || model === undefined) {
    throw new PubmatchError(
      'NOT_FOUND',
      `no model in ${dir} (expected manifest.json and model.txt); train one with \`pubmatch train -i INDEX --queries QUERIES --qrels QRELS -o ${dir}\``,
      { details: { file: dir } },
    )
  }
  const manifest = parseJson(manifestText, json.unknown, {
    file: join(dir, 'manifest.json'),
    code: 'UNSUPPORTED_FORMAT',
  })
  return { manifest, model, ...(memory === undefined ? {} : { memory }) }
}

/** Records the collection's first stage from its state document when it records none yet. */
async function ensureFirstStage(
  client: SolrClient,
  collection: string,
  name: string,
): Promise<void> {
  const answer = await call(client, collection, name, {
    path: `${collection}/${MODELS_HANDLER}`,
    params: { action: 'firstStage' },
  })
  if (answer.firstStage !== null && answer.firstStage !== undefined) {
    return
  }
  // an older collection: its state document holds what createCollection records now
  const state = await readCollectionState(client, collection)
  if (state === undefined) {
    throw new PubmatchError(
      'NOT_FOUND',
      `the Solr collection ${collection} records no first stage and holds no indexed corpus; index a corpus into it with \`pubmatch index --solr URLS --collection ${collection}\` before deploying models`,
    )
  }
  await recordFirstStage(client, collection, collectionFirstStage(state))
}

/** A request to the handler, with Solr's refusals turned into errors of the right code. */
async function call(
  client: SolrClient,
  collection: string,
  name: string | undefined,
  request: Parameters<SolrClient['request']>[0],
): Promise<SolrResponse> {
  try {
    return await client.request(request)
  } catch (error) {
    if (!isPubmatchError(error, 'UPSTREAM_HTTP')) {
      throw error
    }
    const status = error.details.status ?? 0
    const message = error.message.replace(/^.*? answered \d+: /, '')
    const details = { ...error.details, collection, ...(name === undefined ? {} : { model: name }) }
    if (status === 404 && !/^model /.test(message)) {
      throw new PubmatchError(
        'NOT_FOUND',
        `the Solr collection ${collection} does not exist or has no /${MODELS_HANDLER} handler (its configset predates model deployment; recreate it with \`pubmatch index --solr URLS --collection ${collection}\`): ${message}`,
        { cause: error, details },
      )
    }
    const code =
      status === 404
        ? 'NOT_FOUND'
        : status === 409
          ? 'INVALID_ARGUMENT'
          : status === 400
            ? /first stage/.test(message)
              ? 'SCHEMA_MISMATCH'
              : 'UNSUPPORTED_FORMAT'
            : 'UPSTREAM_HTTP'
    throw new PubmatchError(code, message, { cause: error, details })
  }
}
