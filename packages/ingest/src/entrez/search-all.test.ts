import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { samplePath } from '@pubmatch/sample-data'
import { loadCitationStore, type CitationStore } from '../testing/citation-store.ts'
import { citationSearchResponder, type CitationSearchOptions } from '../testing/citation-search.ts'
import { createInstantClock } from '../testing/clocks.ts'
import { startReplayServer, type ReplayServer } from '../testing/replay-server.ts'
import { installManualTimeouts, type ManualTimeouts } from '../testing/timeouts.ts'
import { createEntrezClient, type EntrezClient } from './client.ts'
import { parseEntrezDate, type DateRange } from './date-split.ts'

let store: CitationStore
let server: ReplayServer | undefined
/** No attempt times out (the tests count requests), however slow the machine. */
let timeouts: ManualTimeouts

beforeAll(async () => {
  store = await loadCitationStore([samplePath('pubmed', 'medline16n0902.xml.gz')])
})
beforeEach(() => {
  timeouts = installManualTimeouts()
})
afterEach(async () => {
  await server?.close()
  server = undefined
  timeouts.restore()
})

async function clientFor(
  options: CitationSearchOptions,
): Promise<{ client: EntrezClient; server: ReplayServer }> {
  server = await startReplayServer({
    citations: store,
    routes: [{ utility: 'esearch', respond: citationSearchResponder(options) }],
  })
  return {
    client: createEntrezClient({ baseUrl: server.url, clock: createInstantClock() }),
    server,
  }
}

const days = (r: DateRange): number => parseEntrezDate(r.to, 'end') - parseEntrezDate(r.from) + 1

describe('searchAll', () => {
  it('splits by publication date when synthetic counts exceed 9,999, retrieving every real id exactly once', async () => {
    // Synthetic: 40 records a day (146,120 over 2007–2016); the ids served are the 604 real
    // citations of medline16n0902 whose publication date falls in each range.
    const { client, server } = await clientFor({
      count: (r) => (r === undefined ? 999_999 : 40 * days(r)),
    })
    const result = await client.searchAll({
      term: 'all',
      mindate: '2007/01/01',
      maxdate: '2016/12/31',
    })
    expect(result.split).toBe(true)
    expect(result.count).toBe(146_120)
    expect(result.ranges).toHaveLength(16)
    expect(result.ranges.every((r) => r.count <= 9999)).toBe(true)
    expect(result.ranges[0]!.range.from).toBe('2007/01/01')
    expect(result.ranges.at(-1)!.range.to).toBe('2016/12/31')
    expect(result.overflow).toEqual([])
    expect(result.ids).toHaveLength(604)
    expect(new Set(result.ids).size).toBe(604)
    expect([...result.ids].sort()).toEqual([...store.pmids].sort())
    const requests = server.requestsTo('esearch')
    expect(requests).toHaveLength(result.requests)
    // 1 first page + 30 range counts, then each range is paged until a page comes back empty
    expect(requests.filter((r) => r.params['retmax'] === '0')).toHaveLength(30)
    for (const r of requests) {
      expect(Number(r.params['retstart']) + Number(r.params['retmax'])).toBeLessThanOrEqual(9999)
      expect([
        r.params['datetype'],
        r.params['mindate'] !== undefined,
        r.params['maxdate'] !== undefined,
      ]).toEqual(['pdat', true, true])
    }
  })

  it('reports a single day whose synthetic count stays above the cap as overflow', async () => {
    const hot = parseEntrezDate('2015/10/01')
    const { client } = await clientFor({
      count: (r) => {
        if (r === undefined) {
          return 0
        }
        const from = parseEntrezDate(r.from)
        const to = parseEntrezDate(r.to, 'end')
        return from <= hot && hot <= to ? 12_000 + (to - from) : to - from + 1
      },
    })
    const result = await client.searchAll({ term: 'all', mindate: '2015/10', maxdate: '2015/10' })
    expect(result.overflow).toEqual([
      { range: { from: '2015/10/01', to: '2015/10/01' }, count: 12_000 },
    ])
    // the 162 real citations dated 2015/10/01 are still retrieved (162 ≤ cap)
    expect(result.ids).toHaveLength(store.inDateRange('2015/10/01', '2015/10/31').length)
  })

  it('splits on the real counts of the 604 citations with a cap of 200', async () => {
    const { client } = await clientFor({})
    const result = await client.searchAll({ term: 'all', cap: 200, pageSize: 60 })
    expect(result.split).toBe(true)
    expect(result.count).toBe(604)
    expect(result.ranges.reduce((sum, r) => sum + r.count, 0)).toBe(604)
    expect(result.ranges.every((r) => r.count <= 200)).toBe(true)
    expect(result.ids).toHaveLength(604)
    expect(new Set(result.ids).size).toBe(604)
  })

  it('pages without splitting when the count fits under the cap', async () => {
    const { client, server } = await clientFor({})
    const result = await client.searchAll({ term: 'all', pageSize: 250 })
    expect([result.split, result.count, result.ids.length, result.ranges]).toEqual([
      false,
      604,
      604,
      [],
    ])
    expect(
      server.requestsTo('esearch').map((r) => [r.params['retstart'], r.params['retmax']]),
    ).toEqual([
      ['0', '250'],
      ['250', '250'],
      ['500', '104'],
    ])
  })
})
