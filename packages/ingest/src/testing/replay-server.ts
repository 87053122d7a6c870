import { readFile } from 'node:fs/promises'
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo } from 'node:net'
import { isAbsolute, join } from 'node:path'
import type { CitationStore } from './citation-store.ts'
import {
  createFaultPlan,
  type FaultPlan,
  type PlannedFault,
  type ReplayFault,
} from './fault-plan.ts'
import { createHistoryServer, type HistoryServer } from './history-server.ts'

/** A request as the replay server received it. */
export interface RecordedRequest {
  /** 0-based arrival order. */
  readonly index: number
  /** `GET` or `POST`. */
  readonly method: string
  /** The E-utility, from the path (`/esearch.fcgi` → `esearch`). */
  readonly utility: string
  /** The URL path. */
  readonly path: string
  /** Query-string and form-body parameters merged (a repeated name keeps its last value). */
  readonly params: Readonly<Record<string, string>>
  /** Every parameter in order, repeats included. */
  readonly paramList: ReadonlyArray<readonly [string, string]>
  /** The request's `Content-Type`, if any. */
  readonly contentType?: string
  /** Every request header, names in lower case. */
  readonly headers: Readonly<IncomingHttpHeaders>
  /** Arrival time on the server's clock (see {@link ReplayServerOptions.clock}). */
  readonly at: number
  /** The fault injected into the answer, if any. */
  fault?: ReplayFault['kind']
  /** The status sent (undefined when the connection was dropped). */
  status?: number
}

/** An answer to send. */
export interface ReplayResponse {
  /** HTTP status. Defaults to `200`. */
  readonly status?: number
  /** Extra headers. */
  readonly headers?: Readonly<Record<string, string>>
  /** The body. */
  readonly body: string
}

/** What a route's generator can use besides the request. */
export interface ReplayContext {
  /** The real citations the server was given, if any. */
  readonly citations?: CitationStore
  /** The server's history store (shared by EPost, ESearch `usehistory=y` and EFetch). */
  readonly history: HistoryServer
}

/**
 * One entry of the route table: requests to `utility` whose parameters include every pair
 * in `params` are answered from `file` (a real E-utilities response) or by `respond`.
 */
export interface ReplayRoute {
  /** The E-utility, e.g. `esearch`. */
  readonly utility: string
  /** Parameters the request must carry with exactly these values (others are ignored). */
  readonly params?: Readonly<Record<string, string>>
  /** A response file, absolute or relative to {@link ReplayServerOptions.dataDir}. */
  readonly file?: string
  /** Or: a generator of the answer. */
  readonly respond?: (
    request: RecordedRequest,
    context: ReplayContext,
  ) => ReplayResponse | Promise<ReplayResponse>
}

/** Options of {@link startReplayServer}. */
export interface ReplayServerOptions {
  /** The route table, tried in order. Defaults to none. */
  readonly routes?: readonly ReplayRoute[]
  /** Base directory of relative route files. Defaults to the working directory. */
  readonly dataDir?: string
  /**
   * Real citations: with them, unrouted EFetch requests (`db=pubmed`, by `id` or by history)
   * are answered with `<PubmedArticleSet>`s cut from these records, and EPost stores ids.
   */
  readonly citations?: CitationStore
  /** The initial fault plan. Defaults to none. */
  readonly faults?: readonly PlannedFault[]
  /** Clock for {@link RecordedRequest.at} (share the client's virtual clock). Defaults to `Date.now`. */
  readonly clock?: { now(): number }
  /**
   * Called with each request as it arrives, after its fault is chosen and before it is
   * answered: e.g. to expire the client's timeout (see `installManualTimeouts`) while a `slow`
   * answer is held back. Defaults to none.
   */
  readonly onRequest?: (request: RecordedRequest) => void
}

/** A running replay server. */
export interface ReplayServer {
  /** Base URL to give the client, e.g. `http://127.0.0.1:41234/entrez/eutils/`. */
  readonly url: string
  /** Every request received, in arrival order. */
  readonly requests: readonly RecordedRequest[]
  /** The fault plan (add steps at any time). */
  readonly faults: FaultPlan
  /** The history store. */
  readonly history: HistoryServer
  /** The requests to one E-utility. */
  requestsTo(utility: string): RecordedRequest[]
  /** Stops the server and drops open connections. */
  close(): Promise<void>
}

const XML_TYPE = 'text/xml; charset=UTF-8'
const JSON_TYPE = 'application/json; charset=UTF-8'

