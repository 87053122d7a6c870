import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sharedDataDir, sharedDataPath } from '@pubmatch/core/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bin, pubmatch, pubmatchAt, samplePath } from '../test/run-cli.ts'
import { startServerProcess } from '../test/run-server.ts'
import { SAMPLE_CORPUS_DIR } from '@pubmatch/sample-data'

describe.runIf(existsSync(bin))('pubmatch CLI (built)', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pubmatch-cli-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('prints help for every command', async () => {
    const top = await pubmatch('--help')
    expect(top.code).toBe(0)
    const commands = [...top.stdout.matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1]!).filter((c) => c !== 'help')
    expect(commands).toEqual(expect.arrayContaining(['demo', 'ingest', 'corpus']))
    for (const command of commands) {
      const help = await pubmatch(command, '--help')
      expect([command, help.code]).toEqual([command, 0])
      expect(help.stdout).toContain(`Usage: pubmatch ${command}`)
    }
  })

  it('rejects bad usage with exit status 64 (EX_USAGE) and a message, never a stack trace', async () => {
    const result = await pubmatch('ingest', '--format', 'nonsense', 'x')
    expect(result.code).toBe(64)
    expect(result.stderr).toContain('nonsense')
    const badNumber = await pubmatch('search', 'x', '-n', 'many')
    expect(badNumber.code).toBe(64)
    expect(badNumber.stderr).toBe('pubmatch: INVALID_ARGUMENT: expected a positive integer, got "many"\n')
    const unknown = await pubmatch('frobnicate')
    expect(unknown.code).toBe(64)
    expect(unknown.stderr).not.toMatch(/\n\s+at /)
  })

  it('serve refuses bad --rate-limit, --rate-limit-key and --trust-proxy values with status 64 before it ingests anything', async () => {
    const cwd = join(dir, 'serve-refused')
    await mkdir(cwd)
    const refused = async (...args: string[]): Promise<string> => {
      const run = await pubmatchAt({ cwd }, 'serve', '--port', '0', ...args)
      expect([run.code, run.stdout]).toEqual([64, ''])
      return run.stderr
    }
    expect(await refused('--rate-limit', 'lots')).toMatch(/^pubmatch: INVALID_ARGUMENT: --rate-limit must be "off" or requests per window such as 600\/min, .*, got "lots"\n$/)
    expect(await refused('--rate-limit-key', 'user')).toBe('pubmatch: INVALID_ARGUMENT: --rate-limit-key must be "address" or "session", got "user"\n')
    expect(await refused('--trust-proxy', '2')).toMatch(/^pubmatch: INVALID_ARGUMENT: --trust-proxy must be .*, got "2": a hop count is not taken/)
    expect(await refused('--backend', 'solr://127.0.0.1:9/solr/c', '--trust-proxy', 'my-proxy')).toMatch(/^pubmatch: INVALID_ARGUMENT: --trust-proxy must be/)
    expect(await readdir(cwd)).toEqual([])
  })

  it('serve limits requests per client session and believes the proxy it is told to trust', async () => {
    const corpus = join(dir, 'serve-corpus')
    const index = join(dir, 'serve-index')
    expect((await pubmatch('ingest', samplePath('pubmed', 'pmid_9500320.xml'), '-c', corpus, '-q')).code).toBe(0)
    expect((await pubmatch('index', '-c', corpus, '-i', index, '-q')).code).toBe(0)
    const args = ['serve', '-i', index, '--port', '0', '--log', join(dir, 'serve-log'), '--sessions', join(dir, 'serve-sessions')]
    const server = await startServerProcess(bin, [...args, '--rate-limit', '2/min', '--rate-limit-key', 'session', '--trust-proxy', '127.0.0.1'])
    try {
      expect(server.stderr()).toContain('serve: rate limit 2/min per client session; X-Forwarded-For believed from 127.0.0.1\n')
      const search = async (session: string): Promise<number> => (await fetch(`${server.url}/search?q=cell&session=${session}`)).status
      const health = async (user: string): Promise<number> => (await fetch(`${server.url}/health`, { headers: { 'x-forwarded-for': user } })).status
      const statuses = []
      for (const session of ['sessionAAAA', 'sessionAAAA', 'sessionAAAA', 'sessionBBBB']) {
        statuses.push(await search(session))
      }
      for (const user of ['203.0.113.5', '203.0.113.5', '203.0.113.5', '203.0.113.6']) {
        statuses.push(await health(user))
      }
      expect(statuses).toEqual([200, 200, 429, 200, 200, 200, 429, 200])
    } finally {
      await server.stop()
    }
    expect(await server.exited).toBe(0)
  })

  it('serve works around a query syntax error as PubMed does, with a warning, and refuses it with --strict', async () => {
    const corpus = join(dir, 'serve-syntax-corpus')
    const index = join(dir, 'serve-syntax-index')
    expect((await pubmatch('ingest', samplePath('pubmed', 'pmid_9500320.xml'), '-c', corpus, '-q')).code).toBe(0)
    expect((await pubmatch('index', '-c', corpus, '-i', index, '-q')).code).toBe(0)
    const args = ['serve', '-i', index, '--port', '0', '--log', join(dir, 'serve-syntax-log'), '--sessions', join(dir, 'serve-syntax-sessions')]
    // "(" never closed: PubMed closes it and runs the query
    const malformed = '/search?q=' + encodeURIComponent('(colitis')
    const lenient = await startServerProcess(bin, args)
    try {
      const plain = (await (await fetch(`${lenient.url}/search?q=colitis`)).json()) as { total: number }
      const response = await fetch(`${lenient.url}${malformed}`)
      expect(response.status).toBe(200)
      const body = (await response.json()) as { total: number; warnings: Array<{ code: string }> }
      expect(body.total).toBe(plain.total)
      expect(body.total).toBeGreaterThan(0)
      expect(body.warnings.map((w) => w.code)).toEqual(['QUERY_SYNTAX'])
    } finally {
      await lenient.stop()
    }
    expect(await lenient.exited).toBe(0)
    const strict = await startServerProcess(bin, [...args, '--strict'])
    try {
      const response = await fetch(`${strict.url}${malformed}`)
      expect(response.status).toBe(400)
      expect(((await response.json()) as { code: string }).code).toBe('QUERY_SYNTAX')
    } finally {
      await strict.stop()
    }
    expect(await strict.exited).toBe(0)
  })

  it('ingests, indexes and searches the bundled sample corpus, then skips it all when run again', async () => {
    const corpus = join(dir, 'demo')
    const first = await pubmatch('demo', '--corpus', corpus, '--index', join(dir, 'demo-index'), '--plain')
    expect(first.code).toBe(0)
    // 695 PubMed citations and 8 records derived from the full texts (5 BioC, 3 JATS), none of which has its citation in the sample
    expect(first.stdout).toMatch(/703 articles \(8 derived from full texts without a PubMed record\), 8 full texts, 145 MeSH records/)
    expect(first.stdout).toMatch(/703 documents \(703 added, 0 deleted\)/)
    expect(first.stdout).toContain('7 matching documents')
    const again = await pubmatch('ingest', SAMPLE_CORPUS_DIR, '--corpus', corpus, '--json', '-q')
    expect(JSON.parse(again.stdout)).toMatchObject({ added: 0, updated: 0, derived: 0, sources: 0, resumed: 16 })
    const show = await pubmatch('corpus', 'show', '9500320', '--corpus', corpus)
    expect(JSON.parse(show.stdout)).toMatchObject({ id: '9500320' })
    const missing = await pubmatch('corpus', 'show', '1', '--corpus', corpus)
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/^pubmatch: NOT_FOUND: /)
  })

  it('keeps the index in step with the corpus: a later DeleteCitation removes the article from search', async () => {
    const corpus = join(dir, 'sync')
    const index = join(dir, 'sync-index')
    const sample = samplePath('pubmed/pmid_9500320.xml')
    expect((await pubmatch('ingest', sample, '-c', corpus, '-q')).code).toBe(0)
    expect((await pubmatch('index', '-c', corpus, '-i', index, '-q')).code).toBe(0)
    const hit = JSON.parse((await pubmatch('search', '9500320[pmid]', '-i', index, '--json')).stdout) as { hits: Array<{ id: string }> }
    expect(hit.hits.map((h) => h.id)).toEqual(['9500320'])
    const update = join(dir, 'update.xml')
    await writeFile(update, '<PubmedArticleSet><DeleteCitation><PMID Version="1">9500320</PMID></DeleteCitation></PubmedArticleSet>')
    expect((await pubmatch('ingest', update, '-c', corpus, '-q')).code).toBe(0)
    // another corpus's changes do not apply to this index; without -c, the index follows its own corpus
    expect((await pubmatch('ingest', samplePath('pubmed/pmid_151222.xml'), '-c', join(dir, 'another-corpus'), '-q')).code).toBe(0)
    const other = await pubmatch('index', '-c', join(dir, 'another-corpus'), '-i', index, '-q')
    expect([other.code, other.stderr]).toEqual([64, expect.stringContaining(`follows the corpus ${corpus}`)])
    const incremental = await pubmatch('index', '-i', index, '-q')
    expect(incremental.stdout).toContain('0 documents (0 added or replaced, 1 deleted')
    const after = JSON.parse((await pubmatch('search', '9500320[pmid]', '-i', index, '--json')).stdout) as { hits: unknown[] }
    expect(after.hits).toEqual([])
  })

  it('explains a search and reports syntax errors with their position', async () => {
    const index = join(dir, 'demo-index')
    const explained = await pubmatch('search', 'asthma AND child*', '-i', index, '--explain', '-n', '1')
    expect(explained.stdout).toMatch(/bm25f = Σ_t score\(t\)/)
    // as PubMed: the "(" is closed, the search runs, and a warning says what was read
    const recovered = await pubmatch('search', 'asthma AND (child', '-i', index)
    expect(recovered.code).toBe(0)
    expect(recovered.stderr).toMatch(/^warning: QUERY_SYNTAX: "\(" is never closed with "\)"$/m)
    const bad = await pubmatch('search', 'asthma AND (child', '-i', index, '--strict')
    expect(bad.code).toBe(64)
    expect(bad.stderr).toMatch(/^pubmatch: QUERY_SYNTAX: /)
  })

  it('reproduces the NFCorpus dev numbers from the CLI: ingest, index, run, eval', { tags: ['real-data'] }, async () => {
    const corpus = join(dir, 'nf')
    const index = join(dir, 'nf-index')
    const run = join(dir, 'dev.run')
    expect((await pubmatch('ingest', sharedDataPath('nfcorpus', 'corpus.docs'), '-c', corpus, '-q')).code).toBe(0)
    expect((await pubmatch('index', '-c', corpus, '-i', index, '-q')).code).toBe(0)
    expect((await pubmatch('run', '-i', index, '--queries', sharedDataPath('nfcorpus', 'dev', 'q-titles.queries'), '-o', run, '-q')).code).toBe(0)
    const evaluated = await pubmatch('eval', run, sharedDataPath('nfcorpus', 'dev', 's-3.qrel'), '--trec-eval', '-m', 'ndcg_cut.10')
    // the default first stage (BM25F, biomedical analyzer) on NFCorpus dev, trec_eval -c
    expect(evaluated.stdout).toMatch(/^ndcg_cut_10\s+all\s+0\.3055$/m)
    const html = join(dir, 'report.html')
    expect((await pubmatch('eval', run, sharedDataPath('nfcorpus', 'dev', 's-3.qrel'), '--html', html)).code).toBe(0)
    expect(await readFile(html, 'utf8')).toMatch(/^<!DOCTYPE html>/i)
  })

  it('turns every real file in the shared data into articles without crashing', { tags: ['real-data'] }, async () => {
    const corpus = join(dir, 'all')
    const result = await pubmatch('ingest', sharedDataDir(), '--corpus', corpus, '--json', '-q')
    const summary = JSON.parse(result.stdout) as Record<string, number>
    // the shared data holds hostile and broken files on purpose: partly done, exit status 1
    expect(summary['errors']).toBeGreaterThan(0)
    expect(result.code).toBe(1)
    expect(summary['added']).toBeGreaterThan(4000)
    expect(summary['fullTexts']).toBeGreaterThan(260)
    const stats = JSON.parse((await pubmatch('corpus', 'stats', '--corpus', corpus, '--json')).stdout) as Record<string, number>
    // the citations, and a record derived from each full text whose citation is not there
    expect(stats['articles']! - stats['derived']!).toBe(summary['added']! - summary['deleted']!)
    expect(stats['derived']).toBeGreaterThan(260)
    // every failure names its file
    const errors = (await pubmatch('corpus', 'errors', '--corpus', corpus, '--json')).stdout.trim().split('\n')
    for (const line of errors.filter(Boolean)) {
      expect(JSON.parse(line)).toHaveProperty('details.file')
    }
  })
})
