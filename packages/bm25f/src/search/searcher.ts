/**
 * `createSearcher(reader, defaults)`: the first-stage ranker over an open index.
 */
import { getAnalyzer, type Analyzer } from '@pubmatch/analysis'
import { PubmatchError, truncateForMessage } from '@pubmatch/core'
import type { IndexReader } from '@pubmatch/index'
import { NO_MORE_DOCS, normalizeKeyword, PUBMED_TAG_FIELDS, PUBMED_TAG_ONLY_FIELDS } from '@pubmatch/index/internal'
import type { QueryNode } from '../query/ast.ts'
import { parseQuery } from '../query/parse.ts'
import {
  createScorerFromConfig,
  SCORER_NAMES,
  type Scorer,
  type ScorerConfig,
  type ScorerName,
} from '../scoring/scorer.ts'
import type { CollectionStats, TermStats } from '../scoring/stats.ts'
import type { PreparedQuery } from '../scoring/term-scorer.ts'
import { allFieldsOf, compileQuery, filterPlan, type CompileContext } from './compile.ts'
import { mapQueryTerms } from '../query/term-mapping.ts'
import { QUESTION_STOPWORDS } from './question-stopwords.ts'
import { QueryAnalysisCache } from './query-analysis-cache.ts'
import { LengthRangeMin } from './length-bounds.ts'
import { TermAtATimeScratch } from './term-at-a-time.ts'
import { andPlan, planCoverage, type ClauseSpec, type MatchPlan } from './plan.ts'
import {
  checkDeadline,
  openClauses,
  planIterator,
  runTopK,
  unionDocs,
  type TopKOutput,
} from './top-k.ts'
import type {
  Candidate,
  FirstStageRanker,
  MatchMode,
  SearchOptions,
  SearchResult,
  SearchStats,
  SearchWarning,
  TieBreak,
} from './types.ts'

/**
 * The default first-stage scorer: Robertson–Zaragoza BM25F with its standard parameters (k1 1.2,
 * b 0.75, Lucene idf) and the Best Match field weights (title 5, MeSH 5, others 1). Chosen on
 * NFCorpus train (README "Search"): best of the six scorers; the Best Match S1 formula as written
 * ranks far worse, and no tuned parameters were significantly better.
 */
export const DEFAULT_RANKER: ScorerConfig = Object.freeze({ name: 'bm25f' })

/** How many hits a search returns unless told otherwise: Best Match's reranking depth. */
export const DEFAULT_LIMIT = 500

/** The most index terms a truncated word expands to (PubMed's limit). */
export const DEFAULT_MAX_EXPANSIONS = 600

function invalid(message: string, details: Record<string, unknown> = {}): PubmatchError {
  return new PubmatchError('INVALID_ARGUMENT', `${message}`, { details })
}

function checkCount(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) {
    throw invalid(`${name} must be an integer ≥ ${min}, got ${truncateForMessage(String(value))}`)
  }
  return value
}

function resolveRanker(ranker: ScorerName | ScorerConfig | undefined): ScorerConfig {
  if (ranker === undefined) {
    return DEFAULT_RANKER
  }
  if (typeof ranker === 'string') {
    if (!(SCORER_NAMES as readonly string[]).includes(ranker)) {
      throw invalid(
        `unknown ranker "${truncateForMessage(ranker)}" (expected one of ${SCORER_NAMES.join(', ')})`,
      )
    }
    return { name: ranker }
  }
  return ranker
}

function checkFields(
  reader: IndexReader,
  option: string,
  fields: readonly string[],
): readonly string[] {
  for (const field of fields) {
    if (!reader.hasField(field)) {
      throw new PubmatchError(
        'UNKNOWN_FIELD',
        `${option} names "${truncateForMessage(field)}", which is not a field of the index (${truncateForMessage(reader.schema.fields.map((f) => f.name).join(', '))})`,
        { details: { field } },
      )
    }
  }
  return fields
}

