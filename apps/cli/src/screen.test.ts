import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bin, pubmatch, samplePath } from '../test/run-cli.ts'

// A Cohen 2006-format review of 12 records: 3 included (aspirin and stroke), one bad row.
const HEADER = 'record_id,pubmedID,title,keywords,authors,abstract,label_abstract_screening,label_included\n'
const ROWS = Array.from({ length: 12 }, (_, i) => {
  const included = i % 4 === 0
  const title = included ? `Aspirin prevents stroke ${i}` : ['Rain forecast', 'League football', 'Pasta recipe'][i % 3]!
  return `${i + 1},${1000 + i},${title},${included ? 'Aspirin; Stroke' : 'Weather'},"Doe, J",,${included ? 1 : 0},${included ? 1 : 0}\n`
}).join('')

describe.runIf(existsSync(bin))('pubmatch screen simulate (built CLI)', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pubmatch-screen-'))
    await writeFile(join(dir, 'Toy.csv'), `${HEADER}${ROWS}13,x1,Bad,,,,0,0\n`)
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('replays the review, reports the skipped row (status 1), and writes the curve and report', async () => {
    const out = join(dir, 'out')
    const result = await pubmatch('screen', 'simulate', join(dir, 'Toy.csv'), '--seeds', '0,1', '--out', out, '--json')
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/skipped: Toy: line 14: pubmedID "x1" is not a PMID/)
    const runs = JSON.parse(result.stdout) as Array<{ seed: number; priors: number[]; metrics: { records: number; relevant: number; toRecall100: number } }>
    expect(runs.map((r) => r.seed)).toEqual([0, 1])
    // 10 records after the priors, 2 of them relevant, both screened first
    expect(runs[0]!.metrics).toMatchObject({ records: 10, relevant: 2, toRecall100: 2 })
    expect(await readFile(join(out, 'recall-curve.svg'), 'utf8')).toMatch(/^<svg /)
    expect(await readFile(join(out, 'report.html'), 'utf8')).toContain('<h1>Toy: logistic</h1>')
  })

  it('rejects a path that is no review', async () => {
    const result = await pubmatch('screen', 'simulate', join(dir, 'nothing.txt'))
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/NOT_FOUND: no review at/)
  })
})

describe.runIf(existsSync(bin))('pubmatch screen projects (built CLI)', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pubmatch-screen-project-'))
    await writeFile(join(dir, 'candidates.csv'), `${HEADER}${ROWS}`)
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('creates a project, proposes records, takes decisions, reports status and exports them', async () => {
    const projects = join(dir, 'projects')
    const created = await pubmatch('screen', 'create', 'toy', join(dir, 'candidates.csv'), '--question', 'aspirin stroke', '--projects', projects)
    expect(created.stdout).toMatch(/created toy .*: 12 candidates/)
    const next = await pubmatch('screen', 'next', 'toy', '-n', '3', '--projects', projects, '--json')
    const shown = JSON.parse(next.stdout) as Array<{ id: string; title: string }>
    expect(shown.every((r) => r.title.startsWith('Aspirin'))).toBe(true)
    const decided = await pubmatch('screen', 'decide', 'toy', `${shown[0]!.id}=include`, `${shown[1]!.id}=h`, '1001=e', '--projects', projects)
    expect(decided.code).toBe(0)
    expect(decided.stdout).toMatch(/3 of 12 screened, 2 included/)
    const bad = await pubmatch('screen', 'decide', 'toy', '1001=maybe', '--projects', projects)
    expect(bad.code).toBe(64)
    const status = JSON.parse((await pubmatch('screen', 'status', 'toy', '--projects', projects, '--json')).stdout) as { screened: number; advice: string }
    expect(status.screened).toBe(3)
    expect(status.advice).toMatch(/knee method/)
    const csv = (await pubmatch('screen', 'export', 'toy', '--format', 'csv', '--which', 'excluded', '--projects', projects)).stdout
    expect(csv.split('\n')[1]).toMatch(/^1001,League football,.*,exclude,/)
    const out = join(dir, 'included.ris')
    expect((await pubmatch('screen', 'export', 'toy', '-o', out, '--projects', projects)).code).toBe(0)
    expect((await readFile(out, 'utf8')).match(/^TY {2}- JOUR$/gm)).toHaveLength(2)
  })
})

describe.runIf(existsSync(bin))('pubmatch screen create --query (built CLI)', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pubmatch-screen-query-'))
    expect((await pubmatch('ingest', samplePath('pubmed/medsamp2006.xml'), '-c', join(dir, 'corpus'), '-q')).code).toBe(0)
    expect((await pubmatch('index', '-c', join(dir, 'corpus'), '-i', join(dir, 'index'), '-q')).code).toBe(0)
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('takes the candidates from a search of the index and their records from the corpus', async () => {
    const projects = join(dir, 'projects')
    // the query the server's browser test uses: 31 of the sample's 88 articles
    const created = await pubmatch('screen', 'create', 'q', '--query', 'cell OR patients', '-i', join(dir, 'index'), '-c', join(dir, 'corpus'), '--projects', projects)
    expect(created.code).toBe(0)
    expect(created.stdout).toMatch(/: 31 candidates/)
    const next = JSON.parse((await pubmatch('screen', 'next', 'q', '-n', '1', '--projects', projects, '--json')).stdout) as Array<{ abstract: string }>
    expect(next[0]!.abstract.length).toBeGreaterThan(0)
    expect((await pubmatch('screen', 'create', 'none', '--projects', projects)).code).toBe(64)
  })
})
