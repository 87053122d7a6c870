// The part of autocannon 9's API this package uses (autocannon ships no types; see
// node_modules/autocannon/README.md "API").
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events'

  namespace autocannon {
    interface Request {
      method?: string
      path: string
      headers?: Record<string, string>
      body?: string
      /** Called with each response to this request (status, whole body, the client's context). */
      onResponse?: (status: number, body: string, context: Record<string, unknown>) => void
    }

    interface Options {
      url: string
      connections?: number
      /** Requests per second over all connections, split evenly between them. */
      overallRate?: number
      /** Seconds. */
      duration?: number
      /** Seconds before a request counts as timed out. Defaults to 10. */
      timeout?: number
      pipelining?: number
      requests?: Request[]
      headers?: Record<string, string>
      ignoreCoordinatedOmission?: boolean
    }

    interface Histogram {
      average: number
      mean: number
      stddev: number
      min: number
      max: number
      p50: number
      p90: number
      p99: number
      total?: number
      /** On `requests`: requests sent. */
      sent?: number
    }

    interface Result {
      latency: Histogram
      requests: Histogram
      throughput: Histogram
      errors: number
      timeouts: number
      mismatches: number
      non2xx: number
      resets: number
      duration: number
      start: Date
      finish: Date
      totalCompletedRequests: number
      totalRequests: number
      '1xx': number
      '2xx': number
      '3xx': number
      '4xx': number
      '5xx': number
      statusCodeStats: Record<string, { count: number }>
    }

    interface Instance extends EventEmitter {
      stop(): void
    }
  }

  function autocannon(options: autocannon.Options, callback: (error: Error | null, result: autocannon.Result) => void): autocannon.Instance

  export = autocannon
}
