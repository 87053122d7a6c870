/**
 * Query tree → match plan + scoring clauses. This is where PubMed's semantics are decided: which
 * index fields a tag searches, how a run of words combines, phrases and proximity, truncation,
 * MeSH mapping, dates and PMIDs. See README "Search" for the rules.
 */
import { isJoinedToken, type AnalyzedToken, type Analyzer } from '@pubmatch/analysis'
import { normalizeText } from '@pubmatch/analysis/internal'
import { PubmatchError, compareCodePoints, truncateForMessage } from '@pubmatch/core'
import type { IndexReader } from '@pubmatch/index'
import {
  PUBMED_DATE_DOC_VALUES,
  PUBMED_FILTERS,
  PUBMED_TAG_ONLY_FIELDS,
  lookupPubmedFilter,
  normalizeKeyword,
} from '@pubmatch/index/internal'
import type { DateRangeNode, ProximityNode, QueryNode, TermNode } from '../query/ast.ts'
import { fieldInfo, isDateField, type PubmedField } from '../query/fields.ts'
import { resolveMeshTerm } from '../query/mesh.ts'
import { subheadingValues } from '../query/subheadings.ts'
import { dateLowerBound, dateTermBounds, dateUpperBound } from './dates.ts'
import {
  ALL,
  NONE,
  andPlan,
  orPlan,
  type ClauseSpec,
  type ClauseTerm,
  type CompiledQuery,
  type MatchPlan,
  type PlanSlot,
} from './plan.ts'
import { MAX_PROXIMITY_WORDS } from './positional.ts'
import type { MatchMode, SearchMeshLookup, SearchWarning } from './types.ts'

/**
 * Tags whose keyword-field terms also score their words in a scored text field: a `[mh]` term
 * scores its words in the `mesh` field (descriptor names and entry terms).
 */
export const TAG_SCORE_FIELDS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  mh: ['mesh'],
  majr: ['mesh'],
})

/**
 * Tags whose values are person names in `[au]` form (`smith ja`) or full form (`smith john a`):
 * an unquoted term matches the name and every longer name it begins, up to a word boundary
 * for full names and within the initials for `[au]` form (PubMed's automatic truncation:
 * `smith j` finds `smith ja` and `smith j jr`, `smith` finds every Smith); a quoted term
 * (`"smith j"[au]`) matches that name only.
 */
const PERSON_TAGS: ReadonlySet<string> = new Set(['au', '1au', 'lastau', 'ir', 'ed', 'ps'])
const FULL_NAME_TAGS: ReadonlySet<string> = new Set(['fau', 'fir'])

/** Everything compilation needs besides the tree. */
export interface CompileContext {
  readonly reader: IndexReader
  readonly match: MatchMode
  /** Scored fields, in the scorer's order. */
  readonly scoredFields: readonly string[]
  /** Fields searched by untagged terms. */
  readonly defaultFields: readonly string[]
  /** Fields searched by `[all]`: the default fields and the tag-only fields but `filter` ({@link allFieldsOf}). */
  readonly allFields: readonly string[]
  /** Index fields per PubMed tag. */
  readonly tagFields: Readonly<Record<string, readonly string[]>>
  /** Analyzer for the query text of every text field, when overridden. */
  readonly queryAnalyzer: Analyzer | undefined
  readonly mesh: SearchMeshLookup | undefined
  /** Words dropped from query text, matched on the token's surface form (before stemming). */
  readonly queryStopwords: ReadonlySet<string>
  /** Whether the joined forms of query compounds (`cox2` of `COX-2`) are terms of their own. */
  readonly joinedForms: boolean
  readonly maxExpansions: number
  readonly now: Date
  readonly warn: (warning: SearchWarning) => void
  /** Analyses query text (a searcher's cache of `analyzer.analyze`); `analyzer.analyze` without it. */
  readonly analyze?: (analyzer: Analyzer, text: string) => readonly AnalyzedToken[]
}

