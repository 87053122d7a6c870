/**
 * Metasearch over Entrez without keeping a copy (Niesink 2017's HERO flow): the query's concept
 * words OR-ed into an ESearch, the first articles that pass a filter fetched (EFetch, through the
 * client's cache and rate limits), re-ranked locally; then pseudo relevance feedback on the remote
 * query (a few frequent words of the top documents) brings up to 1,000 new articles into the
 * candidate set. Nothing is stored but the client's response cache.
 */
import type { Analyzer } from '@pubmatch/analysis'
import { abstractText, PubmatchError, type Article } from '@pubmatch/core'
import { parsePubmedXmlString, type EntrezClient } from '@pubmatch/ingest'
import { textCandidates, type CandidateSet } from './candidates.ts'
import { remoteExpansionWords } from './rocchio.ts'
import { startSession, type FeedbackSession, type FeedbackSettings } from './session.ts'

/** Options of {@link metasearch}. */
export interface MetasearchOptions {
  /** An Entrez client (its cache, rate limiter and retries are used as they are). */
  readonly client: EntrezClient
  /** The user's query (plain words; PubMed tags and operators are dropped from the remote query). */
  readonly query: string
  /** The analyzer documents and query are analysed with (the local index's). */
  readonly analyzer: Analyzer
  /** Words never used as remote query or expansion words (lower case): PubMed's stop words. */
  readonly stopwords: ReadonlySet<string>
  /** Entrez database. Defaults to `pubmed`. */
  readonly db?: string
  /**
   * Ids asked of ESearch. Defaults to `9999`: the thesis asked for 20,000, but ESearch now answers
   * at most 9,999 ids per query (`retstart + retmax` ≤ 9,999).
   */
  readonly searchIds?: number
  /** Articles kept (the first ones that pass `filter`). Defaults to `3000`. */
  readonly keep?: number
  /** Which fetched articles may become candidates. Defaults to: has a title and an abstract. */
  readonly filter?: (article: Article) => boolean
  /** Remote pseudo feedback: new articles brought in by the expanded query. Defaults to `1000`; `0` turns it off. */
  readonly expansionArticles?: number
  /** EFetch batch size. Defaults to `200`. */
  readonly batchSize?: number
  /** How the candidates are ranked and fed back; see `startSession`. */
  readonly settings?: FeedbackSettings
  /** Global statistics for IDF (e.g. a local index's); defaults to the candidates themselves. */
  readonly collection?: { readonly size: number; readonly docFreq: (term: string) => number }
  /** Progress messages. */
  readonly onProgress?: (message: string) => void
}

/** What a metasearch did. */
export interface MetasearchResult {
  /** The session over the candidates, ranked, ready for feedback rounds. */
  readonly session: FeedbackSession
  /** The candidate articles (in first-fetch order). */
  readonly articles: readonly Article[]
  /** The first remote query. */
  readonly remoteQuery: string
  /** The expanded remote query (absent when expansion added no word). */
  readonly expandedQuery?: string
  /** The words expansion added. */
  readonly expansionWords: readonly string[]
  readonly stats: {
    /** ESearch's count for the first query. */
    readonly matched: number
    /** Ids fetched in all. */
    readonly fetched: number
    /** Articles kept from the first query. */
    readonly kept: number
    /** Articles the expanded query added. */
    readonly added: number
  }
}

