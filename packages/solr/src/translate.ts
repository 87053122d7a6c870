/**
 * PubMed query syntax → Solr, from pubmatch's query tree, with the embedded first stage's
 * semantics: the Boolean tree decides which documents match (a non-scoring `filter`), and the
 * words of the positive terms score with BM25F (the `bm25f` query parser, one clause per set of
 * fields). Every sub-query is a parameter of its own (`$p3`), so no user text is ever spliced
 * into query syntax and nothing needs escaping.
 *
 * Per node: a bare run of words → each word in any default field (`match: 'all'`) or any word
 * (`any`); a quoted or tagged run → a phrase per text field (`{!field}`); keyword fields
 * (`[au]`, `[pt]`, `[ta]`, …) → the `normalizeKeyword` value (`{!term}`), trailing `*` as a
 * prefix; `[mh]`/`[majr]` → the heading and the descriptors the MeSH vocabulary maps it to,
 * exploded unless `:noexp` (`{!terms}`); `[dp]` and ranges → `pubdate` ranges; `[pmid]` → ids;
 * proximity → sloppy phrases; AND/OR/NOT → `{!bool}`.
 */
import { isJoinedToken, type Analyzer } from '@pubmatch/analysis'
import {
  QUESTION_STOPWORDS,
  parseQuery,
  type MatchMode,
  type ParseQueryOptions,
  type QueryNode,
  type QuerySyntax,
  type SearchFilters,
  type SearchMeshLookup,
  type SearchWarning,
  type TermNode,
} from '@pubmatch/bm25f'
import {
  BEST_MATCH_FIELD_WEIGHTS,
  NOT_IN_ALL_FIELDS,
  TAG_SCORE_FIELDS,
  dateLowerBound,
  dateTermBounds,
  dateUpperBound,
  isDateField,
  resolveMeshTerm,
  subheadingValues,
} from '@pubmatch/bm25f/internal'
import { PubmatchError, truncateForMessage } from '@pubmatch/core'
import {
  PUBMED_DATE_DOC_VALUES,
  PUBMED_FILTERS,
  PUBMED_TAG_FIELDS,
  PUBMED_TAG_ONLY_FIELDS,
  lookupPubmedFilter,
  normalizeKeyword,
} from '@pubmatch/index/internal'
import type { SolrFields } from './configset.ts'

/** Options of {@link translateQuery}. */
export interface TranslateOptions {
  /** The collection's fields (`solrFields(fieldSet)`). */
  readonly fields: SolrFields
  /** The pubmatch analyzer of the text fields: decides which words are stop words only. */
  readonly analyzer: Analyzer
  /** BM25F field weights (each ≥ 1, or 0 to leave a field unscored). Defaults to the Best Match weights (title and MeSH 5). */
  readonly fieldWeights?: Readonly<Record<string, number>>
  /** Weight of the scored fields `fieldWeights` does not name. Defaults to `1`. */
  readonly defaultFieldWeight?: number
  /** BM25's b per field (the `bm25f` parser's `fb`), over the schema's b. Defaults to none. */
  readonly fieldB?: Readonly<Record<string, number>>
  /**
   * The `bm25f` parser's model: `bm25f` (default; Robertson–Zaragoza BM25F as pubmatch's embedded
   * first stage, with global statistics for every field) or `combined` (Lucene's
   * CombinedFieldQuery: one length normalisation over the weighted fields).
   */
  readonly scoring?: 'bm25f' | 'combined'
  /** Defaults to `all` (PubMed). */
  readonly match?: MatchMode
  /** Defaults to `pubmed`. */
  readonly syntax?: QuerySyntax
  readonly parse?: Omit<ParseQueryOptions, 'onWarning'>
  /** The MeSH vocabulary for `[mh]` mapping and explosion. */
  readonly mesh?: SearchMeshLookup
  /** As the embedded searcher's (`QUESTION_STOPWORDS` for plain syntax). */
  readonly queryStopwords?: readonly string[] | false
  /** Solr fields per PubMed tag, over `PUBMED_TAG_FIELDS`. */
  readonly tagFields?: Readonly<Record<string, readonly string[]>>
  readonly filters?: SearchFilters
  /** "Now" for relative dates. Defaults to the current time. */
  readonly now?: Date
}

