/* eslint-disable @typescript-eslint/require-await -- Fastify sends what an async handler returns */
/**
 * Screening projects (`@pubmatch/screen`) over HTTP, for the screening page: `GET
 * /screen/projects` lists them, `GET /screen/projects/:name/next` retrains on the decisions so
 * far and returns the next records, `POST /screen/projects/:name/decisions` logs decisions
 * (fsynced before the answer), `GET /screen/projects/:name/status` gives the counts and the
 * stopping aid, `GET /screen/projects/:name/export` the records as RIS or CSV with their history.
 * Each project is opened once and kept: this server is its one writer.
 */
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts'
import { abstractText, PubmatchError } from '@pubmatch/core'
import { openScreeningProject, type KneeStop, type ProjectStatus, type ScreeningProject } from '@pubmatch/screen'
import { ERROR_RESPONSES } from '../errors.ts'

/** What the screening routes need. */
export interface ScreenRoutesOptions {
  /** The folder of projects (one folder each). Defaults to none: the routes answer 404. */
  readonly dir: string | undefined
}

const projectParams = { type: 'object', required: ['name'], properties: { name: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$' } } } as const

const recordSchema = {
  type: 'object',
  required: ['id', 'rank', 'score', 'title', 'abstract'],
  properties: {
    id: { type: 'string' },
    rank: { type: 'integer' },
    score: { type: 'number' },
    title: { type: 'string' },
    abstract: { type: 'string' },
    year: { type: 'integer' },
    journal: { type: 'string' },
    mesh: { type: 'array', items: { type: 'string' } },
  },
} as const

const statusSchema = {
  type: 'object',
  required: ['name', 'candidates', 'screened', 'included', 'excluded', 'advice', 'knee'],
  properties: {
    name: { type: 'string' },
    candidates: { type: 'integer' },
    screened: { type: 'integer' },
    included: { type: 'integer' },
    excluded: { type: 'integer' },
    estimatedRecall: { type: 'number' },
    advice: { type: 'string', description: 'What the stopping aid says, with its risk (a heuristic, never a guarantee)' },
    knee: {
      type: 'object',
      properties: { knee: { type: 'integer' }, slopeRatio: { type: ['number', 'null'] }, target: { type: 'number' }, stop: { type: 'boolean' } },
    },
  },
} as const

const decisionsSchema = {
  type: 'object',
  required: ['decisions'],
  additionalProperties: false,
  properties: {
    decisions: {
      type: 'array',
      minItems: 1,
      maxItems: 500,
      items: {
        type: 'object',
        required: ['id', 'decision'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', minLength: 1, maxLength: 100 },
          decision: { type: 'string', enum: ['include', 'exclude'] },
          grade: { type: 'string', enum: ['relevant', 'highly-relevant'] },
          note: { type: 'string', maxLength: 2000 },
        },
      },
    },
  },
} as const

/** The screening routes. */
export const screenRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: ScreenRoutesOptions }> = async (app, { dir }) => {
  const open = new Map<string, Promise<ScreeningProject>>()
  const project = async (name: string): Promise<ScreeningProject> => {
    if (dir === undefined) {
      throw new PubmatchError('NOT_FOUND', 'this server keeps no screening projects (start it with a projects directory)')
    }
    let opening = open.get(name)
    if (opening === undefined) {
      opening = openScreeningProject(join(dir, name))
      open.set(name, opening)
      opening.catch(() => open.delete(name))
    }
    return opening
  }
  app.addHook('onClose', async () => {
    for (const opening of open.values()) {
      await opening.then((p) => p.close()).catch(() => undefined)
    }
  })
  const statusJson = (p: ScreeningProject): Omit<ProjectStatus, 'knee'> & { knee: Omit<KneeStop, 'slopeRatio'> & { slopeRatio: number | null } } => {
    const status = p.status()
    return { ...status, knee: { ...status.knee, slopeRatio: Number.isNaN(status.knee.slopeRatio) ? null : status.knee.slopeRatio } }
  }

  app.get(
    '/screen/projects',
    { schema: { tags: ['screen'], summary: 'The screening projects', response: { 200: { type: 'object', required: ['projects'], properties: { projects: { type: 'array', items: { type: 'string' } } } }, ...ERROR_RESPONSES } } },
    async () => ({ projects: dir === undefined ? [] : (await readdir(dir, { withFileTypes: true }).catch(() => [])).filter((e) => e.isDirectory()).map((e) => e.name).sort() }),
  )

  app.get(
    '/screen/projects/:name/next',
    {
      schema: {
        tags: ['screen'],
        summary: 'Retrain on every decision so far and return the undecided records most likely to be included',
        params: projectParams,
        querystring: { type: 'object', properties: { count: { type: 'integer', minimum: 1, maximum: 100, default: 10 } } },
        response: { 200: { type: 'object', required: ['records', 'status'], properties: { records: { type: 'array', items: recordSchema }, status: statusSchema } }, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const p = await project(request.params.name)
      const records = p.next(request.query.count).map((r) => ({
        id: r.article.id,
        rank: r.rank,
        score: r.score,
        title: r.article.title,
        abstract: abstractText(r.article),
        ...(r.article.pubDate?.year === undefined ? {} : { year: r.article.pubDate.year }),
        ...(r.article.journal?.title === undefined ? {} : { journal: r.article.journal.title }),
        mesh: r.article.mesh.map((m) => m.descriptorName),
      }))
      return { records, status: statusJson(p) }
    },
  )

  app.post(
    '/screen/projects/:name/decisions',
    {
      schema: {
        tags: ['screen'],
        summary: 'Log decisions (include, exclude, with an optional grade); answered after they are fsynced',
        params: projectParams,
        body: decisionsSchema,
        response: { 200: statusSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const p = await project(request.params.name)
      await p.decide(request.body.decisions)
      return statusJson(p)
    },
  )

  app.get(
    '/screen/projects/:name/status',
    { schema: { tags: ['screen'], summary: 'Decisions so far and the stopping aid', params: projectParams, response: { 200: statusSchema, ...ERROR_RESPONSES } } },
    async (request) => statusJson(await project(request.params.name)),
  )

  app.get(
    '/screen/projects/:name/export',
    {
      schema: {
        tags: ['screen'],
        summary: 'The included, excluded or decided records as RIS or CSV, with their decision history',
        params: projectParams,
        querystring: {
          type: 'object',
          properties: { format: { type: 'string', enum: ['ris', 'csv'], default: 'ris' }, which: { type: 'string', enum: ['included', 'excluded', 'decided'], default: 'included' } },
        },
      },
    },
    async (request, reply) => {
      const p = await project(request.params.name)
      const { format, which } = request.query
      void reply.header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-research-info-systems; charset=utf-8')
      void reply.header('content-disposition', `attachment; filename="${p.name}-${which}.${format}"`)
      return p.exportRecords(format, which)
    },
  )
}
