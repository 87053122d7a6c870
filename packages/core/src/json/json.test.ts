import { describe, expect, expectTypeOf, it } from 'vitest'
import { PubmatchError } from '../errors.ts'
import { checkJson, parseJson } from './parse.ts'
import * as json from './shapes.ts'

const SETTINGS = json.object({
  fieldSet: json.literal('pubmed', 'test-collection'),
  analyzer: json.string,
  segment: json.optional(json.string),
  generation: json.count,
  weights: json.record(json.number),
  features: json.array(json.string),
  range: json.optional(json.tuple(json.number, json.number)),
  memory: json.nullable(json.object({ k: json.integer })),
})

const good = {
  fieldSet: 'pubmed',
  analyzer: 'biomedical',
  generation: 3,
  weights: { title: 5 },
  features: ['F1', 'F2'],
  memory: null,
  extra: 'kept',
}

/** The message of what `run` throws; fails unless it is a PubmatchError. */
function failure(run: () => unknown): PubmatchError {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(PubmatchError)
    return error as PubmatchError
  }
  throw new Error('expected a PubmatchError')
}

describe('checkJson', () => {
  it('returns the value itself, unknown keys kept, typed by its shape', () => {
    const value = checkJson(good, SETTINGS, { file: 'a.json' })
    expect(value).toBe(good)
    expectTypeOf(value).toEqualTypeOf<{
      fieldSet: 'pubmed' | 'test-collection'
      analyzer: string
      generation: number
      weights: Record<string, number>
      features: string[]
      memory: { k: number } | null
      segment?: string | undefined
      range?: [number, number] | undefined
    }>()
  })

  it('names the file, the field, what it holds and what was expected', () => {
    const error = failure(() => checkJson({ ...good, fieldSet: 3 }, SETTINGS, { file: '/idx/pubmatch.json', code: 'INDEX_CORRUPTED' }))
    expect(error.code).toBe('INDEX_CORRUPTED')
    expect(error.message).toMatchInlineSnapshot(`"/idx/pubmatch.json: fieldSet is 3, expected "pubmed" or "test-collection""`)
    expect(error.details).toEqual({ file: '/idx/pubmatch.json', field: 'fieldSet' })
  })

  it('says which nested value is wrong, or missing', () => {
    const item = failure(() => checkJson({ ...good, features: ['F1', null] }, SETTINGS, { file: 'm.json' }))
    expect(item.code).toBe('MALFORMED_JSON')
    expect(item.message).toMatchInlineSnapshot(`"m.json: features[1] is null, expected a string"`)
    const missing = failure(() => checkJson({ ...good, analyzer: undefined }, SETTINGS, { file: 'm.json' }))
    expect(missing.message).toMatchInlineSnapshot(`"m.json: analyzer is missing, expected a string"`)
    const key = failure(() => checkJson({ ...good, weights: { 'ndcg@10': '5' } }, SETTINGS, { file: 'm.json' }))
    expect(key.message).toMatchInlineSnapshot(`"m.json: weights["ndcg@10"] is "5", expected a number"`)
    const nested = failure(() => checkJson({ ...good, memory: { k: 2.5 } }, SETTINGS, { file: 'm.json' }))
    expect(nested.message).toMatchInlineSnapshot(`"m.json: memory.k is 2.5, expected an integer"`)
  })

  it('checks counts, tuples, optional and nullable values', () => {
    expect(failure(() => checkJson({ ...good, generation: -1 }, SETTINGS, { file: 'm.json' })).message).toMatchInlineSnapshot(
      `"m.json: generation is -1, expected a non-negative integer"`,
    )
    expect(failure(() => checkJson({ ...good, range: [1] }, SETTINGS, { file: 'm.json' })).message).toMatchInlineSnapshot(
      `"m.json: range is [1], expected an array of 2"`,
    )
    expect(failure(() => checkJson({ ...good, segment: 7 }, SETTINGS, { file: 'm.json' })).message).toMatchInlineSnapshot(
      `"m.json: segment is 7, expected a string"`,
    )
    expect(failure(() => checkJson({ ...good, memory: 'none' }, SETTINGS, { file: 'm.json' })).message).toMatchInlineSnapshot(
      `"m.json: memory is "none", expected an object or null"`,
    )
    expect(checkJson({ ...good, range: [0, 1.5], segment: '000002' }, SETTINGS, { file: 'm.json' }).range).toEqual([0, 1.5])
  })

  it('rejects numbers that are not finite, and accepts either side of a union', () => {
    const either = json.union(json.string, json.number)
    expect(checkJson('x', either, { file: 'u.json' })).toBe('x')
    expect(checkJson(2, either, { file: 'u.json' })).toBe(2)
    expect(failure(() => checkJson(true, either, { file: 'u.json' })).message).toMatchInlineSnapshot(`"u.json holds true, expected a string or a number"`)
    expect(failure(() => checkJson(Number.NaN, json.number, { file: 'n.json' })).message).toMatchInlineSnapshot(`"n.json holds NaN, expected a number"`)
  })

  it('picks the variant of a tagged union by its tag, and names the tag or the variant’s field', () => {
    const request = json.tagged('kind', {
      build: json.object({ kind: json.literal('build'), dir: json.string }),
      export: json.object({ kind: json.literal('export'), path: json.string }),
    })
    expectTypeOf(checkJson({ kind: 'build', dir: '/x' }, request, { file: 'r' })).toEqualTypeOf<{ kind: 'build'; dir: string } | { kind: 'export'; path: string }>()
    expect(checkJson({ kind: 'export', path: '/p' }, request, { file: 'r' })).toEqual({ kind: 'export', path: '/p' })
    expect(failure(() => checkJson({ kind: 'index' }, request, { file: 'r' })).message).toMatchInlineSnapshot(`"r: kind is "index", expected "build" or "export""`)
    expect(failure(() => checkJson({ kind: 'build', dir: 7 }, request, { file: 'r' })).message).toMatchInlineSnapshot(`"r: dir is 7, expected a string"`)
    expect(failure(() => checkJson([], request, { file: 'r' })).message).toMatchInlineSnapshot(`"r holds [], expected an object with kind "build" or "export""`)
  })

  it('applies a refinement after the shape', () => {
    const probability = json.refine(json.number, (p) => p > 0 && p < 1, 'a number between 0 and 1')
    expect(checkJson(0.25, probability, { file: 'p.json' })).toBe(0.25)
    expect(failure(() => checkJson(1, probability, { file: 'p.json' })).message).toMatchInlineSnapshot(`"p.json holds 1, expected a number between 0 and 1"`)
  })

  it('quotes at most 60 characters of a wrong value', () => {
    const error = failure(() => checkJson({ text: 'x'.repeat(500) }, json.array(json.string), { file: 'long.json' }))
    expect(error.message).toMatchInlineSnapshot(`"long.json holds {"text":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…, expected an array"`)
  })
})

