/* eslint-disable @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-call -- response bodies are JSON (any); the contract test below checks every one against its schema */
/**
 * The server on the real data set (an extra layer over `server.test.ts`, which runs on the
 * bundled sample): NFCorpus with two Best Match models trained on its training queries and
 * judgements, for reranking and explanations of real queries, on the server's thread and on
 * search workers, and a swap of the model.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sharedDataPath } from '@pubmatch/core/testing'
import { openSearch, readLabelledQueries, type SearchEngine } from '@pubmatch/engine'
import { createContract } from '../test/contract.ts'
import { sampleIndex, trainModel } from '../test/fixtures.ts'
import { createServer } from './server.ts'

const contract = createContract()
const { call } = contract

describe('pubmatch server on NFCorpus with Best Match models', { tags: ['real-data'] }, () => {
  const token = 'test-admin-token-0123456789'
  let dir: string
  let index: string
  let engine: SearchEngine
  let app: FastifyInstance
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'server-nf-'))
    index = await sampleIndex(dir, [sharedDataPath('nfcorpus', 'corpus.docs')])
    const queries = await readLabelledQueries(sharedDataPath('nfcorpus', 'train', 'q-titles.queries'), sharedDataPath('nfcorpus', 'train', 's-3.qrel'))
    const base = await openSearch({ index })
    await trainModel(base, queries.slice(0, 150), join(dir, 'model-a'))
    await trainModel(base, queries.slice(150, 300), join(dir, 'model-b'))
    engine = await openSearch({ index, model: join(dir, 'model-a') })
    app = await createServer({ engine, adminToken: token, rateLimit: false })
  })
  afterAll(async () => {
    await app?.close()
    await rm(dir, { recursive: true, force: true })
  })

  it("reranks by default and explains the model's score feature by feature", async () => {
    const result = (await call(app, 'GET', '/search?q=vitamin%20d%20and%20breast%20cancer&size=3&explain=true', '/search')).json()
    expect(result.reranked).toBe(true)
    expect(result.model).toBe(engine.model!.id)
    const top = result.results[0]
    expect(top.secondStage.contributions.length).toBeGreaterThan(0)
    const explained = (await call(app, 'GET', `/articles/${top.pmid}/explain?q=vitamin%20d%20and%20breast%20cancer`, '/articles/{pmid}/explain')).json()
    expect(explained.secondStage.rank).toBe(1)
    // Saabas attribution: the bias and the contributions add up to the score
    const sum = explained.secondStage.bias + explained.secondStage.contributions.reduce((t: number, c: { contribution: number }) => t + c.contribution, 0)
    expect(sum).toBeCloseTo(explained.secondStage.score, 9)
    expect(explained.secondStage.contributions.find((c: { feature: string }) => c.feature === 'F143')?.name).toBe('first_stage_score')
    const firstOnly = (await call(app, 'GET', '/search?q=vitamin%20d%20and%20breast%20cancer&size=3&rerank=false', '/search')).json()
    expect(firstOnly.reranked).toBe(false)
  })

  it('serves /search from worker threads with the same answers, and a reload swaps the workers too', async () => {
    const pooled = await createServer({ engine, adminToken: token, rateLimit: false, searchWorkers: 2 })
    try {
      const urls = [
        '/search?q=vitamin%20d%20and%20breast%20cancer&size=5&explain=true',
        '/search?q=statins&size=10&page=2',
        '/search?q=zzzyzzy',
        '/search?q=statins&prf=true&size=5',
      ]
      for (const url of urls) {
        const { tookMs: _a, ...fromWorkers } = (await call(pooled, 'GET', url, '/search')).json()
        const { tookMs: _b, ...fromThread } = (await app.inject({ method: 'GET', url })).json()
        expect(fromWorkers).toEqual(fromThread)
      }
      const toB = await call(pooled, 'POST', '/admin/reload', '/admin/reload', { model: join(dir, 'model-b') }, { authorization: `Bearer ${token}` })
      expect(toB.statusCode).toBe(200)
      const engineB = await openSearch({ index, model: join(dir, 'model-b') })
      const after = (await pooled.inject({ method: 'GET', url: '/search?q=vitamin%20d%20and%20breast%20cancer&size=10' })).json()
      expect(after.model).toBe(engineB.model!.id)
      expect(after.results.map((r: { pmid: string }) => r.pmid)).toEqual(engineB.search('vitamin d and breast cancer', { limit: 10 }).hits.map((h) => h.id))
    } finally {
      await pooled.close()
    }
  })

  it('answered as /openapi.json says', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json()
    expect(contract.seen.length).toBeGreaterThan(5)
    contract.check(doc)
  })
})
