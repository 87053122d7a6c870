/**
 * Ovid MEDLINE search strategies → PubMed queries. A strategy is a list of numbered search
 * lines (`exp Glaucoma/`, `glaucoma$.tw.`, `(optic adj2 nerve$).ti,ab.`, `or/1-3`,
 * `limit 4 to english language`); each line becomes a PubMed query (line references written as
 * PubMed history references `#N`), and the final line becomes one query with every reference
 * resolved. Every construct that PubMed cannot say exactly is listed in the notes with what was
 * done instead. See README.md "Ovid MEDLINE strategies" for the mapping and its sources.
 */
import { PubmatchError, truncateForMessage } from '@pubmatch/core'
import type { QueryNode, TermNode } from './ast.ts'
import type { ProximityField, PubmedField } from './fields.ts'
import { formatQuery } from './format.ts'
import { MESH_QUALIFIER_ABBREVIATIONS } from './ovid.ts'
import { MESH_QUALIFIERS } from './subheadings.ts'
import { parseQuery } from './parse.ts'

/** The kinds of construct that {@link translateOvid} cannot translate exactly. */
export type OvidNoteKind =
  /** A field with no exact PubMed counterpart (`.mp.`, `.ot.`, `.nm.`, `.ab.`, `.hw.`, an unknown code). */
  | 'field'
  /** A term without a field suffix: searched as Ovid's default `.mp.`. */
  | 'default-field'
  /** `$N` limited truncation, made unlimited. */
  | 'limited-truncation'
  /** `#` or `?` inside or at the end of a word. */
  | 'wildcard'
  /** A truncation PubMed refuses (fewer than 4 characters before it), dropped. */
  | 'short-truncation'
  /** `adjN` written as PubMed proximity with another distance rule, or as AND. */
  | 'adjacency'
  /** A MeSH heading with subheadings (`Glaucoma/dt`). */
  | 'subheading'
  /** A `limit` without an exact PubMed filter. */
  | 'limit'
  /** A line with different Boolean operators and no parentheses. */
  | 'precedence'
  /** Text that was dropped (hit counts, bracketed annotations, `remove duplicates`). */
  | 'dropped'
  /** Lines the final line does not use. */
  | 'unused-lines'

/** One construct translated approximately, with what was done instead. */
export interface OvidNote {
  /** 1-based number of the strategy line. */
  readonly line: number
  readonly kind: OvidNoteKind
  /** The construct as written, e.g. `.mp.`, `nerve$2`, `adj3`. */
  readonly construct: string
  /** What PubMed lacks and what the translation does instead. */
  readonly message: string
  /** How many constructs of the line this note covers (the first is in `construct`). */
  readonly count: number
}

/** One strategy line and its translation. */
export interface OvidTranslatedLine {
  /** 1-based line number (the strategy's own numbering when it has one). */
  readonly line: number
  /** The line as written, without its number or hit count. */
  readonly ovid: string
  /** The PubMed query of this line alone, earlier lines as `#N`; `null` when it failed. */
  readonly pubmed: string | null
  /** Why the line could not be translated; absent when it was. */
  readonly problem?: string
}

/** The result of {@link translateOvid}. */
export interface OvidTranslation {
  readonly lines: readonly OvidTranslatedLine[]
  /** The number of the line that {@link OvidTranslation.query} translates. */
  readonly finalLine: number
  /** The PubMed query of the final line, line references resolved. */
  readonly query: string
  /** Its tree (what {@link OvidTranslation.query} parses to). */
  readonly node: QueryNode
  /** Every construct translated approximately, in line order. */
  readonly notes: readonly OvidNote[]
}

/** Options of {@link translateOvid}. */
export interface TranslateOvidOptions {
  /** The line whose query is the result. Defaults to the last line. */
  readonly finalLine?: number
  /** Where the strategy comes from (a file name, a topic id), quoted in error messages. */
  readonly source?: string
  /**
   * The most term combinations one `adjN` may expand to (`(a or b) adj3 (c or d)` is 4)
   * before it is written as AND instead. Defaults to `64`.
   */
  readonly maxAdjacencyExpansion?: number
}

/** MeSH qualifier names by their abbreviation (MeSH 2014, `&` written "and" as PubMed does). */
export const MESH_QUALIFIER_NAMES: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(
    MESH_QUALIFIERS.map((qualifier) => [
      qualifier.abbreviation.toLowerCase(),
      qualifier.name.replaceAll('&', 'and'),
    ]),
  ),
)

/** How one Ovid field code is searched in PubMed. */
interface FieldMapping {
  /** The PubMed fields (ORed); `mh-noexp` is `[mh:noexp]`, `sh-noexp` `[sh:noexp]`. */
  readonly fields: readonly TargetField[]
  /** Set when the mapping is not exact. */
  readonly note?: string
}

type TargetField = PubmedField | 'mh-noexp' | 'sh-noexp'

/**
 * Ovid MEDLINE field codes (Ovid's MEDLINE database guide) and their PubMed counterparts
 * (PubMed User Guide, "Search Field Descriptions and Tags").
 */
