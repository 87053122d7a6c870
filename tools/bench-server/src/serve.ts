/**
 * The server under test: `pubmatch-server` (apps/server/src/bin.ts) with two differences the
 * benchmark needs:
 * - no per-client rate limit (`rateLimit: false`, the bin's `--rate-limit off`): the bin keeps the
 *   default of 600 requests a minute per client address, and every request of the load generator
 *   comes from 127.0.0.1, so 50 requests/s would be answered 429 after 12 s;
 * - `--match any|all`: the first stage's match mode (the bin always serves PubMed's `all`).
 *
 *   node dist/serve.js --index DIR [--model DIR] [--match any|all] [--host H] [--port N] [--search-workers N]
 *
 * The admin routes are on when PUBMATCH_ADMIN_TOKEN is set, as with the bin.
 */
import { parseArgs } from 'node:util'
import { startServer } from '@pubmatch/server'

const { values } = parseArgs({
  options: {
    index: { type: 'string' },
    model: { type: 'string' },
    match: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '0' },
    'search-workers': { type: 'string', default: '0' },
  },
})
if (values.index === undefined || (values.match !== undefined && values.match !== 'any' && values.match !== 'all')) {
  process.stderr.write('usage: node dist/serve.js --index DIR [--model DIR] [--match any|all] [--host H] [--port N]\n')
  process.exit(64)
}
const token = process.env['PUBMATCH_ADMIN_TOKEN']
const server = await startServer({
  open: {
    index: values.index,
    ...(values.model === undefined ? {} : { model: values.model }),
    ...(values.match === undefined ? {} : { ranking: { match: values.match } }),
  },
  host: values.host,
  port: Number(values.port),
  rateLimit: false,
  searchWorkers: Number(values['search-workers']),
  ...(token ? { adminToken: token } : {}),
})
process.stdout.write(`pubmatch-server (bench): serving ${values.index} at ${server.url}\n`)
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0))
  })
}
