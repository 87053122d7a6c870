import { describe, expect, it } from 'vitest'
import { parseBenchArgs } from './args.ts'

/** What `run` throws, or `undefined`. */
function thrown(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  return undefined
}

describe('parseBenchArgs', () => {
  it('runs everything with every anchor by default', () => {
    expect(parseBenchArgs([])).toEqual({
      quick: false,
      rebuild: false,
      rounds: 3,
      log: { measured: 500, warmup: 100 },
      anchors: ['tantivy', 'pisa', 'xapian'],
      largest: true,
      xapianLargest: false,
      refreshAnchors: false,
      maxWaitMs: 600_000,
    })
  })

  it('makes a smoke run of --quick, whose rounds and log queries can still be set', () => {
    expect(parseBenchArgs(['--quick'])).toMatchObject({
      quick: true,
      rounds: 1,
      log: { measured: 100, warmup: 20 },
    })
    expect(parseBenchArgs(['--quick', '--rounds', '2', '--log-queries', '50'])).toMatchObject({
      rounds: 2,
      log: { measured: 50, warmup: 20 },
    })
  })

  it('reads the anchors asked for in report order, all, none, and --no-xapian', () => {
    expect(parseBenchArgs(['--anchors', 'pisa,tantivy']).anchors).toEqual(['tantivy', 'pisa'])
    expect(parseBenchArgs(['--anchors', ' PISA , xapian,']).anchors).toEqual(['pisa', 'xapian'])
    expect(parseBenchArgs(['--anchors', 'all']).anchors).toEqual(['tantivy', 'pisa', 'xapian'])
    expect(parseBenchArgs(['--anchors', 'none']).anchors).toEqual([])
    expect(parseBenchArgs(['--no-xapian']).anchors).toEqual(['tantivy', 'pisa'])
    expect(parseBenchArgs(['--anchors', 'xapian', '--no-xapian']).anchors).toEqual([])
  })

  it('reads corpora, load limits and the remaining switches', () => {
    expect(
      parseBenchArgs([
        '--corpora',
        'nfcorpus,synth-10k',
        '--max-load',
        '1.5',
        '--max-wait-min',
        '0.5',
        '--no-largest',
        '--xapian-largest',
        '--refresh-anchors',
        '--rebuild',
        '--report',
        'run.json',
      ]),
    ).toMatchObject({
      corpora: ['nfcorpus', 'synth-10k'],
      maxLoad: 1.5,
      maxWaitMs: 30_000,
      largest: false,
      xapianLargest: true,
      refreshAnchors: true,
      rebuild: true,
      report: 'run.json',
    })
  })

  it('refuses unknown anchors and options, and values out of range', () => {
    expect(() =>
      parseBenchArgs(['--anchors', 'tantivy,lucene']),
    ).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: unknown anchor "lucene" (tantivy, pisa, xapian, all or none)]`,
    )
    expect(() => parseBenchArgs(['--rounds', '0'])).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: --rounds must be an integer ≥ 1, not "0"]`,
    )
    expect(() => parseBenchArgs(['--log-queries', '2.5'])).toThrow(
      /--log-queries must be an integer/,
    )
    expect(() => parseBenchArgs(['--max-load', 'high'])).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: --max-load must be a number ≥ 0, not "high"]`,
    )
    for (const argv of [['--tantivy'], ['--rounds'], ['nfcorpus']]) {
      expect(thrown(() => parseBenchArgs(argv))).toMatchObject({ code: 'INVALID_ARGUMENT' })
    }
    expect(() => parseBenchArgs(['--tantivy'])).toThrow(/'--tantivy'/)
  })
})
