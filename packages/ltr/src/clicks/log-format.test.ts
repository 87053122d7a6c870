import { isPubmatchError, type PubmatchError } from '@pubmatch/core'
import { describe, expect, it } from 'vitest'
import {
  formatLogEvent,
  parseLogEvent,
  parseLogLines,
  type ActionEvent,
  type SearchEvent,
} from './log-format.ts'

const search: SearchEvent = {
  type: 'search',
  id: 's1',
  time: '2026-01-05T10:00:00.000Z',
  session: 'u7',
  query: 'asthma children',
  filters: [],
  total: 5120,
  results: [
    { position: 1, id: '31234567' },
    { position: 2, id: '30111111' },
  ],
}
const action: ActionEvent = {
  type: 'action',
  time: '2026-01-05T10:00:09+01:00',
  session: 'u7',
  search: 's1',
  id: '30111111',
  position: 2,
  kind: 'abstract_click',
}
const where = { file: 'log.jsonl', line: 7 }

function errorOf(line: string): PubmatchError {
  try {
    parseLogEvent(line, where)
  } catch (error) {
    if (isPubmatchError(error)) {
      return error
    }
    throw error
  }
  throw new Error(`parsed: ${line}`)
}

function withField(event: object, key: string, value: unknown): string {
  return JSON.stringify({ ...JSON.parse(formatLogEvent(event as SearchEvent)), [key]: value })
}

describe('search-log format v1', () => {
  it('writes the documented line and reads it back', () => {
    const line = formatLogEvent(search)
    expect(line).toBe(
      '{"v":1,"type":"search","id":"s1","time":"2026-01-05T10:00:00.000Z","session":"u7","query":"asthma children","filters":[],"total":5120,"results":[{"position":1,"id":"31234567"},{"position":2,"id":"30111111"}]}',
    )
    expect(parseLogEvent(line, where)).toEqual(search)
    expect(formatLogEvent(action)).toBe(
      '{"v":1,"type":"action","time":"2026-01-05T10:00:09+01:00","session":"u7","search":"s1","id":"30111111","position":2,"kind":"abstract_click"}',
    )
    expect(parseLogEvent(formatLogEvent(action), where)).toEqual(action)
  })

  it('names file:line and the field in every error', () => {
    const notJson = errorOf('{"v":1,')
    expect(notJson.code).toBe('MALFORMED_JSON')
    expect(notJson.message).toContain('log.jsonl:7')
    expect(notJson.details).toMatchObject({ file: 'log.jsonl', position: 7 })

    const missing = errorOf(
      JSON.stringify({
        v: 1,
        type: 'action',
        time: action.time,
        session: 'u',
        search: 's1',
        id: 'd',
        position: 1,
      }),
    )
    expect(missing.code).toBe('MISSING_FIELD')
    expect(missing.details.field).toBe('kind')
    expect(missing.message).toContain('log.jsonl:7: field "kind" is missing')

    const version = errorOf(withField(search, 'v', 2))
    expect(version.code).toBe('SCHEMA_MISMATCH')
    expect(version.details.field).toBe('v')

    expect(errorOf(withField(search, 'extra', 1)).details.field).toBe('extra')
    expect(errorOf(withField(search, 'type', 'click')).details.field).toBe('type')
    expect(errorOf(withField(search, 'time', '2026-01-05 10:00')).details.field).toBe('time')
    expect(errorOf(withField(search, 'time', '2026-01-05T10:00:00')).details.field).toBe('time')
    expect(errorOf(withField(search, 'filters', ['ok', 3])).details.field).toBe('filters')
    expect(errorOf(withField(search, 'total', 1)).details.field).toBe('total')
    expect(errorOf(withField(search, 'total', -1)).details.field).toBe('total')
    expect(errorOf(withField(action, 'kind', 'print')).details.field).toBe('kind')
    expect(errorOf(withField(action, 'position', 0)).details.field).toBe('position')
    expect(errorOf(withField(action, 'position', 1.5)).details.field).toBe('position')
    expect(errorOf(withField(action, 'session', '')).details.field).toBe('session')
    expect(errorOf('[1,2]').code).toBe('MALFORMED_JSON')
  })

  it('requires increasing positions and distinct documents in results', () => {
    const backwards = withField(search, 'results', [
      { position: 2, id: 'a' },
      { position: 2, id: 'b' },
    ])
    expect(errorOf(backwards).details.field).toBe('results[1].position')
    const repeated = withField(search, 'results', [
      { position: 1, id: 'a' },
      { position: 2, id: 'a' },
    ])
    expect(errorOf(repeated).details.field).toBe('results[1].id')
    expect(
      errorOf(withField(search, 'results', [{ position: 1, id: 'a', score: 3 }])).details.field,
    ).toBe('results[0].score')
    // A second page: positions 21.. are fine.
    const page2 = withField(search, 'results', [{ position: 21, id: 'a' }])
    expect((parseLogEvent(page2, where) as SearchEvent).results).toEqual([
      { position: 21, id: 'a' },
    ])
  })

  it('keeps the good lines and reports the bad ones by line number', () => {
    const lines = [
      formatLogEvent(search),
      '',
      'not json',
      formatLogEvent(action),
      withField(action, 'kind', 'x'),
    ]
    const { events, problems } = parseLogLines(lines, 'day.jsonl')
    expect(events).toEqual([search, action])
    expect(problems.map((p) => [p.file, p.line, p.error.code])).toEqual([
      ['day.jsonl', 3, 'MALFORMED_JSON'],
      ['day.jsonl', 5, 'MALFORMED_JSON'],
    ])
  })
})