const FIELD_MAP: Readonly<Record<string, FieldMapping>> = {
  ti: { fields: ['ti'] },
  ab: {
    fields: ['ab'],
    note: "PubMed has no abstract-only field; [ab] is pubmatch's (use [tiab] on PubMed)",
  },
  // Ovid MEDLINE's .tw. is title and abstract (PubMed's [tw] also searches MeSH and more).
  tw: { fields: ['tiab'] },
  mp: {
    fields: ['tw'],
    note: 'Ovid .mp. (title, abstract, original title, substance, subject heading and keyword words, supplementary concepts, identifiers) searched as PubMed [tw] (text words: title, abstract, MeSH, substances, other terms)',
  },
  // Ovid's original title and PubMed's transliterated title are both MEDLINE's VernacularTitle.
  ot: { fields: ['tt'] },
  kw: { fields: ['ot'] },
  kf: {
    fields: ['ot'],
    note: 'Ovid .kf. (keyword heading words) searched as the phrase in PubMed [ot]',
  },
  nm: {
    fields: ['nm'],
    note: 'Ovid .nm. (name of substance words) searched as PubMed [nm] (supplementary concept)',
  },
  rn: { fields: ['rn'] },
  pt: { fields: ['pt'] },
  au: { fields: ['au'] },
  fa: { fields: ['fau'] },
  jn: { fields: ['ta'] },
  jw: {
    fields: ['ta'],
    note: 'Ovid .jw. (journal words) searched as PubMed [ta] (whole journal name)',
  },
  lg: { fields: ['la'] },
  la: { fields: ['la'] },
  sh: { fields: ['mh-noexp'] },
  hw: {
    fields: ['mh'],
    note: 'Ovid .hw. (words of subject headings) searched as PubMed [mh] (whole headings)',
  },
  fs: { fields: ['sh-noexp'] },
  ui: { fields: ['pmid'] },
  in: { fields: ['ad'] },
  ia: { fields: ['ad'] },
  ps: { fields: ['ps'] },
  gr: { fields: ['gr'] },
  is: { fields: ['ta'], note: 'Ovid .is. (ISSN) searched as PubMed [ta], which takes an ISSN' },
  vo: { fields: ['vi'] },
  ip: { fields: ['ip'] },
  pg: { fields: ['pg'] },
  yr: { fields: ['dp'] },
  dp: { fields: ['dp'] },
  ed: { fields: ['edat'] },
  ep: { fields: ['epdat'] },
  af: { fields: ['all'] },
}

const PROXIMITY_FIELDS: ReadonlySet<string> = new Set<ProximityField>(['ti', 'tiab', 'ab', 'ad'])

const QUALIFIERS: ReadonlySet<string> = new Set(MESH_QUALIFIER_ABBREVIATIONS)

// ---------------------------------------------------------------------------------------------
// Tokens and the Ovid tree of one line

type Token =
  | { type: 'lparen' }
  | { type: 'rparen' }
  | { type: 'word'; text: string }
  | { type: 'quoted'; text: string }
  | { type: 'op'; op: 'and' | 'or' | 'not' }
  | { type: 'adj'; distance: number | null; text: string }
  | { type: 'suffix'; codes: string[]; text: string }
  | { type: 'slash'; qualifiers: string[]; text: string }

type OvidNode =
  | { kind: 'text'; words: string[]; quoted: boolean; codes: string[] | null }
  | { kind: 'heading'; text: string; explode: boolean; major: boolean; qualifiers: string[] }
  | { kind: 'ref'; line: number }
  | { kind: 'adj'; distances: (number | null)[]; children: OvidNode[]; text: string }
  | { kind: 'bool'; op: 'and' | 'or' | 'not'; left: OvidNode; right: OvidNode }
  | { kind: 'pubmed'; node: QueryNode }

/** A failure of one line (caught per line, never thrown out of {@link translateOvid}). */
class LineProblem extends Error {}

const FIELD_CODE = /^[a-z]{2}$/i
const SUFFIX_BODY = /^([a-z]{2}(?:,[a-z]{2})*)\.?$/i
/** `word.tw.`, `word.ti,ab`, `word.mp` glued to a term. */
const GLUED_SUFFIX = /^(.*[^.\s])\.([a-z]{2}(?:,[a-z]{2})*)\.?$/i

/** Ovid MEDLINE field codes without a PubMed counterpart (searched as [tw], with a note). */
const OTHER_OVID_CODES: ReadonlySet<string> = new Set([
  'ai',
  'ca',
  'cm',
  'cn',
  'cp',
  'ct',
  'do',
  'ds',
  'fx',
  'gs',
  'id',
  'jc',
  'px',
  'rs',
  'rx',
  'so',
  'st',
  'tc',
  'tn',
  'up',
])

/** Whether `body` (`tw`, `ti,ab`) lists Ovid field codes only. */
const isFieldList = (body: string): boolean =>
  body
    .split(',')
    .every(
      (code) =>
        FIELD_CODE.test(code) &&
        (code.toLowerCase() in FIELD_MAP || OTHER_OVID_CODES.has(code.toLowerCase())),
    )

