import { openSearch, openSolrEngine, type OpenSearchOptions, type OpenSolrEngineOptions } from '@pubmatch/engine'
import { createServer, type ServerOptions } from './server.ts'
import type { FastifyInstance } from 'fastify'

/** Options of {@link startServer}. */
export interface StartServerOptions extends Omit<ServerOptions, 'engine'> {
  /**
   * What to serve: an index (with a model and ranking; `openSearch`), or a Solr collection alone
   * (`{ backend, ranking }`, no `index`; `openSolrEngine`).
   */
  readonly open: OpenSearchOptions | OpenSolrEngineOptions
  /** Defaults to `127.0.0.1`. */
  readonly host?: string
  /** Defaults to `8080`; `0` picks a free port. */
  readonly port?: number
}

/** A listening server. */
export interface RunningServer {
  readonly app: FastifyInstance
  /** `http://host:port`. */
  readonly url: string
  /** Stops accepting connections and waits for the requests in flight. */
  close(): Promise<void>
}

/**
 * Opens the engine, builds the app and listens.
 * @param options - see {@link StartServerOptions}
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const engine = 'index' in options.open ? await openSearch(options.open) : await openSolrEngine(options.open)
  const { open: _open, host, port, ...serverOptions } = options
  const app = await createServer({ ...serverOptions, engine })
  const address = await app.listen({ host: host ?? '127.0.0.1', port: port ?? 8080 })
  return { app, url: address, close: () => app.close() }
}