/** A translated query: the request parameters and what was parsed. */
export interface SolrQuery {
  /** `q`, `fq` and the sub-query parameters they refer to. */
  readonly params: Readonly<Record<string, string | readonly string[]>>
  /** The parsed tree. */
  readonly query: QueryNode
  readonly warnings: readonly SearchWarning[]
  /** Whether nothing searchable is left (no request needs to be sent). */
  readonly empty: boolean
}

/** The tag-only fields: searched by their tags only, never scored (as the embedded searcher). */
const TAG_ONLY: ReadonlySet<string> = new Set(PUBMED_TAG_ONLY_FIELDS)
/** Tags of names in `[au]` form and in full form (PubMed's automatic truncation, see `compile.ts`). */
const PERSON_TAGS: ReadonlySet<string> = new Set(['au', '1au', 'lastau', 'ir', 'ed', 'ps'])
const FULL_NAME_TAGS: ReadonlySet<string> = new Set(['fau', 'fir'])
const FILTER_NAMES = PUBMED_FILTERS.map((filter) => filter.value).join(', ')

const IGNORED = Symbol('ignored')
type Part = string | typeof IGNORED
/** A query that matches nothing: a term no id can be (ids never contain white space). */
const NONE_ID = ' pubmatch:none '

/**
 * Translates a query.
 * @param query - PubMed syntax, plain text (`syntax: 'plain'`) or a parsed tree
 * @param options - see {@link TranslateOptions}
 * @throws PubmatchError `QUERY_SYNTAX`, `INVALID_ARGUMENT` (history references, field weights
 *   below 1); a tag the collection has no data for is a `FIELD_NOT_INDEXED` warning
 */
export function translateQuery(query: string | QueryNode, options: TranslateOptions): SolrQuery {
  const warnings: SearchWarning[] = []
  const syntax = options.syntax ?? 'pubmed'
  const match = options.match ?? 'all'
  let tree: QueryNode
  if (typeof query !== 'string') {
    tree = query
  } else if (syntax === 'plain') {
    if (query.trim() === '') {
      throw new PubmatchError('INVALID_ARGUMENT', 'the query is empty')
    }
    tree = { kind: 'term', text: query.trim().replace(/\s+/g, ' '), quoted: false, field: null, noExplode: false, wildcard: false }
  } else {
    tree = parseQuery(query, {
      ...options.parse,
      onWarning: (problem) => warnings.push({ code: 'QUERY_SYNTAX', message: problem.message, problem: problem.problem }),
    })
  }
  const translator = new Translator(options, match, syntax, warnings)
  const plan = translator.node(tree, true)
  const filterQueries = translator.filters(options.filters)
  if (plan === IGNORED) {
    warnings.push({ code: 'EMPTY_QUERY', message: 'nothing searchable is left of the query; there are no hits' })
    return { params: {}, query: tree, warnings, empty: true }
  }
  const scoring = translator.scoringClauses()
  // one bare run in ranked retrieval: a document matches when a scoring clause does, no filter
  const ranked = match === 'any' && tree.kind === 'term' && translator.onlyBags
  const q = ranked
    ? scoring.length === 0
      ? translator.none()
      : scoring.length === 1
        ? scoring[0]!
        : `{!bool ${scoring.map((clause) => `should=${translator.ref(clause)}`).join(' ')}}`
    : `{!bool filter=${translator.ref(plan)}${scoring.map((clause) => ` should=${translator.ref(clause)}`).join('')}}`
  return { params: { ...translator.params, q, ...(filterQueries.length === 0 ? {} : { fq: filterQueries }) }, query: tree, warnings, empty: false }
}

class Translator {
  readonly params: Record<string, string> = {}
  /** Scored words per set of fields (key: the fields joined). */
  private readonly scoring = new Map<string, { fields: readonly string[]; words: string[] }>()
  private readonly text: ReadonlySet<string>
  private readonly keyword: ReadonlySet<string>
  private readonly scored: readonly string[]
  private readonly weights: Readonly<Record<string, number>>
  private readonly stop: ReadonlySet<string>
  private counter = 0
  /** Whether the tree is only untagged, unquoted runs (then `any` needs no filter). */
  onlyBags = true

  private readonly options: TranslateOptions
  private readonly match: MatchMode
  private readonly warnings: SearchWarning[]

