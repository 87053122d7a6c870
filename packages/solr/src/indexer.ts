/**
 * A corpus store → a SolrCloud collection: creates the collection (configset generated from the
 * field set), streams every article write and deletion of the corpus in batches, and commits once
 * per corpus segment together with a state document that records the segment. Solr opens no
 * searcher between those commits (the configset's hard commits do not, soft commits are off), so
 * searches see whole segments; a later run reads the state document and resumes after the last
 * segment it committed, exactly like the embedded index's `corpusSegment`.
 */
import { checkJson, json, parseJson, PubmatchError, type JsonShape, type MeshDescriptor } from '@pubmatch/core'
import { noArticlesError, openCorpus, type CorpusStore } from '@pubmatch/ingest'
import { meshEntryTermLookup } from '@pubmatch/ingest/internal'
import type { SolrClient, SolrResponse } from './client.ts'
import { SOLR_SCHEMA_VERSION, STATE_FIELD, createConfigset, zipConfigset, type SolrFieldSet } from './configset.ts'
import { createDocumentMapper, type SolrDocument } from './documents.ts'
import { collectionFirstStage, recordFirstStage } from './models.ts'
import { meshDocument } from './records.ts'

/** The id of the state document. */
export const STATE_ID = '_pubmatch_state'

/** What the state document records. */
export interface CollectionState {
  /** What pubmatch writes into the collection (`SOLR_SCHEMA_VERSION`); absent in version 1. */
  readonly schemaVersion?: number
  readonly fieldSet: SolrFieldSet
  readonly analyzer: string
  readonly k1: number
  readonly b: number
  /** The last corpus segment committed. */
  readonly corpusSegment?: string
  /** The corpus directory it follows. */
  readonly corpus: string
  readonly updatedAt: string
}

const COLLECTION_STATE: JsonShape<CollectionState> = json.object({
  schemaVersion: json.optional(json.count),
  fieldSet: json.literal('pubmed', 'test-collection'),
  analyzer: json.string,
  k1: json.number,
  b: json.number,
  corpusSegment: json.optional(json.string),
  corpus: json.string,
  updatedAt: json.string,
})

/** Options of {@link indexCorpus}. */
export interface IndexCorpusOptions {
  readonly client: SolrClient
  /** The corpus directory (`pubmatch ingest -c`). */
  readonly corpus: string
  readonly collection: string
  /** Shards of a new collection. Defaults to `1`. */
  readonly shards?: number
  /** Replicas per shard of a new collection. Defaults to `1`. */
  readonly replicas?: number
  /** The field set of a new collection. Defaults to the corpus's (test-collection articles → `test-collection`). */
  readonly fieldSet?: SolrFieldSet
  /** The analyzer of a new collection. Defaults to `biomedical`. */
  readonly analyzer?: string
  readonly k1?: number
  readonly b?: number
  /** Index MeSH entry terms with descriptor names (PubMed field set). Defaults to `true`. */
  readonly meshEntryTerms?: boolean
  /** Documents per update request. Defaults to `1000`. */
  readonly batchSize?: number
  /** Called after every batch. */
  readonly onProgress?: (progress: { readonly done: number; readonly total?: number; readonly segment: string }) => void
  /** Stops after the current batch (nothing half-committed: the segment is redone next time). */
  readonly signal?: AbortSignal
}

/** What {@link indexCorpus} did. */
export interface IndexCorpusResult {
  /** Whether the collection was created by this run. */
  readonly created: boolean
  readonly added: number
  readonly deleted: number
  /** Corpus segments committed by this run. */
  readonly segments: number
  /** The segment it resumed after, when the collection had one. */
  readonly resumedAfter?: string
  /** The last segment now committed. */
  readonly corpusSegment?: string
  /** Documents Solr rejected (the rest of their batch was indexed). */
  readonly errorList: ReadonlyArray<{ readonly id: string; readonly error: PubmatchError }>
  readonly seconds: number
}

/**
 * Indexes a corpus into a collection, creating it when it does not exist.
 * @param options - see {@link IndexCorpusOptions}
 * @throws PubmatchError `SCHEMA_MISMATCH` (an existing collection of another field set or
 *   analyzer, or written by a pubmatch of another `SOLR_SCHEMA_VERSION`), `UPSTREAM_HTTP`/`NETWORK` (Solr failed after retries), `ABORTED`
 */
