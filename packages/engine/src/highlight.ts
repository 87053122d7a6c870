/**
 * Highlights for result lists: which words of a title or abstract match the query, and the
 * passage of an abstract that shows the most of them. A word matches when the index's analyzer
 * turns it into a term the query's words also give (so `children` matches `child*`'s stem
 * `child` and `Cancers` matches `cancer`). Offsets are UTF-16 code units into the text, so a
 * client marks them without parsing anything (no HTML is ever produced here).
 */
import type { Analyzer } from '@pubmatch/analysis'
import type { StoredDocument } from '@pubmatch/index'

/** A stretch of text and the matched words in it. */
export interface Highlighted {
  readonly text: string
  /** `[start, end)` offsets of matched words, in order, not overlapping. */
  readonly matches: ReadonlyArray<readonly [number, number]>
}

/** What a query asks to mark: analysed terms, and the prefixes of its truncated words (`child*`). */
export interface QueryTerms {
  readonly terms: ReadonlySet<string>
  /** Lower-cased prefixes of wildcard words. */
  readonly prefixes: readonly string[]
}

/** Options of {@link createHighlighter}. */
export interface HighlighterOptions {
  /** The analyzer of the index's text fields. */
  readonly analyzer: Analyzer
  /** Most characters of an abstract passage. Defaults to `320`. */
  readonly snippetChars?: number
}

/** Marks query terms in texts. */
export interface Highlighter {
  /**
   * The analysed terms of a query's words (field tags and operators left out) and the prefixes of
   * its truncated words.
   * @param query - the query as typed
   */
  terms(query: string): QueryTerms
  /**
   * Every matched word of a text.
   * @param text - a title, say
   * @param terms - from {@link Highlighter.terms}
   */
  highlight(text: string, terms: QueryTerms): Highlighted
  /**
   * The passage of at most `snippetChars` characters that holds the most distinct matched terms
   * (then the most matches, then the earliest), cut at word boundaries, with `…` where text was
   * left out; the start of the text when nothing matches.
   * @param text - an abstract, say
   * @param terms - from {@link Highlighter.terms}
   */
  snippet(text: string, terms: QueryTerms): Highlighted
}

const QUERY_NOISE = /\[[^\]]*\]|\b(?:AND|OR|NOT)\b|[()"]/g
const TRUNCATED = /([\p{L}\p{N}][\p{L}\p{N}-]*)\*/gu
const ELLIPSIS = '…'
const LETTER_OR_NUMBER = /^[\p{L}\p{N}]$/u

/**
 * Whether each code point below 2^16 is a letter or number (`[\p{L}\p{N}]`): 0 not looked up yet,
 * 1 yes, 2 no. Filled as code points are met (ASCII up front), shared by every highlighter.
 */
const BMP_CLASS = new Uint8Array(0x10000)
for (let c = 0; c < 128; c++) {
  BMP_CLASS[c] = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) ? 1 : 2
}

/** Whether a code point is a letter or number (`[\p{L}\p{N}]`). */
function isLetterOrNumber(codePoint: number): boolean {
  if (codePoint < 0x10000) {
    let known = BMP_CLASS[codePoint]!
    if (known === 0) {
      known = LETTER_OR_NUMBER.test(String.fromCharCode(codePoint)) ? 1 : 2
      BMP_CLASS[codePoint] = known
    }
    return known === 1
  }
  return LETTER_OR_NUMBER.test(String.fromCodePoint(codePoint))
}

/** The length in UTF-16 code units of the letter or number at `i`, or 0 when there is none. */
function wordCharAt(text: string, i: number): number {
  const unit = text.charCodeAt(i)
  if (unit < 0xd800 || unit > 0xdbff || i + 1 >= text.length) {
    // not the first half of a surrogate pair (a lone surrogate is neither a letter nor a number)
    return unit < 128 ? (BMP_CLASS[unit] === 1 ? 1 : 0) : isLetterOrNumber(unit) ? 1 : 0
  }
  const low = text.charCodeAt(i + 1)
  if (low < 0xdc00 || low > 0xdfff) {
    return 0
  }
  return isLetterOrNumber(((unit - 0xd800) << 10) + (low - 0xdc00) + 0x10000) ? 2 : 0
}

/**
 * The words of a text, as the regular expression `[\p{L}\p{N}]+(?:[-'’][\p{L}\p{N}]+)*` (flags
 * `gu`) finds them: runs of letters and numbers, joined by single hyphens and apostrophes.
 * Calls `visit(start, end)` for each, in order. (A scan of the code units: the expression, run
 * through `matchAll`, took most of a highlight's time.)
 * @param text - the text
 * @param visit - receives each word's `[start, end)` offsets
 */
