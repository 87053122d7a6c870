import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sharedDataDir } from '@pubmatch/core/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readQueries, readTrecTopics } from './queries.ts'

/** The real data set (only in tests tagged `real-data`). */
const data = sharedDataDir()
/** TREC PM 2017's topics, committed with the tests (see its SOURCE.md). */
const topics2017 = fileURLToPath(
  new URL('../../test/fixtures/trec-pm/topics2017.xml', import.meta.url),
)

let dir = ''
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pubmatch-queries-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('readQueries', () => {
  it(
    'reads the NFCorpus dev and train query files with their counts',
    { tags: ['real-data'] },
    async () => {
      const counts: Record<string, number> = {}
      for (const split of ['dev', 'train']) {
        for (const kind of ['titles', 'vidtitles', 'viddesc', 'nontopictitles']) {
          counts[`${split}/${kind}`] = (
            await readQueries(join(data, 'nfcorpus', split, `q-${kind}.queries`))
          ).length
        }
      }
      counts['dev/all'] = (await readQueries(join(data, 'nfcorpus/dev/q-all.queries'))).length
      // nfcorpus/SOURCE.md: titles / vid-titles / vid-desc / nontopic / all.
      expect(counts).toEqual({
        'dev/titles': 325,
        'dev/vidtitles': 102,
        'dev/viddesc': 102,
        'dev/nontopictitles': 144,
        'train/titles': 2_594,
        'train/vidtitles': 812,
        'train/viddesc': 812,
        'train/nontopictitles': 1_141,
        'dev/all': 325,
      })
    },
  )

  it('keeps ids and text as written, in file order', { tags: ['real-data'] }, async () => {
    const queries = await readQueries(join(data, 'nfcorpus/dev/q-titles.queries'))
    expect(queries.slice(0, 3)).toEqual([
      { id: 'PLAIN-1', text: 'why deep fried foods may cause cancer' },
      { id: 'PLAIN-1007', text: 'ddt' },
      { id: 'PLAIN-101', text: 'how to treat multiple sclerosis with diet' },
    ])
  })

  it('skips blank lines, handles CRLF and throws on a line without a tab', async () => {
    const good = join(dir, 'good.queries')
    await writeFile(good, 'Q1\tfirst query\r\n\r\nQ2\t second\ttabbed \r\n')
    expect(await readQueries(good)).toEqual([
      { id: 'Q1', text: 'first query' },
      { id: 'Q2', text: 'second\ttabbed' },
    ])
    const bad = join(dir, 'bad.queries')
    await writeFile(bad, 'Q1\tok\nQ2 no tab\n')
    await expect(readQueries(bad)).rejects.toMatchObject({
      code: 'UNSUPPORTED_FORMAT',
      message: 'bad.queries, line 2: expected QID<TAB>text: "Q2 no tab"',
    })
    const duplicate = join(dir, 'dup.queries')
    await writeFile(duplicate, 'Q1\ta\nQ1\tb\n')
    await expect(readQueries(duplicate)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { position: 2 },
    })
  })
})

describe('readTrecTopics', () => {
  it('reads the 30 TREC Precision Medicine topics of 2017', async () => {
    const topics = await readTrecTopics(topics2017)
    expect(topics).toHaveLength(30)
    expect(topics[0]).toEqual({
      id: '1',
      text: 'Liposarcoma CDK4 Amplification 38-year-old male GERD',
    })
    expect(topics[2]).toEqual({
      id: '3',
      text: 'Meningioma NF2 (K322), AKT1(E17K) 45-year-old female None',
    })
    expect(topics.at(-1)?.id).toBe('30')
  })

  it(
    'reads the TREC Precision Medicine topics of 2017, 2018 and 2019',
    { tags: ['real-data'] },
    async () => {
      const topics = await Promise.all(
        [2017, 2018, 2019].map((year) =>
          readTrecTopics(join(data, `trec-pm/topics/topics${year}.xml`)),
        ),
      )
      expect(topics.map((list) => list.length)).toEqual([30, 50, 40])
      expect(topics[0]?.[0]).toEqual({
        id: '1',
        text: 'Liposarcoma CDK4 Amplification 38-year-old male GERD',
      })
      expect(topics[0]?.[2]).toEqual({
        id: '3',
        text: 'Meningioma NF2 (K322), AKT1(E17K) 45-year-old female None',
      })
      expect(topics[1]?.[0]).toEqual({ id: '1', text: 'melanoma BRAF (V600E) 64-year-old male' })
      expect(topics[2]?.[0]).toEqual({ id: '1', text: 'melanoma BRAF (E586K) 64-year-old female' })
    },
  )

  it('uses only the chosen fields, in the chosen order', async () => {
    const topics = await readTrecTopics(topics2017, {
      fields: ['gene', 'disease'],
    })
    expect(topics[1]).toEqual({ id: '2', text: 'KRAS (G13D), BRAF (V600E) Colon cancer' })
  })

  it('throws for a truncated file', async () => {
    const path = join(dir, 'topics.xml')
    await writeFile(path, '<topics><topic number="1"><disease>x</disease>')
    await expect(readTrecTopics(path)).rejects.toMatchObject({ code: 'TRUNCATED_INPUT' })
  })
})
