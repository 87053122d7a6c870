import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { emptyArticle, type Article } from '@pubmatch/core'
import { samplePath } from '@pubmatch/sample-data'
import { createScreeningProject, openScreeningProject } from './project.ts'
import { parseCandidateCsv, readCandidates } from './readers/candidates.ts'
import { parseRis } from './readers/ris.ts'
import { correctedProbability, estimatedRecall, kneeStop, recallEstimateReadiness } from './stopping.ts'

describe('kneeStop (Cormack & Grossman 2016)', () => {
  it('stops after 200 records whose 20 includes all came first', () => {
    // gain curve: rel(i) = min(i, 20); the knee maximises rel(i)·200 − i·20 → i = 20;
    // ρ = (20/20) / ((20 − 20 + 1)/(200 − 20)) = 180 ≥ 156 − 20 = 136
    const labels = [...new Array<number>(20).fill(1), ...new Array<number>(180).fill(0)]
    expect(kneeStop(labels)).toEqual({ screened: 200, found: 20, knee: 20, slopeRatio: 180, target: 136, stop: true })
  })
  it('does not stop before 150 records, nor while includes keep coming', () => {
    // 100 records: ρ = 1/(1/80) = 80 but fewer than 150 screened
    expect(kneeStop([...new Array<number>(20).fill(1), ...new Array<number>(80).fill(0)]).stop).toBe(false)
    // 200 records, an include every 10th (at 1, 11, …, 191): rel(i)·200 − i·20 is 180 at every
    // include, so the knee is the first of them, 1: ρ = (1/1) / ((20 − 1 + 1)/199) = 9.95
    const steady = Array.from({ length: 200 }, (_, i) => (i % 10 === 0 ? 1 : 0))
    const k = kneeStop(steady)
    expect(k.knee).toBe(1)
    expect(k.slopeRatio).toBeCloseTo(9.95, 12)
    expect(k.stop).toBe(false)
    expect(kneeStop([0, 0]).stop).toBe(false)
  })
  it('estimates recall as found / (found + Σ p)', () => {
    expect(estimatedRecall(6, [0.5, 1, 0.5])).toBe(0.75)
  })
  it('moves a class-weighted probability back to the screened prevalence', () => {
    // z = 0 + ln(1/3) − ln(1) → p = 1/(1 + 3) = 0.25
    expect(correctedProbability(0, 1, 3)).toBeCloseTo(0.25, 12)
    // share 0.9: z = ln(1/3) − ln 9 = ln(1/27) → p = 1/28
    expect(correctedProbability(0, 1, 3, 0.9)).toBeCloseTo(1 / 28, 12)
    // z = ln 2 + ln(2/2) → p = 2/3
    expect(correctedProbability(Math.log(2), 2, 2)).toBeCloseTo(2 / 3, 12)
  })
  it('gives no recall estimate before 5 includes and 20 excludes, and says why', () => {
    expect(recallEstimateReadiness(1, 1)).toMatch(/^not enough decisions yet.*has 1 of the 5 includes and 1 of the 20 excludes/)
    expect(recallEstimateReadiness(5, 19)).toMatch(/has 19 of the 20 excludes\)/)
    expect(recallEstimateReadiness(5, 20)).toBeUndefined()
  })
})