  constructor(options: TranslateOptions, match: MatchMode, syntax: QuerySyntax, warnings: SearchWarning[]) {
    this.options = options
    this.match = match
    this.warnings = warnings

    this.text = new Set(options.fields.text)
    this.keyword = new Set(options.fields.keyword)
    const weights: Record<string, number> = {}
    for (const field of options.fields.text) {
      const weight = options.fieldWeights?.[field] ?? (options.fieldWeights === undefined ? BEST_MATCH_FIELD_WEIGHTS[field] : undefined) ?? options.defaultFieldWeight ?? 1
      const combined = options.scoring === 'combined'
      if (!Number.isFinite(weight) || weight < 0 || (combined && weight !== 0 && weight < 1)) {
        throw new PubmatchError(
          'INVALID_ARGUMENT',
          combined
            ? `Lucene's CombinedFieldQuery needs field weights of at least 1 (or 0 to leave a field out), got ${weight} for ${field}`
            : `field weights must be finite and ≥ 0 (0 leaves a field out), got ${weight} for ${field}`,
          { details: { field, weight } },
        )
      }
      weights[field] = weight
    }
    this.weights = weights
    this.scored = options.fields.text.filter((field) => weights[field]! > 0 && !TAG_ONLY.has(field))
    const stop = options.queryStopwords ?? (syntax === 'plain' ? QUESTION_STOPWORDS : false)
    this.stop = new Set(stop === false ? [] : stop.map((word) => word.toLowerCase()))
  }

  /** Stores a value as a parameter and returns its reference. */
  ref(value: string): string {
    const name = `p${this.counter++}`
    this.params[name] = value
    return `$${name}`
  }

  none(): string {
    return `{!term f=id v=${this.ref(NONE_ID)}}`
  }

  private bool(occur: 'must' | 'should', children: readonly string[]): string {
    return children.length === 1 ? children[0]! : `{!bool ${children.map((child) => `${occur}=${this.ref(child)}`).join(' ')}}`
  }

  node(node: QueryNode, positive: boolean): Part {
    switch (node.kind) {
      case 'term':
        return this.term(node, positive)
      case 'proximity': {
        this.onlyBags = false
        const fields = this.fieldsOf(node.field).filter((f) => this.text.has(f))
        if (fields.length === 0) {
          return this.notIndexed(node.field, node.text)
        }
        const words = this.words(node.text)
        if (words.length === 0) {
          this.ignoredTerm(node.text)
          return IGNORED
        }
        if (positive) {
          this.score(fields, words)
        }
        const phrase = `"${words.map((word) => word.replace(/["\\]/g, ' ')).join(' ')}"~${node.distance}`
        return this.bool(
          'should',
          fields.map((field) => `{!lucene df=${field} q.op=AND v=${this.ref(phrase)}}`),
        )
      }
      case 'range': {
        this.onlyBags = false
        return this.dates(dateLowerBound(node.from), dateUpperBound(node.to), `${node.from}:${node.to}`, node.field)
      }
      case 'history':
        throw new PubmatchError(
          'INVALID_ARGUMENT',
          `#${node.index} refers to the search history (search ${node.index} of a PubMed session), which pubmatch does not keep: PubMed resolves #N only against the earlier searches of the same session (ESearch only with a history, usehistory=y), so the query cannot run; put that search's query in place of #${node.index}`,
          { details: { problem: 'HISTORY_REFERENCE', index: node.index } },
        )
      case 'and':
      case 'or': {
        const kept = node.children.map((child) => this.node(child, positive)).filter((c): c is string => c !== IGNORED)
        return kept.length === 0 ? IGNORED : this.bool(node.kind === 'and' ? 'must' : 'should', kept)
      }
      case 'not': {
        this.onlyBags = false
        const include = this.node(node.include, positive)
        const exclude = this.node(node.exclude, false)
        if (include === IGNORED) {
          return IGNORED
        }
        return exclude === IGNORED ? include : `{!bool must=${this.ref(include)} must_not=${this.ref(exclude)}}`
      }
    }
  }

