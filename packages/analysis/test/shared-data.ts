import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'

/** `/work/shared/data` (from packages/analysis/test/), or `$PUBMATCH_SHARED` when set. */
export const SHARED_DATA: string =
  process.env.PUBMATCH_SHARED ?? fileURLToPath(new URL('../../../../shared/data/', import.meta.url))

/** Whether the shared data folder is present (tests that need it are skipped otherwise). */
export const HAS_SHARED_DATA: boolean = existsSync(`${SHARED_DATA}/pubmed-xml/medsamp2006.xml`)

/**
 * Reads a file under the shared data folder as UTF-8, gunzipping `.gz` files.
 * @param path - path relative to the data folder
 */
export function readSharedText(path: string): string {
  const bytes = readFileSync(`${SHARED_DATA}/${path}`)
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
