/**
 * `pubmatch-server` (the built `dist/bin.js`) in a child process, on loopback: the rate limit and
 * trusted proxy flags over real sockets, and the flags it refuses (status 64, the flag named).
 * Serving a Solr collection alone (`--backend` without `--index`) is tested in
 * `apps/cli/src/solr.test.ts`, which has the local SolrCloud.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { samplePath } from '@pubmatch/sample-data'
import { sampleIndex } from '../test/fixtures.ts'

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url))

/** A run of the bin: its output and exit status, or its address while it listens. */
interface BinRun {
  /** `http://127.0.0.1:PORT` once it listens; undefined if it exited first. */
  readonly url: string | undefined
  readonly stdout: () => string
  readonly stderr: () => string
  /** Its exit status, once it has exited. */
  readonly exited: Promise<number | null>
  /** SIGTERM, then its exit status. */
  stop(): Promise<number | null>
}

/** Starts `pubmatch-server …` and waits until it listens or exits. */
async function startBin(args: readonly string[], cwd?: string): Promise<BinRun> {
  const child = spawn(process.execPath, [bin, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(cwd === undefined ? {} : { cwd }),
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8')
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk
  })
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  )
  const url = await new Promise<string | undefined>((resolve) => {
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk
      const match = /serving .* at (http:\/\/\S+)/.exec(stdout)
      if (match !== null) {
        resolve(match[1])
      }
    })
    void exited.then(() => resolve(undefined))
  })
  return {
    url,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
      }
      return exited
    },
  }
}

describe.runIf(existsSync(bin))('pubmatch-server (built bin)', () => {
  let dir: string
  let index: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'server-bin-'))
    index = await sampleIndex(dir, [samplePath('pubmed', 'pmid_9500320.xml')])
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('limits requests per forwarded address behind a trusted proxy (--rate-limit, --trust-proxy)', async () => {
    const server = await startBin([
      '--index',
      index,
      '--port',
      '0',
      '--rate-limit',
      '2/min',
      '--trust-proxy',
      '127.0.0.1',
    ])
    try {
      expect([server.url, server.stderr()]).toEqual([
        expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
        '',
      ])
      const health = async (user: string): Promise<number> =>
        (await fetch(`${server.url}/health`, { headers: { 'x-forwarded-for': user } })).status
      const statuses = []
      for (let i = 0; i < 3; i++) {
        statuses.push(await health('203.0.113.5'))
      }
      expect(statuses).toEqual([200, 200, 429])
      expect(await health('203.0.113.6')).toBe(200)
    } finally {
      await server.stop()
    }
    expect(await server.exited).toBe(0)
  })

  it('keeps one budget for everyone behind a proxy it was not told to trust, and serves past it with --rate-limit off', async () => {
    const shared = await startBin(['--index', index, '--port', '0', '--rate-limit', '2/min'])
    try {
      const statuses = []
      for (const user of ['203.0.113.5', '203.0.113.6', '203.0.113.7']) {
        statuses.push(
          (await fetch(`${shared.url}/health`, { headers: { 'x-forwarded-for': user } })).status,
        )
      }
      expect(statuses).toEqual([200, 200, 429])
    } finally {
      await shared.stop()
    }
    const off = await startBin(['--index', index, '--port', '0', '--rate-limit', 'off'])
    try {
      const statuses = new Set<number>()
      for (let i = 0; i < 620; i++) {
        statuses.add((await fetch(`${off.url}/health`)).status)
      }
      expect([...statuses]).toEqual([200])
    } finally {
      await off.stop()
    }
  })

  it('works around a query syntax error with a warning by default, and answers it 400 with --strict', async () => {
    const malformed = `/search?q=${encodeURIComponent('colitis AND (')}`
    const lenient = await startBin(['--index', index, '--port', '0'])
    try {
      const response = await fetch(`${lenient.url}${malformed}`)
      expect(response.status).toBe(200)
      const body = (await response.json()) as { total: number; warnings: Array<{ code: string }> }
      const plain = (await (await fetch(`${lenient.url}/search?q=colitis`)).json()) as { total: number }
      expect(body.total).toBe(plain.total)
      expect(body.total).toBeGreaterThan(0)
      // the "(" never closed, the empty group it opens and the AND left dangling
      expect(body.warnings.length).toBeGreaterThan(0)
      expect(new Set(body.warnings.map((w) => w.code))).toEqual(new Set(['QUERY_SYNTAX']))
    } finally {
      await lenient.stop()
    }
    const strict = await startBin(['--index', index, '--port', '0', '--strict'])
    try {
      const response = await fetch(`${strict.url}${malformed}`)
      expect(response.status).toBe(400)
      expect(((await response.json()) as { code: string }).code).toBe('QUERY_SYNTAX')
    } finally {
      await strict.stop()
    }
    expect(await strict.exited).toBe(0)
  })

  it('refuses bad flag values with status 64, naming the flag and the value', async () => {
    const refused = async (...args: string[]): Promise<string> => {
      const run = await startBin(['--index', index, '--port', '0', ...args])
      expect([run.url, await run.exited]).toEqual([undefined, 64])
      return run.stderr()
    }
    expect(await refused('--rate-limit', '10/fortnight')).toMatch(
      /^pubmatch-server: INVALID_ARGUMENT: --rate-limit must be "off" or requests per window .*, got "10\/fortnight"\n$/,
    )
    expect(await refused('--rate-limit-key', 'user')).toBe(
      'pubmatch-server: INVALID_ARGUMENT: --rate-limit-key must be "address" or "session", got "user"\n',
    )
    expect(await refused('--trust-proxy', '1')).toMatch(
      /^pubmatch-server: INVALID_ARGUMENT: --trust-proxy must be .*, got "1": a hop count is not taken/,
    )
    expect(await refused('--port', 'http')).toBe(
      'pubmatch-server: INVALID_ARGUMENT: --port must be 0–65535, got "http"\n',
    )
    expect(await refused('--frobnicate')).toMatch(/^pubmatch-server: Unknown option '--frobnicate'/)
  })

  it('with --backend and no --index, takes --model as the name of a model deployed in the collection, never a folder', async () => {
    const folder = join(dir, 'model-folder')
    await mkdir(folder)
    const run = await startBin([
      '--backend',
      'solr://127.0.0.1:9/solr/pubmed',
      '--model',
      folder,
      '--port',
      '0',
    ])
    expect([run.url, await run.exited]).toEqual([undefined, 64])
    expect(run.stderr()).toMatch(
      /^pubmatch-server: INVALID_ARGUMENT: --model \S+model-folder is a folder, but a collection served alone \(--backend without --index\) reranks with a model deployed in it/,
    )
  })
})
