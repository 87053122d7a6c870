import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Command } from 'commander'
import { createEntrezClient, createResponseCache } from '@pubmatch/ingest'
import { parseServerFlags, startServer, type ServerFlagOptions } from '@pubmatch/server'
import { createProgress, formatBytes } from '../progress.ts'
import { DEFAULT_CORPUS, DEFAULT_HOME, DEFAULT_INDEX } from '../paths.ts'
import { SAMPLE_CORPUS_DIR } from '@pubmatch/sample-data'
import { runIndex } from './index.ts'
import { parseNonNegativeInt, runIngest } from './ingest.ts'
import { assertIndex } from '../next-step.ts'
import { PubmatchError } from '@pubmatch/core'
import { refuseModelFolder } from './search.ts'

interface ServeOptions {
  index?: string
  model?: string
  host: string
  port: number
  log: string
  usageLog?: string
  termMapping: boolean
  strict: boolean
  requestLog: boolean
  plain: boolean
  sessions: string
  screenProjects: string
  metasearch: boolean
  eutilsUrl?: string
  cacheDir: string
  searchWorkers: number
  backend?: string
  rateLimit: string
  rateLimitKey: string
  trustProxy?: string
}

/** Adds `pubmatch serve`. */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('serve an index over HTTP: the JSON API (/openapi.json), the search page, click logging, admin swaps')
    .option('-i, --index <dir>', `index directory (default: ${DEFAULT_INDEX}, built from the bundled sample corpus on first start)`)
    .option(
      '--model <dir|name>',
      'a LambdaMART model for the second stage: a folder (`pubmatch train`), or with --backend and no -i the name of a model deployed in the collection (`pubmatch model deploy-solr`), run on the shards; without it, the first stage ranks alone',
    )
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('-p, --port <n>', 'port (0: any free one)', parseNonNegativeInt, 8080)
    .option('--log <dir>', 'where shown searches and clicks are logged (`pubmatch clicks labels --log` reads it)', join(DEFAULT_HOME, 'search-log'))
    .option('--usage-log <dir>', 'with --model: a click log for past usage (F2–F3)')
    .option('--request-log', 'log every request as JSON lines on stdout', false)
    .option('--sessions <dir>', 'where relevance feedback sessions are logged (POST /sessions)', join(DEFAULT_HOME, 'feedback-sessions'))
    .option('--screen-projects <dir>', 'the screening projects the screening page (screen.html) works on (pubmatch screen create)', join(DEFAULT_HOME, 'screen'))
    .option('--metasearch', 'allow metasearch feedback sessions over Entrez (network; API key from $NCBI_API_KEY)', false)
    .option('--eutils-url <url>', 'with --metasearch: E-utilities base URL (mirrors, tests)')
    .option('--cache-dir <dir>', 'with --metasearch: the Entrez response cache', join(DEFAULT_HOME, 'entrez-cache'))
    .option('--search-workers <n>', 'worker threads that run searches, each with its own copy of the engine (0: the server thread)', parseNonNegativeInt, 0)
    .option(
      '--backend <solr://host:port/solr/collection>',
      'serve a SolrCloud collection (`pubmatch index --solr`): alone, with no local index (records, snippets, facets, explanations from the collection; --model NAME: a model deployed in it, reranking on the shards), or with -i INDEX for the first stage of /search only (features, model and records from the local index)',
    )
    .option(
      '--rate-limit <n/window|off>',
      'requests a client may make per window (600/min, 20/s, 5000/h, 100/10s), answered 429 beyond it; off: no limit',
      '600/min',
    )
    .option(
      '--rate-limit-key <address|session>',
      "whose budget a request spends: its client address (the forwarded one with --trust-proxy), or its client session id (the search page's `session`; a request without one counts against its address)",
      'address',
    )
    .option(
      '--trust-proxy <addresses>',
      "reverse proxies (addresses or CIDR ranges, comma-separated; loopback, linklocal, uniquelocal) whose X-Forwarded-For gives the client address for the rate limit and the request log (default: none, X-Forwarded-For is ignored)",
    )
    .option(
      '--term-mapping',
      "automatic term mapping (PubMed's ATM) in the first stage: untagged terms also search the MeSH descriptors and journal they name; /search answers the translation (searchDetails)",
      false,
    )
    .option(
      '--strict',
      'answer a query with a syntax error 400 QUERY_SYNTAX instead of working around it as PubMed does (an unclosed quote or "(" closed, a stray ")", a dangling operator or an empty tag dropped, with a QUERY_SYNTAX warning)',
      false,
    )
    .option('--plain', 'plain progress lines even on a terminal', false)
    .addHelpText(
      'after',
      `
With no options it serves the bundled real sample corpus (MEDLINE, PMC, MeSH), ingesting and
indexing it into ${DEFAULT_HOME}/ on the first start, with the first stage only: the sample has no
relevance judgements to train a model on honestly. Set PUBMATCH_ADMIN_TOKEN to enable
POST /admin/reload (swap in a new index generation or model without dropping a request).

Behind a reverse proxy, name it with --trust-proxy so that the rate limit and the request log see
each user's address rather than the proxy's; X-Forwarded-For is never believed otherwise.

Examples:
  pubmatch serve                                   # then open http://127.0.0.1:8080/
  pubmatch serve -i nf/index --model nf/model --port 9000
  pubmatch serve -i nf/index --trust-proxy 127.0.0.1 --rate-limit 120/min   # behind nginx on this host
  pubmatch serve --backend solr://127.0.0.1:8983/solr/pubmed --model bm-2026-11   # deployed with \`pubmatch model deploy-solr\``,
    )
    .action(async (options: ServeOptions) => {
      const say = (text: string): void => {
        process.stderr.write(`${text}\n`)
      }
      const traffic = parseServerFlags({
        rateLimit: options.rateLimit,
        rateLimitKey: options.rateLimitKey,
        ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }),
      })
      if (options.backend !== undefined && options.index === undefined) {
        await serveSolrOnly({ ...options, backend: options.backend }, traffic, say)
        return
      }
      let index = options.index
      if (index !== undefined) {
        assertIndex(index)
      } else {
        index = DEFAULT_INDEX
        if (!existsSync(join(index, 'pubmatch.json'))) {
          say(`serve: no index at ${index} yet: ingesting and indexing the bundled sample corpus (${SAMPLE_CORPUS_DIR})`)
          await runIngest([SAMPLE_CORPUS_DIR], { corpus: DEFAULT_CORPUS, force: false }, createProgress({ plain: options.plain, format: formatBytes }))
          await runIndex({ corpus: DEFAULT_CORPUS, index, mesh: true, rebuild: false, workers: '0', plain: options.plain, quiet: false })
        }
      }
      const server = await startServer({
        open: {
          index,
          ...(options.model === undefined ? {} : { model: options.model }),
          ...(options.usageLog === undefined ? {} : { usageLog: options.usageLog }),
          ranking: { recover: !options.strict, ...(options.termMapping === true ? { termMapping: true } : {}) },
          onProgress: (done, total) => say(`serve: forward store ${done}/${total}`),
        },
        host: options.host,
        port: options.port,
        logDir: options.log,
        logger: options.requestLog,
        feedbackDir: options.sessions,
        screenDir: options.screenProjects,
        searchWorkers: options.searchWorkers,
        ...traffic,
        ...(options.backend === undefined ? {} : { solrBackend: options.backend }),
        ...(options.metasearch
          ? {
              entrez: createEntrezClient({
                apiKey: process.env['NCBI_API_KEY'],
                email: process.env['NCBI_EMAIL'],
                baseUrl: options.eutilsUrl,
                cache: createResponseCache(options.cacheDir, { ttlMs: 30 * 24 * 3_600_000 }),
              }),
            }
          : {}),
        ...(process.env['PUBMATCH_ADMIN_TOKEN'] ? { adminToken: process.env['PUBMATCH_ADMIN_TOKEN'] } : {}),
      })
      const health = (await server.app.inject({ method: 'GET', url: '/health' })).json<{ documents: number; firstStage: string; model?: string }>()
      say(
        `serve: ${health.documents} documents from ${index}; ranking: ${health.firstStage}` +
          (options.backend === undefined ? '' : ` (first stage in Solr: ${options.backend})`) +
          (options.model === undefined
            ? options.index === undefined
              ? ' alone (no model: the bundled sample has no relevance judgements to train one on honestly; give one with --model)'
              : ' alone (no --model given)'
            : `, then LambdaMART (${options.model})`),
      )
      say(`serve: ${trafficText(options, traffic)}`)
      say(`serve: search page ${server.url}/   API ${server.url}/openapi.json   search log ${options.log}`)
      say(`serve: admin routes ${process.env['PUBMATCH_ADMIN_TOKEN'] ? 'on' : 'off (set PUBMATCH_ADMIN_TOKEN)'}; Ctrl-C stops`)
      await untilStopped(server)
    })
}

