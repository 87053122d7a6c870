import { readFileSync } from 'node:fs'
import { emptyArticle, type Article } from '@pubmatch/core'
import { sharedDataPath } from '@pubmatch/core/testing'
// A devDependency for tests only: in production the CLI passes articles in.
// eslint-disable-next-line no-restricted-imports
import { readPubmedXml } from '@pubmatch/ingest'
import { samplePath } from '@pubmatch/sample-data'

/** One NFCorpus document as the reference README defines it. */
export interface NfDoc {
  id: string
  title: string[]
  abstract: string[]
}

/**
 * Reads the real data set's NFCorpus `corpus.docs` (only in suites tagged `real-data`) the
 * reference way: tokens = text split on white space; title = the tokens before the first
 * `abstract` token (dropped), else before the first `summary`, else everything.
 */
export function readNfcorpus(): NfDoc[] {
  const docs: NfDoc[] = []
  for (const line of readFileSync(sharedDataPath('nfcorpus', 'corpus.docs'), 'utf8').split('\n')) {
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

/**
 * The sample corpus's 604 MEDLINE citations (`medline16n0902.xml.gz`) as test-collection
 * documents: title and abstract text split on white space, as the whitespace analyzer does.
 */
export async function readSampleDocs(): Promise<NfDoc[]> {
  const words = (text: string): string[] => text.split(/\s+/).filter((word) => word !== '')
  const docs: NfDoc[] = []
  for await (const record of readPubmedXml(samplePath('pubmed', 'medline16n0902.xml.gz'))) {
    if (record.kind === 'article') {
      docs.push({
        id: record.article.id,
        title: words(record.article.title),
        abstract: words(record.article.abstract.map((section) => section.text).join(' ')),
      })
    }
  }
  return docs
}