/** The query as a tree, and the parser's warnings. */
function readQuery(
  query: string | QueryNode,
  options: SearchOptions,
  warnings: SearchWarning[],
): QueryNode {
  if (typeof query !== 'string') {
    return query
  }
  if (query.trim() === '') {
    throw invalid('the query is empty', { problem: 'EMPTY_QUERY' })
  }
  if (options.syntax === 'plain') {
    const text = query.replace(/\*/g, ' ').trim().replace(/\s+/g, ' ')
    if (text === '') {
      throw invalid(`the query "${truncateForMessage(query)}" has no words`, {
        problem: 'EMPTY_QUERY',
      })
    }
    return { kind: 'term', text, quoted: false, field: null, noExplode: false, wildcard: false }
  }
  return parseQuery(query, {
    ...options.parse,
    onWarning: (warning) =>
      warnings.push({ code: 'QUERY_SYNTAX', message: warning.message, problem: warning.problem }),
  })
}

/** How many lists of default fields a searcher remembers `[all]`'s fields for. */
const ALL_FIELDS_CACHE_SIZE = 64

/** How many clause document frequencies a searcher remembers (n(t) over several fields scans postings). */
const DOC_FREQ_CACHE_SIZE = 50_000

/** A clause's n(t) and total term frequency in the index. */
interface ClauseCounts {
  readonly docFreq: number
  readonly totalTermFreq: number
}

/** n(t) of a clause: documents holding any of its terms in any of its fields. */
function clauseStats(
  reader: IndexReader,
  clause: ClauseSpec,
  cache: Map<string, ClauseCounts>,
): TermStats {
  let key = ''
  for (let i = 0; i < clause.terms.length; i++) {
    const t = clause.terms[i]!
    key += i === 0 ? `${t.field}\u0000${t.term}` : `\u0001${t.field}\u0000${t.term}`
  }
  let counts = cache.get(key)
  if (counts === undefined) {
    let docFreq: number
    const distinct = new Set(clause.terms.map((t) => t.term))
    if (distinct.size === 1) {
      const [term] = distinct
      docFreq = reader.docFreqAny(term!, [...new Set(clause.terms.map((t) => t.field))])
    } else {
      docFreq = unionDocs(reader, clause.terms).length
    }
    let totalTermFreq = 0
    for (const { field, term } of clause.terms) {
      totalTermFreq += reader.totalTermFreq(field, term)
    }
    if (cache.size >= DOC_FREQ_CACHE_SIZE) {
      cache.delete(cache.keys().next().value!)
    }
    counts = { docFreq: Math.min(docFreq, reader.docCount), totalTermFreq }
    cache.set(key, counts)
  }
  return { docFreq: counts.docFreq, totalTermFreq: counts.totalTermFreq, text: clause.label }
}

/** The checked settings of one search. */
interface SearchSettings {
  readonly limit: number
  readonly maxExpansions: number
  readonly match: MatchMode
  readonly tieBreak: TieBreak
  readonly scorer: Scorer
}

/** Fills in and checks the options that do not depend on the index (`INVALID_ARGUMENT`). */
function searchSettings(
  options: SearchOptions,
  scorerOf: (ranker: ScorerName | ScorerConfig | undefined) => Scorer,
): SearchSettings {
  const limit = checkCount('limit', options.limit ?? DEFAULT_LIMIT, 0)
  const maxExpansions = checkCount(
    'maxExpansions',
    options.maxExpansions ?? DEFAULT_MAX_EXPANSIONS,
    1,
  )
  const match = options.match ?? 'all'
  if (match !== 'all' && match !== 'any') {
    throw invalid(`match must be "all" or "any", got ${truncateForMessage(String(match))}`)
  }
  const tieBreak = options.tieBreak ?? 'docNumber'
  if (tieBreak !== 'docNumber' && tieBreak !== 'idDescending') {
    throw invalid(
      `tieBreak must be "docNumber" or "idDescending", got ${truncateForMessage(String(tieBreak))}`,
    )
  }
  const scorer = scorerOf(options.ranker)
  return { limit, maxExpansions, match, tieBreak, scorer }
}

const NO_STOPWORDS: ReadonlySet<string> = new Set()
/** The sets of the frozen stop-word lists searches were given (`QUESTION_STOPWORDS`, constants). */
const stopwordSets = new WeakMap<readonly string[], ReadonlySet<string>>()

