import { describe, expect, it } from 'vitest'
import { parseScaleArgs } from './scale-args.ts'

describe('parseScaleArgs', () => {
  it('defaults to 1M articles and 500 measured queries', () => {
    const options = parseScaleArgs([])
    expect(options).toMatchObject({
      docs: 1_000_000,
      queries: 500,
      warmup: 100,
      passes: 3,
      quick: false,
      timeoutMin: 75,
      batchSize: 1000,
      concurrency: 2,
      heap: '4g',
    })
    expect(options.dir).toMatch(/\.cache\/?$/)
  })

  it('makes --quick a small run whose flags can still be overridden', () => {
    expect(parseScaleArgs(['--quick'])).toMatchObject({
      docs: 20_000,
      queries: 100,
      warmup: 50,
      passes: 2,
      timeoutMin: 15,
    })
    expect(parseScaleArgs(['--docs', '5000', '--quick', '--dir', 'x'])).toMatchObject({
      docs: 5000,
      queries: 100,
      dir: 'x',
    })
  })

  it('rejects unknown flags, bad numbers and too many queries', () => {
    expect(() => parseScaleArgs(['--docs', '1e3x'])).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: @pubmatch/bench-solr: --docs needs a non-negative integer, got 1e3x]`,
    )
    expect(() => parseScaleArgs(['--nope'])).toThrow(/unknown flag --nope/)
    expect(() => parseScaleArgs(['--queries', '900'])).toThrow(/at most 918/)
    expect(() => parseScaleArgs(['--docs', '0'])).toThrow(/--docs must be at least 1/)
    expect(() => parseScaleArgs(['--heap', 'lots'])).toThrow(/--heap/)
  })
})
