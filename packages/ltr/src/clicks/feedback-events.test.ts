import { describe, expect, it } from 'vitest'
import { feedbackRoundEvents } from './feedback-events.ts'
import { formatLogEvent, parseLogLines } from './log-format.ts'
import { labelQueries } from './pipeline.ts'

const time = '2026-01-05T10:00:00.000Z'

describe('feedbackRoundEvents', () => {
  it('logs the round as a shown search, relevant as a click, highly relevant as a click and a full-text request', () => {
    const events = feedbackRoundEvents({
      feedbackSession: 'abc123',
      round: 2,
      query: 'asthma children',
      candidates: 300,
      shown: ['11', '22', '33', '44'],
      grades: { '33': 'highly-relevant', '11': 'relevant', '22': 'non-relevant', '99': 'relevant' },
      session: 'clientSession1',
      time,
    })
    const action = {
      type: 'action',
      time,
      session: 'clientSession1',
      search: 'feedback-abc123-2',
    } as const
    expect(events).toEqual([
      {
        type: 'search',
        id: 'feedback-abc123-2',
        time,
        session: 'clientSession1',
        query: 'asthma children',
        filters: ['feedback'],
        total: 300,
        results: [
          { position: 1, id: '11' },
          { position: 2, id: '22' },
          { position: 3, id: '33' },
          { position: 4, id: '44' },
        ],
      },
      { ...action, id: '11', position: 1, kind: 'abstract_click' },
      { ...action, id: '33', position: 3, kind: 'abstract_click' },
      { ...action, id: '33', position: 3, kind: 'fulltext_request' },
    ])
  })

  it('names the log session after the feedback session when the client gives none (at most 64 characters)', () => {
    const long = 'f'.repeat(70)
    const [search] = feedbackRoundEvents({
      feedbackSession: long,
      round: 1,
      query: 'q',
      candidates: 1,
      shown: ['1'],
      grades: {},
      time,
    })
    expect(search).toMatchObject({
      id: `feedback-${long}-1`,
      session: `feedback-${'f'.repeat(55)}`,
    })
    expect(search!.session).toHaveLength(64)
    const [short] = feedbackRoundEvents({
      feedbackSession: 's1',
      round: 1,
      query: 'q',
      candidates: 1,
      shown: ['1'],
      grades: {},
      time,
    })
    expect(short!.session).toBe('feedback-s1')
  })

  it('writes lines the log parser accepts; the labelling keeps them apart from searches people typed (a filtered search)', () => {
    const events = feedbackRoundEvents({
      feedbackSession: 's1',
      round: 1,
      query: 'statins',
      candidates: 10,
      shown: ['1', '2', '3'],
      grades: { '1': 'highly-relevant', '2': 'relevant' },
      time,
    })
    const { events: parsed, problems } = parseLogLines(events.map(formatLogEvent), 'feedback.jsonl')
    expect(problems).toEqual([])
    expect(parsed).toEqual(events)
    const { queries, stats } = labelQueries(parsed, {
      minResults: 1,
      minOccurrences: 1,
      minClickedDocuments: 1,
    })
    expect(queries).toEqual([])
    expect(stats.droppedSearches.filters).toBe(1)
    expect(stats.droppedActions.search_dropped).toBe(3)
  })
})