export function forEachWord(text: string, visit: (start: number, end: number) => void): void {
  const n = text.length
  let i = 0
  while (i < n) {
    const first = wordCharAt(text, i)
    if (first === 0) {
      i++
      continue
    }
    const start = i
    i += first
    for (;;) {
      let size = i < n ? wordCharAt(text, i) : 0
      while (size > 0) {
        i += size
        size = i < n ? wordCharAt(text, i) : 0
      }
      const joiner = i + 1 < n ? text.charCodeAt(i) : 0
      if ((joiner === 0x2d || joiner === 0x27 || joiner === 0x2019) && wordCharAt(text, i + 1) > 0) {
        i++
        continue
      }
      break
    }
    visit(start, i)
  }
}

/** Words a generation of the word cache holds (two generations are kept). */
const WORD_GENERATION = 50_000
/** Slots of a generation's hash table: a power of two, at least twice {@link WORD_GENERATION}. */
const WORD_SLOTS = 1 << 17

/** One generation of the word cache: lower-cased words, their terms, and an open-addressing table over them. */
interface WordGeneration {
  readonly keys: string[]
  readonly terms: Array<readonly string[]>
  readonly hashes: Int32Array
  /** Per slot, the entry's index + 1 (0: empty). */
  readonly slots: Int32Array
  /** Per entry, the query stamp its `matched` flag is for (0: none). */
  readonly stamps: Int32Array
  /** Per entry, whether it matches the query of its stamp (1) or not (0). */
  readonly matched: Uint8Array
}

/** The analysed terms of words, by lower-cased word, found from a word's place in a text. */
interface WordTerms {
  /**
   * The terms of the word `text[start, end)` (analysed as written the first time its lower-cased
   * form is met); afterwards {@link WordTerms.key} is its lower-cased form.
   */
  ofRange(text: string, start: number, end: number): readonly string[]
  /** The lower-cased word of the last {@link WordTerms.ofRange}. */
  readonly key: string
  /**
   * Whether the word of the last {@link WordTerms.ofRange} matches a query (one of its terms is
   * the query's, or it starts with one of the query's prefixes); remembered per word for the
   * query object asked last, so a word met again on the page is not looked up again.
   */
  matches(query: QueryTerms): boolean
}

/**
 * The highlighter's cache of word terms: two generations of at most 50,000 lower-cased words (a
 * full one becomes the older and a new one starts, so the words in use stay), as a `Map` from the
 * lower-cased word would hold them, but looked up by the word's place in the text: an ASCII word
 * is hashed and compared case-folded where it stands, with no string made for it once it is known
 * (making and hashing one string per word was most of a highlight's time).
 * @param analyzer - analyses a word met for the first time
 */
