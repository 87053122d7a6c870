/**
 * Recognises Ovid MEDLINE search strategies, so that they are rejected with a clear message
 * instead of being read as PubMed text (most Ovid lines are, character for character, valid
 * PubMed text: `exp glaucoma/` would otherwise search for the words "exp glaucoma/").
 */
import { MESH_QUALIFIERS } from './subheadings.ts'

/** The Ovid constructs that {@link detectOvidSyntax} recognises. */
export type OvidSignal =
  /** A field suffix after a term or group: `glaucoma$.tw.`, `(a or b).ti,ab.`, `humans.sh.` */
  | 'field-suffix'
  /** A subject heading: `exp Dementia/`, `Saliva/an, ch`, `"Aged, 80 and over"/` */
  | 'subject-heading'
  /** Adjacency: `(optic adj2 nerve$)` */
  | 'adjacency'
  /** A line combining earlier line numbers: `1 or 2 or 3`, `36 not (36 and 37)` */
  | 'line-combination'
  /** A range of line numbers: `or/1-16`, `and/17,34` */
  | 'line-range'
  /** A limit: `limit 6 to yr="1970 -Current"` */
  | 'limit'

/** How each {@link OvidSignal} is named in messages. */
export const OVID_SIGNAL_LABELS: Readonly<Record<OvidSignal, string>> = {
  'field-suffix': 'field suffix',
  'subject-heading': 'subject heading',
  adjacency: 'adjacency operator',
  'line-combination': 'combination of line numbers',
  'line-range': 'range of line numbers',
  limit: 'limit command',
}

/** Where {@link detectOvidSyntax} found Ovid syntax. */
export interface OvidDetection {
  readonly signal: OvidSignal
  /** 1-based line number. */
  readonly line: number
  /** 0-based offset of the construct in the whole text. */
  readonly position: number
  /** The construct as written, e.g. `.ti,ab.`, `Glaucoma/`, `adj3`, or the whole line. */
  readonly match: string
}

/** Ovid MEDLINE field codes that appear in suffixes such as `.ti,ab.` or `.mp.`. */
const OVID_FIELDS = [
  'ab',
  'af',
  'ai',
  'au',
  'ca',
  'cm',
  'cn',
  'cp',
  'ct',
  'do',
  'dp',
  'ds',
  'ed',
  'ep',
  'fa',
  'fs',
  'fx',
  'gs',
  'hw',
  'ia',
  'id',
  'in',
  'is',
  'jc',
  'jn',
  'jw',
  'kf',
  'kw',
  'lg',
  'mh',
  'mp',
  'nm',
  'ot',
  'pm',
  'ps',
  'pt',
  'px',
  'rn',
  'rs',
  'rx',
  'sh',
  'so',
  'st',
  'tc',
  'ti',
  'tn',
  'tw',
  'ui',
  'up',
  'vo',
  'yr',
]

/**
 * The MeSH qualifier abbreviations (all 83 of MeSH 2014), which Ovid writes after a
 * heading's slash: `Stomach Neoplasms/pa`, `Saliva/an, ch`.
 */
export const MESH_QUALIFIER_ABBREVIATIONS: readonly string[] = Object.freeze(
  MESH_QUALIFIERS.map((qualifier) => qualifier.abbreviation.toLowerCase()).sort(),
)

const codes = OVID_FIELDS.join('|')
const qualifiers = MESH_QUALIFIER_ABBREVIATIONS.join('|')

/** `.tw.`, `.ti,ab`, `.tw,ot,nm.` glued to a term, or `. tw.` with a space and a final dot. */
const FIELD_SUFFIX = new RegExp(
  `(?<=[^\\s.])(?:\\.(?:${codes})(?:,(?:${codes}))*\\.?(?=$|[\\s\\[)])|\\.\\s(?:${codes})(?:,(?:${codes}))*\\.)`,
  'gi',
)
/** A slash that ends a heading, optionally followed by lower-case qualifiers. */
const SUBJECT_HEADING = new RegExp(
  `(?<=[\\p{L}\\p{N}")\\]$*-])\\/(?:(?:${qualifiers})(?:,\\s*(?:${qualifiers}))*)?(?=$|[\\s)\\[])`,
  'gu',
)
const ADJACENCY = /(?<=\s)adj\d*(?=\s)/gi
const LINE_RANGE = /^\s*(?:or|and)\/\d/i
const LIMIT = /^\s*limit\s+\d+\s+to\s/i

