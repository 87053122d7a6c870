#!/usr/bin/env node
// pubmatch-server --index DIR [--model DIR] [--host H] [--port N] [--log DIR] [--search-workers N] [--backend solr://HOST:PORT/solr/COLLECTION]
// The admin routes are on when PUBMATCH_ADMIN_TOKEN is set.
import { parseArgs } from 'node:util'
import { isPubmatchError } from '@pubmatch/core'
import { startServer } from './start.ts'

try {
  const { values } = parseArgs({
    options: {
      index: { type: 'string', default: '.pubmatch/index' },
      model: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '8080' },
      log: { type: 'string' },
      'request-log': { type: 'boolean', default: false },
      'search-workers': { type: 'string', default: '0' },
      backend: { type: 'string' },
    },
  })
  const port = Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`pubmatch-server: --port must be 0–65535, got "${values.port}"\n`)
    process.exit(64)
  }
  const searchWorkers = Number(values['search-workers'])
  if (!Number.isInteger(searchWorkers) || searchWorkers < 0) {
    process.stderr.write(`pubmatch-server: --search-workers must be a whole number ≥ 0, got "${values['search-workers']}"\n`)
    process.exit(64)
  }
  const server = await startServer({
    open: { index: values.index, ...(values.model === undefined ? {} : { model: values.model }) },
    host: values.host,
    port,
    ...(values.log === undefined ? {} : { logDir: values.log }),
    ...(process.env['PUBMATCH_ADMIN_TOKEN'] ? { adminToken: process.env['PUBMATCH_ADMIN_TOKEN'] } : {}),
    logger: values['request-log'],
    searchWorkers,
    ...(values.backend === undefined ? {} : { solrBackend: values.backend }),
  })
  process.stdout.write(`pubmatch-server: serving ${values.index} at ${server.url}\n`)
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void server.close().then(() => process.exit(0))
    })
  }
} catch (error) {
  const message = isPubmatchError(error) ? `${error.code}: ${error.message}` : (error as Error).message
  process.stderr.write(`pubmatch-server: ${message}\n`)
  process.exit(isPubmatchError(error, 'INVALID_ARGUMENT') || (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? 64 : 2)
}