/** A stop-word list as a set, made once per frozen list (a list that can change is read each time). */
function stopwordSet(words: readonly string[] | false): ReadonlySet<string> {
  if (words === false) {
    return NO_STOPWORDS
  }
  if (!Object.isFrozen(words)) {
    return new Set(words)
  }
  let set = stopwordSets.get(words)
  if (set === undefined) {
    set = new Set(words)
    stopwordSets.set(words, set)
  }
  return set
}
const TAG_ONLY: ReadonlySet<string> = new Set(PUBMED_TAG_ONLY_FIELDS)

/** What the query compiler needs: the fields (checked against the index), analyzer, stop words. */
function compileContext(
  reader: IndexReader,
  options: SearchOptions,
  settings: SearchSettings,
  warnings: SearchWarning[],
  fields: {
    readonly general: readonly string[]
    readonly text: readonly string[]
    /** `allFieldsOf` the default fields (a searcher's cache). */
    readonly all: (defaultFields: readonly string[]) => readonly string[]
  },
  analysis: QueryAnalysisCache,
): CompileContext {
  // the PubMed fields only a tag searches are neither default nor scored fields
  const scoredFields =
    options.scoredFields === undefined
      ? fields.text
      : checkFields(reader, 'scoredFields', options.scoredFields)
  const defaultFields =
    options.defaultFields === undefined
      ? fields.general
      : checkFields(reader, 'defaultFields', options.defaultFields)
  let queryAnalyzer: Analyzer | undefined
  if (typeof options.queryAnalyzer === 'string') {
    queryAnalyzer = getAnalyzer(options.queryAnalyzer)
  } else {
    queryAnalyzer = options.queryAnalyzer
  }
  let allFields: readonly string[] | undefined
  return {
    reader,
    match: settings.match,
    scoredFields,
    defaultFields,
    // only [all] asks for them
    get allFields(): readonly string[] {
      return (allFields ??= fields.all(defaultFields))
    },
    tagFields:
      options.tagFields === undefined ? PUBMED_TAG_FIELDS : { ...PUBMED_TAG_FIELDS, ...options.tagFields },
    queryAnalyzer,
    mesh: options.mesh,
    queryStopwords: stopwordSet(
      options.queryStopwords ?? (options.syntax === 'plain' ? QUESTION_STOPWORDS : false),
    ),
    joinedForms: options.joinedForms ?? false,
    maxExpansions: settings.maxExpansions,
    now: options.now ?? new Date(),
    warn: (warning) => warnings.push(warning),
    analyze: (analyzer, text) => analysis.analyze(analyzer, text),
  }
}

/**
 * Whether an `[au]` field of the index holds `text` as an author, exactly as `text[au]` searches
 * it (so that the mapped term finds what it names).
 */
function hasAuthor(ctx: CompileContext, text: string): boolean {
  const key = normalizeKeyword(text)
  const fields = (Object.hasOwn(ctx.tagFields, 'au') ? ctx.tagFields['au']! : []).filter((field) => ctx.reader.hasField(field))
  for (const field of fields) {
    // the term itself sorts first among the terms it prefixes
    const first = ctx.reader.terms(field, key)[Symbol.iterator]().next()
    if (first.done !== true && first.value.term === key) {
      return true
    }
  }
  return false
}

/** Whether the index has a field for a PubMed tag. */
function answersTag(ctx: CompileContext, tag: string): boolean {
  const fields = Object.hasOwn(ctx.tagFields, tag) ? ctx.tagFields[tag]! : []
  return fields.some((field) => ctx.reader.hasField(field))
}

/** The search's statistics; no loop output when nothing was searched. */
function searchStats(out: TopKOutput | null, clauses: number, pruned: boolean): SearchStats {
  return {
    docsScored: out?.docsScored ?? 0,
    postingsScored: out?.postingsScored ?? 0,
    docsMatched: out?.docsMatched ?? 0,
    windows: out?.windows ?? 0,
    blocksSkipped: out?.blocksSkipped ?? 0,
    clauses,
    pruned,
    strategy: out?.strategy ?? 'none',
  }
}

/**
 * Counts every document of the plan (when the pruned loop skipped some); checks the deadline
 * every 4,096 documents.
 */
