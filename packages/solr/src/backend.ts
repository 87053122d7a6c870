/**
 * The `--backend` address of a Solr collection: `solr://HOST:PORT[,HOST:PORT…]/solr/COLLECTION`
 * (`solr+https://` for TLS), optionally `?scoring=combined` for Lucene's CombinedFieldQuery instead
 * of the default Robertson–Zaragoza BM25F. Several hosts are nodes of one cluster, tried in turn.
 */
import { PubmatchError, truncateForMessage } from '@pubmatch/core'

/** A parsed backend address. */
export interface SolrBackend {
  /** The nodes' base URLs (`http://127.0.0.1:8983/solr`). */
  readonly urls: readonly string[]
  readonly collection: string
  /** The `bm25f` parser's model. */
  readonly scoring: 'bm25f' | 'combined'
}

/**
 * Parses a backend address.
 * @param address - `solr://127.0.0.1:8983/solr/pubmed` or `solr://h1:8983,h2:8983/solr/pubmed`
 * @throws PubmatchError `INVALID_ARGUMENT` naming what is wrong
 */
export function parseBackend(address: string): SolrBackend {
  const [path0, query = ''] = address.trim().split('?', 2) as [string, string?]
  const match = /^solr(\+https)?:\/\/([^/]+)\/(.+)\/([^/]+)\/?$/.exec(path0)
  const invalid = (why: string): PubmatchError =>
    new PubmatchError('INVALID_ARGUMENT', `backend "${truncateForMessage(address)}" ${why} (expected solr://HOST:PORT/solr/COLLECTION)`, {
      details: { backend: address },
    })
  if (match === null) {
    throw invalid('is not a Solr collection address')
  }
  const [, tls, hosts, path, collection] = match
  const urls = hosts!.split(',').map((host) => {
    if (!/^[A-Za-z0-9.\-[\]:]+:\d{1,5}$/.test(host)) {
      throw invalid(`has a host without a port: "${host}"`)
    }
    return `${tls === undefined ? 'http' : 'https'}://${host}/${path}`
  })
  const params = new URLSearchParams(query)
  const scoring = params.get('scoring') ?? 'bm25f'
  if (scoring !== 'bm25f' && scoring !== 'combined') {
    throw invalid(`asks for scoring "${scoring}" (bm25f or combined)`)
  }
  for (const key of params.keys()) {
    if (key !== 'scoring') {
      throw invalid(`has an unknown option "${key}"`)
    }
  }
  return { urls, collection: collection!, scoring }
}
