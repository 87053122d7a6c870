/**
 * The citation sensor's records in a compact binary table: the records' strings once each, their
 * parts as columns of string numbers, and the matcher's three lookups (folded titles by hash,
 * journal name variants and the year, volume, issue and first-page tokens, each with the records
 * it names) as sorted arrays. Opening one is making typed-array views over its bytes, so an engine
 * opens a table of 100,000 records without building a JavaScript object per record; the matcher
 * decodes only the records a query's journal and numbers point at, and answers exactly as
 * {@link createCitationMatcher} over the same records (a property test pins it).
 */
import { PubmatchError } from '@pubmatch/core'
import {
  FILLER,
  foldCitationText,
  journalVariants,
  matchParts,
  MAX_CITATION_PARTS,
  MIN_TITLE_WORDS,
  pagesOf,
  prepareRecord,
  SYNTAX,
  tokenSet,
  type CitationField,
  type CitationMatch,
  type CitationMatcher,
  type CitationRecord,
  type Prepared,
} from './citation.ts'

const MAGIC = 0x54434d50 // "PMCT", little-endian
const VERSION = 1
const HEADER_WORDS = 12
/** No string (an absent part). */
const NONE = 0xffffffff
/** No year (the year column is signed). */
const NO_YEAR = -0x80000000

/** The string columns of a record, then the year. */
const ID = 0
const TITLE = 1
const JOURNAL_TITLE = 2
const JOURNAL_ISO = 3
const JOURNAL_MEDLINE_TA = 4
const VOLUME = 5
const ISSUE = 6
const PAGINATION = 7
const LAST_NAME = 8
const INITIALS = 9
const YEAR = 10
const COLUMNS = 11

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** FNV-1a (32 bits) of bytes: the title lookup's hash. */
function fnv1a(bytes: Uint8Array): number {
  let hash = 0x811c9dc5
  for (const byte of bytes) {
    hash = Math.imul(hash ^ byte, 0x01000193) >>> 0
  }
  return hash
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const d = a[i]! - b[i]!
    if (d !== 0) {
      return d
    }
  }
  return a.length - b.length
}

/** Options of {@link encodeCitationTable}. */
export interface CitationTableOptions {
  /** A text kept in the header (what the caller keys the table by), read back as the opened table's `tag`. Defaults to none. */
  readonly tag?: string
}

/**
 * The citation table of records, as bytes (see {@link openCitationTable}).
 * @param records - the citation records (of the documents a search can return)
 * @param options - see {@link CitationTableOptions}
 */