export async function indexCorpus(options: IndexCorpusOptions): Promise<IndexCorpusResult> {
  const started = performance.now()
  const { client, collection } = options
  const store = await openCorpus(options.corpus, { readOnly: true })
  const existing = await collectionExists(client, collection)
  let state = existing ? await readCollectionState(client, collection) : undefined
  const fieldSet = options.fieldSet ?? state?.fieldSet ?? (await guessFieldSet(store))
  const analyzer = options.analyzer ?? state?.analyzer ?? 'biomedical'
  const k1 = options.k1 ?? state?.k1 ?? 1.2
  const b = options.b ?? state?.b ?? 0.75
  if (state !== undefined && (state.fieldSet !== fieldSet || state.analyzer !== analyzer || state.k1 !== k1 || state.b !== b)) {
    throw new PubmatchError(
      'SCHEMA_MISMATCH',
      `collection ${collection} holds ${state.fieldSet}/${state.analyzer} (k1 ${state.k1}, b ${state.b}); delete it to index with ${fieldSet}/${analyzer} (k1 ${k1}, b ${b})`,
      { details: { collection } },
    )
  }
  if (!existing) {
    await createCollection(client, {
      collection,
      fieldSet,
      analyzer,
      k1,
      b,
      shards: options.shards ?? 1,
      replicas: options.replicas ?? 1,
    })
  }
  // MeSH entry terms beside descriptor names, as the embedded index indexes them
  const meshEntryTerms = fieldSet === 'pubmed' && options.meshEntryTerms !== false ? await meshEntryTermLookup(store.mesh()) : undefined
  const mapper = createDocumentMapper(fieldSet, { analyzer, ...(meshEntryTerms === undefined ? {} : { meshEntryTerms }) })
  // the MeSH vocabulary serving maps `[mh]` through (records.ts), rewritten once per run that commits
  let vocabulary = fieldSet === 'pubmed' ? await meshDescriptors(store) : []
  const batchSize = options.batchSize ?? 1000
  const errorList: Array<{ id: string; error: PubmatchError }> = []
  const resumedAfter = state?.corpusSegment
  let added = 0
  let deleted = 0
  let segments = 0
  let current: string | undefined
  let pending: { kind: 'add'; docs: SolrDocument[] } | { kind: 'delete'; ids: string[] } | undefined
  const total = resumedAfter === undefined ? store.stats().articles : undefined

  const flush = async (): Promise<void> => {
    if (pending === undefined) {
      return
    }
    const batch = pending
    pending = undefined
    if (batch.kind === 'delete') {
      await update(client, collection, { delete: batch.ids })
      deleted += batch.ids.length
    } else {
      added += await addDocuments(client, collection, batch.docs, errorList)
    }
    options.onProgress?.({ done: added + deleted, ...(total === undefined ? {} : { total }), segment: current ?? '' })
  }
  const commitSegment = async (segment: string): Promise<void> => {
    await flush()
    if (vocabulary.length > 0) {
      await update(client, collection, [meshDocument(vocabulary)])
      vocabulary = []
    }
    state = { schemaVersion: SOLR_SCHEMA_VERSION, fieldSet, analyzer, k1, b, corpusSegment: segment, corpus: store.dir, updatedAt: new Date().toISOString() }
    await update(client, collection, [{ id: STATE_ID, [STATE_FIELD]: JSON.stringify(state) }])
    await client.request({ path: `${collection}/update`, params: { commit: 'true', waitSearcher: 'true' } })
    segments++
  }

  for await (const change of store.changes(resumedAfter)) {
    if (current !== undefined && change.segment !== current) {
      await commitSegment(current)
    }
    if (options.signal?.aborted === true) {
      throw new PubmatchError('ABORTED', `indexing into ${collection} was interrupted; the next run resumes after segment ${state?.corpusSegment ?? '(none)'}`)
    }
    current = change.segment
    if (change.kind === 'article') {
      if (pending?.kind !== 'add') {
        await flush()
        pending = { kind: 'add', docs: [] }
      }
      pending.docs.push(mapper.toSolr(change.article, change.segment))
      if (pending.docs.length >= batchSize) {
        await flush()
      }
    } else {
      if (pending?.kind !== 'delete') {
        await flush()
        pending = { kind: 'delete', ids: [] }
      }
      pending.ids.push(change.id)
      if (pending.ids.length >= batchSize) {
        await flush()
      }
    }
  }
  if (current !== undefined) {
    await commitSegment(current)
  }
  return {
    created: !existing,
    added,
    deleted,
    segments,
    ...(resumedAfter === undefined ? {} : { resumedAfter }),
    ...(state?.corpusSegment === undefined ? {} : { corpusSegment: state.corpusSegment }),
    errorList,
    seconds: (performance.now() - started) / 1000,
  }
}

/** Options of {@link createCollection}. */
export interface CreateCollectionOptions {
  readonly collection: string
  readonly fieldSet: SolrFieldSet
  readonly analyzer?: string
  readonly k1?: number
  readonly b?: number
  readonly shards: number
  readonly replicas: number
}

/**
 * Uploads the generated configset (named after the collection) and creates the collection.
 * @param client - a client
 * @param options - see {@link CreateCollectionOptions}
 */
