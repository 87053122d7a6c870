import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PubmatchError } from '@pubmatch/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SolrClient, SolrRequest } from './client.ts'
import { createConfigset } from './configset.ts'
import { collectionFirstStage, deployModel, MODELS_HANDLER } from './models.ts'

/** A client that records its requests and answers each with `answer(request)`. */
function recording(answer: (request: SolrRequest) => Record<string, unknown>): {
  client: SolrClient
  requests: SolrRequest[]
} {
  const requests: SolrRequest[] = []
  const client: SolrClient = {
    urls: ['http://a:1/solr'],
    request: (request) => {
      requests.push(request)
      try {
        return Promise.resolve(answer(request))
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)))
      }
    },
  }
  return { client, requests }
}

describe('models deployed into a collection (without Solr)', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'solr-models-'))
    await writeFile(join(dir, 'manifest.json'), JSON.stringify({ format: 'pubmatch-ltr-model/2' }))
    await writeFile(join(dir, 'model.txt'), 'tree\n')
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('records a collection first stage as a model manifest names it, and the configset registers the handler', () => {
    expect(
      collectionFirstStage({
        fieldSet: 'test-collection',
        analyzer: 'whitespace',
        k1: 0.9,
        b: 0.4,
      }),
    ).toEqual({
      ranker: 'bm25f',
      params: { k1: 0.9, b: 0.4 },
      analyzer: 'whitespace',
      fieldSet: 'test-collection',
      fields: ['title', 'abstract'],
    })
    expect(createConfigset().files['solrconfig.xml']).toContain(
      `<requestHandler name="/${MODELS_HANDLER}" class="org.pubmatch.solr.models.ModelHandler"/>`,
    )
  })

  it('sends the folder as one JSON envelope, once, after checking the collection records its first stage', async () => {
    const descriptor = {
      name: 'm1',
      collection: 'c',
      uploadId: 'u',
      uploadedAt: 't',
      trees: 1,
      features: 179,
      schemaVersion: 'v',
      createdAt: 't',
      firstStage: {},
      files: {},
    }
    const { client, requests } = recording((request) =>
      request.params?.action === 'firstStage'
        ? { firstStage: { ranker: 'bm25f' } }
        : { model: descriptor },
    )
    expect(await deployModel({ client, collection: 'c', dir, name: 'm1' })).toEqual(descriptor)
    expect(requests.map((r) => r.params?.action)).toEqual(['firstStage', 'upload'])
    expect(requests[1]).toMatchObject({
      path: `c/${MODELS_HANDLER}`,
      retry: false,
      body: { manifest: { format: 'pubmatch-ltr-model/2' }, model: 'tree\n' },
    })
    expect(Object.keys(requests[1]!.body as object)).toEqual(['manifest', 'model'])
  })

  it('refuses a bad name and a folder without a model before asking Solr, and says what a missing handler means', async () => {
    const { client, requests } = recording(() => {
      throw new PubmatchError('UPSTREAM_HTTP', `c/${MODELS_HANDLER} answered 404: Not Found`, {
        details: { status: 404 },
      })
    })
    await expect(deployModel({ client, collection: 'c', dir, name: '../x' })).rejects.toMatchObject(
      { code: 'INVALID_ARGUMENT' },
    )
    await expect(
      deployModel({ client, collection: 'c', dir: join(dir, 'none') }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect(requests).toEqual([])
    const error = await deployModel({ client, collection: 'c', dir, name: 'm1' }).catch(
      (e: unknown) => e,
    )
    expect(error).toMatchObject({
      code: 'NOT_FOUND',
      details: { collection: 'c', model: 'm1', status: 404 },
    })
    expect((error as Error).message).toMatch(
      /^the Solr collection c does not exist or has no \/pubmatch\/models handler/,
    )
  })
})
