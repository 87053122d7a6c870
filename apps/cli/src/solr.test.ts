/**
 * The Solr backend from the CLI and the server, on the bundled sample: `pubmatch solr up`,
 * `index --solr`, `search`/`run --backend`, the server's `solrBackend`, a model deployed with
 * `model deploy-solr` and used from a directory with no index (`run`/`search --backend …
 * --rerank NAME`, a server over a Solr-only reranking engine), `solr down`. Needs the
 * Solr module built (a JDK and Maven at `pnpm build`); CI always has it.
 */
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLogStore } from '@pubmatch/ltr'
import { javaBuilt } from '@pubmatch/solr'
import { createServer } from '@pubmatch/server'
import { openSearch, openSolrEngine } from '@pubmatch/engine'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bin, pubmatch, pubmatchAt, samplePath, suggestedCommands } from '../test/run-cli.ts'
import { serverBin, startServerProcess } from '../test/run-server.ts'
import { writeSampleCollection } from '../test/sample-collection.ts'

const sample = samplePath('')

describe.runIf(existsSync(bin) && (javaBuilt() || process.env.CI !== undefined))(
  'pubmatch with a SolrCloud backend (built CLI, bundled sample)',
  () => {
    let dir: string
    let cluster: string
    let backend: string
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'pubmatch-solr-cli-'))
      cluster = join(dir, 'solr')
      expect((await pubmatch('ingest', sample, '-c', join(dir, 'corpus'), '-q')).code).toBe(0)
      expect(
        (await pubmatch('index', '-c', join(dir, 'corpus'), '-i', join(dir, 'index'), '-q')).code,
      ).toBe(0)
      const up = await pubmatch(
        'solr',
        'up',
        '--dir',
        cluster,
        '--nodes',
        '2',
        '--heap',
        '1g',
        '--json',
      )
      expect([up.code, up.stderr]).toEqual([0, ''])
      const state = JSON.parse(up.stdout) as { nodes: Array<{ url: string }> }
      expect(state.nodes).toHaveLength(2)
      backend = `solr://${state.nodes[0]!.url.replace(/^http:\/\//, '')}/pubmed`
    })
    afterAll(async () => {
      const down = await pubmatch('solr', 'down', '--dir', cluster)
      expect(down.stdout).toMatch(/^stopped the SolrCloud/)
      await rm(dir, { recursive: true, force: true })
    })

    it('indexes into 2 shards × 2 replicas, resumes, and searches with the first stage in Solr', async () => {
      const indexed = await pubmatch(
        'index',
        '--solr',
        `local:${cluster}`,
        '--collection',
        'pubmed',
        '--shards',
        '2',
        '--replicas',
        '2',
        '-c',
        join(dir, 'corpus'),
        '-q',
        '--json',
      )
      expect([indexed.code, indexed.stderr]).toEqual([0, ''])
      const summary = JSON.parse(indexed.stdout) as {
        created: boolean
        added: number
        errorList: unknown[]
      }
      expect(summary.created).toBe(true)
      expect(summary.errorList).toEqual([])
      // every article of the corpus, as the embedded index holds them
      const embeddedDocs = (await openSearch({ index: join(dir, 'index') })).docCount
      expect(summary.added).toBe(embeddedDocs)
      const again = JSON.parse(
        (
          await pubmatch(
            'index',
            '--solr',
            `local:${cluster}`,
            '--collection',
            'pubmed',
            '-c',
            join(dir, 'corpus'),
            '-q',
            '--json',
          )
        ).stdout,
      ) as { added: number; segments: number }
      expect(again).toMatchObject({ added: 0, segments: 0 })

      const query = 'cancer AND 2000:2016[dp]'
      const local = JSON.parse(
        (await pubmatch('search', '-i', join(dir, 'index'), query, '--json', '-n', '1000')).stdout,
      ) as { total: number; hits: Array<{ id: string }> }
      const solr = await pubmatch(
        'search',
        '-i',
        join(dir, 'index'),
        '--backend',
        backend,
        query,
        '--json',
        '-n',
        '1000',
      )
      expect([solr.code, solr.stderr]).toEqual([0, ''])
      const found = JSON.parse(solr.stdout) as {
        total: number
        hits: Array<{ id: string; document: { title: string } }>
      }
      // the same matches (the BM25F variants order them differently)
      expect(found.total).toBe(local.total)
      expect(found.hits.length).toBe(local.total)
      expect(new Set(found.hits.map((h) => h.id))).toEqual(new Set(local.hits.map((h) => h.id)))
      expect(found.hits[0]!.document.title).not.toBe('')

      const queries = join(dir, 'queries.tsv')
      await writeFile(queries, '1\tbreast cancer\n2\theart rate\n3\tsmith*[au]\n')
      const ran = await pubmatch(
        'run',
        '-i',
        join(dir, 'index'),
        '--backend',
        backend,
        '--queries',
        queries,
        '-o',
        join(dir, 'solr.run'),
        '-q',
      )
      expect([ran.code, ran.stderr]).toEqual([0, ''])
      const lines = (await readFile(join(dir, 'solr.run'), 'utf8')).trim().split('\n')
      expect(new Set(lines.map((line) => line.split(' ')[0]))).toEqual(new Set(['1', '2', '3']))

      const bad = await pubmatch(
        'search',
        '-i',
        join(dir, 'index'),
        '--backend',
        'http://nope',
        'x',
      )
      expect([bad.code, bad.stderr]).toEqual([
        64,
        expect.stringMatching(/INVALID_ARGUMENT: .*is not a Solr collection address/),
      ])
      const missing = await pubmatch(
        'search',
        '-i',
        join(dir, 'index'),
        '--backend',
        backend.replace(/pubmed$/, 'absent'),
        'x',
      )
      expect(missing.code).not.toBe(0)
      expect(missing.stderr).toMatch(/absent/)
    })

    it('deploys a model trained on the index into the collection, lists it and removes it', async () => {
      const sampleSet = await writeSampleCollection(dir)
      const model = join(dir, 'bm-cli')
      const trained = await pubmatch(
        'train',
        '-i',
        join(dir, 'index'),
        '--queries',
        sampleSet.queries,
        '--qrels',
        sampleSet.qrels,
        '--syntax',
        'plain',
        '--match',
        'any',
        '--depth',
        '20',
        '--trees',
        '10',
        '-o',
        model,
        '-q',
      )
      expect([trained.code, trained.stderr]).toEqual([0, ''])
      const solr = `local:${cluster}`
      const deployed = await pubmatch(
        'model',
        'deploy-solr',
        model,
        '--solr',
        solr,
        '--collection',
        'pubmed',
      )
      expect([deployed.code, deployed.stderr]).toEqual([0, ''])
      expect(deployed.stdout).toMatch(
        /^deployed bm-cli into pubmed: \d+ trees over 179 features \(model\.txt \d+ bytes, 1 ZooKeeper chunk\)\nloaded on 4 replicas \(shard1, shard2\)\n/,
      )
      // the hint is a command that works
      const [hint] = suggestedCommands(deployed.stdout)
      const listed = await pubmatch(...hint!, '--json')
      expect([listed.code, listed.stderr]).toEqual([0, ''])
      const listing = JSON.parse(listed.stdout) as {
        models: Array<{ name: string; trees: number; features: number }>
        incomplete: string[]
      }
      expect(listing.models.map((m) => [m.name, m.features])).toEqual([['bm-cli', 179]])
      expect(listing.incomplete).toEqual([])

      // models are immutable per name; another name is a new model
      const again = await pubmatch(
        'model',
        'deploy-solr',
        model,
        '--solr',
        solr,
        '--collection',
        'pubmed',
      )
      expect([again.code, again.stderr]).toEqual([
        64,
        expect.stringMatching(/INVALID_ARGUMENT: model bm-cli already exists in collection pubmed/),
      ])
      const renamed = await pubmatch(
        'model',
        'deploy-solr',
        model,
        '--solr',
        solr,
        '--collection',
        'pubmed',
        '--name',
        'bm-cli-2',
        '--no-check',
        '--json',
      )
      expect([renamed.code, renamed.stderr]).toEqual([0, ''])
      expect(JSON.parse(renamed.stdout)).toMatchObject({
        model: { name: 'bm-cli-2', collection: 'pubmed', features: 179 },
      })

      // a model of another first stage is refused, naming the difference
      const manifest = JSON.parse(await readFile(join(model, 'manifest.json'), 'utf8')) as {
        firstStage: { analyzer: string }
      }
      manifest.firstStage.analyzer = 'whitespace'
      await writeFile(join(model, 'manifest.json'), JSON.stringify(manifest))
      const refused = await pubmatch(
        'model',
        'deploy-solr',
        model,
        '--solr',
        solr,
        '--collection',
        'pubmed',
        '--name',
        'bm-other',
      )
      expect(refused.code).not.toBe(0)
      expect(refused.stderr).toMatch(
        /SCHEMA_MISMATCH: model bm-other was trained on a first stage with analyzer "whitespace", but collection pubmed searches with analyzer "biomedical"/,
      )

      for (const name of ['bm-cli', 'bm-cli-2']) {
        const removed = await pubmatch(
          'model',
          'remove-solr',
          name,
          '--solr',
          solr,
          '--collection',
          'pubmed',
        )
        expect([removed.code, removed.stdout]).toEqual([0, `removed ${name} from pubmed\n`])
      }
      const empty = await pubmatch('model', 'list-solr', '--solr', solr, '--collection', 'pubmed')
      expect(empty.stdout).toMatch(
        /^no models in pubmed; deploy one with `pubmatch model deploy-solr MODEL --solr local:\S+ --collection pubmed`/,
      )
      const gone = await pubmatch(
        'model',
        'remove-solr',
        'bm-cli',
        '--solr',
        solr,
        '--collection',
        'pubmed',
      )
      expect([gone.code, gone.stderr]).toEqual([
        2,
        expect.stringMatching(/NOT_FOUND: model bm-cli is not deployed in collection pubmed/),
      ])
    })

    it('serves /search with the first stage in Solr', async () => {
      const engine = await openSearch({ index: join(dir, 'index') })
      const app = await createServer({ engine, rateLimit: false, solrBackend: backend })
      try {
        const viaSolr = (
          await app.inject({ method: 'GET', url: '/search?q=cancer&size=20' })
        ).json<{ total: number; results: Array<{ pmid?: string; id?: string }> }>()
        expect(viaSolr.total).toBe(engine.search('cancer').total)
        expect(viaSolr.results).toHaveLength(20)
        const bad = await app.inject({ method: 'GET', url: '/search?q=%22unclosed' })
        expect(bad.statusCode).toBe(400)
        expect(bad.json<{ code: string }>().code).toBe('QUERY_SYNTAX')
      } finally {
        await app.close()
      }
      await expect(
        createServer({ engine, solrBackend: backend, searchWorkers: 1 }),
      ).rejects.toThrow(/does not take search workers/)
    })

    it('searches and runs a collection alone, from a directory with no index', async () => {
      const empty = await mkdtemp(join(dir, 'empty-'))
      const query = 'cancer AND 2000:2016[dp]'
      const local = JSON.parse(
        (
          await pubmatch(
            'search',
            '-i',
            join(dir, 'index'),
            '--backend',
            backend,
            query,
            '--json',
            '-n',
            '5',
          )
        ).stdout,
      ) as {
        total: number
        hits: Array<{ id: string; document: unknown }>
      }
      const alone = await pubmatchAt(
        { cwd: empty },
        'search',
        '--backend',
        backend,
        query,
        '--json',
        '-n',
        '5',
      )
      expect([alone.code, alone.stderr]).toEqual([0, ''])
      const found = JSON.parse(alone.stdout) as {
        total: number
        hits: Array<{ id: string; document: unknown }>
      }
      expect(found.total).toBe(local.total)
      expect(found.hits.map((h) => [h.id, h.document])).toEqual(
        local.hits.map((h) => [h.id, h.document]),
      )
      const text = await pubmatchAt(
        { cwd: empty },
        'search',
        '--backend',
        backend,
        'breast cancer',
        '-n',
        '3',
        '--facets',
      )
      expect([text.code, text.stderr]).toEqual([0, ''])
      expect(text.stdout).toMatch(/^\d+ matching documents; 3 shown from 1 /)
      expect(text.stdout).toMatch(/\n {2}1\. \d+ {2}\d+\.\d{4} {2}\S/)
      expect(text.stdout).toMatch(/\nyears: \d{4} \(\d+\)/)
      expect(existsSync(join(empty, '.pubmatch'))).toBe(false)

      const queries = join(dir, 'queries.tsv')
      const ran = await pubmatchAt(
        { cwd: empty },
        'run',
        '--backend',
        backend,
        '--queries',
        queries,
        '-o',
        join(dir, 'alone.run'),
        '-q',
      )
      expect([ran.code, ran.stderr]).toEqual([0, ''])
      expect(await readFile(join(dir, 'alone.run'), 'utf8')).toBe(
        await readFile(join(dir, 'solr.run'), 'utf8'),
      )

      // a collection searched alone reranks with a deployed model's name, not a folder
      const rerank = await pubmatchAt(
        { cwd: empty },
        'search',
        '--backend',
        backend,
        '--rerank',
        join(dir, 'bm-cli'),
        'cancer',
      )
      expect([rerank.code, rerank.stderr]).toEqual([
        64,
        expect.stringMatching(
          /INVALID_ARGUMENT: --rerank \S+bm-cli is a folder, but a collection searched alone \(--backend without -i\) reranks with a model deployed in it: deploy the folder with `pubmatch model deploy-solr \S+bm-cli --solr http:\/\/127\.0\.0\.1:\d+\/solr --collection pubmed --name bm-cli`/,
        ),
      ])
      const absent = await pubmatchAt(
        { cwd: empty },
        'search',
        '--backend',
        backend,
        '--rerank',
        'absent',
        'cancer',
      )
      expect([absent.code, absent.stderr]).toEqual([
        2,
        expect.stringMatching(/NOT_FOUND: model absent is not deployed in collection pubmed/),
      ])
    })

    it('writes a click log’s past usage into the collection, and says which documents it does not hold', async () => {
      const sampleSet = await writeSampleCollection(dir)
      const ids = [...new Set((await readFile(sampleSet.qrels, 'utf8')).trim().split('\n').map((line) => line.split(/\s+/)[2]!))].slice(0, 2)
      expect(ids).toHaveLength(2)
      const time = '2026-11-01T10:00:00.000Z'
      const shown = [...ids, 'NOT-IN-COLLECTION']
      const store = createLogStore(join(dir, 'usage-log'))
      await store.append([
        { type: 'search', id: 's1', time, session: 'u1', query: 'q', filters: [], total: 3, results: shown.map((id, i) => ({ position: i + 1, id })) },
        ...shown.map((id, i) => ({ type: 'action' as const, time, session: 'u1', search: 's1', id, position: i + 1, kind: 'abstract_click' as const })),
      ])
      await store.close()
      const pushed = await pubmatch('clicks', 'usage-solr', join(dir, 'usage-log'), '--solr', `local:${cluster}`, '--collection', 'pubmed')
      expect([pushed.code, pushed.stderr]).toEqual([0, ''])
      expect(pushed.stdout).toBe(
        'past usage of 2 articles written into pubmed (3 documents in the log)\n' +
          '1 document of the log is not in the collection and was left out: NOT-IN-COLLECTION\n',
      )
      const json = await pubmatch('clicks', 'usage-solr', join(dir, 'usage-log'), '--solr', `local:${cluster}`, '--collection', 'pubmed', '--json')
      expect(JSON.parse(json.stdout)).toEqual({ documents: 3, updated: 2, reset: 0, unknown: 1, unknownIds: ['NOT-IN-COLLECTION'] })
      // a collection served alone takes no local log, and says where usage goes instead
      const refused = await pubmatch('serve', '--backend', backend, '--usage-log', join(dir, 'usage-log'), '--port', '0')
      expect(refused.code).not.toBe(0)
      expect(refused.stderr).toMatch(/pubmatch clicks usage-solr LOG --solr URL --collection NAME/)
    })

    it('deploys a model, then runs, searches and serves with both stages on the shards from a directory with no index', async () => {
      const sampleSet = await writeSampleCollection(dir)
      const model = join(dir, 'bm-shards')
      const plain = ['--syntax', 'plain', '--match', 'any']
      const trained = await pubmatch(
        'train',
        '-i',
        join(dir, 'index'),
        '--queries',
        sampleSet.queries,
        '--qrels',
        sampleSet.qrels,
        ...plain,
        '--depth',
        '20',
        '--trees',
        '10',
        '-o',
        model,
        '-q',
      )
      expect([trained.code, trained.stderr]).toEqual([0, ''])
      const empty = await mkdtemp(join(dir, 'shards-'))
      const deployed = await pubmatchAt(
        { cwd: empty },
        'model',
        'deploy-solr',
        model,
        '--solr',
        `local:${cluster}`,
        '--collection',
        'pubmed',
        '--name',
        'bm-run',
      )
      expect([deployed.code, deployed.stderr]).toEqual([0, ''])

      // the same run as the embedded reranker with the folder over the collection's first stage
      const onShards = await pubmatchAt(
        { cwd: empty },
        'run',
        '--backend',
        backend,
        '--rerank',
        'bm-run',
        ...plain,
        '--queries',
        sampleSet.queries,
        '-o',
        join(dir, 'shards.run'),
        '--json',
        '-q',
      )
      expect([onShards.code, onShards.stderr]).toEqual([0, ''])
      expect(JSON.parse(onShards.stdout)).toMatchObject({ reranked: true })
      const local = await pubmatch(
        'run',
        '-i',
        join(dir, 'index'),
        '--backend',
        backend,
        '--rerank',
        model,
        ...plain,
        '--queries',
        sampleSet.queries,
        '-o',
        join(dir, 'local.run'),
        '-q',
      )
      expect([local.code, local.stderr]).toEqual([0, ''])
      const lines = async (file: string): Promise<string[][]> =>
        (await readFile(file, 'utf8'))
          .trim()
          .split('\n')
          .map((line) => line.split(' '))
      const [mine, theirs] = await Promise.all([
        lines(join(dir, 'shards.run')),
        lines(join(dir, 'local.run')),
      ])
      expect(mine.length).toBeGreaterThan(100)
      // ids and order identical (query, document, rank)
      expect(mine.map((line) => [line[0], line[2], line[3]])).toEqual(
        theirs.map((line) => [line[0], line[2], line[3]]),
      )
      let scoreMax = 0
      mine.forEach((line, i) => {
        const a = Number(line[4])
        const b = Number(theirs[i]![4])
        scoreMax = Math.max(scoreMax, Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b), 1e-300))
      })
      console.log(JSON.stringify({ runLines: mine.length, runScoreMaxRelative: scoreMax }))
      expect(scoreMax).toBeLessThanOrEqual(1e-9)
      expect(existsSync(join(empty, '.pubmatch'))).toBe(false)

      // a search page from the shards, as the local reranker over the same first stage
      // a query inside the model's range (so reranked), found with the same engine in this process
      const engine = await openSolrEngine({
        backend,
        model: 'bm-run',
        ranking: { syntax: 'plain', match: 'any' },
      })
      let text = ''
      for (const line of (await readFile(sampleSet.queries, 'utf8')).trim().split('\n')) {
        const candidate = line.split('\t')[1]!
        if ((await engine.search(candidate, { limit: 1 })).reranked) {
          text = candidate
          break
        }
      }
      expect(text).not.toBe('')
      const searched = await pubmatchAt(
        { cwd: empty },
        'search',
        '--backend',
        backend,
        '--rerank',
        'bm-run',
        ...plain,
        text,
        '--json',
        '-n',
        '10',
      )
      expect([searched.code, searched.stderr]).toEqual([0, ''])
      const viaIndex = await pubmatch(
        'search',
        '-i',
        join(dir, 'index'),
        '--backend',
        backend,
        '--rerank',
        model,
        ...plain,
        text,
        '--json',
        '-n',
        '10',
      )
      type Page = {
        reranked: boolean
        hits: Array<{ id: string; rank: number; secondStage?: { score: number } }>
      }
      const [a, b] = [JSON.parse(searched.stdout) as Page, JSON.parse(viaIndex.stdout) as Page]
      expect([a.reranked, b.reranked]).toEqual([true, true])
      expect(a.hits.map((hit) => [hit.id, hit.rank])).toEqual(
        b.hits.map((hit) => [hit.id, hit.rank]),
      )
      const explained = await pubmatchAt(
        { cwd: empty },
        'search',
        '--backend',
        backend,
        '--rerank',
        'bm-run',
        ...plain,
        text,
        '--explain',
        '-n',
        '2',
      )
      expect([explained.code, explained.stderr]).toEqual([0, ''])
      expect(explained.stdout).toMatch(/, reranked by LambdaMART /)
      expect(explained.stdout).toMatch(/\n {6}model -?\d+\.\d{4} = bias -?\d+\.\d{3} \+ F\d+=/)

      // `serve --model NAME` opens the deployed model: this one was trained on plain queries
      // matching any word, which `serve` (no ranking flags: PubMed syntax, every word) refuses
      const served = await pubmatchAt(
        { cwd: empty },
        'serve',
        '--backend',
        backend,
        '--model',
        'bm-run',
        '--port',
        '0',
      )
      expect(served.code).not.toBe(0)
      expect(served.stderr).toMatch(
        /SCHEMA_MISMATCH: model bm-run in collection pubmed was trained on a first stage with match "any"/,
      )
      const folder = await pubmatchAt(
        { cwd: empty },
        'serve',
        '--backend',
        backend,
        '--model',
        model,
        '--port',
        '0',
      )
      expect([folder.code, folder.stderr]).toEqual([
        64,
        expect.stringMatching(/INVALID_ARGUMENT: --model \S+bm-shards is a folder/),
      ])

      // a server over the collection alone, reranking on the shards
      const app = await createServer({ engine, rateLimit: false })
      try {
        const q = encodeURIComponent(text)
        const page = await app.inject({ method: 'GET', url: `/search?q=${q}&size=5&explain=true` })
        expect(page.statusCode).toBe(200)
        const body = page.json<{
          reranked: boolean
          model: string
          results: Array<{
            pmid: string
            secondStage?: { score: number; bias: number; contributions: Array<{ feature: string }> }
          }>
        }>()
        expect(body.reranked).toBe(true)
        expect(body.model).toBe(engine.model!.id)
        expect(body.results.map((r) => r.pmid)).toEqual(a.hits.slice(0, 5).map((hit) => hit.id))
        const top = body.results[0]!
        expect(top.secondStage!.contributions.length).toBeGreaterThan(0)
        const why = await app.inject({ method: 'GET', url: `/articles/${top.pmid}/explain?q=${q}` })
        expect(why.statusCode).toBe(200)
        const whyBody = why.json<{
          secondStage: {
            rank: number
            score: number
            bias: number
            contributions: Array<{ feature: string; name?: string; contribution: number }>
          }
        }>()
        expect(whyBody.secondStage).toMatchObject({
          rank: 1,
          score: top.secondStage!.score,
          bias: top.secondStage!.bias,
        })
        expect(whyBody.secondStage.contributions.slice(0, 20).map((c) => c.feature)).toEqual(
          top.secondStage!.contributions.map((c) => c.feature),
        )
        expect(whyBody.secondStage.contributions[0]!.name).toEqual(expect.any(String))
        const health = (await app.inject({ method: 'GET', url: '/health' })).json<{
          model?: string
          backend: string
        }>()
        expect(health).toMatchObject({ model: engine.model!.id, backend })
      } finally {
        await app.close()
      }
    })

    it('pubmatch-server serves a collection alone with --backend and no --index, --model naming a deployed model', async () => {
      const empty = await mkdtemp(join(dir, 'empty-bin-'))
      const local = await openSearch({ index: join(dir, 'index') })
      const server = await startServerProcess(serverBin, ['--backend', backend, '--port', '0'], {
        cwd: empty,
      })
      try {
        expect(server.stdout()).toBe(
          `pubmatch-server: serving ${backend} alone (no local index) at ${server.url}\n`,
        )
        const health = (await (await fetch(`${server.url}/health`)).json()) as {
          documents: number
          backend: string
        }
        expect(health).toMatchObject({ documents: local.docCount, backend })
        const page = (await (await fetch(`${server.url}/search?q=breast+cancer&size=3`)).json()) as {
          total: number
          results: Array<{ pmid: string }>
        }
        expect(page.total).toBe(local.search('breast cancer').total)
        expect(page.results.map((r) => r.pmid)).toEqual(
          local.search('breast cancer', { limit: 3 }).hits.map((h) => h.id),
        )
      } finally {
        await server.stop()
      }
      expect(await server.exited).toBe(0)
      // --model is a name in the collection, not a folder here
      const absent = await startServerProcess(
        serverBin,
        ['--backend', backend, '--model', 'no-such-model', '--port', '0'],
        { cwd: empty },
      )
      expect([absent.url, await absent.exited]).toEqual([undefined, 2])
      expect(absent.stderr()).toMatch(
        /^pubmatch-server: NOT_FOUND: model no-such-model is not deployed in collection pubmed/,
      )
      expect(await readdir(empty)).toEqual([])
    })

    it('serves /search and the article routes from a collection alone', async () => {
      const local = await openSearch({ index: join(dir, 'index') })
      const engine = await openSolrEngine({ backend })
      const app = await createServer({
        engine,
        rateLimit: false,
        feedbackDir: join(dir, 'sessions'),
      })
      try {
        const page = await app.inject({
          method: 'GET',
          url: '/search?q=breast+cancer&size=5&facets=true&explain=true',
        })
        expect(page.statusCode).toBe(200)
        const body = page.json<{
          total: number
          generation: number
          facets: { years: Array<{ value: string; count: number }> }
          results: Array<{
            pmid: string
            title: { text: string; matches: unknown[] }
            snippet: { text: string }
            firstStage: { explain?: { label: string } }
          }>
        }>()
        expect(body.total).toBe(local.search('breast cancer').total)
        expect(body.results).toHaveLength(5)
        expect(body.facets.years.length).toBeGreaterThan(0)
        const first = body.results[0]!
        const stored = local.document(first.pmid)!
        expect(first.title).toEqual(local.highlights(stored, 'breast cancer').title)
        expect(first.snippet).toEqual(local.highlights(stored, 'breast cancer').snippet)
        expect(first.firstStage.explain?.label).toBe('bm25f')

        const article = await app.inject({ method: 'GET', url: `/articles/${first.pmid}` })
        expect([article.statusCode, article.json()]).toEqual([
          200,
          JSON.parse(JSON.stringify(stored)),
        ])
        const explained = await app.inject({
          method: 'GET',
          url: `/articles/${first.pmid}/explain?q=breast+cancer`,
        })
        expect(explained.statusCode).toBe(200)
        expect(explained.json()).toMatchObject({
          pmid: first.pmid,
          matches: true,
          firstStage: { rank: 1, explain: { label: 'bm25f' } },
        })
        expect((await app.inject({ method: 'GET', url: '/articles/99999999999' })).statusCode).toBe(
          404,
        )

        const byDate = (
          await app.inject({ method: 'GET', url: '/search?q=cancer&sort=date&size=3' })
        ).json<{ results: Array<{ pmid: string }> }>()
        expect(byDate.results.map((r) => r.pmid)).toEqual(
          local.search('cancer', { sort: 'date', limit: 3 }).hits.map((h) => h.id),
        )
        const health = (await app.inject({ method: 'GET', url: '/health' })).json<{
          documents: number
          backend: string
        }>()
        expect(health).toMatchObject({ documents: local.docCount, backend })
        const fulltext = await app.inject({
          method: 'GET',
          url: '/search?q=cancer&fulltext=abstract',
        })
        expect([fulltext.statusCode, fulltext.json<{ code: string }>().code]).toEqual([
          400,
          'INVALID_ARGUMENT',
        ])
        const session = await app.inject({
          method: 'POST',
          url: '/sessions',
          payload: { q: 'cancer' },
        })
        expect(session.statusCode).toBe(404)
      } finally {
        await app.close()
      }
      await expect(createServer({ engine, searchWorkers: 1 })).rejects.toThrow(
        /does not take search workers/,
      )
    })
  },
)