/** Splits one Ovid line into tokens. */
function tokenize(line: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  const push = (token: Token): void => {
    tokens.push(token)
  }
  while (i < line.length) {
    const c = line.charAt(i)
    if (/\s/.test(c)) {
      i += 1
      continue
    }
    if (c === '(') {
      push({ type: 'lparen' })
      i += 1
      continue
    }
    if (c === ')') {
      push({ type: 'rparen' })
      i += 1
      continue
    }
    if (c === '"' || c === '\u201C' || c === '\u201D') {
      const close = line.slice(i + 1).search(/["\u201C\u201D]/)
      if (close === -1) {
        throw new LineProblem(`a quote at position ${i} is never closed`)
      }
      push({ type: 'quoted', text: line.slice(i + 1, i + 1 + close) })
      i += close + 2
      continue
    }
    let j = i
    while (j < line.length && !/[\s()"\u201C\u201D]/.test(line.charAt(j))) {
      j += 1
    }
    pushWord(line.slice(i, j), tokens)
    i = j
  }
  return tokens
}

/** Classifies one whitespace-delimited word: operator, adjacency, suffix, slash or text. */
function pushWord(raw: string, tokens: Token[]): void {
  const last = tokens.at(-1)
  if (/^(?:and|or|not)$/i.test(raw)) {
    tokens.push({ type: 'op', op: raw.toLowerCase() as 'and' | 'or' | 'not' })
    return
  }
  const adj = /^adj(\d*)$/i.exec(raw)
  if (adj !== null) {
    tokens.push({ type: 'adj', distance: adj[1] === '' ? null : Number(adj[1]), text: raw })
    return
  }
  // `.tw.` after `)`, and `. tw.` (a space after the dot)
  if (
    raw.startsWith('.') &&
    raw.length > 1 &&
    SUFFIX_BODY.test(raw.slice(1)) &&
    isFieldList(raw.slice(1).replace(/\.$/, ''))
  ) {
    tokens.push({ type: 'suffix', codes: codesOf(raw.slice(1)), text: raw })
    return
  }
  if (raw === '.') {
    tokens.push({ type: 'suffix', codes: [], text: '.' })
    return
  }
  if (last?.type === 'suffix' && last.codes.length === 0 && SUFFIX_BODY.test(raw)) {
    last.codes = codesOf(raw)
    last.text = `. ${raw}`
    return
  }
  // qualifiers continued after `Dementia/bl,` as `cf`
  if (last?.type === 'slash' && last.text.endsWith(',')) {
    const more = /^([a-z]{2}(?:,[a-z]{2})*)(,?)$/i.exec(raw)
    if (more !== null && (more[1] ?? '').split(',').every((q) => QUALIFIERS.has(q.toLowerCase()))) {
      last.qualifiers.push(...(more[1] ?? '').toLowerCase().split(','))
      last.text = `${last.text} ${raw}`
      return
    }
  }
  const slash = /^(.*)\/((?:[a-z]{2})(?:,[a-z]{2})*,?)?$/i.exec(raw)
  if (
    slash !== null &&
    (slash[2] === undefined ||
      slash[2]
        .replace(/,$/, '')
        .split(',')
        .every((q) => QUALIFIERS.has(q.toLowerCase())))
  ) {
    if ((slash[1] ?? '') !== '') {
      tokens.push({ type: 'word', text: slash[1] ?? '' })
    }
    const qualifiers =
      slash[2] === undefined ? [] : slash[2].replace(/,$/, '').toLowerCase().split(',')
    tokens.push({ type: 'slash', qualifiers, text: `/${slash[2] ?? ''}` })
    return
  }
  const glued = GLUED_SUFFIX.exec(raw)
  if (glued !== null && isFieldList(glued[2] ?? '')) {
    tokens.push({ type: 'word', text: glued[1] ?? '' })
    tokens.push({
      type: 'suffix',
      codes: codesOf(glued[2] ?? ''),
      text: raw.slice((glued[1] ?? '').length),
    })
    return
  }
  tokens.push({ type: 'word', text: raw })
}

const codesOf = (body: string): string[] => body.replace(/\.$/, '').toLowerCase().split(',')

/** Recursive descent over one line's tokens. */
class LineParser {
  private index = 0
  /** Whether one level mixes different Boolean operators without parentheses. */
  mixed = false
  private readonly tokens: Token[]
  private readonly lineNumber: number

  constructor(tokens: Token[], lineNumber: number) {
    this.tokens = tokens
    this.lineNumber = lineNumber
  }

  parse(): OvidNode {
    const node = this.expression(0)
    if (this.index < this.tokens.length) {
      throw new LineProblem(`unexpected ${describe(this.tokens[this.index])}`)
    }
    return node
  }

  private peek(): Token | undefined {
    return this.tokens[this.index]
  }

  private expression(depth: number): OvidNode {
    let left = this.adjacency(depth)
    let seen: string | null = null
    for (let token = this.peek(); token?.type === 'op'; token = this.peek()) {
      this.index += 1
      if (seen !== null && seen !== token.op) {
        this.mixed = true
      }
      seen = token.op
      const right = this.adjacency(depth)
      left = { kind: 'bool', op: token.op, left, right }
    }
    return left
  }

  private adjacency(depth: number): OvidNode {
    const first = this.primary(depth)
    const children = [first]
    const distances: (number | null)[] = []
    const texts: string[] = []
    for (let token = this.peek(); token?.type === 'adj'; token = this.peek()) {
      this.index += 1
      distances.push(token.distance)
      texts.push(token.text)
      children.push(this.primary(depth))
    }
    if (children.length === 1) {
      return first
    }
    return { kind: 'adj', distances, children, text: [...new Set(texts)].join(', ') }
  }

  private primary(depth: number): OvidNode {
    const token = this.peek()
    if (token === undefined) {
      throw new LineProblem('a search term is missing at the end of the line')
    }
    let node: OvidNode
    if (token.type === 'lparen') {
      this.index += 1
      if (depth > 50) {
        throw new LineProblem('parentheses nested deeper than 50')
      }
      node = this.expression(depth + 1)
      if (this.peek()?.type !== 'rparen') {
        throw new LineProblem('"(" is never closed with ")"')
      }
      this.index += 1
    } else if (token.type === 'word' || token.type === 'quoted') {
      node = this.run()
    } else {
      throw new LineProblem(`${describe(token)} has no search term before it`)
    }
    const suffix = this.peek()
    if (suffix?.type === 'suffix') {
      this.index += 1
      if (suffix.codes.length === 0) {
        throw new LineProblem('a "." is followed by no field code')
      }
      node = applyCodes(node, suffix.codes)
    }
    return node
  }

  /** A run of words and quoted phrases: a phrase, a heading (`exp X/`), or a line number. */
  private run(): OvidNode {
    const parts: Array<{ text: string; quoted: boolean }> = []
    for (
      let token = this.peek();
      token?.type === 'word' || token?.type === 'quoted';
      token = this.peek()
    ) {
      this.index += 1
      parts.push({ text: token.text, quoted: token.type === 'quoted' })
    }
    const slash = this.peek()
    if (slash?.type === 'slash') {
      this.index += 1
      let explode = false
      if (!(parts[0]?.quoted ?? true) && /^exp$/i.test(parts[0]?.text ?? '')) {
        explode = true
        parts.shift()
      }
      let text = parts
        .map((part) => part.text)
        .join(' ')
        .trim()
      let major = false
      if (text.startsWith('*')) {
        major = true
        text = text.slice(1).trim()
      }
      if (text === '') {
        throw new LineProblem('a subject heading "/" has no heading before it')
      }
      return { kind: 'heading', text, explode, major, qualifiers: slash.qualifiers }
    }
    // a bare number is a line reference, unless a field suffix follows it: `20120315.ed.` is an
    // entry date and `2010.yr.` a year, searched in their fields
    if (
      parts.length === 1 &&
      !(parts[0]?.quoted ?? true) &&
      /^\d+$/.test(parts[0]?.text ?? '') &&
      this.peek()?.type !== 'suffix'
    ) {
      const line = Number(parts[0]?.text)
      if (line < 1 || line >= this.lineNumber) {
        throw new LineProblem(`line ${line} is not an earlier line`)
      }
      return { kind: 'ref', line }
    }
    const words = parts.flatMap((part) => part.text.split(/\s+/).filter(Boolean))
    if (words.length === 0) {
      throw new LineProblem('empty quotes')
    }
    return { kind: 'text', words, quoted: parts.some((part) => part.quoted), codes: null }
  }
}

const describe = (token: Token | undefined): string => {
  switch (token?.type) {
    case undefined:
      return 'end of line'
    case 'lparen':
      return '"("'
    case 'rparen':
      return '")"'
    case 'op':
      return `"${token.op}"`
    case 'adj':
    case 'suffix':
    case 'slash':
      return `"${token.text}"`
    case 'word':
    case 'quoted':
      return `"${truncateForMessage(token.text, 40)}"`
  }
}

/** Gives every text below `node` without a field of its own the suffix's field codes. */
function applyCodes(node: OvidNode, codes: string[]): OvidNode {
  switch (node.kind) {
    case 'text':
      return node.codes === null ? { ...node, codes } : node
    case 'adj':
      return { ...node, children: node.children.map((child) => applyCodes(child, codes)) }
    case 'bool':
      return { ...node, left: applyCodes(node.left, codes), right: applyCodes(node.right, codes) }
    case 'ref':
      throw new LineProblem(`a field suffix cannot apply to line ${node.line}`)
    default:
      // `humans.sh.` is a heading search; a heading with `/` keeps its own meaning.
      return node
  }
}

// ---------------------------------------------------------------------------------------------
// Ovid tree → PubMed tree

interface Context {
  readonly line: number
  readonly notes: OvidNote[]
  readonly maxExpansion: number
}

/** Records a note; the same message on the same line is counted once with its first construct. */
const note = (context: Context, kind: OvidNoteKind, construct: string, message: string): void => {
  const index = context.notes.findIndex(
    (n) => n.line === context.line && n.kind === kind && n.message === message,
  )
  const previous = context.notes[index]
  if (previous === undefined) {
    context.notes.push({ line: context.line, kind, construct, message, count: 1 })
  } else if (previous.construct !== construct) {
    context.notes[index] = { ...previous, count: previous.count + 1 }
  }
}

const or = (nodes: QueryNode[]): QueryNode => {
  const flat = nodes.flatMap((node) => (node.kind === 'or' ? node.children : [node]))
  return flat.length === 1 ? (flat[0] as QueryNode) : { kind: 'or', children: flat }
}
const and = (nodes: QueryNode[]): QueryNode => {
  const flat = nodes.flatMap((node) => (node.kind === 'and' ? node.children : [node]))
  return flat.length === 1 ? (flat[0] as QueryNode) : { kind: 'and', children: flat }
}

/** Ovid wildcards in one word → PubMed's `*`, noting every change. */
function convertWord(word: string, context: Context): string {
  let out = word
  const limited = /\$(\d+)$/.exec(out)
  if (limited !== null) {
    note(
      context,
      'limited-truncation',
      word,
      `PubMed has no limited truncation: "$${limited[1] ?? ''}" (at most ${limited[1] ?? ''} more characters) searched as unlimited "*"`,
    )
    out = out.slice(0, limited.index) + '*'
  }
  out = out.replace(/[$:]$/, '*').replaceAll('$', '*')
  const inner = /[#?]/.exec(out)
  if (inner !== null) {
    const kind = inner[0] === '#' ? 'one character' : 'zero or one character'
    if (inner.index >= 4) {
      note(
        context,
        'wildcard',
        word,
        `PubMed has no "${inner[0]}" wildcard (${kind}): truncated at it, "${out.slice(0, inner.index)}*"`,
      )
      out = `${out.slice(0, inner.index)}*`
    } else if (inner[0] === '?') {
      const dropped = out.replaceAll('?', '')
      note(
        context,
        'wildcard',
        word,
        `PubMed has no "?" wildcard (zero or one character) and needs 4 characters before "*": searched as "${dropped}" only (the spelling without the extra character)`,
      )
      out = dropped
    } else {
      throw new LineProblem(
        `"${word}": PubMed has no "#" wildcard and "${out.slice(0, inner.index)}*" is too short to truncate`,
      )
    }
  }
  const star = out.indexOf('*')
  if (star !== -1) {
    out = out.slice(0, star + 1)
    if (star < 4) {
      const stem = out.slice(0, star)
      note(
        context,
        'short-truncation',
        word,
        `PubMed needs 4 characters before "*": searched as the exact word "${stem}"`,
      )
      out = stem
    }
  }
  if (out === '') {
    throw new LineProblem(`"${word}" has no letters left once its wildcards are removed`)
  }
  return out
}

/** The PubMed fields of a text's Ovid codes, with notes. */
function targetFields(codes: readonly string[] | null, context: Context): TargetField[] {
  if (codes === null) {
    note(
      context,
      'default-field',
      '(no field)',
      "a term without a field suffix is searched in Ovid's default fields (.mp.), as PubMed [tw]",
    )
    return ['tw']
  }
  const fields: TargetField[] = []
  for (const code of codes) {
    const mapping = FIELD_MAP[code]
    if (mapping === undefined) {
      note(
        context,
        'field',
        `.${code}.`,
        `Ovid field .${code}. has no PubMed counterpart: searched as [tw]`,
      )
      fields.push('tw')
      continue
    }
    // `.ti,ab.` is exactly [tiab]: no note for its abstract part
    if (mapping.note !== undefined && !(code === 'ab' && codes.includes('ti'))) {
      note(context, 'field', `.${code}.`, mapping.note)
    }
    fields.push(...mapping.fields)
  }
  const unique = [...new Set(fields)]
  if (unique.includes('ti') && unique.includes('ab')) {
    return [
      'tiab',
      ...unique.filter((field) => field !== 'ti' && field !== 'ab' && field !== 'tiab'),
    ]
  }
  return unique
}

const makeTerm = (text: string, field: TargetField, quoted: boolean): TermNode => ({
  kind: 'term',
  text,
  quoted,
  field: field === 'mh-noexp' ? 'mh' : field === 'sh-noexp' ? 'sh' : field,
  noExplode: field === 'mh-noexp' || field === 'sh-noexp',
  wildcard: text.includes('*'),
})

/** Whether a term must be quoted to be one PubMed term (several words, or characters PubMed splits on). */
const needsQuotes = (words: readonly string[]): boolean =>
  words.length > 1 ||
  words.some(
    (word) =>
      /^(?:AND|OR|NOT)$/.test(word) ||
      /^#\d+$/.test(word) ||
      /[[\]]/.test(word) ||
      word.startsWith(':'),
  )

function textNode(node: Extract<OvidNode, { kind: 'text' }>, context: Context): QueryNode {
  const fields = targetFields(node.codes, context)
  let words = node.words.map((word) => convertWord(word, context))
  if (fields.length === 1 && fields[0] === 'sh-noexp' && words.length === 1) {
    // `dt.fs.`: a floating subheading by its abbreviation
    words = (MESH_QUALIFIER_NAMES[(words[0] ?? '').toLowerCase()] ?? words[0] ?? '').split(' ')
  }
  const text = words.join(' ')
  if (words.slice(0, -1).some((word) => word.endsWith('*'))) {
    note(
      context,
      'wildcard',
      node.words.join(' '),
      'a phrase with a truncated word before its last: PubMed truncates a phrase at its end; pubmatch searches it as written',
    )
  }
  return or(fields.map((field) => dateOrTerm(text, field, needsQuotes(words))))
}

/** `1990.yr.` and `1990-2000.yr.` become PubMed date ranges. */
function dateOrTerm(text: string, field: TargetField, quoted: boolean): QueryNode {
  if (field === 'dp' || field === 'edat' || field === 'epdat') {
    const range = /^(\d{4})(?:\d{4})?\s*-\s*(\d{4}|current)(?:\d{4})?$/i.exec(text)
    if (range !== null) {
      return {
        kind: 'range',
        field,
        from: range[1] ?? '',
        to: /current/i.test(range[2] ?? '') ? '3000' : (range[2] ?? ''),
      }
    }
    // Ovid's dates are yyyymmdd, truncated to a prefix (`2012*.ed.`): PubMed's partial date
    // `2012[edat]` is that whole year (`2012/03` a month), the same set exactly
    const prefix = /^(\d{4})(\d{2})?(\d{2})?\*?$/.exec(text)
    if (prefix !== null) {
      return makeTerm(
        [prefix[1], prefix[2], prefix[3]].filter((part) => part !== undefined).join('/'),
        field,
        false,
      )
    }
  }
  return makeTerm(text, field, quoted)
}

function headingNode(node: Extract<OvidNode, { kind: 'heading' }>, context: Context): QueryNode {
  const field: PubmedField = node.major ? 'majr' : 'mh'
  const heading = node.text.replace(/\s+/g, ' ')
  if (node.qualifiers.length === 0) {
    return {
      kind: 'term',
      text: heading,
      quoted: true,
      field,
      noExplode: !node.explode,
      wildcard: false,
    }
  }
  const terms = node.qualifiers.map((qualifier): QueryNode => {
    const name = MESH_QUALIFIER_NAMES[qualifier]
    if (name === undefined) {
      throw new LineProblem(`"/${qualifier}" is not a MeSH subheading`)
    }
    return {
      kind: 'term',
      text: `${heading}/${name}`,
      quoted: true,
      field,
      noExplode: !node.explode,
      wildcard: false,
    }
  })
  note(
    context,
    'subheading',
    `${node.text}/${node.qualifiers.join(',')}`,
    'written as PubMed heading/subheading pairs ("X/drug therapy"[mh]); pubmatch matches a pair only if its index holds heading/subheading combinations',
  )
  return or(terms)
}

/** The alternatives of one adjacency operand: lists of words, or `null` when it is not text. */
function alternatives(node: OvidNode): Array<{ words: string[]; codes: string[] | null }> | null {
  if (node.kind === 'text') {
    return [{ words: node.words, codes: node.codes }]
  }
  if (node.kind === 'bool' && node.op === 'or') {
    const left = alternatives(node.left)
    const right = alternatives(node.right)
    return left === null || right === null ? null : [...left, ...right]
  }
  if (node.kind === 'adj' && node.distances.every((distance) => distance === null)) {
    const parts = node.children.map(alternatives)
    if (parts.some((part) => part === null || part.length !== 1)) {
      return null
    }
    return [
      {
        words: parts.flatMap((part) => part?.[0]?.words ?? []),
        codes: parts[0]?.[0]?.codes ?? null,
      },
    ]
  }
  return null
}

function adjacencyNode(node: Extract<OvidNode, { kind: 'adj' }>, context: Context): QueryNode {
  const operands = node.children.map(alternatives)
  if (operands.some((operand) => operand === null)) {
    note(
      context,
      'adjacency',
      node.text,
      'adjacency between groups that are not plain words (headings, line numbers, AND/NOT): written as AND',
    )
    return and(node.children.map((child) => translateNode(child, context)))
  }
  const lists = operands as Array<Array<{ words: string[]; codes: string[] | null }>>
  const codes = lists[0]?.[0]?.codes ?? null
  const fields = targetFields(codes, context)
  // Plain `adj` is Ovid's phrase operator (words next to each other, in order).
  if (node.distances.every((distance) => distance === null)) {
    const combos = product(lists)
    return or(
      combos.flatMap((combo) => {
        const words = combo.flatMap((part) => part.words).map((word) => convertWord(word, context))
        return fields.map((field) => makeTerm(words.join(' '), field, true))
      }),
    )
  }
  // Ovid adjN: the words within N - 1 words of each other, in any order; PubMed ~N counts the
  // words allowed between, so adjN is ~(N - 1). Plain `adj` inside a chain counts as adj1.
  const distances = node.distances.map((distance) => Math.max((distance ?? 1) - 1, 0))
  const distance = Math.max(...distances)
  if (new Set(distances).size > 1) {
    note(
      context,
      'adjacency',
      node.text,
      `a chain of different adjacency distances: PubMed proximity takes one distance for all its words, the widest (~${distance})`,
    )
  }
  const combos = product(lists)
  const exact = (combo: Array<{ words: string[] }>): boolean =>
    combo.every((part) => part.words.every((word) => !/[$*:#?]/.test(word)))
  if (!combos.some(exact) || !fields.some((field) => PROXIMITY_FIELDS.has(field))) {
    note(
      context,
      'adjacency',
      node.text,
      fields.some((field) => PROXIMITY_FIELDS.has(field))
        ? 'PubMed proximity takes exact words only, and every combination here has a truncated word: written as AND of the groups in the same field (no distance)'
        : `PubMed proximity works in [ti], [tiab] and [ad] only: in [${fields.join('], [')}] written as AND of the groups (no distance)`,
    )
    return and(node.children.map((child) => translateNode(child, context)))
  }
  if (combos.length > context.maxExpansion) {
    note(
      context,
      'adjacency',
      node.text,
      `${node.text} over ${combos.length} word combinations (more than ${context.maxExpansion}): written as AND of the groups in the same field`,
    )
    return and(node.children.map((child) => translateNode(child, context)))
  }
  const out: QueryNode[] = []
  for (const combo of combos) {
    const words = combo.flatMap((part) => part.words).map((word) => convertWord(word, context))
    const truncated = words.some((word) => word.includes('*'))
    for (const field of fields) {
      if (!truncated && PROXIMITY_FIELDS.has(field) && words.length >= 2) {
        out.push({
          kind: 'proximity',
          text: words.join(' '),
          field: field as ProximityField,
          distance,
        })
        continue
      }
      if (truncated) {
        note(
          context,
          'adjacency',
          node.text,
          `PubMed proximity takes exact words only: a combination with a truncated word is written as AND of its words in the field (no distance)`,
        )
      } else {
        note(
          context,
          'adjacency',
          node.text,
          `PubMed proximity works in [ti], [tiab] and [ad] only: in [${field}] written as AND (no distance)`,
        )
      }
      out.push(
        and(
          combo.map((part) => {
            const partWords = part.words.map((word) => convertWord(word, context))
            return makeTerm(partWords.join(' '), field, needsQuotes(partWords))
          }),
        ),
      )
    }
  }
  if (lists.some((list) => list.some((part) => part.words.length > 1))) {
    note(
      context,
      'adjacency',
      node.text,
      'a phrase inside an adjacency: its words join the proximity search, so their own order and spacing are not kept',
    )
  }
  return or(out)
}

function product<T>(lists: readonly (readonly T[])[]): T[][] {
  let out: T[][] = [[]]
  for (const list of lists) {
    out = out.flatMap((prefix) => list.map((item) => [...prefix, item]))
    if (out.length > 100_000) {
      return out
    }
  }
  return out
}

function translateNode(node: OvidNode, context: Context): QueryNode {
  switch (node.kind) {
    case 'text':
      return textNode(node, context)
    case 'heading':
      return headingNode(node, context)
    case 'ref':
      return { kind: 'history', index: node.line }
    case 'pubmed':
      return node.node
    case 'adj':
      return adjacencyNode(node, context)
    case 'bool': {
      const left = translateNode(node.left, context)
      const right = translateNode(node.right, context)
      if (node.op === 'not') {
        return { kind: 'not', include: left, exclude: right }
      }
      return node.op === 'and' ? and([left, right]) : or([left, right])
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Line commands: `or/1-3`, `limit 4 to …`, `remove duplicates from 5`

/** `1-3,5` → [1, 2, 3, 5]. */
function lineList(text: string, current: number): number[] {
  const lines: number[] = []
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const range = /^(\d+)\s*-\s*(\d+)$/.exec(part)
    const from = Number(range?.[1] ?? part)
    const to = Number(range?.[2] ?? part)
    if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 1 || to < from) {
      throw new LineProblem(`"${part}" is not a line number or range`)
    }
    if (to >= current) {
      throw new LineProblem(`line ${to} is not an earlier line`)
    }
    for (let line = from; line <= to; line += 1) {
      lines.push(line)
    }
  }
  return lines
}

/** The PubMed filter of one `limit … to X` value, and a note when it is not exact. */
function limitFilter(value: string, context: Context): QueryNode | null {
  const text = value
    .trim()
    .replace(/^\(|\)$/g, '')
    .trim()
  const parts = text.split(/\s+and\s+/i)
  if (parts.length > 1) {
    const filters = parts.map((part) => limitFilter(part, context))
    return filters.some((filter) => filter === null) ? null : and(filters as QueryNode[])
  }
  const yr = /^yr\s*=\s*"?\s*(\d{4})\s*(?:-\s*(\d{4}|current)\s*)?"?$/i.exec(text)
  if (yr !== null) {
    const to = yr[2] === undefined ? (yr[1] ?? '') : /current/i.test(yr[2]) ? '3000' : yr[2]
    return { kind: 'range', field: 'dp', from: yr[1] ?? '', to }
  }
  const ed = /^ed\s*=\s*"?\s*(\d{4})(\d{2})(\d{2})\s*-\s*(\d{4})(\d{2})(\d{2})\s*"?$/i.exec(text)
  if (ed !== null) {
    return {
      kind: 'range',
      field: 'edat',
      from: `${ed[1]}/${ed[2]}/${ed[3]}`,
      to: `${ed[4]}/${ed[5]}/${ed[6]}`,
    }
  }
  const term = (word: string, field: PubmedField): TermNode => ({
    kind: 'term',
    text: word,
    quoted: word.includes(' '),
    field,
    noExplode: false,
    wildcard: false,
  })
  const key = text.replace(/^"|"$/g, '').toLowerCase()
  switch (key) {
    case 'english':
    case 'english language':
      return term('english', 'la')
    case 'humans':
      return term('humans', 'mh')
    case 'animals':
      return term('animals', 'mh')
    case 'abstracts':
      return term('hasabstract', 'filter')
    case 'male':
    case 'female':
      return term(key, 'mh')
    case 'randomized controlled trial':
    case 'clinical trial':
    case 'meta analysis':
    case 'review':
    case 'systematic review':
      return term(key === 'meta analysis' ? 'meta-analysis' : key, 'pt')
    case 'reviews (maximizes specificity)':
      note(
        context,
        'limit',
        value,
        'Ovid\'s clinical-query filter "reviews (maximizes specificity)" (a hedge of its own) has no PubMed twin: PubMed\'s systematic review filter systematic[sb] is used instead',
      )
      return term('systematic', 'filter')
    default:
      return null
  }
}

/** A whole-line command, or `null` when the line is a search expression. */
function lineCommand(text: string, lineNumber: number, context: Context): OvidNode | null {
  const range = /^(and|or)\s*\/\s*([\d,\s-]+)$/i.exec(text)
  if (range !== null) {
    const lines = lineList(range[2] ?? '', lineNumber)
    const refs = lines.map((line): QueryNode => ({ kind: 'history', index: line }))
    return { kind: 'pubmed', node: range[1]?.toLowerCase() === 'and' ? and(refs) : or(refs) }
  }
  const limit = /^limit\s+(\d+)\s+to\s+(.+)$/i.exec(text)
  if (limit !== null) {
    const [target] = lineList(limit[1] ?? '', lineNumber)
    const base: QueryNode = { kind: 'history', index: target ?? 0 }
    const filter = limitFilter(limit[2] ?? '', context)
    if (filter === null) {
      note(
        context,
        'limit',
        text,
        `no PubMed filter known for limit "${limit[2] ?? ''}": the limit is left out (line ${target ?? ''} unlimited)`,
      )
      return { kind: 'pubmed', node: base }
    }
    return { kind: 'pubmed', node: and([base, filter]) }
  }
  const duplicates = /^remove\s+duplicates\s+from\s+(\d+)$/i.exec(text)
  if (duplicates !== null) {
    const [target] = lineList(duplicates[1] ?? '', lineNumber)
    note(context, 'dropped', text, 'PubMed has no duplicates to remove: the line is its input line')
    return { kind: 'pubmed', node: { kind: 'history', index: target ?? 0 } }
  }
  return null
}

// ---------------------------------------------------------------------------------------------
// The strategy

interface SourceLine {
  readonly line: number
  readonly text: string
}

/** Replaces `pattern` in the parts of `text` outside double quotes. */
function outsideQuotes(text: string, pattern: RegExp, replace: (match: string) => string): string {
  return text
    .split(/(["\u201C\u201D][^"\u201C\u201D]*["\u201C\u201D])/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(pattern, replace)))
    .join('')
}

/** The search lines of a strategy: its own numbers when every line has one, else the order. */
function splitLines(text: string, notes: OvidNote[]): SourceLine[] {
  const raw = text.split(/\r?\n/).filter((line) => line.trim() !== '')
  const numbered = raw.map((line) => /^\s*(\d+)\s*[.)]?\s+(\S.*)$/.exec(line))
  const ownNumbers =
    raw.length > 1 &&
    numbered.every((match, i) => match !== null && Number(match[1]) === i + 1) &&
    // `1 or 2` as line 1 is a combination, never a numbered line
    numbered.some((match) => !/^(?:and|or|not)\b/i.test(match?.[2] ?? ''))
  return raw.map((line, i) => {
    let body = ownNumbers ? (numbered[i]?.[2] ?? line) : line
    body = body.trim()
    if (ownNumbers) {
      const count = /\s\(\d+\)$/.exec(body)
      if (count !== null) {
        body = body.slice(0, count.index).trim()
      }
    }
    // Ovid's annotations: `[mp=title, abstract, …]`, `Lasers/du [Diagnostic Use]`
    body = outsideQuotes(body, /\s*\[[^\]"\u201C\u201D]*\]/g, (annotation) => {
      notes.push({
        line: i + 1,
        kind: 'dropped',
        construct: annotation.trim(),
        message: "a bracketed annotation of Ovid's display is not part of the search: dropped",
        count: 1,
      })
      return ''
    })
    return { line: i + 1, text: body.trim() }
  })
}

/** Substitutes every history reference by the line's query. */
function resolve(node: QueryNode, resolved: ReadonlyMap<number, QueryNode>): QueryNode {
  switch (node.kind) {
    case 'history': {
      const target = resolved.get(node.index)
      if (target === undefined) {
        throw new PubmatchError(
          'INTERNAL',
          `line ${node.index} was not resolved (ovid-translate.ts)`,
        )
      }
      return target
    }
    case 'and':
      return and(node.children.map((child) => resolve(child, resolved)))
    case 'or':
      return or(node.children.map((child) => resolve(child, resolved)))
    case 'not':
      return {
        kind: 'not',
        include: resolve(node.include, resolved),
        exclude: resolve(node.exclude, resolved),
      }
    default:
      return node
  }
}

const referencesOf = (node: QueryNode, out: Set<number> = new Set()): Set<number> => {
  switch (node.kind) {
    case 'history':
      out.add(node.index)
      break
    case 'and':
    case 'or':
      node.children.forEach((child) => referencesOf(child, out))
      break
    case 'not':
      referencesOf(node.include, out)
      referencesOf(node.exclude, out)
      break
    default:
  }
  return out
}

/**
 * Translates an Ovid MEDLINE search strategy into PubMed queries: one per line (earlier lines
 * as `#N`) and the final line's with every line reference resolved. Lines are numbered by the
 * strategy's own numbers when every line starts with its number (`1. exp Glaucoma/`, hit counts
 * such as `(1234)` then dropped), else by their order. A line that cannot be translated is
 * reported in its `problem` and the others go on; lines that refer to it fail too.
 *
 * Mapping (see the notes for each approximation): `exp X/` → `"X"[mh]`, `X/` → `"X"[mh:noexp]`,
 * `*X/` → `[majr]`, `X/dt` → `"X/drug therapy"[mh:noexp]`; `.tw.` → `[tiab]`, `.ti,ab.` →
 * `[tiab]`, `.mp.` → `[tw]`, `.sh.` → `[mh:noexp]`, `.pt.` → `[pt]`, `.au.` → `[au]`, `.fs.` →
 * `[sh]`; `$`, `*`, `:` → `*` (`$N` unlimited); `a adjN b` → `"a b"[tiab:~N-1]` (exact words
 * only; truncated words → AND); `or/1-3`, `1 and 2` → OR/AND of the lines; `limit N to english
 * language` → `english[la]`, `yr="1970 -Current"` → `1970:3000[dp]`, `humans` → `humans[mh]`.
 * @param text - the strategy, one search per line
 * @param options - see {@link TranslateOvidOptions}
 * @throws PubmatchError `QUERY_SYNTAX` when the strategy has no line, when `finalLine` is not one
 *   of its lines, or when the final line cannot be translated (naming the line and why)
 */
export function translateOvid(text: string, options: TranslateOvidOptions = {}): OvidTranslation {
  const notes: OvidNote[] = []
  const where = options.source === undefined ? '' : ` in ${options.source}`
  const lines = splitLines(text, notes)
  if (lines.length === 0) {
    throw new PubmatchError('QUERY_SYNTAX', `the Ovid strategy has no search line${where}`, {
      details: {
        problem: 'EMPTY_QUERY',
        ...(options.source === undefined ? {} : { record: options.source }),
      },
    })
  }
  const finalLine = options.finalLine ?? lines.length
  if (!Number.isSafeInteger(finalLine) || finalLine < 1 || finalLine > lines.length) {
    throw new PubmatchError(
      'QUERY_SYNTAX',
      `the Ovid strategy has no line ${finalLine} (it has ${lines.length})${where}`,
      {
        details: { problem: 'OVID_SYNTAX', line: finalLine },
      },
    )
  }
  const perLine = new Map<number, QueryNode>()
  const problems = new Map<number, string>()
  const out: OvidTranslatedLine[] = []
  for (const { line, text: body } of lines) {
    const context: Context = { line, notes, maxExpansion: options.maxAdjacencyExpansion ?? 64 }
    try {
      const node = translateLine(body, line, context)
      const broken = [...referencesOf(node)].filter((ref) => problems.has(ref))
      if (broken.length > 0) {
        throw new LineProblem(
          `refers to line${broken.length > 1 ? 's' : ''} ${broken.join(', ')}, which could not be translated`,
        )
      }
      perLine.set(line, node)
      out.push({ line, ovid: body, pubmed: checkedText(node) })
    } catch (error) {
      if (!(error instanceof LineProblem)) {
        throw error
      }
      problems.set(line, error.message)
      out.push({ line, ovid: body, pubmed: null, problem: error.message })
    }
  }
  const finalProblem = problems.get(finalLine)
  if (finalProblem !== undefined) {
    const body = lines[finalLine - 1]?.text ?? ''
    throw new PubmatchError(
      'QUERY_SYNTAX',
      `Ovid line ${finalLine} cannot be translated${where}: ${finalProblem}: ${JSON.stringify(truncateForMessage(body, 200))}`,
      {
        details: {
          problem: 'OVID_SYNTAX',
          line: finalLine,
          ...(options.source === undefined ? {} : { record: options.source }),
        },
      },
    )
  }
  const resolved = new Map<number, QueryNode>()
  for (const [line, node] of perLine) {
    if (line > finalLine) {
      break
    }
    resolved.set(line, resolve(node, resolved))
  }
  const node = resolved.get(finalLine) as QueryNode
  let query: string
  try {
    query = checkedText(node)
  } catch (error) {
    if (!(error instanceof LineProblem)) {
      throw error
    }
    throw new PubmatchError(
      'QUERY_SYNTAX',
      `Ovid line ${finalLine} cannot be translated${where}: once line references are resolved, ${error.message}`,
      {
        details: {
          problem: 'OVID_SYNTAX',
          line: finalLine,
          ...(options.source === undefined ? {} : { record: options.source }),
        },
      },
    )
  }
  const used = new Set<number>([finalLine])
  for (let line = finalLine; line >= 1; line -= 1) {
    const lineNode = perLine.get(line)
    if (used.has(line) && lineNode !== undefined) {
      referencesOf(lineNode).forEach((ref) => used.add(ref))
    }
  }
  const unused = lines.map((l) => l.line).filter((line) => !used.has(line))
  if (unused.length > 0) {
    notes.push({
      line: finalLine,
      kind: 'unused-lines',
      construct: unused.join(', '),
      message: `the final line ${finalLine} does not use line${unused.length > 1 ? 's' : ''} ${unused.join(', ')}`,
      count: unused.length,
    })
  }
  notes.sort((a, b) => a.line - b.line)
  return { lines: out, finalLine, query, node, notes }
}

/** Whether two query trees are equal (same kinds, fields and texts, children in order). */
function sameTree(a: QueryNode, b: QueryNode): boolean {
  switch (a.kind) {
    case 'term':
      return (
        b.kind === 'term' &&
        a.text === b.text &&
        a.quoted === b.quoted &&
        a.field === b.field &&
        a.noExplode === b.noExplode &&
        a.wildcard === b.wildcard
      )
    case 'proximity':
      return (
        b.kind === 'proximity' &&
        a.text === b.text &&
        a.field === b.field &&
        a.distance === b.distance
      )
    case 'range':
      return b.kind === 'range' && a.field === b.field && a.from === b.from && a.to === b.to
    case 'history':
      return b.kind === 'history' && a.index === b.index
    case 'not':
      return b.kind === 'not' && sameTree(a.include, b.include) && sameTree(a.exclude, b.exclude)
    case 'and':
    case 'or':
      return (
        b.kind === a.kind &&
        a.children.length === b.children.length &&
        a.children.every((child, i) => sameTree(child, b.children[i] as QueryNode))
      )
  }
}

/**
 * The PubMed text of a translated tree, checked: it must parse back to the same tree, so that
 * what is printed is what is searched. A failure is the line's problem.
 */
function checkedText(node: QueryNode): string {
  let text: string
  let reparsed: QueryNode
  try {
    text = formatQuery(node)
    reparsed = parseQuery(text, { detectOvid: false })
  } catch (error) {
    if (error instanceof PubmatchError) {
      throw new LineProblem(
        `the translation is not valid PubMed (${error.message.split('\n')[0] ?? ''})`,
      )
    }
    throw error
  }
  if (!sameTree(reparsed, node)) {
    throw new LineProblem(
      `the translation does not read back as PubMed the way it was built: ${truncateForMessage(text, 120)}`,
    )
  }
  return text
}

function translateLine(body: string, line: number, context: Context): QueryNode {
  const command = lineCommand(body, line, context)
  if (command !== null) {
    return translateNode(command, context)
  }
  if (/^\s*(?:and|or)\s*\//i.test(body) || /^\s*limit\s/i.test(body)) {
    throw new LineProblem(`cannot read the line command "${truncateForMessage(body, 80)}"`)
  }
  const parser = new LineParser(tokenize(body), line)
  const tree = parser.parse()
  if (parser.mixed) {
    note(
      context,
      'precedence',
      body,
      'different Boolean operators without parentheses: read left to right, as PubMed does (check the line in Ovid)',
    )
  }
  return translateNode(tree, context)
}