function countMatches(
  reader: IndexReader,
  plan: MatchPlan,
  unions: Map<MatchPlan, Int32Array>,
  deadline: number | undefined,
): number {
  const limit = deadline === undefined ? undefined : { at: deadline }
  const leaves = disjunctionLeaves(plan)
  if (leaves !== undefined) {
    return countDisjunction(reader, leaves, unions, limit)
  }
  const all = planIterator(plan, reader, unions)
  let total = 0
  for (let d = all.advance(0); d !== NO_MORE_DOCS; d = all.advance(d + 1)) {
    if ((++total & 4095) === 0) {
      checkDeadline(limit)
    }
  }
  return total
}

/** The term leaves of a plan that is their union (`or` of terms, unions of terms, nothing), else `undefined`. */
function disjunctionLeaves(plan: MatchPlan): MatchPlan[] | undefined {
  const leaves: MatchPlan[] = []
  const collect = (node: MatchPlan): boolean => {
    switch (node.kind) {
      case 'or':
        return node.children.every(collect)
      case 'term':
      case 'terms':
        leaves.push(node)
        return true
      case 'none':
        return true
      default:
        return false
    }
  }
  return collect(plan) ? leaves : undefined
}

/**
 * The size of the union of term leaves, exactly what walking their `or` iterator counts: each
 * posting list read once in bulk (live documents only, as the iterator sees them), its documents
 * marked in one byte per document. Checks the deadline after each block.
 */
function countDisjunction(
  reader: IndexReader,
  leaves: readonly MatchPlan[],
  unions: Map<MatchPlan, Int32Array>,
  limit: { readonly at: number } | undefined,
): number {
  const seen = new Uint8Array(reader.maxDoc)
  const docs = new Int32Array(128)
  const freqs = new Int32Array(128)
  let total = 0
  for (const leaf of leaves) {
    if (leaf.kind === 'term') {
      const cursor = reader.postings(leaf.field, leaf.term)
      if (cursor === null) {
        continue
      }
      for (let n = cursor.nextDocs(docs, freqs); n > 0; n = cursor.nextDocs(docs, freqs)) {
        for (let i = 0; i < n; i++) {
          const d = docs[i]!
          total += 1 - seen[d]!
          seen[d] = 1
        }
        checkDeadline(limit)
      }
    } else if (leaf.kind === 'terms') {
      let union = unions.get(leaf)
      if (union === undefined) {
        union = unionDocs(
          reader,
          leaf.terms.map((term) => ({ field: leaf.field, term })),
        )
        unions.set(leaf, union)
      }
      for (const d of union) {
        total += 1 - seen[d]!
        seen[d] = 1
      }
      checkDeadline(limit)
    }
  }
  return total
}

class Searcher implements FirstStageRanker {
  private readonly reader: IndexReader
  private readonly defaults: SearchOptions
  private readonly rangeMinCache = new Map<string, LengthRangeMin>()
  /** n(t) and total term frequency per clause postings (the reader is a fixed point in time, so they never change). */
  private readonly docFreqCache = new Map<string, ClauseCounts>()
  /** Scorers by ranker option (a name, or a configuration object), made once each. */
  private readonly scorers = new Map<ScorerName | undefined, Scorer>()
  private readonly configScorers = new WeakMap<ScorerConfig, Scorer>()
  /** Frozen collection statistics per scored field list (so the scorers keep what they derive). */
  private readonly collections = new Map<string, CollectionStats>()
  /** The schema's fields that a tag alone searches are left out of; text fields among them. */
  private readonly generalFields: readonly string[]
  private readonly textFields: readonly string[]
  /** `[all]`'s fields per list of default fields. */
  private readonly allFieldsCache = new Map<string, readonly string[]>()
  /** Query texts analysed by built-in analyzers (bounded; see `QueryAnalysisCache`). */
  private readonly analysis = new QueryAnalysisCache()
  /** The term-at-a-time loop's per-document arrays, made on its first search. */
  private scratch: TermAtATimeScratch | null = null

  constructor(reader: IndexReader, defaults: SearchOptions) {
    this.reader = reader
    this.defaults = defaults
    const general = reader.schema.fields.filter((f) => !TAG_ONLY.has(f.name))
    this.generalFields = general.map((f) => f.name)
    this.textFields = general.filter((f) => !f.keyword).map((f) => f.name)
  }

