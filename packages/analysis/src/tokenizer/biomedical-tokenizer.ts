import { PubmatchError } from '@pubmatch/core'
import type { AnalyzedToken, TermSink, Tokenizer } from '../analyzer.ts'
import { GREEK_NAME_SET, MICRO_SIGN, MICRO_UNITS, SMALL_MU } from '../greek-letters.ts'
import { normalizeText } from '../normalize.ts'
import {
  ALPHA,
  APOS,
  DIGIT,
  DOT,
  GREEK,
  IGNORE,
  SEP,
  ASCII_CLASS,
  charClassAt,
  isJoinerClass,
  isWordClass,
} from './char-class.ts'

/** Options of {@link createBiomedicalTokenizer}. */
export interface BiomedicalTokenizerOptions {
  /**
   * Run {@link normalizeText} first: NFKC, lower-casing, diacritic folding. When `false` the text
   * is tokenized as given (case is kept). Defaults to `true`.
   */
  normalize?: boolean
  /**
   * Split words where letters meet digits or Latin meets Greek (`cox2` → `cox` `2`,
   * `tnfα` → `tnf` `α`), as at hyphens. Defaults to `true`.
   */
  splitAlphaNumeric?: boolean
  /**
   * Also emit joined forms of multi-part words (`COX-2` → `cox2`), see the README. Defaults to
   * `true`.
   */
  joinCompounds?: boolean
  /**
   * Longest token kept, in UTF-16 code units. Longer parts and joined forms are dropped; their
   * positions stay taken. Defaults to `64`.
   */
  maxTokenLength?: number
}

const isMu = (code: number): boolean => code === SMALL_MU || code === MICRO_SIGN

/** Whether the ASCII letters starting at `j` spell a unit that takes the micro prefix. */
function microUnitAt(s: string, j: number): boolean {
  let k = j
  while (k < s.length && k - j < 4) {
    const c = s.charCodeAt(k) | 0x20
    if (c < 0x61 || c > 0x7a) {
      break
    }
    k++
  }
  if (k === j || (k < s.length && isWordClass(charClassAt(s, k)))) {
    return false
  }
  return MICRO_UNITS.has(s.slice(j, k).toLowerCase())
}

/** The text of a part without the characters that are skipped inside words. */
function cleanPart(s: string, start: number, end: number): string {
  let text = ''
  for (let k = start; k < end; k++) {
    const cls = charClassAt(s, k)
    if (cls !== IGNORE && cls !== APOS) {
      text += s[k]!
    }
  }
  return text
}

/**
 * Creates the biomedical tokenizer, following the heuristics Jiang & Zhai (2007, "An empirical
 * study of tokenization strategies for biomedical information retrieval", Inf. Retrieval 10:341)
 * found to matter: non-functional characters are removed, hyphens and brackets inside a word are
 * break points, the variants a break point creates (`COX-2`, `cox2`, `cox 2`) are normalised to
 * match, and Greek letters are normalised (by the Greek filter, after this tokenizer).
 *
 * Rules, in short (README "Tokenizer rules" has the full list):
 * - text is normalised first ({@link normalizeText}); words are runs of letters and digits;
 * - hyphens (`-`, `‐`, `–`, `−`), brackets and apostrophes between two word characters link the
 *   parts of one compound word; everything else (space, `/`, `+`, `,`, `;`, `:`, `%`, …)
 *   separates words;
 * - a `.` between digits belongs to the number (`2.5`); `'s` at the end of a word is dropped;
 *   other apostrophes inside a word are dropped (`o'brien` → `obrien`);
 * - parts also split where letters meet digits or Latin meets Greek (`p53` → `p` `53`), but `μ`
 *   stays on a following unit (`μg`);
 * - each part gets its own position; a compound also yields its joined form (all parts
 *   concatenated) and the joined forms of its tightly bound runs (`il-6-induced` → `il6induced`
 *   and `il6`), each at the position of its first part with `positionLength` = parts covered.
 *
 * @param options - see {@link BiomedicalTokenizerOptions}
 */
export function createBiomedicalTokenizer(options: BiomedicalTokenizerOptions = {}): Tokenizer {
  const tokenizer = new BiomedicalTokenizer(options)
  // A sink may tokenize again while a stream runs; such a call gets scratch state of its own.
  let busy = false
  return Object.assign(
    function tokenize(input: string): AnalyzedToken[] {
      return busy ? new BiomedicalTokenizer(options).tokenize(input) : tokenizer.tokenize(input)
    },
    {
      stream(input: string, sink: TermSink): void {
        if (busy) {
          new BiomedicalTokenizer(options).stream(input, sink)
          return
        }
        busy = true
        try {
          tokenizer.stream(input, sink)
        } finally {
          busy = false
        }
      },
    },
  )
}