export function encodeCitationTable(
  records: Iterable<CitationRecord>,
  options: CitationTableOptions = {},
): Uint8Array {
  const strings: string[] = []
  const stringIds = new Map<string, number>()
  const intern = (text: string | undefined): number => {
    if (text === undefined) {
      return NONE
    }
    let id = stringIds.get(text)
    if (id === undefined) {
      id = strings.length
      strings.push(text)
      stringIds.set(text, id)
    }
    return id
  }
  const columns: number[] = []
  const titles: Array<{ hash: number; record: number }> = []
  const journals = new Map<string, { records: number[]; names: Set<string | undefined> }>()
  const tokens = new Map<string, number[]>()
  let longestJournal = 0
  let count = 0
  const addToken = (token: string | undefined, record: number): void => {
    if (token === undefined) {
      return
    }
    const list = tokens.get(token)
    if (list === undefined) {
      tokens.set(token, [record])
    } else if (list[list.length - 1] !== record) {
      list.push(record)
    }
  }
  for (const record of records) {
    const r = count++
    const journal = record.journal
    const year = record.year
    if (year !== undefined && (!Number.isInteger(year) || year <= NO_YEAR || year > 0x7fffffff)) {
      throw new PubmatchError(
        'INVALID_ARGUMENT',
        `citation record ${record.id}: year ${year} is not a 32-bit integer`,
        { details: { record: record.id } },
      )
    }
    columns.push(
      intern(record.id),
      intern(record.title),
      intern(journal?.title),
      intern(journal?.isoAbbreviation),
      intern(journal?.medlineTa),
      intern(record.volume),
      intern(record.issue),
      intern(record.pagination),
      intern(record.firstAuthor?.lastName),
      intern(record.firstAuthor?.initials),
      year ?? NO_YEAR,
    )
    const title = foldCitationText(record.title)
    if (title.split(' ').length >= MIN_TITLE_WORDS) {
      titles.push({ hash: fnv1a(encoder.encode(title)), record: r })
    }
    if (journal !== undefined) {
      for (const variant of journalVariants(journal)) {
        let entry = journals.get(variant)
        if (entry === undefined) {
          entry = { records: [], names: new Set() }
          journals.set(variant, entry)
        }
        entry.records.push(r)
        entry.names.add(journal.medlineTa ?? journal.isoAbbreviation ?? journal.title)
        longestJournal = Math.max(longestJournal, variant.split(' ').length)
      }
    }
    // what a citation of this record must name beside its journal: its year, a word of its volume
    // or issue, or its first page (see `candidates` in the matcher)
    addToken(year === undefined ? undefined : String(year), r)
    for (const token of tokenSet(record.volume)) {
      addToken(token, r)
    }
    for (const token of tokenSet(record.issue)) {
      addToken(token, r)
    }
    addToken(record.pagination === undefined ? undefined : pagesOf(record.pagination).first, r)
  }
  titles.sort((a, b) => a.hash - b.hash || a.record - b.record)
  const sortedKeys = <T>(
    map: Map<string, T>,
  ): Array<{ key: string; bytes: Uint8Array; value: T }> =>
    [...map]
      .map(([key, value]) => ({ key, bytes: encoder.encode(key), value }))
      .sort((a, b) => compareBytes(a.bytes, b.bytes))
  const journalEntries = sortedKeys(journals)
  const tokenEntries = sortedKeys(tokens)
  const journalKeys = journalEntries.map((e) => intern(e.key))
  const journalAnswers = journalEntries.map((e) => {
    const names = [...e.value.names]
    return names.length === 1 ? intern(names[0]) : NONE
  })
  const tokenKeys = tokenEntries.map((e) => intern(e.key))
  const tag = intern(options.tag)
  const encodedStrings = strings.map((s) => encoder.encode(s))
  const stringBytes = encodedStrings.reduce((sum, b) => sum + b.length, 0)
  const journalPostings = journalEntries.reduce((sum, e) => sum + e.value.records.length, 0)
  const tokenPostings = tokenEntries.reduce((sum, e) => sum + e.value.length, 0)
  const words =
    HEADER_WORDS +
    (strings.length + 1) +
    count * COLUMNS +
    titles.length * 2 +
    journalEntries.length * 2 +
    (journalEntries.length + 1) +
    journalPostings +
    tokenEntries.length +
    (tokenEntries.length + 1) +
    tokenPostings
  const bytes = new Uint8Array(words * 4 + Math.ceil(stringBytes / 4) * 4)
  const u32 = new Uint32Array(bytes.buffer, 0, words)
  const i32 = new Int32Array(bytes.buffer, 0, words)
  u32.set([
    MAGIC,
    VERSION,
    count,
    longestJournal,
    strings.length,
    stringBytes,
    titles.length,
    journalEntries.length,
    journalPostings,
    tokenEntries.length,
    tokenPostings,
    tag,
  ])
  let at = HEADER_WORDS
  let offset = 0
  for (const encoded of encodedStrings) {
    u32[at++] = offset
    offset += encoded.length
  }
  u32[at++] = offset
  i32.set(columns, at)
  at += columns.length
  for (const { hash } of titles) {
    u32[at++] = hash
  }
  for (const { record } of titles) {
    u32[at++] = record
  }
  u32.set(journalKeys, at)
  at += journalKeys.length
  u32.set(journalAnswers, at)
  at += journalAnswers.length
  let posting = 0
  for (const entry of journalEntries) {
    u32[at++] = posting
    posting += entry.value.records.length
  }
  u32[at++] = posting
  for (const entry of journalEntries) {
    u32.set(entry.value.records, at)
    at += entry.value.records.length
  }
  u32.set(tokenKeys, at)
  at += tokenKeys.length
  posting = 0
  for (const entry of tokenEntries) {
    u32[at++] = posting
    posting += entry.value.length
  }
  u32[at++] = posting
  for (const entry of tokenEntries) {
    u32.set(entry.value, at)
    at += entry.value.length
  }
  let byte = words * 4
  for (const encoded of encodedStrings) {
    bytes.set(encoded, byte)
    byte += encoded.length
  }
  return bytes
}

