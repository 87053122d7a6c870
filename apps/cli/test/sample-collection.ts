/**
 * The sample corpus's MEDLINE citations as a small test collection for the CLI's second-stage
 * flow, as NFCorpus is one with the real data set.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { readPubmedXml } from '@pubmatch/ingest'
import { samplePath } from '@pubmatch/sample-data'

/** The files of {@link writeSampleCollection}. */
export interface SampleCollection {
  /** JSONL corpus (`id`, `title`, `abstract`): the citations of `medline16n0902.xml.gz` with an abstract. */
  readonly corpus: string
  /** Queries (`QID<TAB>text`): the title of each of those citations that has MeSH headings. */
  readonly queries: string
  /** TREC qrels: the citation itself 2, every citation sharing two of its MeSH descriptors 1. */
  readonly qrels: string
  /** The number of queries. */
  readonly count: number
}

/**
 * Writes the collection into `dir`.
 * @param dir - a directory
 */
export async function writeSampleCollection(dir: string): Promise<SampleCollection> {
  const citations: { id: string; title: string; abstract: string; mesh: string[] }[] = []
  for await (const record of readPubmedXml(samplePath('pubmed', 'medline16n0902.xml.gz'))) {
    if (record.kind === 'article' && record.article.abstract.length > 0) {
      const { id, title, abstract, mesh } = record.article
      citations.push({
        id,
        title,
        abstract: abstract.map((section) => section.text).join(' '),
        mesh: mesh.map((heading) => heading.descriptorName),
      })
    }
  }
  const indexed = citations.filter((c) => c.mesh.length > 0)
  const qrels: string[] = []
  for (const citation of indexed) {
    qrels.push(`S${citation.id} 0 ${citation.id} 2`)
    for (const other of indexed) {
      if (
        other.id !== citation.id &&
        other.mesh.filter((name) => citation.mesh.includes(name)).length >= 2
      ) {
        qrels.push(`S${citation.id} 0 ${other.id} 1`)
      }
    }
  }
  const files = {
    corpus: join(dir, 'sample.jsonl'),
    queries: join(dir, 'sample.queries'),
    qrels: join(dir, 'sample.qrel'),
  }
  await writeFile(
    files.corpus,
    citations.map(({ id, title, abstract }) => JSON.stringify({ id, title, abstract })).join('\n') +
      '\n',
  )
  await writeFile(files.queries, indexed.map((c) => `S${c.id}\t${c.title}\n`).join(''))
  await writeFile(files.qrels, qrels.map((line) => `${line}\n`).join(''))
  return { ...files, count: indexed.length }
}