  /** What `[all]` searches for a list of default fields (`allFieldsOf`), made once per list. */
  private allFieldsOf(defaultFields: readonly string[]): readonly string[] {
    const key = defaultFields.join('\u0000')
    let fields = this.allFieldsCache.get(key)
    if (fields === undefined) {
      fields = Object.freeze(allFieldsOf(defaultFields, this.reader.schema.fields.map((f) => f.name)))
      if (this.allFieldsCache.size >= ALL_FIELDS_CACHE_SIZE) {
        this.allFieldsCache.delete(this.allFieldsCache.keys().next().value!)
      }
      this.allFieldsCache.set(key, fields)
    }
    return fields
  }

  /** The scorer of a ranker option, made once per name or configuration object. */
  private scorerOf(ranker: ScorerName | ScorerConfig | undefined): Scorer {
    if (ranker !== undefined && typeof ranker !== 'string') {
      let scorer = this.configScorers.get(ranker)
      if (scorer === undefined) {
        scorer = createScorerFromConfig(resolveRanker(ranker))
        // a configuration that can change is read each time
        if (Object.isFrozen(ranker) && (ranker.params === undefined || Object.isFrozen(ranker.params))) {
          this.configScorers.set(ranker, scorer)
        }
      }
      return scorer
    }
    let scorer = this.scorers.get(ranker)
    if (scorer === undefined) {
      scorer = createScorerFromConfig(resolveRanker(ranker))
      this.scorers.set(ranker, scorer)
    }
    return scorer
  }

  search(query: string | QueryNode, overrides: SearchOptions = {}): SearchResult {
    const options: SearchOptions = { ...this.defaults, ...overrides }
    const reader = this.reader
    const warnings: SearchWarning[] = []
    const settings = searchSettings(options, (ranker) => this.scorerOf(ranker))
    const read = readQuery(query, options, warnings)
    const ctx = compileContext(
      reader,
      options,
      settings,
      warnings,
      { general: this.generalFields, text: this.textFields, all: (defaults) => this.allFieldsOf(defaults) },
      this.analysis,
    )
    // automatic term mapping of a query given as text (a tree is searched as given)
    const mapped =
      options.termMapping === undefined || typeof query !== 'string'
        ? undefined
        : mapQueryTerms(read, { author: (text) => hasAuthor(ctx, text), ...options.termMapping }, {
            combine: settings.match === 'all' ? 'and' : 'or',
            meshTag: answersTag(ctx, 'mh'),
            journalTag: answersTag(ctx, 'ta'),
            authorTag: answersTag(ctx, 'au'),
          })
    const node = mapped?.query ?? read
    const mappings = mapped === undefined ? {} : { mappings: mapped.mappings }
    const { scoredFields } = ctx
    const compiled = compileQuery(node, ctx)
    const plan: MatchPlan =
      options.filters === undefined
        ? compiled.plan
        : andPlan([compiled.plan, filterPlan(ctx, options.filters)])
    const pruning = options.pruning ?? true
    const clauseCount = compiled.clauses.length
    if (compiled.ignored) {
      warnings.push({ code: 'EMPTY_QUERY', message: 'nothing searchable is left of the query' })
    }
    if (compiled.ignored || reader.docCount === 0 || plan.kind === 'none') {
      const stats = searchStats(null, clauseCount, pruning)
      return { hits: [], total: 0, totalRelation: 'eq', query: node, ...mappings, warnings, stats }
    }

    const prepared =
      clauseCount > 0 ? this.prepareQuery(settings.scorer, compiled.clauses, scoredFields) : null
    const unions = new Map<MatchPlan, Int32Array>()
    const exactTotal = options.exactTotal ?? settings.match === 'all'
    const out = runTopK({
      reader,
      plan,
      coverage: planCoverage(
        plan,
        compiled.clauses.flatMap((clause) => clause.terms),
      ),
      clauses: compiled.clauses,
      prepared,
      scoredFields,
      separable: settings.scorer.name === 'bm25f',
      rangeMins: () => scoredFields.map((field) => this.rangeMin(field)),
      limit: settings.limit,
      pruning,
      tieBreak: settings.tieBreak,
      unions,
      termAtATime: () => (this.scratch ??= new TermAtATimeScratch(reader.maxDoc)),
      exactTotal,
      ...(options.deadline === undefined ? {} : { deadline: { at: options.deadline } }),
    })

    let total = out.docsMatched
    let totalRelation: 'eq' | 'gte' = out.visitedAll ? 'eq' : 'gte'
    if (!out.visitedAll && exactTotal) {
      total = countMatches(reader, plan, unions, options.deadline)
      totalRelation = 'eq'
    }

    const hits: Candidate[] = new Array<Candidate>(out.docs.length)
    for (let i = 0; i < hits.length; i++) {
      const doc = out.docs[i]!
      hits[i] = { id: reader.externalId(doc), docNumber: doc, score: out.scores[i]!, rank: i + 1 }
    }
    if (options.explain === true && prepared !== null) {
      this.explain(hits, compiled.clauses, prepared, scoredFields)
    }
    const stats = searchStats(out, clauseCount, pruning)
    return { hits, total, totalRelation, query: node, ...mappings, warnings, stats }
  }

