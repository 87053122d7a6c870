import { PubmatchError, truncateForMessage } from '@pubmatch/core'

/** A record cut out of the document: one element at the record depth, as text. */
export interface XmlRecordText {
  /** The record element's qualified name, e.g. `PubmedArticle`. */
  name: string
  /** The element's text, from the `<` of its start tag to the `>` of its end tag. */
  xml: string
  /** 1-based position of the record among the input's records. */
  ordinal: number
  /** Character offset (0-based, in the decoded text) of the record's start tag. */
  offset: number
}

/** What the scanner reports, in document order. */
export type XmlScanEvent =
  /** The `<!DOCTYPE …>` declaration, verbatim (before the root). */
  | { type: 'doctype'; text: string }
  /** The root element's start tag; `attributes` are raw (not entity-decoded). */
  | { type: 'root'; name: string; attributes: Record<string, string> }
  | { type: 'record'; record: XmlRecordText }
  /** A record longer than `maxRecordLength`: it was skipped without being buffered. */
  | { type: 'skipped'; name: string; ordinal: number; offset: number; length: number }

/** Counters a scanner keeps; pass your own object to watch them (an internal stats hook). */
export interface XmlScanStats {
  /** Characters pushed so far. */
  chars: number
  /** Records emitted (or skipped). */
  records: number
  /** The most characters the scanner held at once: the current record's text plus any carried-over partial tag. */
  maxBufferedChars: number
  /** The longest record emitted, in characters. */
  maxRecordChars: number
}

/** Options of {@link createXmlRecordScanner}. */
export interface XmlScannerOptions {
  /**
   * Depth of the record elements: `2` (the default) for the children of the root
   * (`PubmedArticleSet > PubmedArticle`), `1` to get the root itself as one record. A
   * function decides from the root's name (e.g. `1` when a file holds a single bare
   * `PubmedArticle`). Defaults to `2`.
   */
  recordDepth?: number | ((rootName: string) => number)
  /** Longest record (and longest single tag) accepted, in characters. Defaults to `67_108_864` (64 Mi). */
  maxRecordLength?: number
  /** Longest DOCTYPE accepted, in characters. Defaults to `1_048_576`. */
  maxDoctypeLength?: number
  /** The file name for messages. Defaults to `<input>`. */
  file?: string
  /** Counters to update; a fresh object when omitted. */
  stats?: XmlScanStats
}

/** An incremental splitter of an XML document into top-level records. */
export interface XmlRecordScanner {
  /**
   * Scans the next piece of decoded text. Returns the events completed by it.
   * @param text - the next chunk; chunks may split anything (tags, names, comments)
   * @throws PubmatchError `UNSUPPORTED_FORMAT` when the input does not start like XML,
   *   `MALFORMED_XML` for a structure the scanner cannot follow (e.g. a tag or DOCTYPE over its length limit)
   */
  push(text: string): XmlScanEvent[]
  /**
   * Ends the input and returns the last events.
   * @throws PubmatchError `EMPTY_INPUT` for an empty or blank input, `TRUNCATED_INPUT` when
   *   the input stops inside the prolog, a record, a tag, a comment… or before the root closes
   */
  end(): XmlScanEvent[]
  /** The counters (the `stats` object passed in, if any). */
  readonly stats: XmlScanStats
}

const TEXT = 0
const COMMENT = 1
const CDATA = 2
const PI = 3
const DECLARATION = 4

/** Whether a code unit may start a tag name: `[A-Za-z_:\u00C0-\uFFFF]`. */
function isNameStart(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    code === 95 ||
    code === 58 ||
    code >= 0xc0
  )
}
const WHITESPACE_ONLY = /^[\s\uFEFF]*$/

/** Index of the `>` that closes a start tag beginning at `from`, skipping quoted attribute values; -1 if not in `text`. */
function findTagEnd(text: string, from: number): number {
  for (let j = from; j < text.length; j++) {
    const ch = text.charCodeAt(j)
    if (ch === 62 /* > */) {
      return j
    }
    if (ch === 34 /* " */ || ch === 39 /* ' */) {
      const close = text.indexOf(ch === 34 ? '"' : "'", j + 1)
      if (close === -1) {
        return -1
      }
      j = close
    }
  }
  return -1
}