/**
 * The tokenizer's state: its options, the parts of the current compound (scratch reused across
 * calls) and the current call's text and output (one call at a time: `createBiomedicalTokenizer`
 * gives a call made from a stream's sink an instance of its own).
 */
class BiomedicalTokenizer {
  private readonly normalize: boolean
  private readonly split: boolean
  private readonly join: boolean
  private readonly maxLength: number
  // The parts of the current compound: where each starts and ends, its class, whether it holds
  // skipped characters, its text, and whether it binds tightly to the next.
  private readonly starts: number[] = []
  private readonly ends: number[] = []
  private readonly kinds: number[] = []
  private readonly dirty: boolean[] = []
  private readonly texts: string[] = []
  private readonly tightAfter: boolean[] = []
  /** How many parts the current compound has. */
  private count = 0
  /** The text being tokenized. */
  private s = ''
  private out: AnalyzedToken[] = []
  /** Where tokens go instead of `out` while `stream` runs. */
  private sink: TermSink | null = null
  /** The position of the current compound's first part. */
  private base = 0

  constructor(options: BiomedicalTokenizerOptions) {
    this.normalize = options.normalize ?? true
    this.split = options.splitAlphaNumeric ?? true
    this.join = options.joinCompounds ?? true
    this.maxLength = options.maxTokenLength ?? 64
    if (!Number.isInteger(this.maxLength) || this.maxLength < 1) {
      throw new PubmatchError(
        'INVALID_ARGUMENT',
        `maxTokenLength must be a positive integer, got ${String(this.maxLength)}`,
      )
    }
  }

  tokenize(input: string): AnalyzedToken[] {
    const out: AnalyzedToken[] = []
    this.scan(input, out, null)
    return out
  }

  stream(input: string, sink: TermSink): void {
    this.scan(input, [], sink)
  }

  /** Tokenizes `input` into `out`, or into `sink` when it is set. */
  private scan(input: string, out: AnalyzedToken[], sink: TermSink | null): void {
    const s = this.normalize ? normalizeText(input) : input
    this.s = s
    this.out = out
    this.sink = sink
    const n = s.length
    let position = 0
    let i = 0
    while (i < n) {
      const c = s.charCodeAt(i)
      const first = c < 128 ? ASCII_CLASS[c]! : charClassAt(s, i)
      if (!isWordClass(first)) {
        i++
        continue
      }
      if (first === ALPHA && c < 128) {
        const end = plainWordEnd(s, i)
        if (end >= 0) {
          if (end - i <= this.maxLength) {
            const term = s.slice(i, end)
            if (sink === null) {
              out.push({ term, position, original: term })
            } else {
              sink(term, position, 1)
            }
          }
          position++
          i = end
          continue
        }
      }
      i = this.scanCompound(s, i, first)
      this.base = position
      this.emit()
      position += this.count
    }
    this.out = []
    this.sink = null
    this.s = ''
  }

  /**
   * Reads the compound word starting at `i` (its first character of class `first`) into the
   * parts; returns where scanning goes on.
   */
  private scanCompound(s: string, i: number, first: number): number {
    const n = s.length
    this.count = 0
    let partStart = i
    let partKind = first
    let partDirty = false
    let j = i + 1
    for (;;) {
      if (j >= n) {
        this.close(partStart, n, partKind, partDirty)
        return n
      }
      const cls = charClassAt(s, j)
      if (isWordClass(cls)) {
        if (cls !== partKind) {
          if (!this.split) {
            partKind = ALPHA
          } else if (
            partKind === GREEK &&
            j - partStart === 1 &&
            cls === ALPHA &&
            isMu(s.charCodeAt(partStart)) &&
            microUnitAt(s, j)
          ) {
            partKind = ALPHA // μg, μl, μM: the micro prefix stays on its unit
          } else {
            this.close(partStart, j, partKind, partDirty)
            partStart = j
            partKind = cls
            partDirty = false
          }
        }
        j++
        continue
      }
      if (cls === DOT && partKind === DIGIT && j + 1 < n && charClassAt(s, j + 1) === DIGIT) {
        j += 2
        continue
      }
      if (cls === IGNORE) {
        partDirty = true
        j++
        continue
      }
      let runStart = j
      if (cls === APOS && j + 1 < n && isWordClass(charClassAt(s, j + 1))) {
        const next = s.charCodeAt(j + 1)
        const possessive =
          (next === 0x73 || next === 0x53) && (j + 2 >= n || !isWordClass(charClassAt(s, j + 2)))
        if (!possessive) {
          partDirty = true // o'brien, 3'utr
          j++
          continue
        }
        runStart = j + 2 // drop the possessive 's
      }
      this.close(partStart, j, partKind, partDirty)
      let k = runStart
      while (k < n && isJoinerClass(charClassAt(s, k))) {
        k++
      }
      if (k > runStart && k < n && isWordClass(charClassAt(s, k))) {
        partStart = k // a break point: the compound goes on
        partKind = charClassAt(s, k)
        partDirty = false
        j = k + 1
        continue
      }
      return k
    }
  }