function createWordTerms(analyzer: Analyzer): WordTerms {
  const generation = (): WordGeneration => ({
    keys: [],
    terms: [],
    hashes: new Int32Array(WORD_GENERATION),
    slots: new Int32Array(WORD_SLOTS),
    stamps: new Int32Array(WORD_GENERATION),
    matched: new Uint8Array(WORD_GENERATION),
  })
  let current = generation()
  let older = generation()
  let key = ''
  // the entry of `current` the last lookup found or added
  let last = -1
  // the query the stamps are for, and its stamp
  let stampedQuery: QueryTerms | undefined
  let stamp = 0
  // the entry of `hash` whose key equals `text[start, end)` case-folded (ASCII), or −1
  const findRange = (gen: WordGeneration, hash: number, text: string, start: number, end: number): number => {
    const { keys, hashes, slots } = gen
    const length = end - start
    for (let slot = hash & (WORD_SLOTS - 1); ; slot = (slot + 1) & (WORD_SLOTS - 1)) {
      const entry = slots[slot]! - 1
      if (entry < 0) {
        return -1
      }
      if (hashes[entry] !== hash) {
        continue
      }
      const candidate = keys[entry]!
      if (candidate.length !== length) {
        continue
      }
      let same = true
      for (let i = 0; i < length; i++) {
        let c = text.charCodeAt(start + i)
        if (c >= 0x41 && c <= 0x5a) {
          c += 0x20
        }
        if (candidate.charCodeAt(i) !== c) {
          same = false
          break
        }
      }
      if (same) {
        return entry
      }
    }
  }
  const findKey = (gen: WordGeneration, hash: number, wanted: string): number => {
    const { keys, hashes, slots } = gen
    for (let slot = hash & (WORD_SLOTS - 1); ; slot = (slot + 1) & (WORD_SLOTS - 1)) {
      const entry = slots[slot]! - 1
      if (entry < 0) {
        return -1
      }
      if (hashes[entry] === hash && keys[entry] === wanted) {
        return entry
      }
    }
  }
  const add = (hash: number, newKey: string, terms: readonly string[]): void => {
    if (current.keys.length >= WORD_GENERATION) {
      // the older generation's arrays are reused for the new one
      const recycled = older
      older = current
      recycled.keys.length = 0
      recycled.terms.length = 0
      recycled.slots.fill(0)
      current = recycled
    }
    const { keys, hashes, slots, stamps } = current
    let slot = hash & (WORD_SLOTS - 1)
    while (slots[slot] !== 0) {
      slot = (slot + 1) & (WORD_SLOTS - 1)
    }
    last = keys.length
    hashes[last] = hash
    stamps[last] = 0
    keys.push(newKey)
    current.terms.push(terms)
    slots[slot] = keys.length
  }
  // a word with a character beyond ASCII: lower-cased as a string (`toLowerCase` may change its length)
  const ofWord = (word: string): readonly string[] => {
    const lower = word.toLowerCase()
    let hash = FNV_OFFSET
    for (let i = 0; i < lower.length; i++) {
      hash = Math.imul(hash ^ lower.charCodeAt(i), FNV_PRIME)
    }
    key = lower
    const entry = findKey(current, hash, lower)
    if (entry >= 0) {
      last = entry
      return current.terms[entry]!
    }
    const old = findKey(older, hash, lower)
    const terms = old >= 0 ? older.terms[old]! : analyzer.analyze(word).map((token) => token.term)
    add(hash, lower, terms)
    return terms
  }
  return {
    ofRange(text, start, end) {
      let hash = FNV_OFFSET
      for (let i = start; i < end; i++) {
        let c = text.charCodeAt(i)
        if (c >= 0x80) {
          return ofWord(text.slice(start, end))
        }
        if (c >= 0x41 && c <= 0x5a) {
          c += 0x20
        }
        hash = Math.imul(hash ^ c, FNV_PRIME)
      }
      const entry = findRange(current, hash, text, start, end)
      if (entry >= 0) {
        key = current.keys[entry]!
        last = entry
        return current.terms[entry]!
      }
      const old = findRange(older, hash, text, start, end)
      const word = text.slice(start, end)
      key = old >= 0 ? older.keys[old]! : word.toLowerCase()
      const terms = old >= 0 ? older.terms[old]! : analyzer.analyze(word).map((token) => token.term)
      add(hash, key, terms)
      return terms
    },
    get key() {
      return key
    },
    matches(query) {
      if (query !== stampedQuery) {
        stampedQuery = query
        stamp++
        if (stamp === 0x7fffffff) {
          current.stamps.fill(0)
          older.stamps.fill(0)
          stamp = 1
        }
      }
      if (current.stamps[last] === stamp) {
        return current.matched[last] === 1
      }
      const yes = matched(current.keys[last]!, current.terms[last]!, query)
      current.stamps[last] = stamp
      current.matched[last] = yes ? 1 : 0
      return yes
    },
  }
}

/** Whether a word matches a query: one of its terms is the query's, or it starts with one of the query's prefixes. */
function matched(lower: string, terms: readonly string[], query: QueryTerms): boolean {
  for (const term of terms) {
    if (query.terms.has(term)) {
      return true
    }
  }
  for (const prefix of query.prefixes) {
    if (lower.startsWith(prefix)) {
      return true
    }
  }
  return false
}

const FNV_OFFSET = 0x811c9dc5 | 0
const FNV_PRIME = 0x01000193

/** A text's words' offsets, column by column. */
interface Words {
  readonly starts: number[]
  readonly ends: number[]
}

/**
 * A highlighter over an analyzer.
 * @param options - see {@link HighlighterOptions}
 */