/** A term whose text has nothing searchable (stop words only): dropped by its parent. */
const IGNORED = Symbol('ignored')
type Compiled = MatchPlan | typeof IGNORED

/** One word of a term, analyzed: its alternatives per field. */
interface Unit {
  readonly label: string
  readonly position: number
  readonly joined: boolean
  /** Field → the terms any of which is this word there (empty when none). */
  readonly terms: (field: string) => readonly string[]
}

const show = (text: string): string => truncateForMessage(text)

function unknownTag(tag: string, reader: IndexReader): PubmatchError {
  const fields = reader.schema.fields.map((f) => f.name).join(', ')
  return new PubmatchError(
    'UNKNOWN_FIELD',
    `the index has no field for [${show(tag)}] (index fields: ${show(fields)})`,
    { details: { field: tag } },
  )
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The filter a wildcard pattern needs beyond its prefix, or `null` for `prefix*`. */
function wildcardFilter(segments: readonly string[]): RegExp | null {
  if (segments.length === 2 && segments[1] === '') {
    return null
  }
  return new RegExp(`^${segments.map(escapeRegExp).join('.*')}$`, 'u')
}

const TAG_ONLY: ReadonlySet<string> = new Set(PUBMED_TAG_ONLY_FIELDS)

/**
 * The fields of a PubMed index that PubMed's All Fields does not cover: `filter`, whose values
 * are labels pubmatch computes (`english`, `humans`, `medline`), not text of the record, so that
 * `english[all]` is not every English record.
 */
export const NOT_IN_ALL_FIELDS: ReadonlySet<string> = new Set(['filter'])

/**
 * What `[all]` searches: PubMed's All Fields covers "all searchable PubMed fields" (PubMed Help,
 * "Search Field Descriptions and Tags"), so besides the default fields of untagged terms every
 * tag-only field of the index (affiliations, grants, volume, pagination, NLM id, place, …)
 * but {@link NOT_IN_ALL_FIELDS}. Dates and PMIDs, which are doc values and ids rather than
 * terms, are not searched. Tag-only fields are never scored, so `[all]` matches more documents
 * than an untagged term and scores them the same way.
 * @param defaultFields - the fields of untagged terms
 * @param indexFields - the index's field names
 */
export function allFieldsOf(
  defaultFields: readonly string[],
  indexFields: readonly string[],
): string[] {
  const extra = indexFields.filter((field) => TAG_ONLY.has(field) && !NOT_IN_ALL_FIELDS.has(field))
  return [...new Set([...defaultFields, ...extra])]
}
const FILTER_NAMES = PUBMED_FILTERS.map((filter) => filter.value).join(', ')

class Compiler {
  private readonly ctx: CompileContext
  private readonly reader: IndexReader
  /** [tw]: the text fields of an untagged search (not affiliations, grants, … : tag-only fields); made when first needed. */
  private twFields: readonly string[] | null = null
  private readonly scored: ReadonlySet<string>
  private readonly clauses = new Map<string, ClauseSpec>()
  private readonly analyzers = new Map<string, Analyzer>()

  constructor(ctx: CompileContext) {
    this.ctx = ctx
    this.reader = ctx.reader
    this.scored = new Set(ctx.scoredFields)
  }

  compile(node: QueryNode): CompiledQuery & { readonly ignored: boolean } {
    const plan = this.node(node, true)
    return {
      plan: plan === IGNORED ? NONE : plan,
      clauses: [...this.clauses.values()],
      ignored: plan === IGNORED,
    }
  }

  private node(node: QueryNode, positive: boolean): Compiled {
    switch (node.kind) {
      case 'term':
        return this.term(node, positive)
      case 'proximity':
        return this.proximity(node, positive)
      case 'range':
        return this.range(node)
      case 'history':
        // PubMed resolves #N against the searches of the user's session (PubMed User Guide,
        // "History"); ESearch interprets query keys in `term` only with usehistory=y and a WebEnv
        // (E-utilities Help, ESearch). A local index has no session, so there is nothing to
        // resolve: an error, never a silently empty or partial search.
        throw new PubmatchError(
          'INVALID_ARGUMENT',
          `#${node.index} refers to the search history (search ${node.index} of a PubMed session), which pubmatch does not keep: PubMed resolves #N only against the earlier searches of the same session (ESearch only with a history, usehistory=y), so the query cannot run; put that search's query in place of #${node.index}`,
          { details: { problem: 'HISTORY_REFERENCE', index: node.index } },
        )
      case 'and': {
        const children = node.children.map((child) => this.node(child, positive))
        const kept = children.filter((c): c is MatchPlan => c !== IGNORED)
        return kept.length === 0 ? IGNORED : andPlan(kept)
      }
      case 'or': {
        const children = node.children.map((child) => this.node(child, positive))
        const kept = children.filter((c): c is MatchPlan => c !== IGNORED)
        return kept.length === 0 ? IGNORED : orPlan(kept)
      }
      case 'not': {
        const include = this.node(node.include, positive)
        const exclude = this.node(node.exclude, false)
        if (include === IGNORED) {
          return IGNORED
        }
        if (exclude === IGNORED || exclude.kind === 'none' || include.kind === 'none') {
          return include
        }
        return { kind: 'not', include, exclude }
      }
    }
  }

  /** The index fields a tag searches (untagged: the default fields; `[all]`: every field but `filter`). */
  private fieldsOf(tag: PubmedField | null): readonly string[] {
    if (tag === null) {
      return this.ctx.defaultFields
    }
    if (tag === 'all') {
      return this.ctx.allFields
    }
    if (tag === 'tw') {
      this.twFields ??= this.reader.schema.fields
        .filter((f) => !f.keyword && !TAG_ONLY.has(f.name))
        .map((f) => f.name)
      return this.twFields
    }
    const listed = Object.hasOwn(this.ctx.tagFields, tag) ? this.ctx.tagFields[tag]! : []
    return listed.filter((field) => this.reader.hasField(field))
  }

  /**
   * A tag the index has no data for: PubMed finds nothing for a term in a field no record
   * has, so the term matches nothing, and a warning says why.
   */
  private notIndexed(tag: PubmedField, text: string): MatchPlan {
    const name = fieldInfo(tag).name
    this.ctx.warn({
      code: 'FIELD_NOT_INDEXED',
      message: `"${show(text)}"[${tag}] matches nothing: this index has no ${name} data (an index built before pubmatch indexed [${tag}] has none until it is rebuilt with \`pubmatch index --rebuild\`; a test collection has none at all)`,
    })
    return NONE
  }

  private isText(field: string): boolean {
    return !this.reader.field(field).keyword
  }

  private term(node: TermNode, positive: boolean): Compiled {
    const tag = node.field
    if (tag !== null && isDateField(tag)) {
      const bounds = dateTermBounds(node.text, this.ctx.now)
      return this.dates(bounds.from, bounds.to, node.text, tag)
    }
    if (tag === 'pmid') {
      return this.pmids(node.text)
    }
    if (tag === null && !node.quoted && !node.wildcard && /^has[a-z]+$/iu.test(node.text)) {
      // `hasabstract` and the other `has…` filters need no tag (PubMed's help searches them bare)
      const filter = lookupPubmedFilter(node.text)
      const fields = (this.ctx.tagFields.filter ?? []).filter((f) => this.reader.hasField(f))
      if (filter !== undefined) {
        return fields.length === 0
          ? this.notIndexed('filter', node.text)
          : this.filter(node.text, fields)
      }
    }
    const fields = this.fieldsOf(tag)
    if (tag !== null && fields.length === 0) {
      return this.notIndexed(tag, node.text)
    }
    if (tag === 'filter') {
      return this.filter(node.text, fields)
    }
    if (tag !== null && !node.wildcard && (PERSON_TAGS.has(tag) || FULL_NAME_TAGS.has(tag))) {
      const plans = fields.map((field) =>
        this.person(field, node.text, node.quoted, FULL_NAME_TAGS.has(tag)),
      )
      // a full name typed in [au] (`smith john`: its last word is no initials) is a [fau] search
      const full = (this.ctx.tagFields.fau ?? []).filter((f) => this.reader.hasField(f))
      if (tag === 'au' && /\s\S{3,}$/u.test(node.text.trim()) && full.length > 0) {
        plans.push(...full.map((field) => this.person(field, node.text, node.quoted, true)))
      }
      return orPlan(plans)
    }
    const text = fields.filter((f) => this.isText(f))
    const keyword = fields.filter((f) => !this.isText(f))
    const phrase = node.quoted || tag !== null
    const textPlan =
      text.length === 0 ? NONE : this.text(node.text, text, phrase ? 'phrase' : 'bag', 0, positive)
    if (textPlan === IGNORED && (tag === null || tag === 'all' || keyword.length === 0)) {
      this.ctx.warn({
        code: 'IGNORED_TERM',
        message: `"${show(node.text)}" has no searchable words (stop words or punctuation only) and was ignored`,
      })
      return IGNORED
    }
    const keywordPlan =
      tag === 'mh' || tag === 'majr'
        ? this.mesh(node, keyword, positive)
        : tag === 'sh' && !node.wildcard
          ? this.subheading(node, keyword)
          : orPlan(keyword.map((field) => this.keyword(field, node.text, node.wildcard)))
    return orPlan(textPlan === IGNORED ? [keywordPlan] : [textPlan, keywordPlan])
  }

  private proximity(node: ProximityNode, positive: boolean): Compiled {
    const fields = this.fieldsOf(node.field).filter((f) => this.isText(f))
    if (fields.length === 0) {
      return this.notIndexed(node.field, node.text)
    }
    const plan = this.text(node.text, fields, 'near', node.distance, positive)
    if (plan === IGNORED) {
      this.ctx.warn({
        code: 'IGNORED_TERM',
        message: `"${show(node.text)}" has no searchable words (stop words or punctuation only) and was ignored`,
      })
    }
    return plan
  }

  private range(node: DateRangeNode): MatchPlan {
    return this.dates(
      dateLowerBound(node.from),
      dateUpperBound(node.to),
      `${node.from}:${node.to}`,
      node.field,
    )
  }

  /**
   * Dates `from … to` (sortable `YYYYMMDD`) of a date tag, from its doc values
   * (`PUBMED_DATE_DOC_VALUES`: `[dp]` from `pubdate`, else `year`; `[edat]` from `edat`, …).
   */
  dates(from: number, to: number, text: string, tag: PubmedField = 'dp'): MatchPlan {
    if (from > to) {
      this.ctx.warn({
        code: 'EMPTY_DATE_RANGE',
        message: `the date range "${show(text)}" starts after it ends and matches nothing`,
      })
      return NONE
    }
    const numeric = this.reader.schema.numericDocValues
    const docValue = PUBMED_DATE_DOC_VALUES[tag]
    if (docValue !== undefined && numeric.includes(docValue)) {
      return { kind: 'range', docValue, min: from, max: to }
    }
    if (tag !== 'dp') {
      return this.notIndexed(tag, text)
    }
    if (numeric.includes('year')) {
      return {
        kind: 'range',
        docValue: 'year',
        min: Math.floor(from / 10000),
        max: Math.floor(to / 10000),
      }
    }
    return this.notIndexed(tag, text)
  }

  private pmids(text: string): MatchPlan {
    const docs = new Set<number>()
    for (const id of text.split(/[\s,;]+/)) {
      const doc = id === '' ? undefined : this.reader.docNumber(id)
      if (doc !== undefined) {
        docs.add(doc)
      }
    }
    return docs.size === 0 ? NONE : { kind: 'docs', docs: [...docs].sort((a, b) => a - b) }
  }

  /**
   * `[filter]` / `[sb]`: one of the filters the index holds (`PUBMED_FILTERS`, any spelling);
   * an approximated filter warns what stands in for it, an unknown one matches nothing.
   */
  private filter(text: string, fields: readonly string[]): MatchPlan {
    const filter = lookupPubmedFilter(text)
    if (filter === undefined) {
      this.ctx.warn({
        code: 'FIELD_NOT_INDEXED',
        message: `"${show(text)}"[filter] matches nothing: it is not one of the filters this index holds (${FILTER_NAMES})`,
      })
      return NONE
    }
    if (filter.approximation !== undefined) {
      this.ctx.warn({
        code: 'FIELD_APPROXIMATED',
        message: `"${show(text)}"[filter] is approximated by ${filter.approximation}`,
      })
    }
    return orPlan(fields.map((field): MatchPlan => ({ kind: 'term', field, term: filter.value })))
  }

  /**
   * A person's name with PubMed's automatic truncation (see {@link PERSON_TAGS}): the exact
   * name, and unless `quoted`, the longer names it begins — for `[au]`-form names within the
   * last word (more initials, then an optional suffix), for full names at a word boundary.
   */
  private person(field: string, text: string, quoted: boolean, fullName: boolean): MatchPlan {
    const name = normalizeKeyword(text)
    if (name === '') {
      return NONE
    }
    if (quoted) {
      return { kind: 'term', field, term: name }
    }
    const lastName = !name.includes(' ')
    const rest = fullName || lastName ? /^ / : /^[a-z]*(?: |$)/u
    const terms: string[] = []
    for (const entry of this.reader.terms(field, name)) {
      const tail = entry.term.slice(name.length)
      if (tail === '' || rest.test(tail)) {
        terms.push(entry.term)
      }
    }
    return terms.length === 0
      ? NONE
      : terms.length === 1
        ? { kind: 'term', field, term: terms[0]! }
        : { kind: 'terms', field, terms }
  }

  /**
   * `[sh]`: the subheading and, unless `:noexp`, the subheadings below it in MeSH's qualifier
   * trees (`subheadingValues`: `therapy[sh]` includes drug therapy, surgery, …).
   */
  private subheading(node: TermNode, fields: readonly string[]): MatchPlan {
    const values = subheadingValues(node.text, node.noExplode).sort(compareCodePoints)
    if (values.length === 0) {
      return NONE
    }
    return orPlan(
      fields.map((field): MatchPlan =>
        values.length === 1
          ? { kind: 'term', field, term: values[0]! }
          : { kind: 'terms', field, terms: values },
      ),
    )
  }

  /** A keyword-field value (whole text, normalised), or the values a truncated text expands to. */
  keyword(field: string, text: string, wildcard: boolean): MatchPlan {
    if (!wildcard) {
      const term = normalizeKeyword(text)
      return term === '' ? NONE : { kind: 'term', field, term }
    }
    const star = text.indexOf('*')
    const prefix = normalizeKeyword(text.slice(0, star))
    const rest = text
      .slice(star + 1)
      .split('*')
      .map((segment) => normalizeKeyword(segment))
    const filter = wildcardFilter([prefix, ...rest])
    const terms = this.expandTerms([field], prefix, filter, text).get(field) ?? []
    return terms.length === 0 ? NONE : { kind: 'terms', field, terms }
  }

  /**
   * `[mh]` / `[majr]`: the heading by name, plus (with a MeSH vocabulary) the descriptors it
   * maps to, exploded unless `:noexp`. The term's words also score in the `mesh` text field.
   */
  private mesh(node: TermNode, fields: readonly string[], positive: boolean): MatchPlan {
    if (positive) {
      const scoreFields = (TAG_SCORE_FIELDS[node.field!] ?? []).filter(
        (f) => this.reader.hasField(f) && this.scored.has(f) && this.isText(f),
      )
      if (scoreFields.length > 0) {
        for (const group of this.groups(scoreFields)) {
          this.addClauses(
            this.units(node.text.replace(/\*/g, ''), group.analyzer, group.fields),
            group.fields,
          )
        }
      }
    }
    const byName = orPlan(fields.map((field) => this.keyword(field, node.text, node.wildcard)))
    const lookup = this.ctx.mesh
    if (node.wildcard) {
      return byName
    }
    if (lookup === undefined) {
      if (!node.noExplode) {
        this.ctx.warn({
          code: 'MESH_NOT_EXPLODED',
          message: `"${show(node.text)}"[${node.field!}] is matched by heading name only: no MeSH vocabulary was given, so it is neither mapped nor exploded`,
        })
      }
      return byName
    }
    const uis = resolveMeshTerm(node, lookup) ?? []
    if (uis.length === 0) {
      return byName
    }
    if (lookup.descriptorName !== undefined) {
      const names = [
        ...new Set(
          uis
            .map((ui) => lookup.descriptorName!(ui))
            .filter((name): name is string => name !== undefined)
            .map((name) => normalizeKeyword(name))
            .filter((name) => name !== ''),
        ),
      ].sort(compareCodePoints)
      return orPlan([
        byName,
        ...fields.map((field): MatchPlan => ({ kind: 'terms', field, terms: names })),
      ])
    }
    if (node.field === 'mh' && this.reader.schema.sortedSetDocValues.includes('mesh_ui')) {
      return orPlan([byName, { kind: 'sortedSet', docValue: 'mesh_ui', values: uis }])
    }
    this.ctx.warn({
      code: 'MESH_NOT_EXPLODED',
      message: `"${show(node.text)}"[${node.field!}] is matched by heading name only: the MeSH vocabulary gives no descriptor names and the index has no descriptor ids for this field`,
    })
    return byName
  }

  /** Text fields grouped by the analyzer their query text goes through. */
  private groups(fields: readonly string[]): { analyzer: Analyzer; fields: string[] }[] {
    if (this.ctx.queryAnalyzer !== undefined) {
      return [{ analyzer: this.ctx.queryAnalyzer, fields: [...fields] }]
    }
    const byName = new Map<string, { analyzer: Analyzer; fields: string[] }>()
    for (const field of fields) {
      const name = this.reader.field(field).analyzer
      let group = byName.get(name)
      if (group === undefined) {
        let analyzer = this.analyzers.get(name)
        if (analyzer === undefined) {
          analyzer = this.reader.analyzer(field)
          this.analyzers.set(name, analyzer)
        }
        group = { analyzer, fields: [] }
        byName.set(name, group)
      }
      group.fields.push(field)
    }
    return [...byName.values()]
  }

  /**
   * Free text in text fields: a bag of words (AND under `all`, OR under `any`), a phrase, or a
   * proximity search; one plan per analyzer group, ORed.
   */
  private text(
    text: string,
    fields: readonly string[],
    kind: 'bag' | 'phrase' | 'near',
    distance: number,
    positive: boolean,
  ): Compiled {
    const plans: MatchPlan[] = []
    for (const group of this.groups(fields)) {
      const units = this.units(text, group.analyzer, group.fields)
      let parts = units.filter((unit) => !unit.joined)
      if (parts.length === 0) {
        continue
      }
      if (positive) {
        this.addClauses(units, group.fields)
      }
      if (kind === 'near') {
        const seen = new Set<string>()
        parts = parts.filter((unit) => {
          const key = group.fields.map((f) => unit.terms(f).join('\u0001')).join('\u0000')
          return seen.has(key) ? false : (seen.add(key), true)
        })
        if (parts.length > MAX_PROXIMITY_WORDS) {
          throw new PubmatchError(
            'INVALID_ARGUMENT',
            `a proximity search may have at most ${MAX_PROXIMITY_WORDS} words, got ${parts.length} in "${show(text)}"`,
          )
        }
      }
      if (kind !== 'bag' && parts.length > 1) {
        const first = parts[0]!.position
        plans.push(
          orPlan(
            group.fields.map((field): MatchPlan => {
              const slots: PlanSlot[] = parts.map((unit) => ({
                terms: unit.terms(field),
                offset: unit.position - first,
              }))
              if (slots.some((slot) => slot.terms.length === 0)) {
                return NONE
              }
              return {
                kind: 'positional',
                field,
                slots,
                mode: kind === 'near' ? { kind: 'near', distance } : { kind: 'phrase' },
              }
            }),
          ),
        )
      } else if (kind !== 'bag' || this.ctx.match === 'all') {
        plans.push(andPlan(parts.map((unit) => this.unitPlan(unit, group.fields))))
      } else {
        plans.push(orPlan(units.map((unit) => this.unitPlan(unit, group.fields))))
      }
    }
    return plans.length === 0 ? IGNORED : orPlan(plans)
  }

  private unitPlan(unit: Unit, fields: readonly string[]): MatchPlan {
    return orPlan(
      fields.map((field): MatchPlan => {
        const terms = unit.terms(field)
        return terms.length === 0
          ? NONE
          : terms.length === 1
            ? { kind: 'term', field, term: terms[0]! }
            : { kind: 'terms', field, terms }
      }),
    )
  }

  /**
   * The words of `text` as analyzed for `fields`. Without `*` the analyzer sees the whole text;
   * with `*`, word by word, each truncated word becoming one unit of the index terms it
   * expands to (a word analyzed to nothing, a stop word, still takes its position).
   */
  private units(text: string, analyzer: Analyzer, fields: readonly string[]): Unit[] {
    const stop = this.ctx.queryStopwords
    const joined = this.ctx.joinedForms
    const kept = (token: AnalyzedToken): boolean =>
      (joined || !isJoinedToken(token)) &&
      (stop.size === 0 || !stop.has((token.original ?? token.term).toLowerCase()))
    const analyze = this.ctx.analyze
    const tokensOf = (t: string): readonly AnalyzedToken[] =>
      analyze === undefined ? analyzer.analyze(t) : analyze(analyzer, t)
    if (!text.includes('*')) {
      return tokensOf(text)
        .filter(kept)
        .map((token) => {
          const alternatives = [token.term]
          return {
            label: token.term,
            position: token.position,
            joined: isJoinedToken(token),
            terms: () => alternatives,
          }
        })
    }
    const units: Unit[] = []
    let offset = 0
    for (const word of text.split(/\s+/)) {
      if (word === '') {
        continue
      }
      if (word.includes('*')) {
        const pattern = normalizeText(word)
        const segments = pattern.split('*')
        const expansions = this.expandTerms(fields, segments[0]!, wildcardFilter(segments), word)
        units.push({
          label: pattern,
          position: offset,
          joined: false,
          terms: (field) => expansions.get(field) ?? [],
        })
        offset += 1
        continue
      }
      let span = 0
      for (const token of tokensOf(word)) {
        span = Math.max(span, token.position + (token.positionLength ?? 1))
        if (!kept(token)) {
          continue
        }
        const alternatives = [token.term]
        units.push({
          label: token.term,
          position: offset + token.position,
          joined: isJoinedToken(token),
          terms: () => alternatives,
        })
      }
      offset += span > 0 ? span : /[\p{L}\p{N}]/u.test(word) ? 1 : 0
    }
    return units
  }

  /**
   * The index terms of each field that start with `prefix` (and match `filter`), at most
   * `maxExpansions` distinct ones over all the fields, in index (code point) order.
   */
  private expandTerms(
    fields: readonly string[],
    prefix: string,
    filter: RegExp | null,
    text: string,
  ): Map<string, string[]> {
    const perField = new Map<string, string[]>()
    const all = new Set<string>()
    for (const field of fields) {
      const terms: string[] = []
      for (const entry of this.reader.terms(field, prefix)) {
        if (filter === null || filter.test(entry.term)) {
          terms.push(entry.term)
          all.add(entry.term)
        }
      }
      perField.set(field, terms)
    }
    const max = this.ctx.maxExpansions
    if (all.size > max) {
      const kept = new Set([...all].sort(compareCodePoints).slice(0, max))
      for (const [field, terms] of perField) {
        perField.set(
          field,
          terms.filter((term) => kept.has(term)),
        )
      }
      this.ctx.warn({
        code: 'TRUNCATION_LIMIT',
        message: `"${show(text)}" matches ${all.size} index terms; only the first ${max} were searched`,
      })
    }
    return perField
  }

  /** Adds a scoring clause per unit over the group's scored fields (distinct clauses once). */
  private addClauses(units: readonly Unit[], fields: readonly string[]): void {
    const scoredFields = this.ctx.scoredFields.filter((f) => fields.includes(f))
    if (scoredFields.length === 0) {
      return
    }
    for (const unit of units) {
      const terms: ClauseTerm[] = []
      for (const field of scoredFields) {
        for (const term of unit.terms(field)) {
          terms.push({ field, term })
        }
      }
      if (terms.length === 0) {
        continue
      }
      const key = terms
        .map((t) => `${t.field}\u0000${t.term}`)
        .sort()
        .join('\u0001')
      if (!this.clauses.has(key)) {
        this.clauses.set(key, { label: unit.label, terms })
      }
    }
  }
}

/**
 * Compiles a query tree against an index.
 * @param node - the query
 * @param ctx - the index, fields, mode and options
 * @returns the plan, the scoring clauses, and whether nothing searchable was left (`ignored`)
 * @throws PubmatchError `UNKNOWN_FIELD` for a tag the index has no field for, `INVALID_ARGUMENT`
 *   for a history reference, a bad date or an over-long proximity search
 */
export function compileQuery(
  node: QueryNode,
  ctx: CompileContext,
): CompiledQuery & { readonly ignored: boolean } {
  return new Compiler(ctx).compile(node)
}

/**
 * The plan of the search filters: publication years (`year` doc values), publication types and
 * languages (the `[pt]` / `[la]` fields).
 * @param ctx - the compile context
 * @param filters - years, publication types, languages
 */
export function filterPlan(
  ctx: CompileContext,
  filters: {
    readonly years?: readonly [number, number]
    readonly publicationTypes?: readonly string[]
    readonly languages?: readonly string[]
    readonly ids?: readonly string[]
  },
): MatchPlan {
  const compiler = new Compiler(ctx)
  const parts: MatchPlan[] = []
  if (filters.years !== undefined) {
    const [from, to] = filters.years
    if (!ctx.reader.schema.numericDocValues.includes('year')) {
      throw new PubmatchError(
        'UNKNOWN_FIELD',
        'the years filter needs the index\'s "year" doc values, which this index does not have',
        { details: { field: 'year' } },
      )
    }
    parts.push(
      from > to
        ? NONE
        : { kind: 'range', docValue: 'year', min: Math.ceil(from), max: Math.floor(to) },
    )
  }
  const keywordFilter = (tag: 'pt' | 'la', values: readonly string[] | undefined): void => {
    if (values === undefined) {
      return
    }
    const listed = Object.hasOwn(ctx.tagFields, tag) ? ctx.tagFields[tag]! : []
    const fields = listed.filter((f) => ctx.reader.hasField(f))
    if (fields.length === 0) {
      throw unknownTag(tag, ctx.reader)
    }
    parts.push(
      orPlan(
        fields.flatMap((field) => values.map((value) => compiler.keyword(field, value, false))),
      ),
    )
  }
  keywordFilter('pt', filters.publicationTypes)
  keywordFilter('la', filters.languages)
  if (filters.ids !== undefined) {
    const docs = [
      ...new Set(
        filters.ids
          .map((id) => ctx.reader.docNumber(id))
          .filter((doc): doc is number => doc !== undefined),
      ),
    ]
    parts.push(docs.length === 0 ? NONE : { kind: 'docs', docs: docs.sort((a, b) => a - b) })
  }
  return parts.length === 0 ? ALL : andPlan(parts)
}