  /** Ends a part of the current compound. */
  private close(start: number, end: number, kind: number, dirty: boolean): void {
    const count = this.count
    this.starts[count] = start
    this.ends[count] = end
    this.kinds[count] = kind
    this.dirty[count] = dirty
    this.count = count + 1
  }

  /** Emits the current compound: each part, preceded by the joined forms that start at it. */
  private emit(): void {
    const { s, starts, ends, dirty, texts, tightAfter, count } = this
    let hasLetter = false
    for (let p = 0; p < count; p++) {
      texts[p] = dirty[p] ? cleanPart(s, starts[p]!, ends[p]!) : s.slice(starts[p], ends[p])
      hasLetter ||= this.kinds[p] !== DIGIT
    }
    const joining = this.join && count >= 2 && hasLetter
    if (joining) {
      for (let p = 0; p + 1 < count; p++) {
        tightAfter[p] = this.isTight(p)
      }
    }
    for (let p = 0; p < count; p++) {
      if (joining) {
        if (p === 0) {
          this.pushJoin(0, count - 1)
        }
        if (p === 0 || !tightAfter[p - 1]) {
          let last = p
          while (last + 1 < count && tightAfter[last]) {
            last++
          }
          if (last > p && !(p === 0 && last === count - 1)) {
            this.pushJoin(p, last)
          }
        }
      }
      const term = texts[p]!
      if (term.length <= this.maxLength) {
        if (this.sink !== null) {
          this.sink(term, this.base + p, 1)
        } else {
          this.out.push({
            term,
            position: this.base + p,
            original: dirty[p] ? s.slice(starts[p], ends[p]) : term,
          })
        }
      }
    }
  }

  /** Emits the joined form of parts `first … last`, if it has a letter and is not too long. */
  private pushJoin(first: number, last: number): void {
    const { texts, kinds } = this
    let term = ''
    let letters = false
    for (let p = first; p <= last; p++) {
      term += texts[p]!
      letters ||= kinds[p] !== DIGIT
    }
    if (letters && term.length <= this.maxLength) {
      if (this.sink !== null) {
        this.sink(term, this.base + first, last - first + 1)
        return
      }
      this.out.push({
        term,
        position: this.base + first,
        original: this.s.slice(this.starts[first], this.ends[last]),
        positionLength: last - first + 1,
      })
    }
  }

  /** Whether the break between parts `a` and `a + 1` binds tightly (gene name + number etc.). */
  private isTight(a: number): boolean {
    const { kinds, texts } = this
    const b = a + 1
    const kindB = kinds[b]!
    if (kindB === DIGIT || kindB === GREEK) {
      return true
    }
    const textB = texts[b]!
    if (this.isGreekName(textB)) {
      return true
    }
    return textB.length <= 2 && (kinds[a] !== ALPHA || texts[a]!.length <= 4)
  }

  private isGreekName(text: string): boolean {
    return (
      text.length >= 2 &&
      text.length <= 7 &&
      GREEK_NAME_SET.has(this.normalize ? text : text.toLowerCase())
    )
  }
}

/**
 * The end of a plain ASCII word starting at `i` (an ASCII letter): a run of ASCII letters followed
 * by a separator, a `.` or the end of the text; −1 when something else follows (the word is part
 * of a compound).
 */
function plainWordEnd(s: string, i: number): number {
  const n = s.length
  let j = i + 1
  let next = SEP
  while (j < n) {
    const d = s.charCodeAt(j)
    next = d < 128 ? ASCII_CLASS[d]! : -1
    if (next !== ALPHA) {
      break
    }
    j++
  }
  return j >= n || next === SEP || next === DOT ? j : -1
}
