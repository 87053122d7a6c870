import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SolrClient, SolrResponse } from './client.ts'
import { readLocalCluster, STATE_FILE } from './cluster.ts'
import { SOLR_SCHEMA_VERSION, STATE_FIELD } from './configset.ts'
import { collectionExists, readCollectionState } from './indexer.ts'

/** A client that answers every request with `answer`. */
const answering = (answer: SolrResponse): SolrClient => ({ urls: ['http://a:1/solr'], request: () => Promise.resolve(answer) })

describe('the local cluster’s state file', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'solr-state-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('is read when it is of its shape, and absent when there is none', async () => {
    expect(await readLocalCluster(join(dir, 'none'))).toBeUndefined()
    const state = { pid: 12, zkHost: '127.0.0.1:2181/solr', control: 'http://127.0.0.1:9000', nodes: [{ node: 0, url: 'http://127.0.0.1:8983/solr', running: true }] }
    await writeFile(join(dir, STATE_FILE), JSON.stringify(state))
    expect(await readLocalCluster(dir)).toEqual(state)
  })

  it('is refused, naming the file and the field, when it is not', async () => {
    await writeFile(join(dir, STATE_FILE), JSON.stringify({ pid: 12, zkHost: 'zk', control: 'http://127.0.0.1:9000', nodes: [{ node: 0, url: 'u', running: 'yes' }] }))
    const error = await readLocalCluster(dir).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'MALFORMED_JSON', details: { file: join(dir, STATE_FILE) } })
    expect((error as Error).message.replace(dir, '<dir>')).toMatchInlineSnapshot(`"<dir>/cluster.json: nodes[0].running is "yes", expected true or false"`)
  })
})

describe('what the indexer reads back from Solr', () => {
  it('reads the state document of a collection', async () => {
    const state = { schemaVersion: SOLR_SCHEMA_VERSION, fieldSet: 'pubmed', analyzer: 'biomedical', k1: 1.2, b: 0.75, corpus: '/c', corpusSegment: '000003.jsonl.gz', updatedAt: '2026-01-01T00:00:00.000Z' }
    expect(await readCollectionState(answering({ response: { docs: [{ [STATE_FIELD]: JSON.stringify(state) }] } }), 'c')).toEqual(state)
    expect(await readCollectionState(answering({ response: { docs: [] } }), 'c')).toBeUndefined()
  })

  it('refuses a collection written with another schema version, asking to index it again', async () => {
    // version 1 wrote no schemaVersion
    const old = { fieldSet: 'pubmed', analyzer: 'biomedical', k1: 1.2, b: 0.75, corpus: '/c', corpusSegment: '000003.jsonl.gz', updatedAt: '2026-01-01T00:00:00.000Z' }
    const error = await readCollectionState(answering({ response: { docs: [{ [STATE_FIELD]: JSON.stringify(old) }] } }), 'c').catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'SCHEMA_MISMATCH', details: { collection: 'c' } })
    expect((error as Error).message).toMatchInlineSnapshot(`"collection c was indexed by an older pubmatch (Solr schema version 1; this version reads 5, which adds every PubMed field tag (affiliations, grants, volume, issue, pagination, filters, PubMed’s dates, …), and what the features (past usage included), the rerank query and a serving process without a local index read); delete the collection and index the corpus into it again (\`pubmatch index --solr … --collection c\`)"`)
    const newer = { ...old, schemaVersion: SOLR_SCHEMA_VERSION + 1 }
    await expect(readCollectionState(answering({ response: { docs: [{ [STATE_FIELD]: JSON.stringify(newer) }] } }), 'c')).rejects.toThrow(/indexed by a newer pubmatch/)
  })

  it('refuses a state document of another shape as INDEX_CORRUPTED, and an answer of another shape as MALFORMED_JSON', async () => {
    const state = { fieldSet: 'pubmed', analyzer: 'biomedical', k1: '1.2', b: 0.75, corpus: '/c', updatedAt: '2026-01-01T00:00:00.000Z' }
    const error = await readCollectionState(answering({ response: { docs: [{ [STATE_FIELD]: JSON.stringify(state) }] } }), 'c').catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'INDEX_CORRUPTED' })
    expect((error as Error).message).toMatchInlineSnapshot(`"the state document _pubmatch_state of collection c: k1 is "1.2", expected a number"`)
    await expect(collectionExists(answering({ collections: 'c' }), 'c')).rejects.toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: admin/collections?action=LIST: collections is "c", expected an array]`,
    )
  })
})
