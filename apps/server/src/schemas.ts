/**
 * The shared JSON schemas of the API (each with an `$id` the routes refer to as `Name#`): Fastify
 * serialises responses by them, and `@fastify/swagger` turns them into the components of the
 * OpenAPI 3 document at `/openapi.json`. A route's own request schemas (query string, parameters,
 * body) sit beside it in `routes/`, where the type provider reads them.
 */

/** A JSON schema (draft 7, as Fastify's ajv takes it). */
export type Schema = Readonly<Record<string, unknown>>

/** Longest query accepted, in characters (PubMed's own limit is about 4,000; test collections' long queries reach 10,000). */
export const MAX_QUERY_CHARS = 12_000

/** Largest page. */
export const MAX_PAGE_SIZE = 100

/** What a client session id looks like (the search page makes one per visitor; events carry it, never an address). */
export const SESSION_ID_PATTERN = '^[A-Za-z0-9_-]{8,64}$'

export const errorSchema: Schema = {
  $id: 'Error',
  type: 'object',
  description: 'Every error answer: a code (as in pubmatch errors) and a message for people.',
  required: ['code', 'message'],
  additionalProperties: false,
  properties: {
    code: { type: 'string', examples: ['QUERY_SYNTAX'] },
    message: { type: 'string' },
  },
} as const

/** Present on a record derived from a PMC full text's front matter (no PubMed citation in the corpus): the format it was read from. */
const DERIVED_FROM = { type: 'string', enum: ['jats', 'bioc'], description: 'set when the record was derived from a PMC full text (no PubMed citation in the corpus)' } as const

export const documentSchema: Schema = {
  $id: 'Document',
  type: 'object',
  description: 'The stored record of an article.',
  required: ['id', 'title', 'authors', 'authorCount', 'pubTypes', 'languages'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', description: 'PMID (or the collection id; the PMCID of a record derived from a full text that names no PMID)' },
    title: { type: 'string' },
    year: { type: 'integer' },
    journal: { type: 'string' },
    authors: { type: 'array', items: { type: 'string' }, description: 'The first three authors' },
    authorCount: { type: 'integer' },
    pubTypes: { type: 'array', items: { type: 'string' } },
    languages: { type: 'array', items: { type: 'string' } },
    abstract: { type: 'string' },
    pmcid: { type: 'string' },
    doi: { type: 'string' },
    derivedFrom: DERIVED_FROM,
  },
} as const

export const highlightedSchema: Schema = {
  $id: 'Highlighted',
  type: 'object',
  description: 'Text with the query words it contains: [start, end) UTF-16 offsets.',
  required: ['text', 'matches'],
  additionalProperties: false,
  properties: {
    text: { type: 'string' },
    matches: { type: 'array', items: { type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2 } },
  },
} as const

export const explanationSchema: Schema = {
  $id: 'Explanation',
  type: 'object',
  description: "A first-stage scorer's explanation tree: `value`, computed from `details` as `formula` says.",
  required: ['label', 'value', 'details'],
  additionalProperties: false,
  properties: {
    label: { type: 'string', description: 'idf, tf, a field, a query term, …' },
    value: { type: 'number' },
    formula: { type: 'string' },
    details: { type: 'array', items: { $ref: 'Explanation#' } },
  },
} as const

export const contributionSchema: Schema = {
  $id: 'Contribution',
  type: 'object',
  required: ['feature', 'value', 'contribution'],
  additionalProperties: false,
  properties: {
    feature: { type: 'string', description: 'Feature id (F1–F179, M1–M3)' },
    name: { type: 'string' },
    value: { type: 'number' },
    contribution: { type: 'number', description: "What the splits on it added to the model's score" },
  },
} as const

export const fallbackSchema: Schema = {
  $id: 'Fallback',
  type: 'object',
  description: 'The model left the query in first-stage order: a query-level feature is outside its training range.',
  required: ['feature', 'value', 'range'],
  additionalProperties: false,
  properties: {
    feature: { type: 'string' },
    value: { type: 'number' },
    range: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 },
  },
} as const

