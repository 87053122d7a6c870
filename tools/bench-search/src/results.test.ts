import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { checkJson, parseJson } from '@pubmatch/core'
import { readJsonFileSync } from '@pubmatch/core/node'
import { CASE_REQUEST } from './case-request.ts'
import { BENCH_RESULTS, BUILD_RESULT, caseRecord } from './results.ts'

const committed = fileURLToPath(new URL('../results/2026-11-22T02-51-35.json', import.meta.url))

describe('results files', () => {
  it('reads the committed results file (the one RESULTS.md was rendered from)', () => {
    const results = readJsonFileSync(committed, BENCH_RESULTS)
    expect(results.corpora.length).toBeGreaterThan(0)
    expect(results.corpora[0]!.serve.pubmatch!.result.cells[0]!.latency.p50).toBeTypeOf('number')
  })

  it('refuses a results file of another shape, naming the file and the field', () => {
    const results = readJsonFileSync(committed, BENCH_RESULTS)
    const [first] = results.corpora
    const damaged = { ...results, corpora: [{ ...first, serve: { pubmatch: { ...first!.serve.pubmatch, result: { ...first!.serve.pubmatch!.result, cells: [{}] } } } }] }
    expect(() => checkJson(damaged, BENCH_RESULTS, { file: 'results/x.json' })).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: results/x.json: corpora[0].serve.pubmatch.result.cells[0].set is missing, expected "nfcorpus-dev", "log-pubmed" or "log-bag"]`,
    )
    expect(() => checkJson({ result: { engine: 'lucene' } }, caseRecord(BUILD_RESULT), { file: 'idx.build.json' })).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: idx.build.json: result.engine is "lucene", expected "pubmatch", "tantivy", "pisa" or "xapian"]`,
    )
  })
})

describe('case requests', () => {
  it('are checked before a case runs', () => {
    expect(parseJson('{"kind": "export", "corpus": "nfcorpus", "path": "/tmp/d.jsonl"}', CASE_REQUEST, { file: 'request' })).toEqual({
      kind: 'export',
      corpus: 'nfcorpus',
      path: '/tmp/d.jsonl',
    })
    expect(() => parseJson('{"kind": "index", "corpus": "nfcorpus"}', CASE_REQUEST, { file: 'the case request (argument 1)', code: 'INVALID_ARGUMENT' }))
      .toThrowErrorMatchingInlineSnapshot(`[PubmatchError: the case request (argument 1): kind is "index", expected "build", "serve" or "export"]`)
  })
})
