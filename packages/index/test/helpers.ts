import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { emptyArticle, type Article } from '@pubmatch/core'
import { onTestFinished } from 'vitest'
import type { IndexReader } from '../src/index-reader.ts'
import { NO_MORE_DOCS } from '../src/postings/postings-format.ts'
import type { FieldConfig, IndexConfig } from '../src/schema/config.ts'

/** A fresh temporary directory, removed when the current test finishes. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pubmatch-index-'))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  return dir
}

/** What the small test articles are made of. */
export interface TestDoc {
  id: string
  title: string
  abstract: string
  keywords: string[]
  year?: number
}

/** A test article (white-space separated words, a few keywords, maybe a year). */
export function article(doc: TestDoc): Article {
  const a = emptyArticle(doc.id, 'test-collection')
  a.title = doc.title
  if (doc.abstract !== '') {
    a.abstract = [{ text: doc.abstract }]
  }
  a.keywords = doc.keywords.map((text) => ({ text, majorTopic: false }))
  if (doc.year !== undefined) {
    a.pubDate = { year: doc.year }
  }
  return a
}

/**
 * Fields covering every inversion path: single-valued text (`title`, `abstract`), a
 * multi-valued text field with a position gap (`kw`), a keyword field (`tag`).
 */
export function testFields(): FieldConfig[] {
  return [
    { name: 'title', analyzer: 'whitespace', source: (a) => a.title },
    { name: 'abstract', analyzer: 'whitespace', source: (a) => a.abstract.map((s) => s.text) },
    { name: 'kw', analyzer: 'whitespace', positionGap: 7, source: (a) => a.keywords.map((k) => k.text) },
    { name: 'tag', keyword: true, source: (a) => a.keywords.map((k) => k.text) },
  ]
}

/** A config over {@link testFields} with the default doc values. */
export function testConfig(extra: Partial<IndexConfig> = {}): IndexConfig {
  return { fields: testFields(), ...extra }
}

/** One posting as the brute-force model sees it: document id, positions. */
export type ModelPostings = Map<string, Map<string, number[]>>

/**
 * Inverts articles by brute force, the way the index should for {@link testFields}
 * (white-space tokens at positions 0, 1, …; values of `kw` separated by 7 empty
 * positions; `tag` = distinct keywords, lower-cased, runs of non-alphanumerics made one space,
 * trimmed, frequency 1, no positions).
 * @returns field → term → id → positions
 */
export function bruteForce(articles: readonly Article[]): Map<string, ModelPostings> {
  const out = new Map<string, ModelPostings>()
  const add = (field: string, term: string, id: string, position: number): void => {
    let terms = out.get(field)
    if (terms === undefined) {
      terms = new Map()
      out.set(field, terms)
    }
    let docs = terms.get(term)
    if (docs === undefined) {
      docs = new Map()
      terms.set(term, docs)
    }
    const positions = docs.get(id) ?? []
    positions.push(position)
    docs.set(id, positions)
  }
  const words = (text: string): string[] => text.split(/\s+/).filter((w) => w !== '')
  for (const a of articles) {
    words(a.title).forEach((w, i) => add('title', w, a.id, i))
    let base = 0
    for (const section of a.abstract) {
      const ws = words(section.text)
      ws.forEach((w, i) => add('abstract', w, a.id, base + i))
      if (ws.length > 0) {
        base += ws.length + 100
      }
    }
    base = 0
    for (const keyword of a.keywords) {
      const ws = words(keyword.text)
      ws.forEach((w, i) => add('kw', w, a.id, base + i))
      if (ws.length > 0) {
        base += ws.length + 7
      }
    }
    const tags = [...new Set(a.keywords.map((k) => k.text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim()))].filter((t) => t !== '')
    tags.forEach((tag) => add('tag', tag, a.id, 0)) // no positions: one occurrence each
  }
  return out
}

/** The live postings of an index, by external id: field → term → id → positions. */
export function livePostings(reader: IndexReader): Map<string, ModelPostings> {
  const out = new Map<string, ModelPostings>()
  for (const field of reader.schema.fields) {
    const terms: ModelPostings = new Map()
    for (const { term } of reader.terms(field.name)) {
      const cursor = reader.postings(field.name, term)!
      const docs = new Map<string, number[]>()
      let previous = -1
      for (let d = cursor.nextDoc(); d !== NO_MORE_DOCS; d = cursor.nextDoc()) {
        if (d <= previous) {
          throw new Error(`postings of ${field.name}:${term} not sorted: ${previous} then ${d}`)
        }
        previous = d
        const positions = [...cursor.positions()]
        if (!field.positions) {
          positions.length = 0
          for (let k = 0; k < cursor.freq(); k++) {
            positions.push(k)
          }
        }
        docs.set(reader.externalId(d), positions)
      }
      if (docs.size > 0) {
        terms.set(term, docs)
      }
    }
    if (terms.size > 0) {
      out.set(field.name, terms)
    }
  }
  return out
}

/** Sorts a model for comparison (maps by key). */
export function sortedModel(model: Map<string, ModelPostings>): [string, [string, [string, number[]][]][]][] {
  return [...model.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([field, terms]) => [
      field,
      [...terms.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([term, docs]) => [term, [...docs.entries()].sort(([a], [b]) => (a < b ? -1 : 1))]),
    ])
}