export async function createCollection(client: SolrClient, options: CreateCollectionOptions): Promise<void> {
  for (const [name, value] of [['shards', options.shards], ['replicas', options.replicas]] as const) {
    if (!Number.isInteger(value) || value < 1) {
      throw new PubmatchError('INVALID_ARGUMENT', `${name} must be a positive integer, got ${value}`)
    }
  }
  if (!/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(options.collection)) {
    throw new PubmatchError('INVALID_ARGUMENT', `"${options.collection}" is not a valid collection name (letters, digits, _ . -)`)
  }
  const configset = createConfigset({
    fieldSet: options.fieldSet,
    ...(options.analyzer === undefined ? {} : { analyzer: options.analyzer }),
    ...(options.k1 === undefined ? {} : { k1: options.k1 }),
    ...(options.b === undefined ? {} : { b: options.b }),
  })
  const configName = `pubmatch-${options.collection}`
  await client.request({
    path: 'admin/configs',
    params: { action: 'UPLOAD', name: configName, overwrite: 'true', cleanup: 'true' },
    body: zipConfigset(configset),
    contentType: 'application/octet-stream',
  })
  await client.request({
    path: 'admin/collections',
    params: {
      action: 'CREATE',
      name: options.collection,
      numShards: options.shards,
      replicationFactor: options.replicas,
      'collection.configName': configName,
      waitForFinalState: 'true',
    },
    retry: false,
  })
  // the first stage models deployed into the collection must have been trained on (models.ts)
  await recordFirstStage(client, options.collection, collectionFirstStage({ fieldSet: options.fieldSet, analyzer: configset.options.analyzer, k1: configset.options.k1, b: configset.options.b }))
}

/**
 * Whether a collection exists.
 * @param client - a client
 * @param collection - its name
 */
export async function collectionExists(client: SolrClient, collection: string): Promise<boolean> {
  const answer = await client.request({ path: 'admin/collections', params: { action: 'LIST' } })
  const { collections } = checkJson(answer, json.object({ collections: json.optional(json.array(json.string)) }), { file: 'admin/collections?action=LIST' })
  return (collections ?? []).includes(collection)
}

/**
 * The committed state document of a collection, or `undefined` before the first commit.
 * @param client - a client
 * @param collection - the collection
 * @throws PubmatchError `SCHEMA_MISMATCH` when pubmatch wrote the collection with another
 *   `SOLR_SCHEMA_VERSION` (it must be indexed again), `INDEX_CORRUPTED` for a state document of
 *   another shape
 */
export async function readCollectionState(client: SolrClient, collection: string): Promise<CollectionState | undefined> {
  const answer = await client.request({
    path: `${collection}/select`,
    params: { q: '{!term f=id v=$id}', id: STATE_ID, fl: STATE_FIELD, rows: 1 },
  })
  const { response } = checkJson(answer, json.object({ response: json.optional(json.object({ docs: json.optional(json.array(json.record(json.unknown))) })) }), {
    file: `${collection}/select`,
  })
  const docs = response?.docs ?? []
  const text = docs[0]?.[STATE_FIELD]
  if (typeof text !== 'string') {
    return undefined
  }
  const state = parseJson(text, COLLECTION_STATE, { file: `the state document ${STATE_ID} of collection ${collection}`, code: 'INDEX_CORRUPTED' })
  const version = state.schemaVersion ?? 1
  if (version !== SOLR_SCHEMA_VERSION) {
    const older = version < SOLR_SCHEMA_VERSION
    throw new PubmatchError(
      'SCHEMA_MISMATCH',
      `collection ${collection} was indexed by ${older ? 'an older' : 'a newer'} pubmatch (Solr schema version ${version}; this version reads ${SOLR_SCHEMA_VERSION}${older ? ', which adds every PubMed field tag (affiliations, grants, volume, issue, pagination, filters, PubMed’s dates, …), and what the features (past usage included), the rerank query and a serving process without a local index read' : ''}); delete the collection and index the corpus into it again (\`pubmatch index --solr … --collection ${collection}\`)`,
      { details: { collection } },
    )
  }
  return state
}

async function update(client: SolrClient, collection: string, body: unknown): Promise<SolrResponse> {
  return client.request({ path: `${collection}/update`, body })
}

/** Adds a batch; when Solr rejects it, adds the documents one by one and records the bad ones. */
async function addDocuments(
  client: SolrClient,
  collection: string,
  docs: SolrDocument[],
  errors: Array<{ id: string; error: PubmatchError }>,
): Promise<number> {
  try {
    await update(client, collection, docs)
    return docs.length
  } catch (error) {
    if (!(error instanceof PubmatchError && error.code === 'UPSTREAM_HTTP' && error.details.status === 400)) {
      throw error
    }
  }
  let added = 0
  for (const doc of docs) {
    try {
      await update(client, collection, [doc])
      added++
    } catch (error) {
      if (error instanceof PubmatchError && error.code === 'UPSTREAM_HTTP' && error.details.status === 400) {
        errors.push({ id: String(doc.id), error })
      } else {
        throw error
      }
    }
  }
  return added
}

async function meshDescriptors(store: CorpusStore): Promise<MeshDescriptor[]> {
  const descriptors: MeshDescriptor[] = []
  for await (const entry of store.mesh()) {
    if (entry.type === 'descriptor') {
      descriptors.push(entry.record)
    }
  }
  return descriptors
}

async function guessFieldSet(store: CorpusStore): Promise<SolrFieldSet> {
  for await (const article of store.articles()) {
    return article.source === 'test-collection' ? 'test-collection' : 'pubmed'
  }
  throw noArticlesError(store)
}
