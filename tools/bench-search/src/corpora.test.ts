import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { emptyArticle } from '@pubmatch/core'
import { sharedDataDir } from '@pubmatch/core/testing'
import { generateCorpus } from '@pubmatch/synth'
import { describe, expect, it } from 'vitest'
import {
  corpusSize,
  corpusSpec,
  indexFields,
  readNfcorpusArticles,
  titleAbstract,
  writeTitleAbstractJsonl,
} from './corpora.ts'

/** The real data set (only in suites tagged `real-data`). */
const SHARED = sharedDataDir()

describe('corpusSpec', () => {
  it('reads replicated NFCorpus names', () => {
    expect(corpusSpec('nfcorpus-x30')).toEqual({
      name: 'nfcorpus-x30',
      label: 'NFCorpus ×30',
      source: { kind: 'nfcorpus', times: 30 },
      fields: 'test-collection',
      maxBufferedDocs: 10_000,
    })
    expect(corpusSize(corpusSpec('nfcorpus-x30'))).toBe(101_820)
    expect(corpusSpec('nfcorpus').label).toBe('NFCorpus')
  })

  it('reads synthetic sizes with k and m suffixes', () => {
    const spec = corpusSpec('synth-1m')
    expect(spec.source).toEqual({ kind: 'synth', size: 1_000_000, seed: 1 })
    expect(spec.label).toBe('synthetic 1M')
    expect(spec.fields).toBe('pubmed')
    expect(corpusSize(corpusSpec('synth-100k'))).toBe(100_000)
    expect(corpusSize(corpusSpec('synth-2500'))).toBe(2500)
  })

  it('gives PubMed fields to synthetic corpora and title + abstract to NFCorpus', () => {
    expect(indexFields(corpusSpec('nfcorpus')).map((f) => f.name)).toEqual(['title', 'abstract'])
    expect(indexFields(corpusSpec('synth-10k')).map((f) => f.name)).toContain('mesh_heading')
  })

  it('rejects unknown names', () => {
    expect(() => corpusSpec('synth-1g')).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: unknown corpus "synth-1g" (nfcorpus, nfcorpus-xK, synth-N[k|m])]`,
    )
    expect(() => corpusSpec('nfcorpus-x0')).toThrow(/unknown corpus/)
  })
})

describe('readNfcorpusArticles', () => {
  it('replicates the documents of a data folder with #k id suffixes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-search-nf-'))
    try {
      mkdirSync(join(dir, 'nfcorpus'))
      writeFileSync(
        join(dir, 'nfcorpus', 'corpus.docs'),
        'MED-1\tfirst title abstract first text\nMED-2\tsecond title\n',
      )
      const once = await readNfcorpusArticles(dir)
      const twice = await readNfcorpusArticles(dir, 2)
      expect(once.map((a) => [a.id, a.title])).toEqual([
        ['MED-1', 'first title'],
        ['MED-2', 'second title'],
      ])
      expect(twice.map((a) => a.id)).toEqual(['MED-1#0', 'MED-2#0', 'MED-1#1', 'MED-2#1'])
      expect(twice[2]!.abstract).toEqual(once[0]!.abstract)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('readNfcorpusArticles (real NFCorpus)', { tags: ['real-data'] }, () => {
  it('replicates the 3,394 documents with #k id suffixes, as packages/index/bench does', async () => {
    const once = await readNfcorpusArticles(SHARED)
    const twice = await readNfcorpusArticles(SHARED, 2)
    expect(once).toHaveLength(3394)
    expect(twice).toHaveLength(6788)
    expect(once[0]!.id).toBe('MED-1000')
    expect(once[0]!.title).toBe(
      'neurobehavioral function low-level exposure brominated flame retardants adolescents cross-sectional study',
    )
    expect(twice[0]!.id).toBe('MED-1000#0')
    expect(twice[3394]!.id).toBe('MED-1000#1')
    expect(twice[3394]!.abstract).toEqual(once[0]!.abstract)
  })
})

describe('titleAbstract', () => {
  it('joins the abstract sections with spaces, leaving labels out', () => {
    const article = {
      ...emptyArticle('42', 'pubmed'),
      title: 'A title',
      abstract: [{ label: 'BACKGROUND', text: 'First part.' }, { text: 'Second part.' }],
    }
    expect(titleAbstract(article)).toEqual({
      id: '42',
      title: 'A title',
      abstract: 'First part. Second part.',
    })
  })
})

describe('writeTitleAbstractJsonl', () => {
  it('writes one JSON line per synthetic article, in order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-search-jsonl-'))
    try {
      const path = join(dir, 'docs.jsonl')
      const articles = [...generateCorpus({ size: 3, seed: 1 })]
      expect(await writeTitleAbstractJsonl(articles, path)).toBe(3)
      const lines = readFileSync(path, 'utf8').trimEnd().split('\n')
      expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual(articles.map(titleAbstract))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