describe('candidate readers', () => {
  it('reads RIS records, with continuation lines, and reports broken ones', () => {
    const ris = ['TY  - JOUR', 'ID  - 123', 'TI  - Aspirin for', '  stroke', 'AU  - Doe, Jane', 'AB  - An abstract.', 'PY  - 2001///', 'JO  - Stroke', 'KW  - Aspirin', 'DO  - https://doi.org/10.1/x', 'ER  - ', 'TY  - JOUR', 'AB  - no title', 'ER  - ', 'TY  - JOUR', 'TI  - cut'].join('\n')
    const { articles, errors } = parseRis(ris, 'x.ris')
    expect(articles).toHaveLength(1)
    expect(articles[0]).toMatchObject({ id: '123', title: 'Aspirin for stroke', pubDate: { year: 2001 }, journal: { title: 'Stroke' }, articleIds: [{ type: 'doi', value: '10.1/x' }] })
    expect(articles[0]!.authors[0]).toMatchObject({ lastName: 'Doe', foreName: 'Jane' })
    expect(errors.map((e) => e.code)).toEqual(['MISSING_FIELD', 'TRUNCATED_INPUT'])
  })
  it('reads a generic CSV', () => {
    const { articles, errors } = parseCandidateCsv('PMID,Title,Abstract,MeSH,Year\n1,A title,Text,Aspirin; Stroke,1999\n2,,x,,\n', 'c.csv')
    expect(articles.map((a) => [a.id, a.title, a.mesh.length, a.pubDate?.year])).toEqual([['1', 'A title', 2, 1999]])
    expect(errors[0]!.message).toMatch(/line 3: no title/)
    expect(() => parseCandidateCsv('id,name\n', 'c.csv')).toThrow(/no title column/)
  })
  it('reads PubMed XML through the ingest reader and drops repeated ids', async () => {
    const path = samplePath('pubmed/medsamp2006.xml')
    const once = await readCandidates([path])
    const twice = await readCandidates([path, path])
    expect(once.articles.length).toBeGreaterThan(0)
    expect(twice.articles).toHaveLength(once.articles.length)
    expect(twice.duplicates).toBe(once.articles.length)
    await expect(readCandidates(['x.docx'])).rejects.toThrow(/UNSUPPORTED|\.ris, \.csv/)
  })
})

const article = (id: string, title: string): Article => Object.assign(emptyArticle(id), { title })
const TITLES = ['aspirin prevents stroke', 'weather forecast rain', 'aspirin stroke trial', 'football league', 'pasta recipe', 'aspirin and stroke risk', 'stock prices', 'guitar concert']