function corrupted(what: string): PubmatchError {
  return new PubmatchError('INDEX_CORRUPTED', `the citation table is damaged: ${what}`)
}

/** The header of a table, checked against its length. */
function readHeader(bytes: Uint8Array): Uint32Array {
  if (bytes.byteLength < HEADER_WORDS * 4) {
    throw corrupted(`${bytes.byteLength} bytes is shorter than its header`)
  }
  const header = new Uint32Array(bytes.slice(0, HEADER_WORDS * 4).buffer)
  if (header[0] !== MAGIC) {
    throw corrupted('it does not start with "PMCT"')
  }
  if (header[1] !== VERSION) {
    throw corrupted(`version ${header[1]}, this pubmatch reads version ${VERSION}`)
  }
  return header
}

/** A citation matcher over a table, and the table's tag. */
export interface CitationTable extends CitationMatcher {
  /** The tag the table was written with (see {@link CitationTableOptions}). */
  readonly tag: string | undefined
}

/**
 * A citation matcher over a table written by {@link encodeCitationTable}; it answers as
 * {@link createCitationMatcher} over the same records. The bytes are used in place (not copied
 * when 4-byte aligned) and must not change while the matcher is in use.
 * @param bytes - the table
 * @throws PubmatchError `INDEX_CORRUPTED` when the bytes are not a citation table of this version
 *   or do not hold together (lengths, offsets, record numbers)
 */
export function openCitationTable(bytes: Uint8Array): CitationTable {
  const steps = openCitationTableSteps(bytes)
  let step = steps.next()
  while (step.done !== true) {
    step = steps.next()
  }
  return step.value
}

/**
 * {@link openCitationTable} in steps: the checks of a large table (each a pass over one of its
 * arrays) are cut into steps of about {@link STEP_ENTRIES} entries, and `pause` is awaited between
 * two steps, so that a server opening a new table goes on answering meanwhile (`pause` lets its
 * event loop run).
 * @param bytes - the table
 * @param pause - awaited between steps
 * @throws PubmatchError as {@link openCitationTable}
 */
export async function openCitationTableInSteps(bytes: Uint8Array, pause: () => Promise<void>): Promise<CitationTable> {
  const steps = openCitationTableSteps(bytes)
  let step = steps.next()
  while (step.done !== true) {
    await pause()
    step = steps.next()
  }
  return step.value
}

/** Entries checked in one step of {@link openCitationTableInSteps}. */
const STEP_ENTRIES = 1 << 16
/** Records (of {@link COLUMNS} entries) checked in one step. */
const STEP_RECORDS = Math.floor(STEP_ENTRIES / COLUMNS)

function* openCitationTableSteps(bytes: Uint8Array): Generator<void, CitationTable> {
  const header = readHeader(bytes)
  const parts = yield* openCitationTableParts(bytes, header)
  const tag = header[11]!
  if (tag !== NONE && tag >= header[4]!) {
    throw corrupted(`its tag names string ${tag} of ${header[4]}`)
  }
  return { ...createTableMatcher(parts), tag: tag === NONE ? undefined : parts.string(tag) }
}

interface TableParts {
  readonly count: number
  readonly longestJournal: number
  readonly columns: Int32Array
  readonly titleHashes: Uint32Array
  readonly titleRecords: Uint32Array
  readonly journalKeys: Uint32Array
  readonly journalAnswers: Uint32Array
  readonly journalStarts: Uint32Array
  readonly journalPostings: Uint32Array
  readonly tokenKeys: Uint32Array
  readonly tokenStarts: Uint32Array
  readonly tokenPostings: Uint32Array
  stringBytes(id: number): Uint8Array
  string(id: number): string
}