/** What a result shows of a document: highlighted title and snippet, and the stored record's metadata. */
const RESULT_RECORD_PROPERTIES = {
  title: { $ref: 'Highlighted#' },
  snippet: { $ref: 'Highlighted#' },
  journal: { type: 'string' },
  year: { type: 'integer' },
  authors: { type: 'array', items: { type: 'string' } },
  authorCount: { type: 'integer' },
  pubTypes: { type: 'array', items: { type: 'string' } },
  pmcid: { type: 'string' },
  doi: { type: 'string' },
  derivedFrom: DERIVED_FROM,
} as const

export const hitSchema: Schema = {
  $id: 'Hit',
  type: 'object',
  required: ['pmid', 'rank', 'score', 'title', 'authors', 'authorCount', 'pubTypes', 'snippet', 'firstStage'],
  additionalProperties: false,
  properties: {
    pmid: { type: 'string' },
    rank: { type: 'integer', minimum: 1 },
    score: { type: 'number' },
    ...RESULT_RECORD_PROPERTIES,
    firstStage: {
      type: 'object',
      required: ['score'],
      additionalProperties: false,
      properties: {
        score: { type: 'number' },
        rank: { type: 'integer', description: 'Absent for an article the citation sensor shows first that the query itself does not match' },
        explain: { $ref: 'Explanation#' },
      },
    },
    secondStage: {
      type: 'object',
      required: ['score'],
      additionalProperties: false,
      properties: {
        score: { type: 'number' },
        bias: { type: 'number' },
        contributions: { type: 'array', items: { $ref: 'Contribution#' } },
      },
    },
  },
} as const

/** Facet counts: a value and the matching documents that have it. */
const FACET_COUNTS = {
  type: 'array',
  items: {
    type: 'object',
    required: ['value', 'count'],
    additionalProperties: false,
    properties: { value: { type: 'string' }, count: { type: 'integer', minimum: 1 } },
  },
} as const

export const searchResponseSchema: Schema = {
  $id: 'SearchResponse',
  type: 'object',
  required: ['query', 'total', 'totalRelation', 'page', 'size', 'sort', 'reranked', 'results', 'warnings', 'tookMs', 'generation'],
  additionalProperties: false,
  properties: {
    query: { type: 'string' },
    total: { type: 'integer' },
    totalRelation: { type: 'string', enum: ['eq', 'gte'] },
    page: { type: 'integer' },
    size: { type: 'integer' },
    sort: { type: 'string', enum: ['relevance', 'date'] },
    reranked: { type: 'boolean', description: 'The model reordered the top candidates' },
    fallback: { $ref: 'Fallback#' },
    model: { type: 'string', description: 'The loaded model id' },
    generation: { type: 'integer', description: 'The index generation searched' },
    searchId: { type: 'string', description: 'With a session: the logged search, for click events' },
    fulltext: { type: 'string', description: 'The full-text strategy that ranked the results' },
    prf: {
      type: 'array',
      description: 'With prf: the expanded query’s heaviest terms',
      items: {
        type: 'object',
        required: ['term', 'weight'],
        additionalProperties: false,
        properties: { term: { type: 'string' }, weight: { type: 'number' } },
      },
    },
    searchDetails: {
      type: 'object',
      description: 'With automatic term mapping (serve --term-mapping): the query as searched, in PubMed syntax, and the runs of words that mapped',
      required: ['query', 'mappings'],
      additionalProperties: false,
      properties: {
        query: { type: 'string' },
        mappings: {
          type: 'array',
          items: {
            type: 'object',
            required: ['text', 'kind', 'to'],
            additionalProperties: false,
            properties: { text: { type: 'string' }, kind: { type: 'string', enum: ['mesh', 'journal'] }, to: { type: 'array', items: { type: 'string' } } },
          },
        },
      },
    },
    citationMatch: {
      type: 'object',
      description: 'The citation sensor recognised the query as a citation of this article, shown first: how it was named and the parts that matched',
      required: ['pmid', 'form', 'matched'],
      additionalProperties: false,
      properties: {
        pmid: { type: 'string' },
        form: { type: 'string', enum: ['title', 'citation'] },
        matched: {
          type: 'object',
          additionalProperties: false,
          properties: Object.fromEntries(['title', 'journal', 'year', 'volume', 'issue', 'page', 'author'].map((part) => [part, { type: 'string' }])),
        },
      },
    },
    facets: {
      type: 'object',
      description: 'With facets: counts over every matching document (years newest first; publication types and languages by count)',
      required: ['years', 'publicationTypes', 'languages'],
      additionalProperties: false,
      properties: { years: FACET_COUNTS, publicationTypes: FACET_COUNTS, languages: FACET_COUNTS },
    },
    results: { type: 'array', items: { $ref: 'Hit#' } },
    warnings: {
      type: 'array',
      items: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } },
    },
    tookMs: { type: 'number' },
  },
} as const

