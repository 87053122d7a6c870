import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bin, pubmatch } from '../test/run-cli.ts'

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