function* openCitationTableParts(input: Uint8Array, header: Uint32Array): Generator<void, TableParts> {
  const [
    ,
    ,
    count,
    longestJournal,
    stringCount,
    stringByteLength,
    titleCount,
    journalCount,
    journalPostingCount,
    tokenCount,
    tokenPostingCount,
  ] = header as unknown as number[]
  const words =
    HEADER_WORDS +
    (stringCount! + 1) +
    count! * COLUMNS +
    titleCount! * 2 +
    journalCount! * 3 +
    1 +
    journalPostingCount! +
    tokenCount! * 2 +
    1 +
    tokenPostingCount!
  if (input.byteLength !== words * 4 + Math.ceil(stringByteLength! / 4) * 4) {
    throw corrupted(
      `${input.byteLength} bytes, its header describes ${words * 4 + Math.ceil(stringByteLength! / 4) * 4}`,
    )
  }
  const bytes = input.byteOffset % 4 === 0 ? input : input.slice()
  const u32 = new Uint32Array(bytes.buffer, bytes.byteOffset, words)
  const i32 = new Int32Array(bytes.buffer, bytes.byteOffset, words)
  let at = HEADER_WORDS
  const take = (n: number): Uint32Array => u32.subarray(at, (at += n))
  const offsets = take(stringCount! + 1)
  const columns = i32.subarray(at, (at += count! * COLUMNS))
  const titleHashes = take(titleCount!)
  const titleRecords = take(titleCount!)
  const journalKeys = take(journalCount!)
  const journalAnswers = take(journalCount!)
  const journalStarts = take(journalCount! + 1)
  const journalPostings = take(journalPostingCount!)
  const tokenKeys = take(tokenCount!)
  const tokenStarts = take(tokenCount! + 1)
  const tokenPostings = take(tokenPostingCount!)
  const text = bytes.subarray(words * 4, words * 4 + stringByteLength!)
  // everything a lookup follows must stay inside the table
  for (let i = 0; i < stringCount!; i++) {
    if (offsets[i]! > offsets[i + 1]!) {
      throw corrupted(`string ${i} ends before it starts`)
    }
    if (i % STEP_ENTRIES === STEP_ENTRIES - 1) {
      yield
    }
  }
  if (offsets[0] !== 0 || offsets[stringCount!] !== stringByteLength) {
    throw corrupted('its string offsets do not span its strings')
  }
  const checkStrings = function* (ids: Uint32Array | Int32Array, what: string, none: boolean): Generator<void> {
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!
      if (!(id >>> 0 < stringCount! || (none && id >>> 0 === NONE))) {
        throw corrupted(`${what} names string ${id >>> 0} of ${stringCount}`)
      }
      if (i % STEP_ENTRIES === STEP_ENTRIES - 1) {
        yield
      }
    }
  }
  for (let r = 0; r < count!; r++) {
    for (let c = r * COLUMNS; c < r * COLUMNS + YEAR; c++) {
      const id = columns[c]! >>> 0
      if (!(id < stringCount! || id === NONE)) {
        throw corrupted(`record ${r} names string ${id} of ${stringCount}`)
      }
    }
    if (columns[r * COLUMNS + ID]! >>> 0 === NONE || columns[r * COLUMNS + TITLE]! >>> 0 === NONE) {
      throw corrupted(`record ${r} has no id or title`)
    }
    if (r % STEP_RECORDS === STEP_RECORDS - 1) {
      yield
    }
  }
  yield* checkStrings(journalKeys, 'a journal entry', false)
  yield* checkStrings(journalAnswers, 'a journal entry', true)
  yield* checkStrings(tokenKeys, 'a token entry', false)
  const checkPostings = function* (
    starts: Uint32Array,
    postings: Uint32Array,
    records: Uint32Array,
    what: string,
  ): Generator<void> {
    for (let i = 0; i + 1 < starts.length; i++) {
      if (starts[i]! > starts[i + 1]!) {
        throw corrupted(`${what} ${i} ends before it starts`)
      }
      if (i % STEP_ENTRIES === STEP_ENTRIES - 1) {
        yield
      }
    }
    if (starts[0] !== 0 || starts[starts.length - 1] !== postings.length) {
      throw corrupted(`the ${what} postings do not span their array`)
    }
    for (let i = 0; i < records.length; i++) {
      const record = records[i]!
      if (record >= count!) {
        throw corrupted(`${what} names record ${record} of ${count}`)
      }
      if (i % STEP_ENTRIES === STEP_ENTRIES - 1) {
        yield
      }
    }
  }
  yield* checkPostings(journalStarts, journalPostings, journalPostings, 'journal entry')
  yield* checkPostings(tokenStarts, tokenPostings, tokenPostings, 'token entry')
  yield* checkPostings(new Uint32Array([0, titleRecords.length]), titleRecords, titleRecords, 'title')
  return {
    count: count!,
    longestJournal: longestJournal!,
    columns,
    titleHashes,
    titleRecords,
    journalKeys,
    journalAnswers,
    journalStarts,
    journalPostings,
    tokenKeys,
    tokenStarts,
    tokenPostings,
    stringBytes: (id) => text.subarray(offsets[id], offsets[id + 1]),
    string: (id) => decoder.decode(text.subarray(offsets[id], offsets[id + 1])),
  }
}

