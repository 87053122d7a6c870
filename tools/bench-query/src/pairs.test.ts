import { parseQuery } from '@pubmatch/bm25f'
import { describe, expect, it } from 'vitest'
import { pubmedStatements, parseTopic } from './clef.ts'
import { fieldShares, jaccard, termFieldPairs } from './pairs.ts'

describe('termFieldPairs', () => {
  it('normalises case, hyphens and proximity word order, and leaves out history references', () => {
    const node = parseQuery(
      '(Kala-Azar[tiab] OR "optic nerve"[tiab:~2] OR glaucoma) AND Glaucoma[mh:noexp] AND 1970:3000[dp] AND #3',
    )
    expect([...termFieldPairs(node)].sort()).toEqual([
      'dp|1970:3000',
      'mh|glaucoma',
      'tiab|kala azar',
      'tiab~|nerve optic',
      'untagged|glaucoma',
    ])
  })
})

describe('jaccard', () => {
  it('is |A ∩ B| / |A ∪ B|', () => {
    // {a, b, c} and {b, c, d}: 2 shared of 4
    expect(jaccard(new Set(['a', 'b', 'c']), new Set(['b', 'c', 'd']))).toBe(0.5)
    expect(jaccard(new Set(), new Set())).toBe(1)
    expect(jaccard(new Set(['a']), new Set())).toBe(0)
  })
})

describe('fieldShares', () => {
  it('gives each field its share of the pairs', () => {
    // 3 tiab, 1 mh
    expect(Object.fromEntries(fieldShares(['tiab|a', 'tiab|b', 'mh|c', 'tiab|d']))).toEqual({
      tiab: 0.75,
      mh: 0.25,
    })
  })
})

describe('parseTopic and pubmedStatements', () => {
  it('reads the review, the Query section and its search statements', () => {
    const topic = parseTopic(
      't/1',
      'Topic: CD0001 \n\nTitle: x\n\nQuery: \n2a\nback pain[mesh] OR sciatica[tw]\nOR lumbago[tw]\nA. 1a and 2a\n\nPids: \n 1\n',
    )
    expect(topic).toEqual({
      id: 't/1',
      review: 'CD0001',
      text: '2a\nback pain[mesh] OR sciatica[tw]\nOR lumbago[tw]\nA. 1a and 2a',
    })
    expect(pubmedStatements(topic.text)).toEqual(['back pain[mesh] OR sciatica[tw] OR lumbago[tw]'])
  })
})
