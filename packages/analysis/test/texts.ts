import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'

/**
 * Reads a file as UTF-8, gunzipping `.gz` files.
 * @param path - the file (`samplePath(…)`, or `sharedDataPath(…)` in a suite tagged `real-data`)
 */
export function readText(path: string): string {
  const bytes = readFileSync(path)
  return (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8')
}

const ENTITIES: Readonly<Record<string, string>> = {
  lt: '<',
  gt: '>',
  amp: '&',
  quot: '"',
  apos: "'",
}

/**
 * Every `<ArticleTitle>` of a PubMed XML text, in order, with the five XML entities decoded.
 * @param xml - PubMed XML
 */
export function articleTitles(xml: string): string[] {
  return [...xml.matchAll(/<ArticleTitle>([\s\S]*?)<\/ArticleTitle>/g)].map((match) =>
    match[1]!.replace(/&(lt|gt|amp|quot|apos);/g, (_, name: string) => ENTITIES[name]!),
  )
}

/**
 * The `<ArticleTitle>` of the citation with the given PMID in a PubMed XML text, with the five
 * XML entities decoded.
 * @param xml - PubMed XML
 * @param pmid - the PMID
 */
export function articleTitle(xml: string, pmid: string): string {
  const start = xml.search(new RegExp(`<MedlineCitation[^>]*>\\s*<PMID[^>]*>${pmid}</PMID>`))
  if (start < 0) {
    throw new Error(`PMID ${pmid} not found`)
  }
  const match = /<ArticleTitle>([\s\S]*?)<\/ArticleTitle>/.exec(xml.slice(start))
  if (match === null) {
    throw new Error(`PMID ${pmid} has no ArticleTitle`)
  }
  return match[1]!.replace(/&(lt|gt|amp|quot|apos);/g, (_, name: string) => ENTITIES[name]!)
}