/** The entry of `key` among sorted string keys, or -1. */
function findKey(parts: TableParts, keys: Uint32Array, key: string): number {
  const bytes = encoder.encode(key)
  let lo = 0
  let hi = keys.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    const c = compareBytes(parts.stringBytes(keys[mid]!), bytes)
    if (c === 0) {
      return mid
    }
    if (c < 0) {
      lo = mid + 1
    } else {
      hi = mid - 1
    }
  }
  return -1
}

function createTableMatcher(parts: TableParts): CitationMatcher {
  const { columns } = parts
  const optional = (r: number, column: number): string | undefined => {
    const id = columns[r * COLUMNS + column]! >>> 0
    return id === NONE ? undefined : parts.string(id)
  }
  const record = (r: number): CitationRecord => {
    const title = optional(r, JOURNAL_TITLE)
    const isoAbbreviation = optional(r, JOURNAL_ISO)
    const medlineTa = optional(r, JOURNAL_MEDLINE_TA)
    const year = columns[r * COLUMNS + YEAR]!
    const volume = optional(r, VOLUME)
    const issue = optional(r, ISSUE)
    const pagination = optional(r, PAGINATION)
    const lastName = optional(r, LAST_NAME)
    const initials = optional(r, INITIALS)
    return {
      id: optional(r, ID)!,
      title: optional(r, TITLE)!,
      ...(title === undefined && isoAbbreviation === undefined && medlineTa === undefined
        ? {}
        : {
            journal: {
              ...(title === undefined ? {} : { title }),
              ...(isoAbbreviation === undefined ? {} : { isoAbbreviation }),
              ...(medlineTa === undefined ? {} : { medlineTa }),
            },
          }),
      ...(year === NO_YEAR ? {} : { year }),
      ...(volume === undefined ? {} : { volume }),
      ...(issue === undefined ? {} : { issue }),
      ...(pagination === undefined ? {} : { pagination }),
      ...(lastName === undefined
        ? {}
        : { firstAuthor: { lastName, ...(initials === undefined ? {} : { initials }) } }),
    }
  }
  const postings = (starts: Uint32Array, all: Uint32Array, entry: number): Uint32Array =>
    all.subarray(starts[entry], starts[entry + 1])
  const journalRecords = (variant: string): Uint32Array | undefined => {
    const entry = findKey(parts, parts.journalKeys, variant)
    return entry < 0 ? undefined : postings(parts.journalStarts, parts.journalPostings, entry)
  }

  const matchTitle = (query: string): CitationMatch | undefined => {
    const folded = foldCitationText(query)
    if (folded.split(' ').length < MIN_TITLE_WORDS) {
      return undefined
    }
    const hash = fnv1a(encoder.encode(folded))
    const hashes = parts.titleHashes
    let lo = 0
    let hi = hashes.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (hashes[mid]! < hash) {
        lo = mid + 1
      } else {
        hi = mid
      }
    }
    let found: number | undefined
    for (let i = lo; i < hashes.length && hashes[i] === hash; i++) {
      const r = parts.titleRecords[i]!
      if (foldCitationText(optional(r, TITLE)!) === folded) {
        if (found !== undefined) {
          return undefined
        }
        found = r
      }
    }
    if (found === undefined) {
      return undefined
    }
    const title = optional(found, TITLE)!
    return { id: optional(found, ID)!, form: 'title', matched: { title } }
  }

  const matchCitation = (query: string): CitationMatch | undefined => {
    if (SYNTAX.test(query)) {
      return undefined
    }
    const tokens = foldCitationText(query)
      .split(' ')
      .filter((t) => t !== '')
    if (tokens.length < 2 || tokens.length > parts.longestJournal + MAX_CITATION_PARTS) {
      return undefined
    }
    // the longest runs of words that name a journal
    const spans: Array<{ start: number; end: number; records: Uint32Array }> = []
    for (
      let length = Math.min(parts.longestJournal, tokens.length - 1);
      length >= 1 && spans.length === 0;
      length--
    ) {
      for (let start = 0; start + length <= tokens.length; start++) {
        const records = journalRecords(tokens.slice(start, start + length).join(' '))
        if (records !== undefined && records.length > 0) {
          spans.push({ start, end: start + length, records })
        }
      }
    }
    // one prepared record per record number, so that a record of several spans is one candidate
    const prepared = new Map<number, Prepared>()
    let best: { matched: Map<CitationField, string>; record: number; prepared: Prepared }[] = []
    let bestStrength = 0
    for (const span of spans) {
      const rest = [...tokens.slice(0, span.start), ...tokens.slice(span.end)].filter(
        (t) => !FILLER.has(t),
      )
      // beside the journal: an author's name and initials, words of a volume or issue
      if (rest.filter((t) => !/\d/.test(t)).length > 6) {
        continue
      }
      const journalText = tokens.slice(span.start, span.end).join(' ')
      for (const r of candidates(span.records, rest)) {
        let p = prepared.get(r)
        if (p === undefined) {
          p = prepareRecord(record(r))
          prepared.set(r, p)
        }
        const matched = matchParts(p, rest)
        if (matched === undefined) {
          continue
        }
        // a citation names more than its journal: two parts, one of them volume, page or author
        const strong = matched.has('volume') || matched.has('page') || matched.has('author')
        if (!strong || matched.size < 2) {
          continue
        }
        matched.set('journal', journalText)
        if (matched.size > bestStrength) {
          best = [{ matched, record: r, prepared: p }]
          bestStrength = matched.size
        } else if (matched.size === bestStrength && !best.some((b) => b.record === r)) {
          best.push({ matched, record: r, prepared: p })
        }
      }
    }
    if (best.length !== 1) {
      return undefined
    }
    const { matched, prepared: winner } = best[0]!
    return { id: winner.record.id, form: 'citation', matched: Object.fromEntries(matched) }
  }

  /**
   * The records of a span (ascending) that a query's other tokens could cite: two parts, one of
   * them not the author, means a year, volume, issue or first-page token among them, so a record
   * none of whose such tokens is in `rest` never matches (`matchParts` would find at most its
   * author) and is not tried.
   */
  const candidates = (records: Uint32Array, rest: readonly string[]): number[] => {
    const found = new Set<number>()
    for (const token of new Set(rest)) {
      const entry = findKey(parts, parts.tokenKeys, token)
      if (entry < 0) {
        continue
      }
      const named = postings(parts.tokenStarts, parts.tokenPostings, entry)
      // both ascending: a merge
      let i = 0
      let j = 0
      while (i < records.length && j < named.length) {
        const a = records[i]!
        const b = named[j]!
        if (a === b) {
          found.add(a)
          i++
          j++
        } else if (a < b) {
          i++
        } else {
          j++
        }
      }
    }
    return [...found].sort((a, b) => a - b)
  }

  return {
    size: parts.count,
    match: (query) => matchTitle(query) ?? matchCitation(query),
    journal: (text) => {
      const entry = findKey(parts, parts.journalKeys, foldCitationText(text))
      if (entry < 0) {
        return undefined
      }
      const answer = parts.journalAnswers[entry]!
      return answer === NONE ? undefined : parts.string(answer)
    },
  }
}
