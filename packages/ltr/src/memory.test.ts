import { describe, expect, it } from 'vitest'
import { getAnalyzer } from '@pubmatch/analysis'
import { createQueryMemory, withMemorySchema, withQueryMemory } from './memory.ts'
import { createToyWorld, TOY_SCHEMA } from '../test/toy.ts'

const analyzer = getAnalyzer('whitespace')
const queries = [
  { id: 'q1', text: 'vitamin d cancer', judgements: new Map([['A', 2], ['B', 1]]) },
  { id: 'q2', text: 'vitamin d', judgements: new Map([['B', 2], ['D', 0]]) },
  { id: 'q3', text: 'heart disease', judgements: new Map([['C', 1]]) },
]

// By hand: M = 3 queries; df(vitamin) = df(d) = 2 → w = ln(1 + 3/3) = ln 2; df(cancer) = 1 → ln 2.5.
// q1 = (ln2, ln2, ln2.5)/‖·‖, q2 = (ln2, ln2)/‖·‖; the query "vitamin d" equals q2, so
// sim(q2) = 1 and sim(q1) = 2·ln2² / (√(2ln2² + ln2.5²) · √(2ln2²)).
const ln2 = Math.log(2)
const sim1 = (2 * ln2 * ln2) / (Math.sqrt(2 * ln2 * ln2 + Math.log(2.5) ** 2) * Math.sqrt(2 * ln2 * ln2))

describe('createQueryMemory', () => {
  it('leaves out a query and all its variants, whichever of them is training', () => {
    const memory = createQueryMemory({
      queries: [...queries, { id: 'q1#2', text: 'vitamin d cancer risk', judgements: new Map([['A', 2]]) }],
      analyzer,
    })
    const ids = (exclude: string): string[] => memory.similar('vitamin d cancer', exclude).map((s) => s.id)
    expect(ids('q1')).toEqual(['q2'])
    // a training variant of q1 must not see q1's judgements either
    expect(ids('q1#2')).toEqual(['q2'])
    expect(ids('q2')).toEqual(expect.arrayContaining(['q1', 'q1#2']))
  })

  it('finds similar remembered queries by TF-IDF cosine', () => {
    const memory = createQueryMemory({ queries, analyzer })
    const similar = memory.similar('vitamin d')
    expect(similar.map((s) => s.id)).toEqual(['q2', 'q1'])
    expect(similar[0]!.similarity).toBeCloseTo(1, 12)
    expect(similar[1]!.similarity).toBeCloseTo(sim1, 12)
    expect(sim1).toBeCloseTo(0.730541, 6)
  })

  it('gives M1 = Σ similarity × grade, M2 = best similarity of a relevant vote, M3 = votes', () => {
    const memory = createQueryMemory({ queries, analyzer })
    const m = memory.evidence('vitamin d', ['A', 'B', 'C', 'D'])
    expect(m[0]).toBeCloseTo(2 * sim1, 12) // A: q1 grade 2
    expect(m[1]).toBeCloseTo(sim1, 12)
    expect(m[2]).toBe(1)
    expect(m[3]).toBeCloseTo(2 + sim1, 12) // B: q2 grade 2, q1 grade 1
    expect(m[4]).toBeCloseTo(1, 12)
    expect(m[5]).toBe(2)
    expect([...m.subarray(6, 9)]).toEqual([0, 0, 0]) // C: q3 shares no term
    expect([...m.subarray(9, 12)]).toEqual([0, 0, 0]) // D: judged non-relevant only
  })

  it('leaves a training query and its variants out, and honours k', () => {
    const memory = createQueryMemory({ queries: [...queries, { id: 'q2#1', text: 'vitamin d', judgements: new Map([['B', 2]]) }], analyzer, k: 2 })
    expect(memory.similar('vitamin d', 'q2').map((s) => s.id)).toEqual(['q1'])
    expect(memory.similar('vitamin d').map((s) => s.id)).toEqual(['q2', 'q2#1'])
    expect(createQueryMemory({ queries, analyzer }).similar('unknown words')).toEqual([])
    expect(() => createQueryMemory({ queries, analyzer, k: 0 })).toThrow(/positive integer/)
    expect(() => createQueryMemory({ queries: [queries[0]!, queries[0]!], analyzer })).toThrow(/appears twice/)
  })

  it('appends M1–M3 after the base features under a versioned schema', () => {
    const world = createToyWorld(2, 5, 3)
    const memory = createQueryMemory({ queries: world.queries, analyzer })
    const extractor = withQueryMemory(world.extractor, memory)
    expect(extractor.schema).toEqual(withMemorySchema(TOY_SCHEMA))
    expect(extractor.schema.version).toBe('toy/1+memory-3/1')
    expect(extractor.schema.features.map((f) => [f.id, f.column]).slice(-3)).toEqual([['M1', 4], ['M2', 5], ['M3', 6]])
    const query = world.queries[0]!
    const result = world.searcher.search(query.text)
    const m = extractor.extract(query.text, result)
    expect(m.numFeatures).toBe(7)
    const base = world.extractor.extract(query.text, result)
    expect([...m.data.subarray(0, 4)]).toEqual([...base.data.subarray(0, 4)])
    // the query remembers itself: a relevant document gets similarity 1 × its grade
    const r = result.hits.findIndex((hit) => (query.judgements.get(hit.id) ?? 0) > 0)
    expect(m.data[r * 7 + 5]).toBeCloseTo(1, 12)
    // ... unless left out
    const training = withQueryMemory(world.extractor, memory, query.id).extract(query.text, result)
    expect(training.data[r * 7 + 5]).toBe(0)
  })
})