  /** The scorer's prepared query over the clauses' statistics in this index. */
  private prepareQuery(
    scorer: Scorer,
    clauses: readonly ClauseSpec[],
    scoredFields: readonly string[],
  ): PreparedQuery {
    const reader = this.reader
    const key = scoredFields.join('\u0000')
    let collection = this.collections.get(key)
    if (collection === undefined) {
      collection = Object.freeze({
        docCount: reader.docCount,
        fields: Object.freeze(
          scoredFields.map((name) =>
            Object.freeze({ name, totalLength: reader.fieldStats(name).sumLength }),
          ),
        ),
      })
      this.collections.set(key, collection)
    }
    return scorer.prepareQuery(
      collection,
      clauses.map((clause) => clauseStats(reader, clause, this.docFreqCache)),
    )
  }

  private rangeMin(field: string): LengthRangeMin {
    let mins = this.rangeMinCache.get(field)
    if (mins === undefined) {
      mins = new LengthRangeMin(this.reader.fieldLengths(field))
      this.rangeMinCache.set(field, mins)
    }
    return mins
  }

  /** Attaches each hit's explanation (the same scorer on the same tfs, so the same value). */
  private explain(
    hits: Candidate[],
    clauses: readonly ClauseSpec[],
    prepared: PreparedQuery,
    scoredFields: readonly string[],
  ): void {
    const reader = this.reader
    const runtimes = openClauses(reader, clauses, prepared, scoredFields)
    const zero = new Float64Array(scoredFields.length)
    const lengths = new Float64Array(scoredFields.length)
    const order = hits.map((_, i) => i).sort((a, b) => hits[a]!.docNumber - hits[b]!.docNumber)
    for (const i of order) {
      const hit = hits[i]!
      const doc = hit.docNumber
      scoredFields.forEach((field, f) => {
        lengths[f] = reader.fieldLength(field, doc)
      })
      const tfs: ArrayLike<number>[] = prepared.terms.map(() => zero)
      for (const clause of runtimes) {
        if (clause.advance(doc) === doc) {
          clause.fillTfs(doc)
          tfs[clause.index] = Float64Array.from(clause.tfs)
        }
      }
      const explained = prepared.explain(tfs, lengths)
      if (explained.value !== hit.score) {
        throw new PubmatchError(
          'INTERNAL',
          `the explanation of ${hit.id} gives ${explained.value}, the search ${hit.score}`,
        )
      }
      hits[i] = { ...hit, explain: explained.explain }
    }
  }
}

/**
 * Creates a first-stage ranker over an open index.
 * @param reader - the index (`openIndex(dir)`); the searcher reads it, never changes it
 * @param defaults - options every search starts from (see {@link SearchOptions}; each documents
 *   its default). Defaults to `{}`.
 */
export function createSearcher(
  reader: IndexReader,
  defaults: SearchOptions = {},
): FirstStageRanker {
  // Fail early on a bad default ranker.
  if (defaults.ranker !== undefined) {
    createScorerFromConfig(resolveRanker(defaults.ranker))
  }
  return new Searcher(reader, defaults)
}
