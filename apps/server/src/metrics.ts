import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { ServingEngine } from '@pubmatch/engine'

/** The server's Prometheus metrics (one registry per server, so tests do not share counters). */
export interface ServerMetrics {
  readonly contentType: string
  /** Records one answered request. */
  observe(route: string, method: string, status: number, seconds: number): void
  /** Records what is being served. */
  engine(engine: ServingEngine): void
  /** Counts an admin swap. */
  swapped(): void
  /** The exposition text. */
  text(): Promise<string>
}

/** Creates the metrics: requests and latency by route, index generation and size, model, swaps, process CPU and memory. */
export function createMetrics(): ServerMetrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'pubmatch_' })
  const requests = new Counter({
    name: 'pubmatch_http_requests_total',
    help: 'HTTP requests answered, by route, method and status',
    labelNames: ['route', 'method', 'status'],
    registers: [registry],
  })
  const latency = new Histogram({
    name: 'pubmatch_http_request_duration_seconds',
    help: 'Time from request to response, by route',
    labelNames: ['route', 'method'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  })
  const generation = new Gauge({ name: 'pubmatch_index_generation', help: 'The index generation being searched', registers: [registry] })
  const documents = new Gauge({ name: 'pubmatch_index_documents', help: 'Live documents in the index being searched', registers: [registry] })
  const model = new Gauge({
    name: 'pubmatch_model_info',
    help: 'The model being served (1 for the current one; model="" means first stage only)',
    labelNames: ['model'],
    registers: [registry],
  })
  const swaps = new Counter({ name: 'pubmatch_swaps_total', help: 'Admin swaps of index generation or model', registers: [registry] })
  return {
    contentType: registry.contentType,
    observe(route, method, status, seconds) {
      requests.inc({ route, method, status: String(status) })
      latency.observe({ route, method }, seconds)
    },
    engine(engine) {
      generation.set(engine.generation)
      documents.set(engine.docCount)
      model.reset()
      model.set({ model: engine.model?.id ?? '' }, 1)
    },
    swapped() {
      swaps.inc()
    },
    text: () => registry.metrics(),
  }
}