  private term(node: TermNode, positive: boolean): Part {
    const tag = node.field
    if (tag !== null || node.quoted || node.wildcard) {
      this.onlyBags = false
    }
    if (tag !== null && isDateField(tag)) {
      const bounds = dateTermBounds(node.text, this.options.now)
      return this.dates(bounds.from, bounds.to, node.text, tag)
    }
    if (tag === 'pmid') {
      const ids = node.text.split(/[\s,;]+/).filter((id) => id !== '')
      return ids.length === 0 ? this.none() : `{!terms f=id v=${this.ref(ids.join(','))}}`
    }
    if (tag === null && !node.quoted && !node.wildcard && /^has[a-z]+$/iu.test(node.text) && lookupPubmedFilter(node.text) !== undefined) {
      // `hasabstract` and the other `has…` filters need no tag
      this.onlyBags = false
      const filterFields = this.fieldsOf('filter')
      return filterFields.length === 0 ? this.notIndexed('filter', node.text) : this.filter(node.text, filterFields)
    }
    const fields = this.fieldsOf(tag)
    if (tag !== null && fields.length === 0) {
      return this.notIndexed(tag, node.text)
    }
    if (tag === 'filter') {
      return this.filter(node.text, fields)
    }
    if (tag !== null && !node.wildcard && (PERSON_TAGS.has(tag) || FULL_NAME_TAGS.has(tag))) {
      const parts = fields.map((field) => this.person(field, node.text, node.quoted, FULL_NAME_TAGS.has(tag)))
      // a full name typed in [au] (its last word is no initials) is a [fau] search too
      const full = this.fieldsOf('fau')
      if (tag === 'au' && /\s\S{3,}$/u.test(node.text.trim())) {
        parts.push(...full.map((field) => this.person(field, node.text, node.quoted, true)))
      }
      return this.bool('should', parts)
    }
    const textFields = fields.filter((f) => this.text.has(f))
    const keywordFields = fields.filter((f) => this.keyword.has(f))
    const phrase = node.quoted || tag !== null
    const words = textFields.length === 0 ? [] : this.words(node.text)
    let textPart: Part = IGNORED
    if (words.length > 0) {
      if (positive && tag !== 'mh' && tag !== 'majr') {
        this.score(textFields, words.map((word) => word.replace(/\*/g, '')))
      }
      // a bare run: every part of every word is a unit of its own (`t-dna` needs `t` and `dna`
      // somewhere, as the embedded searcher's units, not the phrase Solr would make of it)
      textPart = phrase && !node.wildcard
        ? this.bool('should', textFields.map((field) => `{!field f=${field} v=${this.ref(words.join(' '))}}`))
        : this.bool(
            this.match === 'all' ? 'must' : 'should',
            this.units(words).map((unit) => this.bool('should', textFields.map((field) => this.word(field, unit)))),
          )
    }
    if (textPart === IGNORED && (tag === null || tag === 'all' || keywordFields.length === 0)) {
      this.ignoredTerm(node.text)
      return IGNORED
    }
    const keywordParts =
      tag === 'mh' || tag === 'majr'
        ? this.mesh(node, keywordFields, positive)
        : tag === 'sh' && !node.wildcard
          ? this.subheading(node, keywordFields)
          : keywordFields.map((field) => this.keywordValue(field, node.text, node.wildcard))
    const parts = [...(textPart === IGNORED ? [] : [textPart]), ...keywordParts]
    return parts.length === 0 ? this.none() : this.bool('should', parts)
  }

  /** One word in one text field: a prefix for `colo*`, else the field's analysis of the word. */
  private word(field: string, word: string): string {
    const star = word.indexOf('*')
    if (star >= 0) {
      const prefix = word.slice(0, star).toLowerCase()
      return prefix === '' ? this.none() : `{!prefix f=${field} v=${this.ref(prefix)}}`
    }
    return `{!field f=${field} v=${this.ref(word)}}`
  }

  private keywordValue(field: string, text: string, wildcard: boolean): string {
    if (wildcard) {
      const prefix = normalizeKeyword(text.slice(0, text.indexOf('*')))
      return prefix === '' ? this.none() : `{!prefix f=${field} v=${this.ref(prefix)}}`
    }
    const value = normalizeKeyword(text)
    return value === '' ? this.none() : `{!term f=${field} v=${this.ref(value)}}`
  }

  /**
   * `[sh]`: the subheading and, unless `:noexp`, those below it in MeSH's qualifier trees, as the
   * embedded searcher (`subheadingValues`; normalised values hold no comma).
   */
  private subheading(node: TermNode, fields: readonly string[]): string[] {
    const values = subheadingValues(node.text, node.noExplode)
    if (values.length === 0) {
      return [this.none()]
    }
    return fields.map((field) =>
      values.length === 1
        ? `{!term f=${field} v=${this.ref(values[0]!)}}`
        : `{!terms f=${field} v=${this.ref([...values].sort().join(','))}}`,
    )
  }