export const explainResponseSchema: Schema = {
  $id: 'ExplainResponse',
  type: 'object',
  required: ['pmid', 'query', 'matches', 'document'],
  additionalProperties: false,
  properties: {
    pmid: { type: 'string' },
    query: { type: 'string' },
    matches: { type: 'boolean' },
    firstStage: {
      type: 'object',
      required: ['score'],
      additionalProperties: false,
      properties: { rank: { type: 'integer' }, score: { type: 'number' }, explain: { $ref: 'Explanation#' } },
    },
    secondStage: {
      type: 'object',
      required: ['rank', 'score', 'bias', 'contributions'],
      additionalProperties: false,
      properties: {
        rank: { type: 'integer' },
        score: { type: 'number' },
        bias: { type: 'number' },
        contributions: { type: 'array', items: { $ref: 'Contribution#' } },
      },
    },
    fallback: { $ref: 'Fallback#' },
    document: { $ref: 'Document#' },
  },
} as const

export const healthSchema: Schema = {
  $id: 'Health',
  type: 'object',
  required: ['status', 'generation', 'documents', 'firstStage'],
  additionalProperties: false,
  properties: {
    status: { type: 'string', enum: ['ok'] },
    generation: { type: 'integer' },
    documents: { type: 'integer' },
    index: { type: 'string' },
    backend: { type: 'string', description: 'A Solr-only engine: the collection it serves (solr://…)' },
    firstStage: { type: 'string', description: 'ranker, analyzer and field set' },
    model: { type: 'string' },
    modelDir: { type: 'string' },
  },
} as const

export const sessionDocumentSchema: Schema = {
  $id: 'SessionDocument',
  type: 'object',
  required: ['pmid', 'rank', 'title', 'snippet', 'authors', 'authorCount', 'pubTypes'],
  additionalProperties: false,
  properties: {
    pmid: { type: 'string' },
    rank: { type: 'integer', minimum: 1, description: 'Rank among the candidates not shown before' },
    score: { type: 'number' },
    ...RESULT_RECORD_PROPERTIES,
  },
} as const

export const sessionStateSchema: Schema = {
  $id: 'SessionState',
  type: 'object',
  required: ['id', 'query', 'round', 'shown', 'candidates', 'next', 'terms'],
  additionalProperties: false,
  properties: {
    id: { type: 'string' },
    query: { type: 'string' },
    mode: { type: 'string', enum: ['local', 'metasearch'] },
    round: { type: 'integer', description: 'Rounds graded so far' },
    shown: { type: 'integer', description: 'Documents shown so far' },
    candidates: { type: 'integer', description: 'Documents the session re-ranks' },
    total: { type: 'integer', description: 'Local mode: documents the first stage matched' },
    metasearch: {
      type: 'object',
      additionalProperties: false,
      properties: {
        remoteQuery: { type: 'string' },
        expandedQuery: { type: 'string' },
        expansionWords: { type: 'array', items: { type: 'string' } },
        matched: { type: 'integer' },
        kept: { type: 'integer' },
        added: { type: 'integer' },
      },
    },
    next: { type: 'array', items: { $ref: 'SessionDocument#' }, description: 'The next documents to grade' },
    terms: {
      type: 'array',
      description: "The query vector's heaviest terms",
      items: {
        type: 'object',
        required: ['term', 'weight'],
        additionalProperties: false,
        properties: { term: { type: 'string' }, weight: { type: 'number' } },
      },
    },
  },
} as const
