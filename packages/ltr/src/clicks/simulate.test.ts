import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Qrels, Query } from '@pubmatch/core'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ActionEvent, LogEvent, SearchEvent } from './log-format.ts'
import { createLogStore, type LogSink } from './log-store.ts'
import { labelQueries } from './pipeline.ts'
import { pbmExamination, simulateClicks, type SimulateClicksOptions } from './simulate.ts'

const DOCS = Array.from({ length: 25 }, (_, i) => `doc${String(i + 1).padStart(2, '0')}`)

function memorySink(): LogSink & { events: LogEvent[]; batches: number } {
  const sink = {
    events: [] as LogEvent[],
    batches: 0,
    append(events: readonly LogEvent[]): Promise<void> {
      sink.events.push(...events)
      sink.batches++
      return Promise.resolve()
    },
  }
  return sink
}

function oneQuery(grade: number): Pick<SimulateClicksOptions, 'queries' | 'qrels' | 'search'> {
  return {
    queries: [{ id: 'q1', text: 'only query' }],
    qrels: new Map([['q1', new Map(DOCS.map((d) => [d, grade]))]]),
    search: () => ({ ids: DOCS, total: 1000 }),
  }
}

/** Sessions (searches) and clicks per rank, counted from the log itself. */
function clickRates(
  events: LogEvent[],
  pageSize = 20,
): { sessions: number; ctr: number[]; clicksPerSession: number[] } {
  const searches = events.filter((e): e is SearchEvent => e.type === 'search')
  const clicks = events.filter(
    (e): e is ActionEvent => e.type === 'action' && e.kind === 'abstract_click',
  )
  const perRank = new Array<number>(pageSize).fill(0)
  const perSession = new Map<string, number>()
  for (const c of clicks) {
    perRank[c.position - 1]!++
    perSession.set(c.search, (perSession.get(c.search) ?? 0) + 1)
  }
  return {
    sessions: searches.length,
    ctr: perRank.map((n) => n / searches.length),
    clicksPerSession: [...perSession.values()],
  }
}

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pubmatch-sim-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('simulateClicks', () => {
  it('is deterministic: the same seed writes the same log, byte for byte', async () => {
    const queries: Query[] = [
      { id: 'q1', text: 'alpha' },
      { id: 'q2', text: 'beta' },
      { id: 'q3', text: 'gamma' },
    ]
    const qrels: Qrels = new Map([
      ['q1', new Map([['doc03', 2]])],
      ['q2', new Map([['doc05', 1]])],
    ])
    const run = async (name: string, seed: number): Promise<string> => {
      const store = createLogStore(join(dir, name))
      await simulateClicks({
        queries,
        qrels,
        search: () => ({ ids: DOCS, total: 25 }),
        sink: store,
        seed,
        sessionsPerQuery: 50,
        sampleQueries: 2,
        batchSessions: 7,
      })
      await store.close()
      const files = await store.files()
      return (await Promise.all(files.map((f) => readFile(f, 'utf8')))).join('')
    }
    const a = await run('a', 42)
    const b = await run('b', 42)
    const c = await run('c', 43)
    expect(a.length).toBeGreaterThan(0)
    expect(b).toBe(a)
    expect(c).not.toBe(a)
    const store = createLogStore(join(dir, 'a'))
    const { events, problems } = await store.readAll()
    expect(problems).toEqual([])
    const searches = events.filter((e): e is SearchEvent => e.type === 'search')
    expect(searches).toHaveLength(100)
    expect(new Set(searches.map((s) => s.query)).size).toBe(2)
    expect(searches[0]!.results).toHaveLength(20)
    expect(searches[1]!.time).toBe('2026-01-01T00:01:00.000Z')
  })

  it('position-based model: the click-through rate at rank r is 1/r^eta × the click probability', async () => {
    const sink = memorySink()
    const sessions = 20_000
    const stats = await simulateClicks({
      ...oneQuery(1),
      sink,
      seed: 7,
      sessionsPerQuery: sessions,
      clickProbability: [0, 0.6],
      model: { kind: 'pbm', eta: 1 },
    })
    expect(sink.batches).toBe(sessions / 1000)
    const { ctr } = clickRates(sink.events)
    expect(stats.clicksByRank.map((n) => n / sessions)).toEqual(ctr)
    ctr.forEach((observed, i) => {
      const expected = pbmExamination(i + 1, 1) * 0.6
      const sigma = Math.sqrt((expected * (1 - expected)) / sessions)
      expect(Math.abs(observed - expected)).toBeLessThan(4 * sigma)
    })
    expect(ctr[0]).toBeCloseTo(0.6, 1)
    expect(ctr[9]).toBeCloseTo(0.06, 2)

    const steep = memorySink()
    await simulateClicks({
      ...oneQuery(0),
      sink: steep,
      seed: 8,
      sessionsPerQuery: sessions,
      clickProbability: [1],
      model: { kind: 'pbm', eta: 2 },
    })
    const steepCtr = clickRates(steep.events).ctr
    expect(steepCtr[0]).toBe(1)
    steepCtr.forEach((observed, i) => {
      const expected = 1 / (i + 1) ** 2
      const sigma = Math.sqrt((expected * (1 - expected)) / sessions)
      expect(Math.abs(observed - expected)).toBeLessThanOrEqual(4 * sigma)
    })
  })

  it('cascade model: at most one click, first click at rank r with probability c(1 − c)^(r − 1)', async () => {
    const sink = memorySink()
    const sessions = 20_000
    const c = 0.3
    await simulateClicks({
      ...oneQuery(1),
      sink,
      seed: 9,
      sessionsPerQuery: sessions,
      clickProbability: [c],
      model: { kind: 'cascade' },
    })
    const { ctr, clicksPerSession } = clickRates(sink.events)
    expect(Math.max(...clicksPerSession)).toBe(1)
    ctr.forEach((observed, i) => {
      const expected = c * (1 - c) ** i
      const sigma = Math.sqrt((expected * (1 - expected)) / sessions)
      expect(Math.abs(observed - expected)).toBeLessThanOrEqual(4 * sigma + 1e-12)
    })
    // Going on after a click gives more than one click per session.
    const dcm = memorySink()
    await simulateClicks({
      ...oneQuery(1),
      sink: dcm,
      seed: 9,
      sessionsPerQuery: 2000,
      clickProbability: [c],
      model: { kind: 'cascade', continueAfterClick: 0.8 },
    })
    expect(Math.max(...clickRates(dcm.events).clicksPerSession)).toBeGreaterThan(1)
  })

  it('requests full texts after clicks with the per-grade probability', async () => {
    const sink = memorySink()
    const stats = await simulateClicks({
      ...oneQuery(2),
      sink,
      seed: 3,
      sessionsPerQuery: 5000,
      clickProbability: [1],
      fullTextProbability: [0, 0, 0.25],
    })
    const fullText = sink.events.filter(
      (e) => e.type === 'action' && e.kind === 'fulltext_request',
    ).length
    expect(fullText).toBe(stats.fullTextRequests)
    const rate = fullText / stats.abstractClicks
    expect(Math.abs(rate - 0.25)).toBeLessThan(4 * Math.sqrt((0.25 * 0.75) / stats.abstractClicks))
  })

  it('rejects bad options', async () => {
    const base = { ...oneQuery(1), sink: memorySink() }
    await expect(simulateClicks({ ...base, clickProbability: [1.5] })).rejects.toThrow(
      /clickProbability/,
    )
    await expect(simulateClicks({ ...base, sessionsPerQuery: 0 })).rejects.toThrow(
      /sessionsPerQuery/,
    )
    await expect(simulateClicks({ ...base, model: { kind: 'pbm', eta: -1 } })).rejects.toThrow(
      /eta/,
    )
    await expect(simulateClicks({ ...base, startTime: 'yesterday' })).rejects.toThrow(/startTime/)
  })

  it('simulated log → pipeline → labels: relevant documents get the higher grades', async () => {
    // Three queries over 25 documents; each ranking interleaves relevant documents (grade 2
    // and 1) with non-relevant ones, so that position bias alone would not sort them.
    const queries: Query[] = [
      { id: 'q1', text: 'vitamin d bone density' },
      { id: 'q2', text: 'statins muscle pain' },
      { id: 'q3', text: 'green tea cancer' },
    ]
    const qrels: Qrels = new Map()
    const rankings = new Map<string, string[]>()
    queries.forEach((q, k) => {
      const ranking = DOCS.map((_, i) => DOCS[(i + 7 * k) % DOCS.length]!)
      rankings.set(q.text, ranking)
      const grades = new Map<string, number>()
      ranking.forEach((doc, i) => {
        const position = i + 1
        if ([3, 6, 9, 12].includes(position)) {
          grades.set(doc, 2)
        } else if ([4, 8, 14].includes(position)) {
          grades.set(doc, 1)
        } else if (position % 5 === 0) {
          grades.set(doc, 0) // judged non-relevant
        }
      })
      qrels.set(q.id, grades)
    })
    const logs: Record<string, LogEvent[]> = {}
    for (const [name, model] of [
      ['pbm', { kind: 'pbm' }],
      ['cascade', { kind: 'cascade', continueAfterClick: 0.5 }],
    ] as const) {
      const store = createLogStore(join(dir, name))
      await simulateClicks({
        queries,
        qrels,
        search: (text) => ({ ids: rankings.get(text)!, total: 25 }),
        sink: store,
        seed: 11,
        sessionsPerQuery: model.kind === 'pbm' ? 2000 : 4000,
        model,
      })
      await store.close()
      logs[name] = (await store.readAll()).events
    }

    // Both click models, both label schemes, with the pipeline's default thresholds.
    for (const [log, labelling] of [
      ['pbm', 'ncbi'],
      ['cascade', 'ncbi'],
      ['cascade', 'yeganova'],
      ['pbm', 'yeganova'],
    ] as const) {
      const { queries: labelled, stats } = labelQueries(logs[log]!, { labelling })
      expect(stats.kept).toBe(3)
      for (const query of labelled) {
        const qid = queries.find((q) => q.text === query.text)!.id
        const truth = qrels.get(qid)!
        const meanLabel = (grade: number): number => {
          const docs = rankings
            .get(query.text)!
            .slice(0, 20)
            .filter((d) => (truth.get(d) ?? 0) === grade)
          return docs.reduce((sum, d) => sum + (query.judgements.get(d) ?? 0), 0) / docs.length
        }
        const [g0, g1, g2] = [meanLabel(0), meanLabel(1), meanLabel(2)]
        if (labelling === 'ncbi') {
          expect(g2).toBeGreaterThan(g1)
          expect(g1).toBeGreaterThan(g0)
        } else if (log === 'cascade') {
          // Binary labels: every grade-2 document is positive, and grade 1 beats grade 0.
          expect(g2).toBe(1)
          expect(g1).toBeGreaterThan(g0)
        } else {
          // Skip-above assumes top-down reading; under the position-based model users skip
          // unexamined results, so many relevant documents get more negative than positive
          // votes (here 1 of 4 grade-2 documents stays positive). Still better than grade 0.
          expect(g2).toBeGreaterThan(g0)
        }
        if (labelling === 'ncbi') {
          // Position bias lets a grade-1 document at rank 4 outclick a grade-2 one at rank 12,
          // but every grade-2 document outranks every non-relevant one below rank 1.
          const shown = rankings.get(query.text)!.slice(0, 20)
          const worstRelevant = Math.min(
            ...shown.filter((d) => truth.get(d) === 2).map((d) => query.judgements.get(d) ?? 0),
          )
          const bestIrrelevant = Math.max(
            ...shown
              .slice(1)
              .filter((d) => (truth.get(d) ?? 0) === 0)
              .map((d) => query.judgements.get(d) ?? 0),
          )
          expect(worstRelevant).toBeGreaterThan(bestIrrelevant)
        }
      }
    }
  })
})
