#!/usr/bin/env node
// pubmatch-server [--index DIR] [--model DIR|NAME] [--backend solr://HOST:PORT/solr/COLLECTION]
//                 [--host H] [--port N] [--log DIR] [--request-log] [--search-workers N]
//                 [--rate-limit N/WINDOW|off] [--rate-limit-key address|session] [--trust-proxy ADDRESSES]
//                 [--strict]
// Serves an index (--index, default .pubmatch/index; --model a model folder; --backend: the first
// stage of /search in that Solr collection), or with --backend and no --index a Solr collection
// alone, with no local index (--model: the name of a model deployed in the collection).
// --rate-limit defaults to 600/min per client address (--rate-limit-key); --trust-proxy names the
// reverse proxies whose X-Forwarded-For gives the client address (none by default).
// A query with a syntax error is worked around as PubMed does, with a QUERY_SYNTAX warning;
// --strict answers it 400 QUERY_SYNTAX instead.
// The admin routes are on when PUBMATCH_ADMIN_TOKEN is set.
import { existsSync, statSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { isPubmatchError, PubmatchError } from '@pubmatch/core'
import { parseServerFlags } from './rate-limit.ts'
import { startServer } from './start.ts'

const DEFAULT_INDEX = '.pubmatch/index'

try {
  const { values } = parseArgs({
    options: {
      index: { type: 'string' },
      model: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '8080' },
      log: { type: 'string' },
      'request-log': { type: 'boolean', default: false },
      'search-workers': { type: 'string', default: '0' },
      backend: { type: 'string' },
      'rate-limit': { type: 'string' },
      'rate-limit-key': { type: 'string' },
      'trust-proxy': { type: 'string' },
      strict: { type: 'boolean', default: false },
    },
  })
  const port = Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535 || values.port.trim() === '') {
    throw new PubmatchError('INVALID_ARGUMENT', `--port must be 0–65535, got "${values.port}"`)
  }
  const searchWorkers = Number(values['search-workers'])
  if (
    !Number.isInteger(searchWorkers) ||
    searchWorkers < 0 ||
    values['search-workers'].trim() === ''
  ) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `--search-workers must be a whole number ≥ 0, got "${values['search-workers']}"`,
    )
  }
  const flags = parseServerFlags({
    ...(values['rate-limit'] === undefined ? {} : { rateLimit: values['rate-limit'] }),
    ...(values['rate-limit-key'] === undefined ? {} : { rateLimitKey: values['rate-limit-key'] }),
    ...(values['trust-proxy'] === undefined ? {} : { trustProxy: values['trust-proxy'] }),
  })
  // --backend without --index: the collection alone, and --model names a model deployed in it
  const solrOnly = values.backend !== undefined && values.index === undefined
  if (
    solrOnly &&
    values.model !== undefined &&
    existsSync(values.model) &&
    statSync(values.model).isDirectory()
  ) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `--model ${values.model} is a folder, but a collection served alone (--backend without --index) reranks with a model deployed in it: deploy the folder with \`pubmatch model deploy-solr\` and give its name, or serve with --index INDEX to rerank with the folder here`,
    )
  }
  const index = values.index ?? DEFAULT_INDEX
  const model = values.model === undefined ? {} : { model: values.model }
  const server = await startServer({
    open: solrOnly
      ? { backend: values.backend!, ranking: { recover: !values.strict }, ...model }
      : { index, ranking: { recover: !values.strict }, ...model },
    host: values.host,
    port,
    ...(values.log === undefined ? {} : { logDir: values.log }),
    ...(process.env['PUBMATCH_ADMIN_TOKEN']
      ? { adminToken: process.env['PUBMATCH_ADMIN_TOKEN'] }
      : {}),
    logger: values['request-log'],
    searchWorkers,
    ...flags,
    ...(values.backend === undefined || solrOnly ? {} : { solrBackend: values.backend }),
  })
  process.stdout.write(
    `pubmatch-server: serving ${solrOnly ? `${values.backend} alone (no local index)` : index} at ${server.url}\n`,
  )
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void server.close().then(() => process.exit(0))
    })
  }
} catch (error) {
  const message = isPubmatchError(error)
    ? `${error.code}: ${error.message}`
    : (error as Error).message
  process.stderr.write(`pubmatch-server: ${message}\n`)
  process.exit(
    isPubmatchError(error, 'INVALID_ARGUMENT') ||
      /^ERR_PARSE_ARGS_/.test(String((error as { code?: string }).code))
      ? 64
      : 2,
  )
}
