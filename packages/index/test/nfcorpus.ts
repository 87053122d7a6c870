import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { emptyArticle, type Article } from '@pubmatch/core'

/** The shared data folder (`../shared/data` from the repository root). */
export const SHARED_DATA: string = fileURLToPath(new URL('../../../../shared/data/', import.meta.url))

/** NFCorpus's `corpus.docs`. */
export const NFCORPUS_DOCS: string = `${SHARED_DATA}nfcorpus/corpus.docs`

/** Whether the NFCorpus file is there. */
export const HAS_NFCORPUS: boolean = existsSync(NFCORPUS_DOCS)

/** One NFCorpus document as the reference README defines it. */
export interface NfDoc {
  id: string
  title: string[]
  abstract: string[]
}

/**
 * Reads `corpus.docs` the reference way: tokens = text split on white space; title = the
 * tokens before the first `abstract` token (dropped), else before the first `summary`,
 * else everything.
 */
export function readNfcorpus(): NfDoc[] {
  const docs: NfDoc[] = []
  for (const line of readFileSync(NFCORPUS_DOCS, 'utf8').split('\n')) {
    if (line.trim() === '') {
      continue
    }
    const tab = line.indexOf('\t')
    const tokens = line.slice(tab + 1).split(/\s+/).filter((t) => t !== '')
    let at = tokens.indexOf('abstract')
    if (at === -1) {
      at = tokens.indexOf('summary')
    }
    docs.push({
      id: line.slice(0, tab),
      title: at === -1 ? tokens : tokens.slice(0, at),
      abstract: at === -1 ? [] : tokens.slice(at + 1),
    })
  }
  return docs
}

/** An NFCorpus document as an article (title, one abstract section). */
export function nfArticle(doc: NfDoc): Article {
  const a = emptyArticle(doc.id, 'test-collection')
  a.title = doc.title.join(' ')
  if (doc.abstract.length > 0) {
    a.abstract = [{ text: doc.abstract.join(' ') }]
  }
  return a
}
