/**
 * Relevance feedback over an engine: pseudo relevance feedback as part of the first stage, and
 * feedback sessions (rounds of graded documents) over the first stage's candidates or over
 * articles fetched from Entrez, kept in a session log so that they survive a restart.
 */
import { PUBMED_STOPWORDS } from '@pubmatch/analysis'
import { PubmatchError } from '@pubmatch/core'
import {
  createSessionManager,
  createSessionStore,
  indexCandidates,
  metasearch,
  startSession,
  textCandidates,
  type CandidateSet,
  type FeedbackSettings,
  type MetasearchResult,
  type Ranking,
  type SessionManager,
  type SessionStart,
} from '@pubmatch/feedback'
import type { Candidate, SearchFilters, SearchResult } from '@pubmatch/bm25f'
import { abstractText, type Article } from '@pubmatch/core'
import { defaultStoredDocument, type StoredDocument } from '@pubmatch/index'
import { parsePubmedXmlString, type EntrezClient } from '@pubmatch/ingest'
import type { SearchEngine } from './search-engine.ts'

/** Pseudo relevance feedback as part of the first stage. */
export interface PrfOptions {
  /** First-stage candidates the expanded query re-ranks. Defaults to `1000`. */
  readonly candidates?: number
  /** How the candidates are re-ranked. Defaults to `borda` (TF-IDF, BM25 and the first stage). */
  readonly ranking?: Ranking
  /** IDF from the whole index or from the candidates. Defaults to `global`. */
  readonly idf?: 'global' | 'local'
  /** Weights of the fused rankings. Defaults to 1 each. */
  readonly weights?: FeedbackSettings['weights']
}

/** First-stage candidates PRF re-ranks by default. */
export const PRF_CANDIDATES = 1000

/** The first stage's result re-ordered by the PRF-expanded query, and the terms it added. */
export interface PrfResult {
  readonly result: SearchResult
  /** The expanded query vector's terms, heaviest first. */
  readonly terms: ReadonlyArray<readonly [string, number]>
}

/**
 * Re-orders a first-stage result by pseudo relevance feedback: the query vector is expanded by
 * Rocchio from the top 10 documents of the re-ranked candidates and the candidates (the first
 * `options.candidates` hits) are ranked again; hits past them follow in first-stage order. Each hit
 * keeps its first-stage score (what a model's features read); ranks are the new order.
 * @param engine - the engine (its index and analyzer)
 * @param query - the query text
 * @param result - the first stage's result (its hits are the candidates)
 * @param options - see {@link PrfOptions}
 */
export function applyPrf(engine: SearchEngine, query: string, result: SearchResult, options: PrfOptions = {}): PrfResult {
  if (result.hits.length === 0) {
    return { result, terms: [] }
  }
  // exactly the first `candidates` hits, whatever page was asked for: the rest keep first-stage order
  const n = options.candidates ?? PRF_CANDIDATES
  const head = result.hits.slice(0, n)
  const tail = result.hits.slice(n)
  const candidates = indexCandidates(engine.reader, head.map((hit) => hit.docNumber))
  const session = startSession({
    query,
    candidates,
    analyzer: analyzerOf(engine),
    prf: true,
    ranking: options.ranking ?? 'borda',
    idf: options.idf ?? 'global',
    ...(options.weights === undefined ? {} : { weights: options.weights }),
  })
  const byId = new Map(head.map((hit) => [hit.id, hit]))
  const hits: Candidate[] = [...session.ranking().map((entry) => byId.get(entry.id)!), ...tail].map((hit, i) => ({ ...hit, rank: i + 1 }))
  const terms = [...session.vector].sort((a, b) => b[1] - a[1])
  return { result: { ...result, hits }, terms }
}

/** The analyzer of the engine's text fields. */
export function analyzerOf(engine: SearchEngine): ReturnType<SearchEngine['reader']['analyzer']> {
  return engine.reader.analyzer(engine.reader.hasField('title') ? 'title' : engine.reader.schema.fields[0]!.name)
}

/** Options of {@link openFeedbackSessions}. */
export interface FeedbackSessionsOptions {
  /** The session log's directory. */
  readonly dir: string
  /** The engine whose index sessions search (and whose analyzer they use). */
  readonly engine: () => SearchEngine
  /** An Entrez client for metasearch sessions. Defaults to none: metasearch is off. */
  readonly entrez?: EntrezClient
}

/** Feedback sessions over an engine. */
export interface FeedbackSessions {
  readonly manager: SessionManager
  /**
   * Starts a session over the first stage's candidates of a query.
   * @param query - the query
   * @param options - candidates (default 3,000), filters and session settings
   */
  startLocal(query: string, options?: { readonly candidates?: number; readonly filters?: SearchFilters; readonly settings?: FeedbackSettings }): Promise<{ id: string; total: number }>
  /**
   * Starts a metasearch session: Entrez search, fetch, local rerank, remote PRF.
   * @param query - the query
   * @param options - metasearch settings
   * @throws PubmatchError `INVALID_ARGUMENT` when no Entrez client was given
   */
  startMetasearch(
    query: string,
    options?: { readonly keep?: number; readonly expansionArticles?: number; readonly settings?: FeedbackSettings; readonly onProgress?: (message: string) => void },
  ): Promise<{ id: string; metasearch: Omit<MetasearchResult, 'session' | 'articles'> }>
  /**
   * A candidate's stored record for display: from the index, or from the fetched article.
   * @param sessionId - the session
   * @param id - the candidate (PMID)
   */
  document(sessionId: string, id: string): StoredDocument | undefined
  close(): Promise<void>
}

