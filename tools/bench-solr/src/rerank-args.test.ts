import { describe, expect, it } from 'vitest'
import { parseRates, parseRerankArgs } from './rerank-args.ts'

describe('parseRerankArgs', () => {
  it('defaults to 100k articles, 500 trees reranking the top 500, 5 and 10 req/s', () => {
    const options = parseRerankArgs([])
    expect(options).toMatchObject({
      docs: 100_000,
      queries: 200,
      warmup: 50,
      trainQueries: 150,
      trees: 500,
      depth: 500,
      rows: 20,
      rates: [5, 10],
      pacedRequests: 300,
      faultRate: 5,
      faultRequests: 300,
      stopNode: 0,
      swapRate: 5,
      swapRequests: 200,
      heap: '4g',
      shardDocs: 3_000_000,
      quick: false,
      skipEmbedded: false,
    })
    expect(options.dir).toMatch(/\.cache\/?$/)
  })

  it('makes --quick a small run whose flags can still be overridden', () => {
    expect(parseRerankArgs(['--quick'])).toMatchObject({
      docs: 20_000,
      queries: 40,
      pacedRequests: 60,
      timeoutMin: 15,
    })
    expect(
      parseRerankArgs([
        '--docs',
        '200000',
        '--quick',
        '--rates',
        '2, 4.5',
        '--stop-node',
        '1',
        '--skip-embedded',
      ]),
    ).toMatchObject({
      docs: 200_000,
      queries: 40,
      rates: [2, 4.5],
      stopNode: 1,
      skipEmbedded: true,
    })
    expect(parseRerankArgs(['--note', 'why 200k']).note).toBe('why 200k')
    expect(() => parseRerankArgs(['--note'])).toThrow(/--note needs a value/)
  })

  it('rejects unknown flags, bad numbers, a third node and too many queries', () => {
    expect(() => parseRerankArgs(['--docs', '1e3x'])).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: @pubmatch/bench-solr: --docs needs a non-negative integer, got 1e3x]`,
    )
    expect(() => parseRerankArgs(['--nope'])).toThrow(/unknown flag --nope/)
    expect(() => parseRerankArgs(['--stop-node', '2'])).toThrow(/0 or 1/)
    expect(() => parseRerankArgs(['--trees', '0'])).toThrow(/--trees must be at least 1/)
    // 500 + 50 + 2 × 200 = 950 > 918
    expect(() => parseRerankArgs(['--queries', '500', '--train-queries', '200'])).toThrow(
      /at most 918.*got 950/,
    )
    expect(() => parseRerankArgs(['--heap', 'lots'])).toThrow(/--heap/)
  })
})

describe('parseRates', () => {
  it('reads positive numbers separated by commas', () => {
    expect(parseRates('5,10')).toEqual([5, 10])
    expect(parseRates(' 0.5 ,2')).toEqual([0.5, 2])
  })

  it('refuses zero, negatives, blanks and words', () => {
    for (const bad of ['0', '5,-1', '', '5,,10', 'fast', undefined]) {
      expect(() => parseRates(bad)).toThrow(/--rates needs positive numbers/)
    }
  })
})