const isLineCombination = (line: string): boolean => {
  const tokens = line.replace(/[()]/g, ' ').trim().split(/\s+/)
  if (tokens.length < 3) {
    return false
  }
  let numbers = 0
  let lowerCaseOperator = false
  for (const token of tokens) {
    if (/^\d+$/.test(token)) {
      numbers += 1
    } else if (/^(?:and|or|not)$/i.test(token)) {
      lowerCaseOperator ||= token !== token.toUpperCase()
    } else {
      return false
    }
  }
  // `1 AND 2` is valid PubMed (it searches the numbers); `1 or 2` is PubMed text only by accident.
  return numbers >= 2 && lowerCaseOperator
}

/** Blanks out the inside of double-quoted phrases (keeping offsets), so `"a/b"` is not a heading. */
const maskQuoted = (line: string): string =>
  line.replace(
    /(["\u201C\u201D])([^"\u201C\u201D]*)(["\u201C\u201D])/g,
    (_all, open: string, inner: string, close: string) =>
      `${open}${' '.repeat(inner.length)}${close}`,
  )

/**
 * Finds the first Ovid MEDLINE construct in `text`, line by line, ignoring the inside of
 * quoted phrases. The signals are constructs that PubMed syntax never needs: a field
 * suffix (`.ti,ab.`), a heading slash (`exp X/`, `X/du`), `adjN`, lines of line numbers
 * joined by lower-case operators, `or/1-16`, `limit N to`. `and/or` is not a heading slash.
 * @param text - a query or a whole search strategy
 * @returns the first construct found, or `null` when the text shows no Ovid syntax
 */
export function detectOvidSyntax(text: string): OvidDetection | null {
  let offset = 0
  const lines = text.split('\n')
  for (const [index, rawLine] of lines.entries()) {
    const line = maskQuoted(rawLine).replace(/\band\/or\b/gi, '      ')
    const found = firstSignal(line)
    if (found !== null) {
      const position = offset + found.at
      return {
        signal: found.signal,
        line: index + 1,
        position,
        match: rawLine.slice(found.from ?? found.at, found.at + found.length),
      }
    }
    offset += rawLine.length + 1
  }
  return null
}

type Found = { signal: OvidSignal; at: number; length: number; from?: number }

const firstSignal = (line: string): Found | null => {
  const whole = (signal: OvidSignal): Found => {
    const at = line.length - line.trimStart().length
    return { signal, at, length: line.trim().length }
  }
  if (LINE_RANGE.test(line)) {
    return whole('line-range')
  }
  if (LIMIT.test(line)) {
    return whole('limit')
  }
  if (isLineCombination(line)) {
    return whole('line-combination')
  }
  const candidates: Found[] = []
  for (const [signal, pattern] of [
    ['field-suffix', FIELD_SUFFIX],
    ['subject-heading', SUBJECT_HEADING],
    ['adjacency', ADJACENCY],
  ] as const) {
    for (const match of line.matchAll(pattern)) {
      if (signal !== 'subject-heading') {
        candidates.push({ signal, at: match.index, length: match[0].length })
        break
      }
      // The heading is the word before the slash; `/Arabidopsis/` (a slash-delimited word) is not one.
      let wordStart = match.index
      while (
        wordStart > 0 &&
        !/\s/.test(line.charAt(wordStart - 1)) &&
        line.charAt(wordStart - 1) !== '/'
      ) {
        wordStart -= 1
      }
      if (wordStart > 0 && line.charAt(wordStart - 1) === '/') {
        continue
      }
      candidates.push({ signal, at: match.index, length: match[0].length, from: wordStart })
      break
    }
  }
  candidates.sort((a, b) => a.at - b.at)
  return candidates[0] ?? null
}
