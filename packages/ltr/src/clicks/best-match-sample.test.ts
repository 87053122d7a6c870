import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isPubmatchError } from '@pubmatch/core'
import { sharedDataPath } from '@pubmatch/core/testing'
import { describe, expect, it } from 'vitest'
import { readBestMatchSample } from './best-match-sample.ts'

/** NCBI's Best Match sample of the real data set. */
const SAMPLE = sharedDataPath('pubmed-best-match')

describe('readBestMatchSample on NCBI’s real sample', { tags: ['real-data'] }, () => {
  it('reads the 1,000 log queries, their gold lists and candidates, and counts them', async () => {
    const sample = await readBestMatchSample(SAMPLE)
    // withGold and the non-empty candidate lists (672 − 60 empty) are stated in SOURCE.md;
    // eligible (505) was cross-checked with an independent script over the raw files.
    expect(sample.stats).toEqual({
      queries: 1000,
      simple: 786,
      withGold: 672,
      withResults: 612,
      eligible: 505,
      simpleWithGold: 664,
      simpleEligible: 501,
    })
    expect(sample.labelled).toHaveLength(672)
    const byId = new Map(sample.queries.map((q) => [q.id, q]))
    expect(byId.get('qid0000')).toMatchObject({
      text: 'ultrasound and chronic pancreatitis',
      simple: true,
    })
    expect(byId.get('qid0002')).toMatchObject({
      text: '"Rabbani F"[Author]',
      simple: false,
      gold: undefined,
    })
    expect(byId.get('qid0004')?.simple).toBe(false) // Endoscopy[Jour] AND A237[page]
    const q1 = byId.get('qid0001')!
    expect(q1.text).toBe('estrogen receptor alpha, gene regulation, brain')
    expect(q1.gold).toHaveLength(50)
    expect(q1.results).toHaveLength(500)
    expect(q1.gold!.slice(0, 3)).toEqual(['22457017', '21664488', '20713055'])
    const labelled = sample.labelled.find((q) => q.id === 'qid0001')!
    expect(labelled.judgements.get('22457017')).toBe(12)
    expect(labelled.judgements.get('21664488')).toBe(11)
    expect(labelled.judgements.get(q1.gold![9]!)).toBe(3)
    expect(labelled.judgements.get(q1.gold![10]!)).toBe(2)
    expect(labelled.judgements.get(q1.gold![20]!)).toBe(2)
    expect(labelled.judgements.get(q1.gold![21]!)).toBe(1)
    expect(labelled.judgements.size).toBe(50)
    // Eligibility follows the overlap with the candidates.
    for (const q of sample.queries) {
      expect(q.eligible).toBe(q.gold !== undefined && q.results !== undefined && q.overlap >= 5)
      expect(q.overlap).toBeLessThanOrEqual(10)
    }
  })
})

describe('readBestMatchSample errors', () => {
  it('names file and line of a bad line, and reports missing folders', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pubmatch-bm-'))
    try {
      await mkdir(join(dir, 'data', 'queries'), { recursive: true })
      await mkdir(join(dir, 'data', 'gold_standard'))
      await mkdir(join(dir, 'data', 'results'))
      await writeFile(join(dir, 'data', 'queries', 'queries.txt'), 'qid0000|fine\nno bar here\n')
      const error: unknown = await readBestMatchSample(dir).catch((e: unknown) => e)
      expect(isPubmatchError(error, 'UNSUPPORTED_FORMAT')).toBe(true)
      expect((error as Error).message).toContain('queries.txt:2')

      await writeFile(join(dir, 'data', 'queries', 'queries.txt'), 'qid0000|fine\n')
      await writeFile(join(dir, 'data', 'gold_standard', 'qid0000.txt'), '123\nabc\n')
      const bad: unknown = await readBestMatchSample(dir).catch((e: unknown) => e)
      expect(isPubmatchError(bad, 'UNSUPPORTED_FORMAT')).toBe(true)
      expect((bad as Error).message).toContain('qid0000.txt:2')

      await writeFile(join(dir, 'data', 'gold_standard', 'qid0000.txt'), '123\n456\n')
      const ok = await readBestMatchSample(dir)
      expect(ok.stats).toMatchObject({ queries: 1, withGold: 1, withResults: 0, eligible: 0 })
      expect([...ok.labelled[0]!.judgements]).toEqual([
        ['123', 12],
        ['456', 11],
      ])

      const missing: unknown = await readBestMatchSample(join(dir, 'nope')).catch((e: unknown) => e)
      expect(isPubmatchError(missing, 'NOT_FOUND')).toBe(true)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
