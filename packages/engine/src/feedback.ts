/**
 * Feedback sessions over an engine (rounds of graded documents) over the first stage's
 * candidates or over articles fetched from Entrez, kept in a session log so that they survive a
 * restart. Pseudo relevance feedback as part of the first stage is `prf.ts`.
 */
import { PUBMED_STOPWORDS } from '@pubmatch/analysis'
import { PubmatchError } from '@pubmatch/core'
import {
  createSessionManager,
  createSessionStore,
  indexCandidates,
  metasearch,
  textCandidates,
  type CandidateSet,
  type FeedbackSettings,
  type MetasearchResult,
  type SessionManager,
  type SessionStart,
} from '@pubmatch/feedback'
import type { SearchFilters } from '@pubmatch/bm25f'
import { abstractText, type Article } from '@pubmatch/core'
import { defaultStoredDocument, type StoredDocument } from '@pubmatch/index'
import { parsePubmedXmlString, type EntrezClient } from '@pubmatch/ingest'
import { analyzerOf, engineInternals, type SearchEngine } from './search-engine.ts'

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
    const { reader } = engineInternals(engine)
    const fields = ['title', 'abstract'].filter((f) => reader.hasField(f))
    return { size: reader.docCount, docFreq: (term) => reader.docFreqAny(term, fields) }
  }
  const reopen = async (start: SessionStart): Promise<CandidateSet> => {
    const engine = options.engine()
    if (start.source.kind === 'index') {
      const { reader } = engineInternals(engine)
      const docs = start.candidates.map((id) => reader.docNumber(id)).filter((doc): doc is number => doc !== undefined)
      return indexCandidates(reader, docs)
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
      const result = engine.firstStageSearch(query, {
        limit: localOptions.candidates ?? 3000,
        ...(localOptions.filters === undefined ? {} : { filters: localOptions.filters }),
      })
      const candidates = indexCandidates(engineInternals(engine).reader, result.hits.map((hit) => hit.docNumber))
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
