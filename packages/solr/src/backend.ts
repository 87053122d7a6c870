/**
 * The `--backend` address of a Solr collection: `solr://HOST:PORT[,HOST:PORT…]/solr/COLLECTION`
 * (`solr+https://` for TLS). Several hosts are nodes of one cluster, tried in turn.
 */
import { PubmatchError, truncateForMessage } from '@pubmatch/core'

/** A parsed backend address. */
export interface SolrBackend {
  /** The nodes' base URLs (`http://127.0.0.1:8983/solr`). */
  readonly urls: readonly string[]
  readonly collection: string
}

/**
 * Parses a backend address.
 * @param address - `solr://127.0.0.1:8983/solr/pubmed` or `solr://h1:8983,h2:8983/solr/pubmed`
 * @throws PubmatchError `INVALID_ARGUMENT` naming what is wrong
 */
export function parseBackend(address: string): SolrBackend {
  const match = /^solr(\+https)?:\/\/([^/]+)\/(.+)\/([^/]+)\/?$/.exec(address.trim())
  const invalid = (why: string): PubmatchError =>
    new PubmatchError('INVALID_ARGUMENT', `@pubmatch/solr: backend "${truncateForMessage(address)}" ${why} (expected solr://HOST:PORT/solr/COLLECTION)`, {
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
  return { urls, collection: collection! }
}