const WORD = /[\p{L}\p{N}]+(?:[-'][\p{L}\p{N}]+)*/gu
const TAG_OR_OPERATOR = /\[[^\]]*\]|\b(?:AND|OR|NOT)\b/g

/**
 * The remote query of a user query: its words (field tags, operators, stop words and duplicates
 * dropped) joined by OR, so that ESearch's relevance order, not its Boolean filter, does the work.
 * @param query - the user's query
 * @param stopwords - lower-case words to leave out
 */
export function remoteQuery(query: string, stopwords: ReadonlySet<string>): string {
  const words = [...new Set((query.replace(TAG_OR_OPERATOR, ' ').toLowerCase().match(WORD) ?? []).filter((w) => !stopwords.has(w)))]
  if (words.length === 0) {
    throw new PubmatchError('INVALID_ARGUMENT', `the query "${query}" has no words to search Entrez with`)
  }
  return words.join(' OR ')
}

function defaultFilter(article: Article): boolean {
  return article.title.trim() !== '' && abstractText(article).trim() !== ''
}

/**
 * Runs the metasearch flow and returns a ranked feedback session over the fetched articles.
 * @param options - see {@link MetasearchOptions}
 * @throws PubmatchError from the Entrez client (`UPSTREAM_HTTP`, `NETWORK`, …) and
 *   `INVALID_ARGUMENT` for a query without words
 */
export async function metasearch(options: MetasearchOptions): Promise<MetasearchResult> {
  const db = options.db ?? 'pubmed'
  const keep = options.keep ?? 3000
  const filter = options.filter ?? defaultFilter
  const say = options.onProgress ?? (() => undefined)
  const first = remoteQuery(options.query, options.stopwords)
  const search = await options.client.esearch({ db, term: first, retmax: Math.min(options.searchIds ?? 9999, 9999), sort: 'relevance' })
  say(`ESearch "${first}": ${search.count} matches, ${search.ids.length} ids`)
  const articles: Article[] = []
  const seen = new Set<string>()
  let fetched = 0
  const fetchKept = async (ids: readonly string[], limit: number): Promise<number> => {
    let added = 0
    const batchSize = options.batchSize ?? 200
    for (let at = 0; at < ids.length && added < limit; at += batchSize) {
      const batch = ids.slice(at, at + batchSize).filter((id) => !seen.has(id))
      if (batch.length === 0) {
        continue
      }
      const xml = await options.client.efetch({ db, ids: batch, retmode: 'xml' })
      fetched += batch.length
      for (const record of parsePubmedXmlString(xml, { file: `efetch ${db}` })) {
        if (record.kind !== 'article' || seen.has(record.article.id)) {
          continue
        }
        seen.add(record.article.id)
        if (added < limit && filter(record.article)) {
          articles.push(record.article)
          added++
        }
      }
      say(`EFetch: ${articles.length} articles kept of ${fetched} fetched`)
    }
    return added
  }
  const kept = await fetchKept(search.ids, keep)
  const candidates = (): CandidateSet =>
    textCandidates(
      articles.map((article) => ({ id: article.id, title: article.title, abstract: abstractText(article) })),
      { analyzer: options.analyzer, ...(options.collection === undefined ? {} : { collection: options.collection }) },
    )
  let session = startSession({ ...options.settings, query: options.query, candidates: candidates(), analyzer: options.analyzer })
  let expansionWords: string[] = []
  let expandedQuery: string | undefined
  let added = 0
  const expansionArticles = options.expansionArticles ?? 1000
  if (expansionArticles > 0 && articles.length > 0) {
    const top = session
      .ranking()
      .slice(0, 10)
      .map((entry) => session.candidates.indexOf(entry.id))
    expansionWords = remoteExpansionWords(session.candidates, top, first, { stopwords: options.stopwords })
    if (expansionWords.length > 0) {
      expandedQuery = `${first} OR ${expansionWords.join(' OR ')}`
      const more = await options.client.esearch({ db, term: expandedQuery, retmax: Math.min(options.searchIds ?? 9999, 9999), sort: 'relevance' })
      say(`ESearch expanded with ${expansionWords.join(', ')}: ${more.count} matches`)
      added = await fetchKept(
        more.ids.filter((id) => !seen.has(id)),
        expansionArticles,
      )
      session = startSession({ ...options.settings, query: options.query, candidates: candidates(), analyzer: options.analyzer })
    }
  }
  return {
    session,
    articles,
    remoteQuery: first,
    ...(expandedQuery === undefined ? {} : { expandedQuery }),
    expansionWords,
    stats: { matched: search.count, fetched, kept, added },
  }
}
