import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { emptyArticle, type Article } from '@pubmatch/core'
import { sharedDataPath } from '@pubmatch/core/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { IngestRecord } from '../records.ts'
import { readJsonlArticles } from './jsonl.ts'
import { readNfcorpusDocs } from './nfcorpus.ts'

/** The real data set's NFCorpus documents (only in tests tagged `real-data`). */
const corpus = sharedDataPath('nfcorpus', 'corpus.docs')

async function collect(records: AsyncIterable<IngestRecord>): Promise<IngestRecord[]> {
  const out: IngestRecord[] = []
  for await (const record of records) {
    out.push(record)
  }
  return out
}

let dir = ''
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pubmatch-jsonl-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function readLines(lines: readonly string[]): Promise<IngestRecord[]> {
  const path = join(dir, `t${Math.random().toString(36).slice(2)}.jsonl`)
  await writeFile(path, lines.join('\n'))
  return collect(readJsonlArticles(path))
}

describe('readJsonlArticles', () => {
  it(
    'round-trips the real NFCorpus documents written as JSONL',
    { tags: ['real-data'] },
    async () => {
      const articles = (await collect(readNfcorpusDocs(corpus))).flatMap((record) =>
        record.kind === 'article' ? [record.article] : [],
      )
      const path = join(dir, 'nfcorpus.jsonl')
      await writeFile(
        path,
        articles
          .map((article) =>
            JSON.stringify({
              id: article.id,
              title: article.title,
              abstract: article.abstract[0]?.text ?? '',
            }),
          )
          .join('\n') + '\n',
      )
      const back = (await collect(readJsonlArticles(path))).flatMap((record) =>
        record.kind === 'article' ? [record.article] : [],
      )
      expect(back).toHaveLength(3_394)
      expect(back).toEqual(articles)
    },
  )

  it('maps the optional fields onto the article', async () => {
    const [record] = await readLines([
      JSON.stringify({
        id: 42,
        title: 'Statins and survival',
        abstract: [{ label: 'BACKGROUND', text: 'Why.' }, 'What.', ''],
        mesh: [
          '*Neoplasms/therapy',
          { descriptorName: 'Humans', ui: 'D006801', qualifiers: ['genetics'] },
        ],
        keywords: ['statin'],
        year: '2014',
        journal: 'J Clin Oncol',
        publicationTypes: ['Journal Article', { name: 'Review', ui: 'D016454' }],
        unknownField: true,
      }),
    ])
    const expected: Article = {
      ...emptyArticle('42', 'test-collection'),
      title: 'Statins and survival',
      abstract: [{ label: 'BACKGROUND', text: 'Why.' }, { text: 'What.' }],
      mesh: [
        {
          descriptorName: 'Neoplasms',
          majorTopic: true,
          qualifiers: [{ name: 'therapy', majorTopic: false }],
        },
        {
          descriptorName: 'Humans',
          descriptorUi: 'D006801',
          majorTopic: false,
          qualifiers: [{ name: 'genetics', majorTopic: false }],
        },
      ],
      keywords: [{ text: 'statin', majorTopic: false }],
      pubDate: { year: 2014 },
      journal: { title: 'J Clin Oncol' },
      publicationTypes: [{ name: 'Journal Article' }, { name: 'Review', ui: 'D016454' }],
    }
    expect(record).toEqual({ kind: 'article', article: expected })
  })

  it('reads BEIR corpus lines (_id, title, text)', async () => {
    const [record] = await readLines([
      '{"_id": "MED-10", "title": "Statin Use", "text": "Recent studies.", "metadata": {}}',
    ])
    expect(record).toMatchObject({
      article: { id: 'MED-10', title: 'Statin Use', abstract: [{ text: 'Recent studies.' }] },
    })
  })

  it('reports bad lines with their line numbers and carries on', async () => {
    const records = await readLines([
      '{"id": "a", "title": "ok"}',
      '',
      '{"id": "b", "title": ',
      '[1, 2]',
      '{"title": "no id"}',
      '{"id": "c", "year": "soon"}',
      '{"id": "d", "mesh": "Humans"}',
      '{"id": "e"}',
    ])
    expect(
      records.map((record) =>
        record.kind === 'error' ? [record.error.code, record.error.details.position] : record.kind,
      ),
    ).toEqual([
      'article',
      ['MALFORMED_JSON', 3],
      ['MALFORMED_JSON', 4],
      ['MISSING_FIELD', 5],
      ['MALFORMED_JSON', 6],
      ['MALFORMED_JSON', 7],
      'article',
    ])
    const messages = records.flatMap((record) =>
      record.kind === 'error' ? [record.error.message] : [],
    )
    expect(messages[3]).toMatch(
      /^t\w+\.jsonl, line 6, article c: "year" is not a four-digit year: /,
    )
    expect(messages[4]).toMatch(/line 7, article d: "mesh" is not an array/)
    expect(records[6]).toMatchObject({ article: { id: 'e', title: '', abstract: [] } })
  })
})
