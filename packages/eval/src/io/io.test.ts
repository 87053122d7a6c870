import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { fixturePath, fixtureText } from '../../test/helpers.ts'
import { evaluate } from '../evaluate.ts'
import {
  formatQrels,
  parseQrels,
  parseSampledQrels,
  readQrels,
  readSampledQrels,
  sampledToQrels,
} from './qrels.ts'
import { dedupeRun, formatRun, parseRun, readRun, writeRun } from './run.ts'
import { formatTrecEval, parseTrecEvalOutput, printfFixed } from './trec-eval-output.ts'

describe('readRun / parseRun', () => {
  it('reads entries in file order with score, rank and the last line’s tag', () => {
    const run = parseRun(
      '# comment\n\nq1 Q0 d1 1 2.5 a\nq1 Q0 d2 2 -1e-3 b extra fields\nq2\tQ0\td1\t1\t7\tb\r\n',
    )
    expect(run).toEqual({
      tag: 'b',
      queries: new Map([
        [
          'q1',
          [
            { docId: 'd1', score: 2.5, rank: 1 },
            { docId: 'd2', score: -0.001, rank: 2 },
          ],
        ],
        ['q2', [{ docId: 'd1', score: 7, rank: 1 }]],
      ]),
    })
  })

  it('streams gzip files and text streams alike', async () => {
    const fromFile = await readRun(fixturePath('clef-tar-2017.noisy.run.gz'))
    const fromStream = await readRun(Readable.from([fixtureText('clef-tar-2017.noisy.run.gz')]))
    expect(fromFile).toEqual(fromStream)
    expect(fromFile.queries.size).toBe(30)
    expect([...fromFile.queries.values()].reduce((n, e) => n + e.length, 0)).toBe(2958)
  })

  it('names file and line of a malformed line', () => {
    expect(() =>
      parseRun('q1 Q0 d1 1 0.5 t\nq1 Q0 d2 1 0.4', { file: 'bm25.run' }),
    ).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: bm25.run:2: a run line has 6 fields (qid Q0 docid rank score tag), this one has 5: "q1 Q0 d2 1 0.4"]`,
    )
    expect(() => parseRun('q1 Q0 d1 1 high t')).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: <string>:1: score "high" is not a number: "q1 Q0 d1 1 high t"]`,
    )
  })

  it('reports the line of a malformed line in a streamed file with code UNSUPPORTED_FORMAT', async () => {
    const error: unknown = await readRun(
      Readable.from(['q1 Q0 d1 1 1 t\n', 'q1 Q0 d2 2 0x1F t\n']),
      { file: 'x.run' },
    ).catch((e: unknown) => e)
    expect(error).toMatchObject({
      code: 'UNSUPPORTED_FORMAT',
      details: { file: 'x.run', position: 2 },
    })
  })

  it('quotes at most 200 characters of the offending line', () => {
    const long = `q1 Q0 ${'d'.repeat(500)}`
    const message = (() => {
      try {
        parseRun(long)
        return ''
      } catch (e) {
        return (e as Error).message
      }
    })()
    const quoted = /: "(.*)"$/.exec(message)?.[1] ?? ''
    expect([...quoted]).toHaveLength(200)
    expect(quoted.endsWith('…')).toBe(true)
  })

  it('reports an unreadable file as IO', async () => {
    await expect(readRun('/nonexistent/run.txt')).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})

