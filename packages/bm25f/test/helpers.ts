import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Article } from '@pubmatch/core'
import {
  buildIndex,
  openIndex,
  type BuildIndexOptions,
  type IndexConfig,
  type IndexReader,
} from '@pubmatch/index'
import { afterAll, onTestFinished } from 'vitest'

/** A fresh temporary directory, removed when the current test finishes. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pubmatch-bm25f-'))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  return dir
}

/**
 * Builds an index of `articles` in a temporary directory and opens it, for a whole suite: call
 * in `beforeAll`; the directory is removed in `afterAll`.
 * @param articles - the articles
 * @param config - the index configuration
 */
export async function suiteIndex(
  articles: Iterable<Article> | AsyncIterable<Article>,
  config: IndexConfig,
  options: BuildIndexOptions = {},
): Promise<IndexReader> {
  const dir = await mkdtemp(join(tmpdir(), 'pubmatch-bm25f-'))
  afterAll(() => rm(dir, { recursive: true, force: true }))
  await buildIndex(articles, dir, config, options)
  return openIndex(dir)
}