/**
 * Opens the feedback sessions of an engine, kept in a session log.
 * @param options - see {@link FeedbackSessionsOptions}
 */
export function openFeedbackSessions(options: FeedbackSessionsOptions): FeedbackSessions {
  const store = createSessionStore(options.dir)
  const stopwords = new Set(PUBMED_STOPWORDS)
  // metasearch sessions' articles (not in the index), by session
  const articles = new Map<string, Map<string, Article>>()
  const collectionOf = (engine: SearchEngine): { size: number; docFreq: (term: string) => number } => {
    const fields = ['title', 'abstract'].filter((f) => engine.reader.hasField(f))
    return { size: engine.reader.docCount, docFreq: (term) => engine.reader.docFreqAny(term, fields) }
  }
  const reopen = async (start: SessionStart): Promise<CandidateSet> => {
    const engine = options.engine()
    if (start.source.kind === 'index') {
      const docs = start.candidates.map((id) => engine.reader.docNumber(id)).filter((doc): doc is number => doc !== undefined)
      return indexCandidates(engine.reader, docs)
    }
    let byId = articles.get(start.session)
    if (byId === undefined) {
      if (options.entrez === undefined) {
        throw new PubmatchError('INVALID_ARGUMENT', `session ${start.session} searched Entrez, and there is no Entrez client to fetch its articles again`)
      }
      // the articles again, from the client's response cache when it has them
      byId = new Map()
      for (let at = 0; at < start.candidates.length; at += 200) {
        const xml = await options.entrez.efetch({ db: start.source.db, ids: start.candidates.slice(at, at + 200), retmode: 'xml' })
        for (const record of parsePubmedXmlString(xml)) {
          if (record.kind === 'article') {
            byId.set(record.article.id, record.article)
          }
        }
      }
      articles.set(start.session, byId)
    }
    const found = byId
    return textCandidates(
      start.candidates.flatMap((id) => {
        const article = found.get(id)
        return article === undefined ? [] : [{ id, title: article.title, abstract: abstractText(article) }]
      }),
      { analyzer: analyzerOf(engine), collection: collectionOf(engine) },
    )
  }
  const manager = createSessionManager({ store, analyzer: analyzerOf(options.engine()), reopen })
  return {
    manager,
    async startLocal(query, localOptions = {}) {
      const engine = options.engine()
      const result = engine.searcher.search(query, {
        limit: localOptions.candidates ?? 3000,
        ...(localOptions.filters === undefined ? {} : { filters: localOptions.filters }),
      })
      const candidates = indexCandidates(engine.reader, result.hits.map((hit) => hit.docNumber))
      const started = await manager.start({
        query,
        source: { kind: 'index', index: engine.indexDir, generation: engine.generation },
        ...(localOptions.settings === undefined ? {} : { settings: localOptions.settings }),
        candidates,
      })
      return { id: started.id, total: result.total }
    },
    async startMetasearch(query, metaOptions = {}) {
      if (options.entrez === undefined) {
        throw new PubmatchError('INVALID_ARGUMENT', 'metasearch needs an Entrez client')
      }
      const engine = options.engine()
      const result = await metasearch({
        client: options.entrez,
        query,
        analyzer: analyzerOf(engine),
        stopwords,
        ...(metaOptions.keep === undefined ? {} : { keep: metaOptions.keep }),
        ...(metaOptions.expansionArticles === undefined ? {} : { expansionArticles: metaOptions.expansionArticles }),
        ...(metaOptions.settings === undefined ? {} : { settings: metaOptions.settings }),
        collection: collectionOf(engine),
        ...(metaOptions.onProgress === undefined ? {} : { onProgress: metaOptions.onProgress }),
      })
      const started = await manager.start({
        query,
        source: { kind: 'entrez', query: result.expandedQuery ?? result.remoteQuery, db: 'pubmed' },
        ...(metaOptions.settings === undefined ? {} : { settings: metaOptions.settings }),
        candidates: result.session.candidates,
      })
      articles.set(started.id, new Map(result.articles.map((article) => [article.id, article])))
      const { session: _session, articles: _articles, ...summary } = result
      return { id: started.id, metasearch: summary }
    },
    document(sessionId, id) {
      const article = articles.get(sessionId)?.get(id)
      if (article !== undefined) {
        return defaultStoredDocument(article)
      }
      return options.engine().document(id)
    },
    close: () => manager.close(),
  }
}
