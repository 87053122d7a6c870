import { appendFile, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getAnalyzer } from '@pubmatch/analysis'
import { textCandidates, type CandidateText } from './candidates.ts'
import { createSessionStore } from './session-store.ts'
import { startSession, type FeedbackSession } from './session.ts'
import type { FeedbackGrade } from './rocchio.ts'

const analyzer = getAnalyzer('biomedical')
// 30 documents: ten about statins and cholesterol, ten about statins and muscle pain, ten about diet
const docs: CandidateText[] = [
  ...Array.from({ length: 10 }, (_, i) => ({ id: `c${i}`, title: `Statins lower cholesterol ${i}`, abstract: 'statin therapy reduced LDL cholesterol and cardiovascular events in the trial' })),
  ...Array.from({ length: 10 }, (_, i) => ({ id: `m${i}`, title: `Statin myopathy ${i}`, abstract: 'muscle pain myalgia and rhabdomyolysis during statin treatment, creatine kinase raised' })),
  ...Array.from({ length: 10 }, (_, i) => ({ id: `d${i}`, title: `Dietary fibre ${i}`, abstract: 'fibre intake and cholesterol in a cohort of adults' })),
]
// as if drawn from a collection of 100,000 where each term is 100 times as frequent as here, so that
// the thesis's term thresholds (TF-IDF ≥ 2.0) meet realistic IDF values
const local = textCandidates(docs, { analyzer })
const candidates = textCandidates(docs, { analyzer, collection: { size: 100_000, docFreq: (term) => 100 * local.localDocFreq(term) } })

function graded(session: FeedbackSession, grade: (id: string) => FeedbackGrade | undefined): FeedbackSession {
  const shown = session.next().map((d) => d.id)
  const grades = new Map<string, FeedbackGrade>()
  for (const id of shown) {
    const g = grade(id)
    if (g !== undefined) {
      grades.set(id, g)
    }
  }
  return session.grade({ shown, grades })
}

describe('startSession and rounds of grades', () => {
  it('never shows a document twice and moves towards what was graded relevant', () => {
    // "cholesterol" matches the statin and the diet documents; the user wants diet
    let session = startSession({ query: 'cholesterol', candidates, analyzer, prf: false, ranking: 'tfidf', roundSize: 12 })
    const wantDiet = (id: string): FeedbackGrade => (id.startsWith('d') ? 'highly-relevant' : 'non-relevant')
    const first = session.next().map((d) => d.id)
    expect(first.some((id) => id.startsWith('d'))).toBe(true)
    expect(first.some((id) => id.startsWith('c'))).toBe(true)
    session = graded(session, wantDiet)
    const second = session.next()
    expect(second.filter((d) => session.shown.has(d.id))).toEqual([])
    // the first round (12 best for "cholesterol": the 10 statin documents, then 2 diet ones) was
    // graded; the feedback brought in the diet documents' own terms, and the 8 unseen ones lead
    expect(first.filter((id) => id.startsWith('d'))).toHaveLength(2)
    expect(session.vector.get('fibr') ?? 0).toBeGreaterThan(0)
    expect(second.slice(0, 8).every((d) => d.id.startsWith('d'))).toBe(true)
    while (session.next().length > 0) {
      session = graded(session, wantDiet)
    }
    expect(session.shown.size).toBe(30)
    expect(session.rounds).toHaveLength(3)
  })

  it('refuses grades of documents the round did not show', () => {
    const session = startSession({ query: 'statin', candidates, analyzer })
    const shown = session.next().map((d) => d.id)
    const other = docs.map((d) => d.id).find((id) => !shown.includes(id))!
    expect(() => session.grade({ shown, grades: new Map([[other, 'relevant']]) })).toThrowError(/was graded but not shown in this round/)
  })

  it('explains a score with both re-rankers', () => {
    const session = startSession({ query: 'statin cholesterol', candidates, analyzer, prf: false })
    const explained = session.explain('c0')
    expect(explained.tfidf.label).toBe('tfidf')
    expect(explained.bm25.details.map((d) => d.label).sort()).toEqual(['cholesterol', 'statin'])
  })
})

describe('createSessionStore', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'feedback-sessions-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('rebuilds a session exactly from its log, and skips a torn last line', async () => {
    const store = createSessionStore(dir)
    const settings = { ranking: 'borda' as const, idf: 'local' as const, prf: true }
    let live = startSession({ query: 'statin muscle', candidates, analyzer, ...settings })
    await store.append({ type: 'start', session: 'sessionAAAA', time: new Date().toISOString(), query: 'statin muscle', source: { kind: 'index', index: 'x', generation: 1 }, settings, candidates: candidates.ids })
    for (let round = 1; round <= 2; round++) {
      const shown = live.next().map((d) => d.id)
      const grades = new Map<string, FeedbackGrade>(shown.slice(0, 4).map((id, i) => [id, i % 2 === 0 ? 'relevant' : 'non-relevant']))
      live = live.grade({ shown, grades })
      await store.append({ type: 'round', session: 'sessionAAAA', time: new Date().toISOString(), round, shown, grades: Object.fromEntries(grades) })
    }
    await store.close()
    // a crash in the middle of the next write
    const [file] = await readdir(dir)
    await appendFile(join(dir, file!), '{"v":1,"type":"round","session":"sessionAAAA","time":"2026-')
    const { sessions, problems } = await createSessionStore(dir).load()
    expect(problems.map((p) => p.error.code)).toEqual(['TRUNCATED_INPUT'])
    const stored = sessions.get('sessionAAAA')!
    let replayed = startSession({ query: stored.start.query, candidates, analyzer, ...stored.start.settings })
    for (const round of stored.rounds) {
      replayed = replayed.grade({ shown: round.shown, grades: new Map(Object.entries(round.grades)) })
    }
    expect([...replayed.vector]).toEqual([...live.vector])
    expect(replayed.next()).toEqual(live.next())
    // the writer starts a new file after the torn line, and the log stays readable
    const again = createSessionStore(dir)
    await again.append({ type: 'round', session: 'sessionAAAA', time: new Date().toISOString(), round: 3, shown: ['c9'], grades: {} })
    await again.close()
    expect((await readdir(dir)).sort()).toEqual(['session-000001.jsonl', 'session-000002.jsonl'])
    expect((await createSessionStore(dir).load()).sessions.get('sessionAAAA')!.rounds).toHaveLength(3)
  })

  it('rejects an invalid event before writing it', async () => {
    const store = createSessionStore(join(dir, 'bad'))
    await expect(store.append({ type: 'round', session: 'short', time: 'now', round: 0, shown: [], grades: {} })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' })
  })
})