describe('screening projects', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pubmatch-screen-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('ranks by the question, learns from decisions, and keeps them across a reopen', async () => {
    const project = await createScreeningProject(dir, { name: 'aspirin', question: 'aspirin stroke', articles: TITLES.map((t, i) => article(`p${i}`, t)) })
    expect(project.next(3).map((r) => r.article.title).every((t) => t.includes('aspirin'))).toBe(true)
    await project.decide([
      { id: 'p0', decision: 'include' },
      { id: 'p1', decision: 'exclude', note: 'off topic' },
    ])
    const next = project.next(2)
    expect(next.map((r) => r.article.id).sort()).toEqual(['p2', 'p5'])
    await expect(project.decide([{ id: 'nope', decision: 'include' }])).rejects.toThrow(/not one of its candidates/)
    await expect(project.decide([{ id: 'p3', decision: 'exclude', grade: 'relevant' }])).rejects.toThrow(/goes with an include/)
    await project.decide([{ id: 'p1', decision: 'include', grade: 'highly-relevant' }]) // changed mind
    await project.close()
    const again = await openScreeningProject(dir)
    expect([...again.decisions().values()].map((d) => [d.id, d.decision])).toEqual([
      ['p0', 'include'],
      ['p1', 'include'],
    ])
    expect(again.history()).toHaveLength(3)
    const status = again.status()
    expect(status).toMatchObject({ candidates: 8, screened: 2, included: 2, excluded: 0 })
    expect(status.advice).toMatch(/fewer than 150 records screened/)
    await expect(createScreeningProject(dir, { name: 'aspirin', articles: [article('x', 'y')] })).rejects.toThrow(/already holds/)
  })

  it('skips a torn last line of the log (a crash mid-write) and keeps every whole decision', async () => {
    const project = await createScreeningProject(dir, { name: 't', articles: TITLES.map((t, i) => article(`p${i}`, t)) })
    await project.decide([{ id: 'p0', decision: 'include' }])
    await project.close()
    const [file] = await readdir(join(dir, 'decisions'))
    await appendFile(join(dir, 'decisions', file!), '{"id":"p1","decis')
    const again = await openScreeningProject(dir)
    expect([...again.decisions().keys()]).toEqual(['p0'])
    expect(again.problems).toHaveLength(1)
  })

  it('exports included and excluded records as RIS and CSV with their decision history', async () => {
    const project = await createScreeningProject(dir, { name: 'x', articles: TITLES.map((t, i) => article(`p${i}`, t)) })
    await project.decide([
      { id: 'p0', decision: 'exclude', at: '2026-01-01T00:00:00.000Z' },
      { id: 'p0', decision: 'include', at: '2026-01-02T00:00:00.000Z', note: 'on reflection' },
      { id: 'p1', decision: 'exclude', at: '2026-01-03T00:00:00.000Z' },
    ])
    const ris = project.exportRecords('ris', 'included')
    expect(ris).toContain('TY  - JOUR\nID  - p0\nTI  - aspirin prevents stroke\n')
    expect(ris).toContain('N1  - decision history: 2026-01-01T00:00:00.000Z exclude\nN1  - decision history: 2026-01-02T00:00:00.000Z include: on reflection\nER  - ')
    expect(ris).not.toContain('p1')
    expect(parseRis(ris).articles.map((a) => a.id)).toEqual(['p0'])
    const csv = project.exportRecords('csv', 'excluded')
    expect(csv).toBe('id,title,abstract,year,journal,doi,decision,grade,decided_at,history\np1,weather forecast rain,,,,,exclude,,2026-01-03T00:00:00.000Z,2026-01-03T00:00:00.000Z exclude\n')
    expect(project.exportRecords('csv', 'decided').trim().split('\n')).toHaveLength(3)
  })

  it('says "not enough decisions yet" after one include, and estimates recall once there are enough', async () => {
    const articles = [
      ...Array.from({ length: 10 }, (_, i) => article(`a${i}`, `aspirin stroke prevention trial ${i}`)),
      ...Array.from({ length: 30 }, (_, i) => article(`w${i}`, `weather forecast rain report ${i}`)),
    ]
    const project = await createScreeningProject(dir, { name: 'est', articles })
    await project.decide([
      { id: 'a0', decision: 'include' },
      { id: 'w0', decision: 'exclude' },
    ])
    const early = project.status()
    expect(early.estimatedRecall).toBeUndefined()
    expect(early.advice).toMatch(/No recall estimate: not enough decisions yet .*has 1 of the 5 includes and 1 of the 20 excludes/)
    expect(early.advice).not.toMatch(/recall at 0 %/)
    await project.decide([...[1, 2, 3, 4].map((i) => ({ id: `a${i}`, decision: 'include' as const })), ...Array.from({ length: 19 }, (_, i) => ({ id: `w${i + 1}`, decision: 'exclude' as const }))])
    const later = project.status()
    // 5 of the 10 aspirin records found, the other 5 unscreened and like them: the estimate must
    // see that records like the includes remain (far from 100 %) and that some were found
    expect(later.estimatedRecall).toBeGreaterThan(0.2)
    expect(later.estimatedRecall).toBeLessThan(0.8)
    expect(later.advice).toMatch(/estimates the recall at \d+ % \(an estimate, not a measurement\)/)
    await project.close()
  })

  it('keeps the vectorised candidates in features.bin and rebuilds it when damaged', async () => {
    const project = await createScreeningProject(dir, { name: 'c', articles: TITLES.map((t, i) => article(`p${i}`, t)) })
    await project.decide([
      { id: 'p0', decision: 'include' },
      { id: 'p1', decision: 'exclude' },
    ])
    const first = project.next(8).map((r) => [r.article.id, r.score])
    await project.close()
    const cached = await readFile(join(dir, 'features.bin'))
    const again = await openScreeningProject(dir)
    expect(again.next(8).map((r) => [r.article.id, r.score])).toEqual(first)
    await again.close()
    expect(await readFile(join(dir, 'features.bin'))).toEqual(cached) // read, not rewritten
    await writeFile(join(dir, 'features.bin'), cached.subarray(0, cached.length - 5))
    const repaired = await openScreeningProject(dir)
    expect(repaired.next(8).map((r) => [r.article.id, r.score])).toEqual(first)
    await repaired.close()
    expect(await readFile(join(dir, 'features.bin'))).toEqual(cached)
  })

  it('rejects a damaged project file', async () => {
    await writeFile(join(dir, 'project.json'), '{"format":"other"}')
    await expect(openScreeningProject(dir)).rejects.toThrow(/not a pubmatch-screen\/1 project/)
    await expect(openScreeningProject(join(dir, 'none'))).rejects.toThrow(/no screening project/)
  })
})

describe('parseCandidateCsv ids', () => {
  it('takes the id from the first of id, pmid, pubmedID, record_id that the header has', () => {
    expect(parseCandidateCsv('record_id,pubmedID,title\n1,1000,T\n', 'c.csv').articles[0]!.id).toBe('1000')
  })
})