  /** `[mh]`/`[majr]`: the heading by name, and the descriptors it maps to (exploded). */
  private mesh(node: TermNode, fields: readonly string[], positive: boolean): string[] {
    if (positive) {
      const scoreFields = (TAG_SCORE_FIELDS[node.field!] ?? []).filter((f) => this.scored.includes(f))
      const words = this.words(node.text.replace(/\*/g, ''))
      if (scoreFields.length > 0 && words.length > 0) {
        this.score(scoreFields, words)
      }
    }
    const parts = fields.map((field) => this.keywordValue(field, node.text, node.wildcard))
    const lookup = this.options.mesh
    if (node.wildcard) {
      return parts
    }
    if (lookup === undefined || lookup.descriptorName === undefined) {
      this.warnings.push({
        code: 'MESH_NOT_EXPLODED',
        message: `"${truncateForMessage(node.text)}"[${node.field}] was matched by name only: no MeSH vocabulary to map and explode it`,
      })
      return parts
    }
    const names = new Set<string>()
    for (const ui of resolveMeshTerm(node, lookup) ?? []) {
      const name = lookup.descriptorName(ui)
      if (name !== undefined && normalizeKeyword(name) !== '') {
        names.add(normalizeKeyword(name))
      }
    }
    if (names.size > 0) {
      for (const field of fields) {
        parts.push(`{!terms f=${field} v=${this.ref([...names].sort().join(','))}}`)
      }
    }
    return parts
  }

  /** A date tag's range over its numeric field (`PUBMED_DATE_DOC_VALUES`: `[dp]` → `pubdate`, …). */
  private dates(from: number, to: number, text: string, tag: string = 'dp'): string {
    if (from > to) {
      this.warnings.push({ code: 'EMPTY_DATE_RANGE', message: `the date range "${truncateForMessage(text)}" starts after it ends and matches nothing` })
      return this.none()
    }
    const field = PUBMED_DATE_DOC_VALUES[tag]
    if (field === undefined || !this.options.fields.numeric.includes(field)) {
      return this.notIndexed(tag, text)
    }
    return `{!lucene v=${this.ref(`${field}:[${from} TO ${to}]`)}}`
  }

  /** `[filter]`/`[sb]`: a filter the collection holds (any spelling), else nothing, with a warning. */
  private filter(text: string, fields: readonly string[]): string {
    const filter = lookupPubmedFilter(text)
    if (filter === undefined) {
      this.warnings.push({
        code: 'FIELD_NOT_INDEXED',
        message: `"${truncateForMessage(text)}"[filter] matches nothing: it is not one of the filters this collection holds (${FILTER_NAMES})`,
      })
      return this.none()
    }
    if (filter.approximation !== undefined) {
      this.warnings.push({ code: 'FIELD_APPROXIMATED', message: `"${truncateForMessage(text)}"[filter] is approximated by ${filter.approximation}` })
    }
    return this.bool('should', fields.map((field) => `{!term f=${field} v=${this.ref(filter.value)}}`))
  }

  /**
   * A person's name with PubMed's automatic truncation, as the embedded searcher: the exact name
   * when quoted; else a regular expression over the field's terms (normalised values hold only
   * letters, digits and single spaces, so the name needs no escaping beyond its spaces).
   */
  private person(field: string, text: string, quoted: boolean, fullName: boolean): string {
    const name = normalizeKeyword(text)
    if (name === '') {
      return this.none()
    }
    if (quoted) {
      return `{!term f=${field} v=${this.ref(name)}}`
    }
    const escaped = name.replace(/ /g, '\\ ')
    const tail = fullName || !name.includes(' ') ? '(\\ .*)?' : '[a-z]*(\\ .*)?'
    return `{!lucene v=${this.ref(`${field}:/${escaped}${tail}/`)}}`
  }

  /**
   * A tag the collection has no data for: the term matches nothing (PubMed finds nothing for a
   * term in a field no record has), with a warning.
   */
  private notIndexed(tag: string, text: string): string {
    this.warnings.push({
      code: 'FIELD_NOT_INDEXED',
      message: `"${truncateForMessage(text)}"[${tag}] matches nothing: this collection has no data for [${tag}] (a collection indexed by an earlier pubmatch has none until it is indexed again; a test collection has none at all)`,
    })
    return this.none()
  }