describe('formatRun / writeRun', () => {
  const run = parseRun(
    ['q2 Q0 b 1 1 t', 'q10 Q0 x 1 0.25 t', 'q2 Q0 a 2 1 t', 'q2 Q0 c 3 3.0000000000000004 t'].join(
      '\n',
    ),
  )

  it('writes queries by id and documents in trec_eval order with fresh ranks and exact scores', () => {
    expect(formatRun(run, { tag: 'mine' })).toBe(
      [
        'q10 Q0 x 1 0.25 mine',
        'q2 Q0 c 1 3.0000000000000004 mine',
        'q2 Q0 b 2 1 mine',
        'q2 Q0 a 3 1 mine',
        '',
      ].join('\n'),
    )
  })

  it('truncates to a depth', () => {
    expect(formatRun(run, { depth: 1 }).split('\n')).toHaveLength(3)
  })

  it('round-trips a real run through a file without changing any measure', async () => {
    const original = await readRun(fixturePath('nfcorpus-dev.lm.run.gz'))
    const path = join(mkdtempSync(join(tmpdir(), 'pubmatch-eval-')), 'lm.run')
    await writeRun(original, path)
    const back = await readRun(path)
    const qrels = await readQrels(fixturePath('edge.qrels'))
    expect(back.tag).toBe('lm-dir')
    expect(readFileSync(path, 'utf8').split('\n')[0]).toMatch(
      /^PLAIN-1 Q0 MED-\d+ 1 -\d+\.\d+ lm-dir$/,
    )
    expect(formatRun(back)).toBe(formatRun(original))
    expect(evaluate(back, qrels)).toEqual(evaluate(original, qrels))
  })

  it('refuses ids with whitespace', () => {
    expect(() =>
      formatRun({ tag: 't', queries: new Map([['q 1', [{ docId: 'a', score: 1 }]]]) }),
    ).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: cannot write query "q 1" document "a" with score 1 as a TREC run line]`,
    )
  })
})

describe('dedupeRun', () => {
  it('keeps the first occurrence of a repeated document', () => {
    const run = dedupeRun(parseRun('q Q0 a 1 1 t\nq Q0 b 2 0.9 t\nq Q0 a 3 0.8 t'))
    expect(run.queries.get('q')).toEqual([
      { docId: 'a', score: 1, rank: 1 },
      { docId: 'b', score: 0.9, rank: 2 },
    ])
  })
})

describe('readQrels / parseQrels', () => {
  it('reads grades like atol, including negative ones', () => {
    expect(parseQrels('q1 0 a 2.0\nq1 0 b -1\nq2 Q0 a 0')).toEqual(
      new Map([
        [
          'q1',
          new Map([
            ['a', 2],
            ['b', -1],
          ]),
        ],
        ['q2', new Map([['a', 0]])],
      ]),
    )
  })

  it('names file and line of a malformed or repeated judgement', () => {
    expect(() =>
      parseQrels('q1 0 a 1\nq1 0 b', { file: 'qrels.txt' }),
    ).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: qrels.txt:2: a line has 4 fields (qid iter docid grade), this one has 3: "q1 0 b"]`,
    )
    expect(() => parseQrels('q1 0 a 1\nq1 0 a 0')).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: <string>:2: document "a" is judged twice for query "q1" (trec_eval rejects this): "q1 0 a 0"]`,
    )
    expect(() => parseQrels('q1 0 a yes')).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: <string>:1: grade "yes" is not a number: "q1 0 a yes"]`,
    )
  })

  it('formats qrels back in strcmp order', () => {
    expect(formatQrels(parseQrels('q2 0 b 1\nq10 0 a 0\nq2 0 a 2'))).toBe(
      'q10 0 a 0\nq2 0 a 2\nq2 0 b 1\n',
    )
  })

  it('streams a qrels file in first-seen query order', async () => {
    const qrels = await readQrels(fixturePath('edge.qrels'))
    expect([...qrels.keys()]).toEqual(['q1', 'q2', 'q3', 'q10'])
  })
})

describe('readSampledQrels', () => {
  it('reads stratum and grade, and converts to trec_eval qrels', async () => {
    const sampled = await readSampledQrels(Readable.from(['11 0 d1 2 -1\n11 0 d2 1 2\n']))
    expect(sampled.get('11')?.get('d1')).toEqual({ stratum: '2', grade: -1 })
    expect(sampledToQrels(sampled)).toEqual(
      new Map([
        [
          '11',
          new Map([
            ['d1', -1],
            ['d2', 2],
          ]),
        ],
      ]),
    )
  })

  it('requires five fields', () => {
    expect(() => parseSampledQrels('11 0 d1 2')).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: <string>:1: a line has 5 fields (qid iter docid stratum grade), this one has 4: "11 0 d1 2"]`,
    )
  })
})

describe('parseTrecEvalOutput / formatTrecEval', () => {
  it('reads per-query and summary lines, skipping runid', () => {
    const out = parseTrecEvalOutput(
      'runid \tall\tbm25\nmap\tq1\t0.5000\nmap\tall\t0.5000\nnum_q\tall\t1\n',
    )
    expect(out).toEqual({ perQuery: new Map([['q1', { map: 0.5 }]]), all: { map: 0.5, num_q: 1 } })
  })

  it('rounds exact halves to even, as glibc printf does', () => {
    expect([
      printfFixed(0.03125, 4),
      printfFixed(0.03135, 4),
      printfFixed(0.00015, 4),
      printfFixed(0.5, 0),
    ]).toEqual(['0.0312', '0.0314', '0.0001', '0'])
  })

  it('prints counts as integers and the rest as %6.4f', () => {
    const result = evaluate(parseRun('q1 Q0 a 1 1 t'), parseQrels('q1 0 a 1\nq1 0 b 1'), {
      measures: ['num_rel', 'map'],
    })
    expect(formatTrecEval(result, { perQuery: true })).toBe(
      'num_rel               \tq1\t2\nmap                   \tq1\t0.5000\nnum_rel               \tall\t2\nmap                   \tall\t0.5000\n',
    )
  })
})
