// embedding the server: the Fastify app over an engine (tests call it through `inject`)
export { createServer } from './server.ts'
export type { ServerOptions } from './server.ts'
// starting it: open the engine, build the app, listen (`pubmatch serve`)
export { startServer } from './start.ts'
export type { RunningServer, StartServerOptions } from './start.ts'
// the rate limit and trusted proxies, and the flags both bins read them from
export { parseServerFlags } from './rate-limit.ts'
export type {
  RateLimit,
  RateLimitKey,
  ServerFlagOptions,
  ServerFlags,
  TrustProxy,
} from './rate-limit.ts'