  /** The words of a run that have something searchable (not only stop words or punctuation). */
  private words(text: string): string[] {
    const kept: string[] = []
    for (const word of text.split(/\s+/)) {
      if (word === '') {
        continue
      }
      const tokens = this.options.analyzer
        .analyze(word.replace(/\*/g, ''))
        .filter((token) => !isJoinedToken(token) && !this.stop.has((token.original ?? token.term).toLowerCase()))
      if (tokens.length === 0) {
        continue
      }
      // with query stop words, keep the surviving parts; otherwise the word as typed
      kept.push(this.stop.size === 0 ? word : word.includes('*') ? word : tokens.map((token) => token.original ?? token.term).join(' '))
    }
    return kept
  }

  /** The units of kept words: a truncated word as typed, else each searchable part (`COX-2` → `COX`, `2`). */
  private units(words: readonly string[]): string[] {
    const units: string[] = []
    for (const word of words) {
      if (word.includes('*')) {
        units.push(word)
        continue
      }
      for (const token of this.options.analyzer.analyze(word)) {
        if (!isJoinedToken(token) && !this.stop.has((token.original ?? token.term).toLowerCase())) {
          units.push(token.original ?? token.term)
        }
      }
    }
    return [...new Set(units)]
  }

  private score(fields: readonly string[], words: readonly string[]): void {
    const scored = fields.filter((field) => this.scored.includes(field))
    if (scored.length === 0 || words.length === 0) {
      return
    }
    const key = scored.join(' ')
    const entry = this.scoring.get(key) ?? { fields: scored, words: [] }
    entry.words.push(...words)
    this.scoring.set(key, entry)
  }

  /** One `bm25f` clause per set of scored fields. */
  scoringClauses(): string[] {
    return [...this.scoring.values()].map(({ fields, words }) => {
      const qf = fields.map((field) => (this.weights[field] === 1 ? field : `${field}^${this.weights[field]}`)).join(' ')
      const fieldB = this.options.fieldB ?? {}
      const fb = fields.filter((field) => fieldB[field] !== undefined).map((field) => `${field}:${fieldB[field]}`)
      const model = this.options.scoring === 'combined' ? ' model=combined' : ''
      return `{!bm25f qf=${this.ref(qf)}${fb.length === 0 ? '' : ` fb=${this.ref(fb.join(' '))}`}${model} mm=any v=${this.ref(words.join(' '))}}`
    })
  }

  /** Filter queries for the sidebar filters. */
  filters(filters: SearchFilters | undefined): string[] {
    if (filters === undefined) {
      return []
    }
    const fq: string[] = []
    if (filters.years !== undefined) {
      const [from, to] = filters.years
      fq.push(`{!lucene v=${this.ref(`year:[${Math.trunc(from)} TO ${Math.trunc(to)}]`)}}`)
    }
    const values = (field: string, list: readonly string[] | undefined, normalize: (value: string) => string): void => {
      if (list === undefined) {
        return
      }
      if (!this.keyword.has(field) && field !== 'id') {
        throw new PubmatchError('UNKNOWN_FIELD', `the collection has no ${field} field to filter on`, { details: { field } })
      }
      const kept = list.map(normalize).filter((value) => value !== '' && !value.includes(','))
      fq.push(kept.length === 0 ? this.none() : `{!terms f=${field} v=${this.ref(kept.join(','))}}`)
    }
    values('pubtype', filters.publicationTypes, normalizeKeyword)
    values('language', filters.languages, normalizeKeyword)
    values('id', filters.ids, (id) => id.trim())
    return fq
  }

  private fieldsOf(tag: string | null): readonly string[] {
    const all = [...this.options.fields.text, ...this.options.fields.keyword]
    if (tag === null) {
      return all.filter((field) => !TAG_ONLY.has(field))
    }
    if (tag === 'all') {
      // PubMed's All Fields: the tag-only fields too, but not the computed filters (as `allFieldsOf`)
      return all.filter((field) => !NOT_IN_ALL_FIELDS.has(field))
    }
    if (tag === 'tw') {
      return this.options.fields.text.filter((field) => !TAG_ONLY.has(field))
    }
    const listed = this.options.tagFields?.[tag] ?? PUBMED_TAG_FIELDS[tag] ?? []
    return listed.filter((field) => all.includes(field))
  }

  private ignoredTerm(text: string): void {
    this.warnings.push({
      code: 'IGNORED_TERM',
      message: `"${truncateForMessage(text)}" has no searchable words (stop words or punctuation only) and was ignored`,
    })
  }
}
