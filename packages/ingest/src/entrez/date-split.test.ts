import { describe, expect, it } from 'vitest'
import {
  bisectDateRange,
  formatEntrezDate,
  parseEntrezDate,
  splitDateRange,
  type DateRange,
} from './date-split.ts'

/** Days in an inclusive range. */
const days = (range: DateRange): number =>
  parseEntrezDate(range.to, 'end') - parseEntrezDate(range.from) + 1

describe('parseEntrezDate / formatEntrezDate', () => {
  it('reads full and partial dates as their first or last day', () => {
    expect(formatEntrezDate(parseEntrezDate('2015/06/15'))).toBe('2015/06/15')
    expect(formatEntrezDate(parseEntrezDate('2015'))).toBe('2015/01/01')
    expect(formatEntrezDate(parseEntrezDate('2015', 'end'))).toBe('2015/12/31')
    expect(formatEntrezDate(parseEntrezDate('2016/02', 'end'))).toBe('2016/02/29')
    expect(formatEntrezDate(parseEntrezDate('2015-2-3'))).toBe('2015/02/03')
    expect(parseEntrezDate('1970/01/02')).toBe(1)
  })

  it('rejects what is not a date', () => {
    expect(() => parseEntrezDate('2015/13/01')).toThrow(/not an Entrez date/)
    expect(() => parseEntrezDate('2015/02/30')).toThrow(/not a valid day/)
    expect(() => parseEntrezDate('last year')).toThrow(/not an Entrez date/)
  })
})

describe('bisectDateRange', () => {
  it('halves by days, the first half taking the middle day', () => {
    // 2015 has 365 days: from = d, to = d + 364, mid = d + 182 → Jan 1 + 182 days = Jul 2
    expect(bisectDateRange({ from: '2015/01/01', to: '2015/12/31' })).toEqual([
      { from: '2015/01/01', to: '2015/07/02' },
      { from: '2015/07/03', to: '2015/12/31' },
    ])
    expect(bisectDateRange({ from: '2015/03/01', to: '2015/03/02' })).toEqual([
      { from: '2015/03/01', to: '2015/03/01' },
      { from: '2015/03/02', to: '2015/03/02' },
    ])
  })

  it('cannot split a single day', () => {
    expect(bisectDateRange({ from: '2015/03/01', to: '2015/03/01' })).toBeUndefined()
  })
})

describe('splitDateRange', () => {
  it('splits a synthetic 40-records-a-day year once: 14,600 > 9,999 but 7,320 and 7,280 fit', async () => {
    const asked: DateRange[] = []
    const result = await splitDateRange({ from: '2015', to: '2015' }, (range) => {
      asked.push(range)
      return Promise.resolve(40 * days(range))
    })
    expect(result.leaves).toEqual([
      { range: { from: '2015/01/01', to: '2015/07/02' }, count: 7320 },
      { range: { from: '2015/07/03', to: '2015/12/31' }, count: 7280 },
    ])
    expect(result.overflow).toEqual([])
    expect(result.countQueries).toBe(3)
    expect(asked[0]).toEqual({ from: '2015/01/01', to: '2015/12/31' })
  })

  it('recurses until every synthetic range fits and the leaves tile the range in order', async () => {
    // 2007–2016 = 3,653 days at 40/day = 146,120; ranges must shrink to ≤ 249 days.
    // Four levels of halving give 16 leaves of 228 or 229 days: 1 + 2 + 4 + 8 + 16 = 31 counts.
    const range = { from: '2007/01/01', to: '2016/12/31' }
    const result = await splitDateRange(range, (r) => Promise.resolve(40 * days(r)))
    expect(result.countQueries).toBe(31)
    expect(result.leaves).toHaveLength(16)
    expect(result.leaves.every((l) => l.count <= 9999 && l.count === 40 * days(l.range))).toBe(true)
    expect(result.leaves.reduce((sum, l) => sum + l.count, 0)).toBe(146_120)
    expect(result.leaves[0]!.range.from).toBe('2007/01/01')
    expect(result.leaves.at(-1)!.range.to).toBe('2016/12/31')
    for (let i = 1; i < result.leaves.length; i += 1) {
      expect(parseEntrezDate(result.leaves[i]!.range.from)).toBe(
        parseEntrezDate(result.leaves[i - 1]!.range.to) + 1,
      )
    }
  })

  it('stops at a single day that is still above the cap and reports it as overflow', async () => {
    // one hot day (2015/10/01) with 12,000 records, 10 a day elsewhere in October
    const hot = parseEntrezDate('2015/10/01')
    const count = (r: DateRange): Promise<number> => {
      const from = parseEntrezDate(r.from)
      const to = parseEntrezDate(r.to, 'end')
      const hotDays = from <= hot && hot <= to ? 1 : 0
      return Promise.resolve(12_000 * hotDays + 10 * (to - from + 1 - hotDays))
    }
    const result = await splitDateRange({ from: '2015/10', to: '2015/10' }, count)
    expect(result.overflow).toEqual([
      { range: { from: '2015/10/01', to: '2015/10/01' }, count: 12_000 },
    ])
    // 31 days: [1,16] → [1,8] → [1,4] → [1,2] → [1,1] overflow + [2,2]; the other halves fit.
    expect(result.leaves.map((l) => `${l.range.from}–${l.range.to}:${l.count}`)).toEqual([
      '2015/10/02–2015/10/02:10',
      '2015/10/03–2015/10/04:20',
      '2015/10/05–2015/10/08:40',
      '2015/10/09–2015/10/16:80',
      '2015/10/17–2015/10/31:150',
    ])
  })

  it('uses a known count for the whole range and leaves out empty ranges', async () => {
    let queries = 0
    const result = await splitDateRange(
      { from: '2015/01/01', to: '2015/01/04' },
      (r) => {
        queries += 1
        return Promise.resolve(r.from === '2015/01/01' ? 3 : 0)
      },
      { cap: 2, knownCount: 3 },
    )
    expect(queries).toBe(4) // [1,2] → [1,1], [2,2]; [3,4]
    expect(result.leaves).toEqual([])
    expect(result.overflow).toEqual([{ range: { from: '2015/01/01', to: '2015/01/01' }, count: 3 }])
  })
})
