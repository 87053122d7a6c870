import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bin, pubmatch } from '../test/run-cli.ts'

/** Runs the built CLI with `input` on standard input. */
async function pubmatchWithInput(input: string, ...args: string[]): Promise<{ stdout: string; stderr: string; code: number | null }> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['pipe', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
  })
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  child.stdin.end(input)
  const code = await new Promise<number | null>((resolve) => child.on('close', (status) => resolve(status)))
  return { stdout, stderr, code }
}

const STRATEGY = 'exp Glaucoma/\n(optic adj3 nerve).tw.\n1 or 2\nlimit 3 to english language\n'

describe.runIf(existsSync(bin))('pubmatch translate and --syntax ovid (built CLI)', () => {
  let dir: string
  let index: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pubmatch-translate-'))
    index = join(dir, 'index')
    const demo = await pubmatch('demo', '--corpus', join(dir, 'corpus'), '--index', index, '--plain')
    expect(demo.code).toBe(0)
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('prints each line, the final query and the notes of a strategy file', async () => {
    const file = join(dir, 'strategy.txt')
    await writeFile(file, STRATEGY)
    const result = await pubmatch('translate', '--from', 'ovid', file)
    expect(result.code).toBe(0)
    expect(result.stdout).toBe(
      [
        'Ovid line → PubMed',
        '',
        '1  exp Glaucoma/',
        '   "Glaucoma"[mh]',
        '2  (optic adj3 nerve).tw.',
        '   "optic nerve"[tiab:~2]',
        '3  1 or 2',
        '   #1 OR #2',
        '4  limit 3 to english language',
        '   #3 AND english[la]',
        '',
        'Final query (line 4, line references resolved):',
        '("Glaucoma"[mh] OR "optic nerve"[tiab:~2]) AND english[la]',
        '',
        'No approximations: every construct has an exact PubMed equivalent.',
        '',
      ].join('\n'),
    )
  })

  it('reads standard input, prints JSON, and exits 1 when a line could not be translated', async () => {
    const result = await pubmatchWithInput('wom#n.tw.\nglaucoma$.tw.\n2 and (optic adj2 nerve$).ti,ab.\n', 'translate', '--from', 'ovid', '-', '--json')
    expect(result.code).toBe(1)
    const json = JSON.parse(result.stdout) as { query: string; lines: Array<{ problem?: string }>; notes: Array<{ kind: string }> }
    expect(json.query).toBe('glaucoma*[tiab] AND optic[tiab] AND nerve*[tiab]')
    expect(json.lines.map((line) => line.problem !== undefined)).toEqual([true, false, false])
    expect(json.notes.map((note) => note.kind)).toEqual(['adjacency', 'unused-lines'])
  })

  it('fails with status 64 naming the line when the final line cannot be translated', async () => {
    const result = await pubmatchWithInput('glaucoma.tw.\n(optic adj2 nerve.tw.\n', 'translate', '--from', 'ovid', '-')
    expect(result.code).toBe(64)
    expect(result.stderr).toMatch(/^pubmatch: QUERY_SYNTAX: Ovid line 2 cannot be translated in standard input: "\(" is never closed/)
  })

  it('searches an Ovid strategy as its PubMed translation, with the notes on stderr', async () => {
    const ovid = await pubmatch('search', '--syntax', 'ovid', 'asthma$.tw.\\nHumans/\\n1 and 2', '-i', index, '--json')
    const pubmed = await pubmatch('search', 'asthma*[tiab] AND humans[mh:noexp]', '-i', index, '--json')
    expect(ovid.code).toBe(0)
    expect(ovid.stderr).toBe('PubMed query: asthma*[tiab] AND "Humans"[mh:noexp]\n')
    const ids = (stdout: string): string[] => (JSON.parse(stdout) as { hits: Array<{ id: string }> }).hits.map((hit) => hit.id)
    expect(ids(ovid.stdout).length).toBeGreaterThan(0)
    expect(ids(ovid.stdout)).toEqual(ids(pubmed.stdout))
    const noted = await pubmatch('search', '--syntax', 'ovid', 'asthma.mp.', '-i', index, '-n', '1')
    expect(noted.stderr).toMatch(/^query: note: line 1: field "\.mp\.": Ovid \.mp\. .* searched as PubMed \[tw\]/)
  })

  it('tells how to search Ovid text that was typed as PubMed', async () => {
    const result = await pubmatch('search', 'exp Glaucoma/', '-i', index)
    expect(result.code).toBe(64)
    expect(result.stderr).toMatch(/^pubmatch: QUERY_SYNTAX: query looks like Ovid MEDLINE syntax, not PubMed \(subject heading "Glaucoma\/" on line 1\)/)
    expect(result.stderr).toContain('Search it as Ovid with --syntax ovid; `pubmatch translate --from ovid FILE` prints its PubMed translation.')
  })

  it('runs a queries file of Ovid strategies, reporting the ones that cannot be translated', async () => {
    const queries = join(dir, 'ovid.queries')
    await writeFile(queries, 'q1\tasthma$.tw.\\nHumans/\\n1 and 2\nq2\twom#n.tw.\n')
    const out = join(dir, 'ovid.run')
    const result = await pubmatch('run', '--syntax', 'ovid', '-i', index, '--queries', queries, '-o', out, '--plain')
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('query q2: QUERY_SYNTAX: Ovid line 1 cannot be translated in query q2')
    const run = await readFile(out, 'utf8')
    expect(run.split('\n').filter(Boolean).every((line) => line.startsWith('q1 '))).toBe(true)
  })
})
