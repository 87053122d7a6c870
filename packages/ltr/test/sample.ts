/**
 * The sample corpus's MEDLINE citations as a small test collection for the Best Match recipe:
 * read from `medline16n0902.xml.gz` with plain regular expressions (the package does not depend
 * on the ingest reader), with known-item queries derived from them.
 */
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { samplePath } from '@pubmatch/sample-data'
import type { LabelledQuery } from '../src/types.ts'

/** A citation of the sample corpus: PMID, title, abstract text and MeSH descriptor names. */
export interface SampleCitation {
  readonly id: string
  readonly title: string
  readonly abstract: string
  readonly mesh: readonly string[]
}

const ENTITIES: Readonly<Record<string, string>> = {
  lt: '<',
  gt: '>',
  amp: '&',
  quot: '"',
  apos: "'",
}

/** Element text without markup, the five XML entities decoded. */
const text = (xml: string): string =>
  xml
    .replace(/<[^>]+>/g, '')
    .replace(/&(lt|gt|amp|quot|apos);/g, (_, name: string) => ENTITIES[name]!)
    .trim()

/** The citations of `medline16n0902.xml.gz` that have a title and an abstract, in file order. */
export function readSampleCitations(): SampleCitation[] {
  const xml = gunzipSync(readFileSync(samplePath('pubmed', 'medline16n0902.xml.gz'))).toString(
    'utf8',
  )
  const citations: SampleCitation[] = []
  for (const [record] of xml.matchAll(/<MedlineCitation [\s\S]*?<\/MedlineCitation>/g)) {
    const id = /<PMID[^>]*>(\d+)<\/PMID>/.exec(record)?.[1]
    const title = /<ArticleTitle>([\s\S]*?)<\/ArticleTitle>/.exec(record)?.[1]
    const abstract = [...record.matchAll(/<AbstractText[^>]*>([\s\S]*?)<\/AbstractText>/g)]
      .map((m) => text(m[1]!))
      .join(' ')
    if (id === undefined || title === undefined || abstract === '') {
      continue
    }
    const mesh = [...record.matchAll(/<DescriptorName[^>]*>([\s\S]*?)<\/DescriptorName>/g)].map(
      (m) => text(m[1]!),
    )
    citations.push({ id, title: text(title), abstract, mesh })
  }
  return citations
}

/**
 * Known-item queries over the citations with MeSH headings: each of the first `count` such
 * citations gives a query (id `S<PMID>`, its title), judging the citation itself 2 and every
 * other citation that shares at least two of its descriptors 1; `variants` gives the same
 * queries (same ids, every second one) as their descriptor names, another wording of the need.
 * @param citations - the citations
 * @param count - how many queries
 */
export function knownItemQueries(
  citations: readonly SampleCitation[],
  count: number,
): { titles: LabelledQuery[]; variants: LabelledQuery[] } {
  const indexed = citations.filter((c) => c.mesh.length > 0)
  const titles: LabelledQuery[] = []
  const variants: LabelledQuery[] = []
  for (const [i, citation] of indexed.slice(0, count).entries()) {
    const judgements = new Map<string, number>([[citation.id, 2]])
    for (const other of indexed) {
      if (
        other.id !== citation.id &&
        other.mesh.filter((name) => citation.mesh.includes(name)).length >= 2
      ) {
        judgements.set(other.id, 1)
      }
    }
    titles.push({ id: `S${citation.id}`, text: citation.title, judgements })
    if (i % 2 === 0) {
      variants.push({ id: `S${citation.id}`, text: citation.mesh.join(' '), judgements })
    }
  }
  return { titles, variants }
}