/** Index of the `>` that closes a DOCTYPE starting at `from`, honouring quotes, `[…]` and comments; -1 if incomplete. */
function findDoctypeEnd(text: string, from: number): number {
  let inSubset = false
  for (let j = from + 9; j < text.length; j++) {
    const ch = text[j]
    if (ch === '"' || ch === "'") {
      const close = text.indexOf(ch, j + 1)
      if (close === -1) {
        return -1
      }
      j = close
    } else if (inSubset && ch === '<' && text.startsWith('<!--', j)) {
      const close = text.indexOf('-->', j + 4)
      if (close === -1) {
        return -1
      }
      j = close + 2
    } else if (inSubset && ch === '<' && text.startsWith('<?', j)) {
      const close = text.indexOf('?>', j + 2)
      if (close === -1) {
        return -1
      }
      j = close + 1
    } else if (ch === '[') {
      inSubset = true
    } else if (ch === ']') {
      inSubset = false
    } else if (ch === '>' && !inSubset) {
      return j
    }
  }
  return -1
}

function readName(text: string, from: number): string {
  let j = from
  while (j < text.length) {
    const ch = text.charCodeAt(j)
    if (ch === 32 || ch === 9 || ch === 10 || ch === 13 || ch === 47 /* / */ || ch === 62 /* > */) {
      break
    }
    j++
  }
  return text.slice(from, j)
}

function parseAttributes(tag: string): Record<string, string> {
  const attributes = Object.create(null) as Record<string, string>
  const pattern = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g
  for (let m = pattern.exec(tag); m !== null; m = pattern.exec(tag)) {
    attributes[m[1]!] = m[2] ?? m[3] ?? ''
  }
  return attributes
}

/**
 * Creates an incremental scanner that cuts a document into records — the elements at
 * `recordDepth` — without parsing them: it only tracks tags, quotes, comments, CDATA,
 * processing instructions and the DOCTYPE, so it can run over a 300 MB file while holding
 * one record (plus at most one partial tag carried between chunks). Attribute values may
 * contain `>`; CDATA and comments may contain anything. Mismatched end tags are tolerated
 * (the stack is unwound to the matching name), so one broken record does not swallow the
 * rest of the file; the record itself then fails when it is parsed.
 * @param options - record depth, limits, file name and stats object
 */