/**
 * Escapes text for XML element content.
 * @param text - the text
 */
export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/**
 * An ESearch error answer as NCBI sends it (HTTP 200, `<ERROR>` in `eSearchResult`).
 * @param message - the error message
 */
export function esearchErrorBody(message: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8" ?>',
    '<!DOCTYPE eSearchResult PUBLIC "-//NLM//DTD esearch 20060628//EN" "https://eutils.ncbi.nlm.nih.gov/eutils/dtd/20060628/esearch.dtd">',
    `<eSearchResult><ERROR>${escapeXml(message)}</ERROR></eSearchResult>`,
    '',
  ].join('\n')
}

function contentTypeOf(body: string): string {
  return body.trimStart().startsWith('{') ? JSON_TYPE : XML_TYPE
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) {
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * Starts a loopback HTTP server (127.0.0.1, a free port) that answers E-utilities requests
 * from real recorded responses through a route table, serves EFetch for any PMID from real
 * citations, keeps a history store, injects scripted faults and records every request.
 * @param options - see {@link ReplayServerOptions}
 */
export async function startReplayServer(options: ReplayServerOptions = {}): Promise<ReplayServer> {
  const routes = [...(options.routes ?? [])]
  const faults = createFaultPlan(options.faults)
  const history = createHistoryServer()
  const context: ReplayContext = {
    history,
    ...(options.citations === undefined ? {} : { citations: options.citations }),
  }
  const requests: RecordedRequest[] = []
  const files = new Map<string, string>()
  const timers = new Set<NodeJS.Timeout>()
  const now =
    options.clock === undefined ? () => Date.now() : () => options.clock?.now() ?? Date.now()

  const loadFile = async (file: string): Promise<string> => {
    const path = isAbsolute(file) ? file : join(options.dataDir ?? process.cwd(), file)
    let text = files.get(path)
    if (text === undefined) {
      text = await readFile(path, 'utf8')
      files.set(path, text)
    }
    return text
  }

  const answer = async (recorded: RecordedRequest): Promise<ReplayResponse> => {
    for (const route of routes) {
      if (route.utility !== recorded.utility) {
        continue
      }
      const wanted = Object.entries(route.params ?? {})
      if (!wanted.every(([name, value]) => recorded.params[name] === value)) {
        continue
      }
      if (route.respond !== undefined) {
        return route.respond(recorded, context)
      }
      if (route.file !== undefined) {
        return { body: await loadFile(route.file) }
      }
    }
    const builtIn = builtInAnswer(recorded, context)
    if (builtIn !== undefined) {
      return builtIn
    }
    return {
      status: 400,
      body: `replay server: no route for ${recorded.method} ${recorded.path} ${JSON.stringify(recorded.params)}`,
    }
  }

  const send = (res: ServerResponse, recorded: RecordedRequest, response: ReplayResponse): void => {
    const body = Buffer.from(response.body, 'utf8')
    const status = response.status ?? 200
    recorded.status = status
    res.writeHead(status, {
      'content-type': contentTypeOf(response.body),
      'content-length': String(body.length),
      ...response.headers,
    })
    res.end(body)
  }

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const form = req.method === 'POST' ? await readBody(req) : ''
    const paramList: Array<[string, string]> = [
      ...url.searchParams.entries(),
      ...new URLSearchParams(form).entries(),
    ]
    const utility = (url.pathname.split('/').pop() ?? '').replace(/\.fcgi$/, '')
    const contentType = req.headers['content-type']
    const recorded: RecordedRequest = {
      index: requests.length,
      method: req.method ?? 'GET',
      utility,
      path: url.pathname,
      params: Object.fromEntries(paramList),
      paramList,
      ...(contentType === undefined ? {} : { contentType }),
      headers: req.headers,
      at: now(),
    }
    requests.push(recorded)
    const fault = faults.next(utility)
    if (fault !== undefined) {
      recorded.fault = fault.kind
    }
    options.onRequest?.(recorded)
    switch (fault?.kind) {
      case 'reset':
        req.socket.destroy()
        return
      case 'status':
        send(res, recorded, {
          status: fault.status,
          headers: fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter },
          body:
            fault.body ??
            (fault.status === 429
              ? '{"error":"API rate limit exceeded","api-key":"127.0.0.1","count":"4","limit":"3"}'
              : `<html><body><h1>${fault.status}</h1>replay server fault</body></html>`),
        })
        return
      case 'esearch-error':
        send(res, recorded, {
          body: esearchErrorBody(fault.message ?? 'Invalid db name specified: fleegle'),
        })
        return
      default:
        break
    }
    const response = await answer(recorded)
    if (fault?.kind === 'slow') {
      const timer = setTimeout(() => {
        timers.delete(timer)
        if (!res.destroyed && !res.writableEnded) {
          send(res, recorded, response)
        }
      }, fault.delayMs)
      timers.add(timer)
      return
    }
    if (fault?.kind === 'truncate' || fault?.kind === 'malformed') {
      const body = Buffer.from(response.body, 'utf8')
      const keep = Math.max(
        1,
        Math.floor(body.length * Math.min(0.99, Math.max(0, fault.keepFraction ?? 0.5))),
      )
      const part = body.subarray(0, keep)
      recorded.status = response.status ?? 200
      if (fault.kind === 'malformed') {
        res.writeHead(recorded.status, {
          'content-type': contentTypeOf(response.body),
          'content-length': String(part.length),
        })
        res.end(part)
        return
      }
      res.writeHead(recorded.status, {
        'content-type': contentTypeOf(response.body),
        'content-length': String(body.length),
      })
      res.write(part, () => res.destroy())
      return
    }
    send(res, recorded, response)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain' })
        res.end(`replay server error: ${String(error)}`)
      } else {
        res.destroy()
      }
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}/entrez/eutils/`,
    requests,
    faults,
    history,
    requestsTo: (utility) => requests.filter((r) => r.utility === utility),
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) {
          clearTimeout(timer)
        }
        timers.clear()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function builtInAnswer(
  request: RecordedRequest,
  context: ReplayContext,
): ReplayResponse | undefined {
  const { citations, history } = context
  if (
    request.utility === 'efetch' &&
    citations !== undefined &&
    (request.params['db'] ?? 'pubmed') === 'pubmed'
  ) {
    const webEnv = request.params['WebEnv']
    const queryKey = request.params['query_key']
    let ids: readonly string[]
    if (request.params['id'] !== undefined) {
      ids = request.params['id'].split(',').map((id) => id.trim())
    } else if (webEnv !== undefined && queryKey !== undefined) {
      const stored = history.get(webEnv, queryKey)
      if (stored === undefined) {
        return { body: efetchErrorBody(`Unable to obtain query #${queryKey}`) }
      }
      const start = Number(request.params['retstart'] ?? '0')
      const max = Number(request.params['retmax'] ?? '20')
      ids = stored.slice(start, start + max)
    } else {
      return { body: efetchErrorBody('Empty id list - nothing todo') }
    }
    return { body: citations.articleSet(ids) }
  }
  if (request.utility === 'epost') {
    const ids = (request.params['id'] ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id !== '')
    const valid = ids.filter((id) => /^\d+$/.test(id))
    const invalid = ids.filter((id) => !/^\d+$/.test(id))
    if (valid.length === 0) {
      return {
        body: [
          '<?xml version="1.0" encoding="UTF-8" ?>',
          '<!DOCTYPE ePostResult PUBLIC "-//NLM//DTD epost 20090526//EN" "https://eutils.ncbi.nlm.nih.gov/eutils/dtd/20090526/epost.dtd">',
          '<ePostResult>',
          '\t<ERROR>Empty ID list; Nothing to store</ERROR>',
          '</ePostResult>',
          '',
        ].join('\n'),
      }
    }
    const stored = history.store(valid, request.params['WebEnv'])
    return {
      body: [
        '<?xml version="1.0" encoding="UTF-8" ?>',
        '<!DOCTYPE ePostResult PUBLIC "-//NLM//DTD epost 20090526//EN" "https://eutils.ncbi.nlm.nih.gov/eutils/dtd/20090526/epost.dtd"><ePostResult>',
        ...(invalid.length === 0
          ? []
          : [
              '\t<InvalidIdList>',
              ...invalid.map((id) => `\t\t<Id>${escapeXml(id)}</Id>`),
              '\t</InvalidIdList>',
            ]),
        `\t<QueryKey>${stored.queryKey}</QueryKey>`,
        `\t<WebEnv>${stored.webEnv}</WebEnv>`,
        '</ePostResult>',
        '',
      ].join('\n'),
    }
  }
  return undefined
}

function efetchErrorBody(message: string): string {
  return `<?xml version="1.0" encoding="UTF-8" ?>\n<eFetchResult>\n\t<ERROR>${escapeXml(message)}</ERROR>\n</eFetchResult>\n`
}