export function createHighlighter(options: HighlighterOptions): Highlighter {
  const analyzer = options.analyzer
  const maxChars = options.snippetChars ?? 320
  const words = createWordTerms(analyzer)
  // the terms of the query asked last: a result page highlights each of its hits for one query
  let lastQuery: string | undefined
  let lastTerms: QueryTerms | undefined

  return {
    terms(query) {
      if (query === lastQuery && lastTerms !== undefined) {
        return lastTerms
      }
      const cleaned = query.replace(QUERY_NOISE, ' ')
      const prefixes = [...cleaned.matchAll(TRUNCATED)].map((match) => match[1]!.toLowerCase())
      const out = new Set<string>()
      const rest = cleaned.replace(TRUNCATED, ' ')
      forEachWord(rest, (start, end) => {
        for (const term of words.ofRange(rest, start, end)) {
          out.add(term)
        }
      })
      lastQuery = query
      lastTerms = { terms: out, prefixes }
      return lastTerms
    },

    highlight(text, terms) {
      const matches: Array<readonly [number, number]> = []
      forEachWord(text, (start, end) => {
        words.ofRange(text, start, end)
        if (words.matches(terms)) {
          matches.push([start, end])
        }
      })
      return { text, matches }
    },

    snippet(text, terms) {
      if (text.length <= maxChars) {
        return this.highlight(text, terms)
      }
      // every word's offsets; the matched ones (indexes into `all`) with the ids of the query terms
      // and prefixes each matches
      const all: Words = { starts: [], ends: [] }
      const hits: number[] = []
      const hitKeys: number[][] = []
      const keyIds = new Map<string, number>()
      const idOf = (key: string): number => {
        let id = keyIds.get(key)
        if (id === undefined) {
          id = keyIds.size
          keyIds.set(key, id)
        }
        return id
      }
      forEachWord(text, (start, end) => {
        const wordTerms = words.ofRange(text, start, end)
        all.starts.push(start)
        all.ends.push(end)
        if (!words.matches(terms)) {
          return
        }
        const lower = words.key
        const keys: number[] = []
        for (const term of wordTerms) {
          if (terms.terms.has(term)) {
            keys.push(idOf(term))
          }
        }
        for (const prefix of terms.prefixes) {
          if (lower.startsWith(prefix)) {
            keys.push(idOf(`${prefix}*`))
          }
        }
        hits.push(all.starts.length - 1)
        hitKeys.push(keys)
      })
      // the window [from, from + maxChars) starting at a word, scored by distinct terms, then
      // matches; the hits inside a window are a run of `hits` (words are in order and disjoint)
      let best = { from: 0, distinct: -1, count: -1 }
      const seen = new Int32Array(keyIds.size)
      let stamp = 0
      let lo = 0
      let hi = 0
      const firsts = hits.length > 0 ? hits.map((w) => all.starts[w]!) : [0]
      for (const first of firsts) {
        const from = Math.max(0, Math.min(first - 40, text.length - maxChars))
        while (lo < hits.length && all.starts[hits[lo]!]! < from) {
          lo++
        }
        hi = Math.max(hi, lo)
        while (hi < hits.length && all.ends[hits[hi]!]! <= from + maxChars) {
          hi++
        }
        stamp++
        let distinct = 0
        for (let h = lo; h < hi; h++) {
          for (const key of hitKeys[h]!) {
            if (seen[key] !== stamp) {
              seen[key] = stamp
              distinct++
            }
          }
        }
        const count = hi - lo
        if (distinct > best.distinct || (distinct === best.distinct && count > best.count)) {
          best = { from, distinct, count }
        }
      }
      // snap to word boundaries
      let w = 0
      while (w < all.starts.length && all.starts[w]! < best.from) {
        w++
      }
      const start = best.from === 0 || w === all.starts.length ? 0 : all.starts[w]!
      while (w > 0 && all.starts[w - 1]! >= start) {
        w--
      }
      let last = -1
      for (let k = w; k < all.starts.length && all.ends[k]! <= start + maxChars; k++) {
        if (all.starts[k]! >= start) {
          last = k
        }
      }
      const end = last >= 0 ? all.ends[last]! : Math.min(text.length, start + maxChars)
      const prefix = start > 0 ? ELLIPSIS : ''
      const suffix = end < text.length ? ELLIPSIS : ''
      const body = text.slice(start, end)
      const matches: Array<readonly [number, number]> = []
      for (const h of hits) {
        const s = all.starts[h]!
        const e = all.ends[h]!
        if (s >= start && e <= end) {
          matches.push([s - start + prefix.length, e - start + prefix.length])
        }
      }
      return { text: `${prefix}${body}${suffix}`, matches }
    },
  }
}

/**
 * A record's title with the query's words marked and its abstract's best passage (what a result
 * list shows): the same for every engine, from the stored text and the analyzer alone.
 * @param highlighter - over the collection's analyzer
 * @param document - the stored record
 * @param query - the query as typed
 */
export function highlightDocument(
  highlighter: Highlighter,
  document: StoredDocument,
  query: string,
): { readonly title: Highlighted; readonly snippet: Highlighted } {
  const terms = highlighter.terms(query)
  return {
    title: highlighter.highlight(document.title, terms),
    snippet: highlighter.snippet(document.abstract ?? '', terms),
  }
}