export function createXmlRecordScanner(options: XmlScannerOptions = {}): XmlRecordScanner {
  const file = options.file ?? '<input>'
  const maxRecordLength = options.maxRecordLength ?? 67_108_864
  const maxDoctypeLength = options.maxDoctypeLength ?? 1_048_576
  const stats: XmlScanStats = options.stats ?? {
    chars: 0,
    records: 0,
    maxBufferedChars: 0,
    maxRecordChars: 0,
  }

  let state = TEXT
  /** Trailing `-` (comment), `]` (CDATA) or `?` (PI) run seen in the current special section. */
  let terminatorRun = 0
  let carry = ''
  let consumed = 0
  const stack: string[] = []
  let recordDepth = 2
  let seenRoot = false
  let rootClosed = false
  /** Any non-whitespace seen (for EMPTY_INPUT); any markup seen (for the UNSUPPORTED_FORMAT message). */
  let sawNonSpace = false
  let sawMarkup = false
  let ordinal = 0
  // The record being collected.
  let inRecord = false
  let skipping = false
  let recordName = ''
  let recordOffset = 0
  let recordOrdinal = 0
  let parts: string[] = []
  let partsLength = 0
  /** A problem met after some events of a push: thrown by the next push or end. */
  let pending: PubmatchError | undefined

  const fail = (
    code: 'UNSUPPORTED_FORMAT' | 'MALFORMED_XML' | 'TRUNCATED_INPUT' | 'EMPTY_INPUT',
    message: string,
    offset?: number,
  ): PubmatchError =>
    new PubmatchError(code, `${file}: ${message}`, {
      details: offset === undefined ? { file } : { file, position: offset },
    })

  const noteBuffered = (extra: number): void => {
    const buffered = partsLength + extra
    if (buffered > stats.maxBufferedChars) {
      stats.maxBufferedChars = buffered
    }
  }

  const appendPart = (part: string, events: XmlScanEvent[]): void => {
    if (skipping || part === '') {
      return
    }
    parts.push(part)
    partsLength += part.length
    if (partsLength > maxRecordLength) {
      events.push({
        type: 'skipped',
        name: recordName,
        ordinal: recordOrdinal,
        offset: recordOffset,
        length: partsLength,
      })
      skipping = true
      parts = []
      partsLength = 0
    }
  }

  const finishRecord = (events: XmlScanEvent[]): void => {
    if (!skipping) {
      const xml = parts.length === 1 ? parts[0]! : parts.join('')
      noteBuffered(0)
      if (xml.length > stats.maxRecordChars) {
        stats.maxRecordChars = xml.length
      }
      events.push({
        type: 'record',
        record: { name: recordName, xml, ordinal: recordOrdinal, offset: recordOffset },
      })
    }
    inRecord = false
    skipping = false
    parts = []
    partsLength = 0
  }

  const checkOutsideText = (text: string, from: number, to: number, base: number): void => {
    if (from >= to) {
      return
    }
    const piece = text.slice(from, to)
    if (WHITESPACE_ONLY.test(piece)) {
      return
    }
    sawNonSpace = true
    if (!seenRoot) {
      const sample = piece.replace(/^[\s\uFEFF]+/, '')
      const what = sawMarkup ? 'has text before the root element' : 'does not start with "<"'
      throw fail(
        'UNSUPPORTED_FORMAT',
        `not XML: the input ${what} (it begins ${JSON.stringify(truncateForMessage(sample, 40))})`,
        base + from,
      )
    }
  }

  /** Scans one chunk, appending to `events` (which survive a throw). */
  const scanChunk = (chunk: string, events: XmlScanEvent[]): void => {
    const base = consumed - carry.length
    consumed += chunk.length
    stats.chars = consumed
    const text = carry === '' ? chunk : carry + chunk
    carry = ''
    const n = text.length
    /** Where the current record's unappended text starts in `text`. */
    let segmentStart = 0
    let i = 0
    /** Set when a construct is incomplete: text from here is carried to the next push. */
    let carryFrom = -1

    scan: while (i < n) {
      if (state === TEXT) {
        const lt = text.indexOf('<', i)
        const end = lt === -1 ? n : lt
        if (stack.length === 0) {
          checkOutsideText(text, i, end, base)
        }
        if (lt === -1) {
          break
        }
        i = lt
        sawNonSpace = true
        sawMarkup = true
        if (i + 1 >= n) {
          carryFrom = i
          break
        }
        const next = text[i + 1]!
        if (next === '/') {
          const gt = text.indexOf('>', i + 2)
          if (gt === -1) {
            carryFrom = i
            break
          }
          const top = stack.length - 1
          const open = stack[top]
          if (open !== undefined && gt === i + 2 + open.length && text.startsWith(open, i + 2)) {
            // The usual case, `</Name>` closing the open element: no slice.
            stack.pop()
          } else if (open !== undefined) {
            const name = text.slice(i + 2, gt).trim()
            if (name === open) {
              stack.pop()
            } else {
              const at = stack.lastIndexOf(name)
              if (at !== -1) {
                stack.length = at
              }
            }
          }
          i = gt + 1
          if (open === undefined) {
            continue
          }
          if (inRecord && stack.length < recordDepth) {
            appendPart(text.slice(segmentStart, i), events)
            finishRecord(events)
          }
          if (stack.length === 0) {
            rootClosed = true
          }
        } else if (next === '?') {
          state = PI
          terminatorRun = 0
          i += 2
        } else if (next === '!') {
          if (text.startsWith('<!--', i)) {
            state = COMMENT
            terminatorRun = 0
            i += 4
          } else if (n - i < 9) {
            carryFrom = i
            break
          } else if (text.startsWith('<![CDATA[', i)) {
            state = CDATA
            terminatorRun = 0
            i += 9
          } else if (text.startsWith('<!DOCTYPE', i) && !seenRoot) {
            const gt = findDoctypeEnd(text, i)
            if (gt === -1) {
              if (n - i > maxDoctypeLength) {
                throw fail(
                  'MALFORMED_XML',
                  `the DOCTYPE is longer than ${maxDoctypeLength} characters`,
                  base + i,
                )
              }
              carryFrom = i
              break
            }
            events.push({ type: 'doctype', text: text.slice(i, gt + 1) })
            i = gt + 1
          } else {
            state = DECLARATION
            i += 2
          }
        } else if (isNameStart(text.charCodeAt(i + 1))) {
          const gt = findTagEnd(text, i + 1)
          if (gt === -1) {
            if (n - i > maxRecordLength) {
              throw fail(
                'MALFORMED_XML',
                `a tag is longer than ${maxRecordLength} characters (unclosed quote?)`,
                base + i,
              )
            }
            carryFrom = i
            break
          }
          const name = readName(text, i + 1)
          const selfClosing = text.charCodeAt(gt - 1) === 47 /* / */
          const tagStart = i
          i = gt + 1
          if (stack.length === 0) {
            if (rootClosed) {
              throw fail(
                'MALFORMED_XML',
                `a second root element <${name}> follows the first one`,
                base + tagStart,
              )
            }
            seenRoot = true
            const depth = options.recordDepth
            recordDepth = typeof depth === 'function' ? depth(name) : (depth ?? 2)
            events.push({
              type: 'root',
              name,
              attributes: parseAttributes(text.slice(tagStart + 1 + name.length, gt)),
            })
          }
          if (!inRecord && stack.length === recordDepth - 1) {
            inRecord = true
            skipping = false
            recordName = name
            recordOffset = base + tagStart
            recordOrdinal = ++ordinal
            stats.records = ordinal
            parts = []
            partsLength = 0
            segmentStart = tagStart
          }
          if (selfClosing) {
            if (inRecord && stack.length === recordDepth - 1) {
              appendPart(text.slice(segmentStart, i), events)
              finishRecord(events)
            }
            if (stack.length === 0) {
              rootClosed = true
            }
          } else {
            stack.push(name)
          }
        } else {
          if (!seenRoot) {
            throw fail(
              'UNSUPPORTED_FORMAT',
              `not XML: unexpected "<${next}" before the root element`,
              base + i,
            )
          }
          i += 1
        }
      } else if (state === COMMENT || state === CDATA || state === PI) {
        const terminator =
          state === COMMENT ? 45 /* - */ : state === CDATA ? 93 /* ] */ : 63 /* ? */
        const needed = state === PI ? 1 : 2
        for (; i < n; i++) {
          const ch = text.charCodeAt(i)
          if (ch === 62 /* > */ && terminatorRun >= needed) {
            state = TEXT
            i++
            continue scan
          }
          terminatorRun = ch === terminator ? terminatorRun + 1 : 0
        }
      } else {
        // DECLARATION: `<!…>` outside the prolog (not valid XML, but skip it like a PI).
        const gt = text.indexOf('>', i)
        if (gt === -1) {
          i = n
        } else {
          state = TEXT
          i = gt + 1
        }
      }
    }

    const processedEnd = carryFrom === -1 ? n : carryFrom
    if (inRecord) {
      appendPart(text.slice(segmentStart, processedEnd), events)
    }
    if (carryFrom !== -1) {
      carry = text.slice(carryFrom)
    }
    noteBuffered(carry.length)
  }

  return {
    stats,
    push(chunk: string): XmlScanEvent[] {
      if (pending !== undefined) {
        throw pending
      }
      const events: XmlScanEvent[] = []
      try {
        scanChunk(chunk, events)
      } catch (error) {
        // Keep the records completed before the problem: report it on the next call.
        if (events.length > 0 && error instanceof PubmatchError) {
          pending = error
          return events
        }
        throw error
      }
      return events
    },

    end(): XmlScanEvent[] {
      if (pending !== undefined) {
        throw pending
      }
      if (consumed === 0) {
        throw fail('EMPTY_INPUT', 'the input is empty')
      }
      if (!sawNonSpace) {
        throw fail('EMPTY_INPUT', 'the input holds only whitespace')
      }
      if (!seenRoot) {
        throw fail('TRUNCATED_INPUT', 'the input ends before its root element', consumed)
      }
      if (carry !== '' || state !== TEXT || stack.length > 0) {
        const where = inRecord
          ? `inside record #${recordOrdinal} <${recordName}> (started at character ${recordOffset})`
          : stack.length > 0
            ? `before </${stack[0]}>`
            : 'inside a tag, comment or CDATA section'
        throw fail('TRUNCATED_INPUT', `the input ends ${where}`, consumed)
      }
      return []
    },
  }
}