describe('parseJson', () => {
  it('reads null back as NaN in a file of measurements, when asked', () => {
    const summary = json.object({ count: json.count, p50: json.numberOrNaN })
    const text = JSON.stringify({ count: 0, p50: Number.NaN })
    expect(text).toBe('{"count":0,"p50":null}')
    expect(parseJson(text, summary, { file: 's.json', nullAsNaN: true })).toEqual({ count: 0, p50: Number.NaN })
    expect(failure(() => parseJson(text, summary, { file: 's.json' })).message).toMatchInlineSnapshot(`"s.json: p50 is null, expected a number or NaN"`)
    expect(failure(() => parseJson('{"count": 0, "p50": "1"}', summary, { file: 's.json', nullAsNaN: true })).message).toMatchInlineSnapshot(
      `"s.json: p50 is "1", expected a number or NaN"`,
    )
  })


  it('parses and checks, with a byte order mark or without', () => {
    expect(parseJson('\uFEFF{"k": 2}', json.object({ k: json.integer }), { file: 'a.json' })).toEqual({ k: 2 })
  })

  it('says that a file is empty or not JSON, quoting at most 200 characters and the position', () => {
    const empty = failure(() => parseJson(' \n', json.unknown, { file: '/c/CORPUS.json', code: 'CORPUS_CORRUPTED' }))
    expect(empty.code).toBe('CORPUS_CORRUPTED')
    expect(empty.message).toMatchInlineSnapshot(`"/c/CORPUS.json is empty, expected JSON"`)
    const truncated = failure(() => parseJson('{"format": "pubmatch-corpus", "segments": [', json.unknown, { file: '/c/CORPUS.json' }))
    expect(truncated.code).toBe('MALFORMED_JSON')
    expect(truncated.message).toMatchInlineSnapshot(`"/c/CORPUS.json is not valid JSON (it ends too early): "{"format": "pubmatch-corpus", "segments": [""`)
    const bad = failure(() => parseJson(`{"a": 1,\n${'x'.repeat(300)}`, json.unknown, { file: 'b.json' }))
    expect(bad.message).toMatchInlineSnapshot(
      `"b.json is not valid JSON (position 9): "{"a": 1, xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…""`,
    )
    expect(bad.details).toEqual({ file: 'b.json', position: 9 })
  })
})
