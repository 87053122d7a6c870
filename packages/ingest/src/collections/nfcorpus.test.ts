import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Article } from '@pubmatch/core'
import { sharedDataPath } from '@pubmatch/core/testing'
import { beforeAll, describe, expect, it } from 'vitest'
import type { IngestRecord } from '../records.ts'
import { readNfcorpusDocs, splitNfcorpusText } from './nfcorpus.ts'

/** The real data set's NFCorpus documents (only in suites tagged `real-data`). */
const corpus = sharedDataPath('nfcorpus', 'corpus.docs')

async function collect(records: AsyncIterable<IngestRecord>): Promise<IngestRecord[]> {
  const out: IngestRecord[] = []
  for await (const record of records) {
    out.push(record)
  }
  return out
}

describe('splitNfcorpusText', () => {
  it('splits at the first abstract token and drops it', () => {
    expect(splitNfcorpusText('a b abstract c abstract d')).toEqual({
      title: 'a b',
      abstract: 'c abstract d',
    })
  })

  it('splits at the first summary token only when there is no abstract token', () => {
    expect(splitNfcorpusText('a summary b')).toEqual({ title: 'a', abstract: 'b' })
    expect(splitNfcorpusText('a summary b abstract c')).toEqual({
      title: 'a summary b',
      abstract: 'c',
    })
  })

  it('keeps everything as title when neither token occurs, collapsing whitespace', () => {
    expect(splitNfcorpusText(' a  b\tc ')).toEqual({ title: 'a b c', abstract: '' })
    expect(splitNfcorpusText('abstracts summaryx')).toEqual({
      title: 'abstracts summaryx',
      abstract: '',
    })
  })
})

describe('readNfcorpusDocs on the real NFCorpus', { tags: ['real-data'] }, () => {
  let articles: Article[] = []

  beforeAll(async () => {
    const records = await collect(readNfcorpusDocs(corpus))
    expect(records.filter((record) => record.kind !== 'article')).toEqual([])
    articles = records.flatMap((record) => (record.kind === 'article' ? [record.article] : []))
  })

  const byId = (id: string): Article => {
    const article = articles.find((candidate) => candidate.id === id)
    if (article === undefined) {
      throw new Error(`no ${id}`)
    }
    return article
  }

  it('reads the 3,394 documents in file order as test-collection articles', () => {
    expect(articles).toHaveLength(3_394)
    expect(new Set(articles.map((article) => article.id)).size).toBe(3_394)
    expect(articles[0]?.id).toBe('MED-1000')
    expect(articles.at(-1)?.id).toBe('MED-999')
    expect(articles.every((article) => article.source === 'test-collection')).toBe(true)
  })

  it('matches the average title and abstract lengths of the reference scores', () => {
    // shared/data/reference/nfcorpus-bm25/README.md: average title 10.51 tokens, abstract 134.42.
    const tokens = (text: string): number => (text === '' ? 0 : text.split(' ').length)
    const title =
      articles.reduce((sum, article) => sum + tokens(article.title), 0) / articles.length
    const abstract =
      articles.reduce((sum, article) => sum + tokens(article.abstract[0]?.text ?? ''), 0) /
      articles.length
    expect(title.toFixed(2)).toBe('10.51')
    expect(abstract.toFixed(2)).toBe('134.42')
  })

  it('splits MED-1000 at its abstract token', () => {
    const article = byId('MED-1000')
    expect(article.title).toBe(
      'neurobehavioral function low-level exposure brominated flame retardants adolescents cross-sectional study',
    )
    expect(article.abstract).toHaveLength(1)
    const words = article.abstract[0]!.text.split(' ')
    expect(words).toHaveLength(219)
    expect(words.slice(0, 3)).toEqual(['background', 'animal', 'vitro'])
  })

  it('splits MED-1992, which has no abstract token, at its summary token', () => {
    const article = byId('MED-1992')
    expect(article.title).toBe('prediabetes high-risk state developing diabetes')
    const words = article.abstract[0]!.text.split(' ')
    expect(words).toHaveLength(98)
    expect(words.slice(0, 3)).toEqual(['prediabetes', 'intermediate', 'hyperglycaemia'])
    expect(words.slice(-2)).toEqual(['benefits', 'pharmacotherapy'])
  })

  it('keeps MED-5063, with neither token, as a title only', () => {
    expect(byId('MED-5063')).toMatchObject({
      title:
        'food additives hyperactivity evidence supports trial period eliminating colourings preservatives diet',
      abstract: [],
    })
  })

  it('keeps the line where MED-10 is glued onto MED-5371 as one document, like the reference', () => {
    expect(articles.some((article) => article.id === 'MED-10')).toBe(false)
    const words = byId('MED-5371').abstract[0]!.text.split(' ')
    expect(words).toHaveLength(339)
    const at = words.indexOf('MED-10')
    expect(words.slice(at - 2, at + 3)).toEqual([
      'publication',
      'bias',
      'MED-10',
      'statin',
      'breast',
    ])
  })
})

describe('readNfcorpusDocs', () => {
  it('reports lines without a tab as errors with their line number and carries on', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pubmatch-nfcorpus-'))
    try {
      const path = join(dir, 'corpus.docs')
      await writeFile(path, 'MED-1\ttitle abstract text\r\n\nno tab here\nMED-2\tonly title\n')
      const records = await collect(readNfcorpusDocs(path))
      expect(records.map((record) => record.kind)).toEqual(['article', 'error', 'article'])
      expect(records[0]).toMatchObject({
        article: { id: 'MED-1', title: 'title', abstract: [{ text: 'text' }] },
      })
      const error = records[1]?.kind === 'error' ? records[1].error : undefined
      expect(error?.details).toEqual({ file: 'corpus.docs', position: 3 })
      expect(error?.message).toMatchInlineSnapshot(
        `"corpus.docs, line 3: expected DOC_ID<TAB>text: "no tab here""`,
      )
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('throws IO for a missing file', async () => {
    await expect(
      collect(readNfcorpusDocs(join(tmpdir(), 'no-such-dir-pubmatch', 'corpus.docs'))),
    ).rejects.toMatchObject({
      code: 'IO',
    })
  })
})
