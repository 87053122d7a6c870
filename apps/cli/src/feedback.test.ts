import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bin, pubmatch, samplePath } from '../test/run-cli.ts'

const sample = samplePath('pubmed/medsamp2006.xml')


describe.runIf(existsSync(bin))('pubmatch feedback and --prf (built CLI)', () => {
  let dir: string
  let index: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pubmatch-feedback-'))
    index = join(dir, 'index')
    expect((await pubmatch('ingest', sample, '-c', join(dir, 'corpus'), '-q')).code).toBe(0)
    expect((await pubmatch('index', '-c', join(dir, 'corpus'), '-i', index, '-q')).code).toBe(0)
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('runs a scripted session from a grades file, logs it, and continues it by id', async () => {
    const grades = join(dir, 'user.grades')
    const first = await pubmatch('feedback', 'cell OR patients', '-i', index, '--grades', grades, '--sessions', join(dir, 'sessions'), '--rounds', '1', '--json').catch(() => undefined)
    // no grades file yet: a clear error naming it
    expect(first?.code).toBe(2)
    expect(first?.stderr).toMatch(/^pubmatch: NOT_FOUND: .*user\.grades/)
    await writeFile(grades, '# PMID grade\n')
    const result = await pubmatch('feedback', 'cell OR patients', '-i', index, '--grades', grades, '--sessions', join(dir, 'sessions'), '--rounds', '2', '--json')
    expect(result.code).toBe(0)
    const rounds = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { session: string; round: number; shown: Array<{ id: string; grade: string }> })
    expect(rounds.map((r) => r.round)).toEqual([1, 2])
    const ids = rounds.flatMap((r) => r.shown.map((d) => d.id))
    expect(new Set(ids).size).toBe(ids.length)
    expect(rounds[0]!.shown.every((d) => d.grade === 'non-relevant')).toBe(true) // unjudged: non-relevant
    // grade one of the next round highly relevant, then continue the logged session
    const session = rounds[0]!.session
    expect(result.stderr).toContain(`--session ${session}`)
    const peek = await pubmatch('search', 'cell OR patients', '-i', index, '--json', '-n', '40')
    const next = (JSON.parse(peek.stdout) as { hits: Array<{ id: string }> }).hits.map((h) => h.id).find((id) => !ids.includes(id))!
    await writeFile(grades, `${next} h\n`)
    const more = await pubmatch('feedback', '--session', session, '-i', index, '--grades', grades, '--sessions', join(dir, 'sessions'), '--rounds', '1', '--json')
    expect(more.code).toBe(0)
    const third = JSON.parse(more.stdout.trim()) as { round: number; shown: Array<{ id: string }> }
    expect(third.round).toBe(3)
    expect(third.shown.some((d) => ids.includes(d.id))).toBe(false)
    const bad = await pubmatch('feedback', '--session', 'nosuchsession', '-i', index, '--grades', grades, '--sessions', join(dir, 'sessions'))
    expect([bad.code, bad.stderr]).toEqual([2, 'pubmatch: NOT_FOUND: no session nosuchsession\n'])
  })

  it('writes a run per round that pubmatch eval plots by round', async () => {
    const grades = join(dir, 'rounds.grades')
    const peek = JSON.parse((await pubmatch('search', 'cell OR patients', '-i', index, '--json', '-n', '30')).stdout) as { hits: Array<{ id: string }> }
    // the user finds documents 3, 12 and 25 of the first-stage ranking relevant
    const relevant = [peek.hits[2]!.id, peek.hits[11]!.id, peek.hits[24]!.id]
    await writeFile(grades, relevant.map((id) => `${id} r
`).join(''))
    await writeFile(join(dir, 'rounds.qrel'), relevant.map((id) => `Q7 0 ${id} 1
`).join(''))
    const prefix = join(dir, 'user')
    const result = await pubmatch('feedback', 'cell OR patients', '-i', index, '--grades', grades, '--sessions', join(dir, 'sessions'), '--rounds', '2', '--no-prf', '--runs', prefix, '--query-id', 'Q7', '--json')
    expect(result.code).toBe(0)
    const files = [0, 1, 2].map((round) => `${prefix}.round${round}.run`)
    expect(files.every((file) => existsSync(file))).toBe(true)
    const lines = (await readFile(files[0]!, 'utf8')).trim().split('\n')
    expect(lines[0]).toMatch(/^Q7 Q0 \d+ 1 \S+ feedback-round0$/)
    const html = join(dir, 'rounds.html')
    const evaluated = await pubmatch('eval', ...files, join(dir, 'rounds.qrel'), '--html', html, '--trend', '--json')
    expect(evaluated.code).toBe(0)
    const report = await readFile(html, 'utf8')
    expect(report).toContain('<h2>Means by run</h2>')
    expect(report).toMatch(/user\.round2/)
  })

  it('searches and runs with pseudo relevance feedback in the first stage', async () => {
    const searched = JSON.parse((await pubmatch('search', 'cell', '-i', index, '--prf', '--json', '-n', '5')).stdout) as { prf: { terms: Array<[string, number]> }; hits: unknown[] }
    expect(searched.prf.terms[0]![0]).toBe('cell')
    expect(searched.hits).toHaveLength(5)
    const queries = join(dir, 'q.tsv')
    await writeFile(queries, '1\tcell\n2\tpatients\n')
    const ran = await pubmatch('run', '-i', index, '--queries', queries, '-o', join(dir, 'prf.run'), '--prf', '-q', '--json')
    expect(JSON.parse(ran.stdout)).toMatchObject({ queries: 2, reranked: false })
  })
})