/** `pubmatch serve --backend …` without `-i`: a Solr collection alone, no local index, corpus or forward store. */
async function serveSolrOnly(options: ServeOptions & { backend: string }, traffic: ServerFlagOptions, say: (text: string) => void): Promise<void> {
  if (options.usageLog !== undefined) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      'serve: --usage-log is read by a local index; a collection served alone (--backend without -i) reads past usage (F2–F3) from the collection: write the log into it with `pubmatch clicks usage-solr LOG --solr URL --collection NAME`',
    )
  }
  if (options.model !== undefined) {
    refuseModelFolder(options.model, options.backend, '--model')
  }
  const server = await startServer({
    open: { backend: options.backend, ranking: { recover: !options.strict }, ...(options.model === undefined ? {} : { model: options.model }) },
    host: options.host,
    port: options.port,
    logDir: options.log,
    logger: options.requestLog,
    searchWorkers: options.searchWorkers,
    ...traffic,
    ...(process.env['PUBMATCH_ADMIN_TOKEN'] ? { adminToken: process.env['PUBMATCH_ADMIN_TOKEN'] } : {}),
  })
  const health = (await server.app.inject({ method: 'GET', url: '/health' })).json<{ documents: number; firstStage: string }>()
  say(
    `serve: ${health.documents} documents in ${options.backend}, with no local index; ranking: ${health.firstStage} in Solr` +
      (options.model === undefined ? ' (no model)' : `, then LambdaMART on the shards (model ${options.model} deployed in the collection)`),
  )
  say(`serve: ${trafficText(options, traffic)}`)
  say(`serve: search page ${server.url}/   API ${server.url}/openapi.json   search log ${options.log}`)
  say(`serve: admin routes ${process.env['PUBMATCH_ADMIN_TOKEN'] ? 'on' : 'off (set PUBMATCH_ADMIN_TOKEN)'}; Ctrl-C stops`)
  await untilStopped(server)
}

/** The rate limit and the trusted proxies, as the start-up lines say them. */
function trafficText(options: ServeOptions, traffic: ServerFlagOptions): string {
  const limit = traffic.rateLimit === false ? 'rate limit off' : `rate limit ${options.rateLimit.trim()} per client ${traffic.rateLimit.key ?? 'address'}`
  const proxies = traffic.trustProxy === undefined ? 'X-Forwarded-For ignored (no --trust-proxy)' : `X-Forwarded-For believed from ${[traffic.trustProxy].flat().join(', ')}`
  return `${limit}; ${proxies}`
}

/** Waits for SIGINT or SIGTERM, then closes the server. */
async function untilStopped(server: { close(): Promise<void> }): Promise<void> {
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      void server.close().then(resolve)
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
}
