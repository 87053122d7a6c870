/**
 * The API contract in tests: every answer a test sees through {@link Contract.call} (or records)
 * is kept, and {@link Contract.check} validates each against the schema `/openapi.json` documents
 * for its route and status.
 */
import { Ajv, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'

/** An answer a test saw. */
export interface SeenAnswer {
  readonly method: string
  /** The route as the OpenAPI document names it (`/articles/{pmid}`). */
  readonly route: string
  readonly status: number
  readonly body: unknown
}

/** The answers of a test file. */
export interface Contract {
  readonly seen: readonly SeenAnswer[]
  /** Injects a request and keeps its answer. */
  call(
    app: FastifyInstance,
    method: 'GET' | 'POST',
    url: string,
    route: string,
    payload?: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>
  /** Keeps an answer seen otherwise. */
  record(method: 'GET' | 'POST', route: string, response: LightMyRequestResponse): void
  /** Checks every kept answer against the document (a vitest assertion per answer). */
  check(openapi: { paths: Record<string, Record<string, { responses: Record<string, unknown> }>>; components: { schemas: Record<string, object> } }): void
}

/** A contract with no answers yet. */
export function createContract(): Contract {
  const seen: SeenAnswer[] = []
  const record = (method: 'GET' | 'POST', route: string, response: LightMyRequestResponse): void => {
    const type = String(response.headers['content-type'] ?? '')
    seen.push({ method: method.toLowerCase(), route, status: response.statusCode, body: type.startsWith('application/json') ? response.json() : response.body })
  }
  return {
    seen,
    record,
    async call(app, method, url, route, payload, headers) {
      const response = await app.inject({
        method,
        url,
        ...(payload === undefined ? {} : { payload: payload as object }),
        ...(headers === undefined ? {} : { headers }),
      })
      record(method, route, response)
      return response
    },
    check(openapi) {
      const ajv = new Ajv({ strict: false, allErrors: true })
      addFormats.default(ajv)
      for (const [name, schema] of Object.entries(openapi.components.schemas)) {
        ajv.addSchema({ ...schema, $id: `#/components/schemas/${name}` })
      }
      const validators = new Map<string, ValidateFunction>()
      for (const answer of seen) {
        const responses = openapi.paths[answer.route]?.[answer.method]?.responses
        expect(responses, `${answer.method} ${answer.route}`).toBeDefined()
        const spec = responses![String(answer.status)] as { content?: Record<string, { schema?: object }> } | undefined
        expect(spec, `${answer.method} ${answer.route} ${answer.status} is documented`).toBeDefined()
        const schema = spec!.content?.['application/json']?.schema ?? spec!.content?.['text/plain']?.schema
        if (schema === undefined) {
          continue
        }
        const key = JSON.stringify(schema)
        let validate = validators.get(key)
        if (validate === undefined) {
          validate = ajv.compile(schema)
          validators.set(key, validate)
        }
        const ok = validate(answer.body)
        expect(ok ? [] : validate.errors, `${answer.method} ${answer.route} ${answer.status}`).toEqual([])
      }
    },
  }
}
