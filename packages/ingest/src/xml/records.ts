import { PubmatchError, isPubmatchError } from '@pubmatch/core'
import { parseDoctype, type XmlDoctype } from './doctype.ts'
import { createEntityDecoder, type EntityDecoder, type EntityLimits } from './entities.ts'
import { inputName, readXmlText, type XmlInput, type XmlTextOptions } from './input.ts'
import { parseXmlElement } from './parse.ts'
import {
  createXmlRecordScanner,
  type XmlRecordText,
  type XmlScanEvent,
  type XmlScannerOptions,
  type XmlScanStats,
} from './scanner.ts'
import type { XmlElement } from './tree.ts'

/** The root element of an input, as {@link XmlRecordOptions.onRoot} sees it. */
export interface XmlRootInfo {
  name: string
  /** Attribute values, entity-decoded. */
  attributes: Record<string, string>
  /** The DOCTYPE, when the input has one. */
  doctype?: XmlDoctype
}

/** One record of an input: its parsed element, or why it could not be parsed. */
export type XmlRecordResult =
  | {
      kind: 'element'
      element: XmlElement
      /** 1-based position among the input's records. */
      ordinal: number
      /** Character offset of the record in the decoded input. */
      offset: number
      /** The record's id for messages: what {@link XmlRecordOptions.recordId} found, else `#<ordinal>`. */
      id: string
    }
  | { kind: 'error'; error: PubmatchError }

/** Options of the record readers ({@link readXmlRecords}, {@link parseXmlRecords}). */
export interface XmlRecordOptions
  extends
    EntityLimits,
    Pick<XmlScannerOptions, 'recordDepth' | 'maxRecordLength' | 'maxDoctypeLength'> {
  /** The name used in messages. Defaults to the path, `<stream>` or `<string>`. */
  file?: string
  /** Counters updated while scanning (an internal stats hook, e.g. for bounded-memory tests). */
  stats?: XmlScanStats
  /**
   * Called once with the root element before any record; throw a {@link PubmatchError}
   * (typically `UNSUPPORTED_FORMAT`) to reject the input.
   */
  onRoot?: (root: XmlRootInfo) => void
  /**
   * Finds a record's id in its raw text, so that messages about a record that cannot be
   * parsed still name it (e.g. the PMID). Defaults to none: records are named `#<ordinal>`.
   */
  recordId?: (record: XmlRecordText) => string | undefined
  /** What the id is called in messages, e.g. `PMID`. Defaults to `id`. */
  recordIdLabel?: string
}

/** A synchronous record reader fed with decoded text. */
export interface XmlRecordPipeline {
  /**
   * Scans the next piece of text; the records it completes are parsed lazily, one per
   * iteration step, so that only one parsed record exists at a time. Iterate the result to
   * its end before the next `push`.
   * @param text - the next chunk
   */
  push(text: string): Iterable<XmlRecordResult>
  /** Ends the input (same lazy contract as `push`). */
  end(): Iterable<XmlRecordResult>
  /** Whether the root element has been seen. */
  readonly rootSeen: boolean
}

/**
 * Creates a synchronous pipeline: scanner → DOCTYPE and bounded entity decoder → one
 * {@link parseXmlElement} call per record. A record that is not well-formed gives an error result
 * (MALFORMED_XML naming file and record) and the pipeline carries on; whole-input problems
 * are thrown (see {@link readXmlRecords}).
 * @param options - file name, limits, root check and record naming
 */
export function createXmlRecordPipeline(options: XmlRecordOptions = {}): XmlRecordPipeline {
  const file = options.file ?? '<input>'
  const scanner = createXmlRecordScanner({
    file,
    recordDepth: options.recordDepth,
    maxRecordLength: options.maxRecordLength,
    maxDoctypeLength: options.maxDoctypeLength,
    stats: options.stats,
  })
  let doctype: XmlDoctype | undefined
  let decoder: EntityDecoder | undefined
  let rootSeen = false
  const label = options.recordIdLabel ?? 'id'

  function* handle(events: readonly XmlScanEvent[]): Generator<XmlRecordResult> {
    for (const event of events) {
      if (event.type === 'doctype') {
        doctype = parseDoctype(event.text, { file })
      } else if (event.type === 'root') {
        rootSeen = true
        decoder = createEntityDecoder(doctype, { ...options, file })
        const attributes = Object.create(null) as Record<string, string>
        for (const [key, value] of Object.entries(event.attributes)) {
          attributes[key] = decoder.decode(value)
        }
        options.onRoot?.({
          name: event.name,
          attributes,
          ...(doctype === undefined ? {} : { doctype }),
        })
      } else if (event.type === 'skipped') {
        yield {
          kind: 'error',
          error: new PubmatchError(
            'MALFORMED_XML',
            `${file} record #${event.ordinal}: <${event.name}> is longer than ` +
              `${options.maxRecordLength ?? 67_108_864} characters; skipped`,
            { details: { file, record: `#${event.ordinal}`, position: event.offset } },
          ),
        }
      } else {
        yield parseRecord(event.record)
      }
    }
  }

  const parseRecord = (record: XmlRecordText): XmlRecordResult => {
    const found = options.recordId?.(record)
    const id = found ?? `#${record.ordinal}`
    const name =
      found === undefined ? `#${record.ordinal}` : `${label} ${found} (#${record.ordinal})`
    try {
      const element = parseXmlElement(record.xml, { decoder: decoder!, file, record: name })
      return { kind: 'element', element, ordinal: record.ordinal, offset: record.offset, id }
    } catch (error) {
      if (isPubmatchError(error, 'MALFORMED_XML')) {
        return {
          kind: 'error',
          error: new PubmatchError(error.code, error.message, {
            cause: error.cause,
            details: { ...error.details, record: id, position: record.offset },
          }),
        }
      }
      throw error
    }
  }

  return {
    push: (text) => handle(scanner.push(text)),
    end: () => handle(scanner.end()),
    get rootSeen(): boolean {
      return rootSeen
    },
  }
}

/**
 * What an error thrown mid-input becomes: an input that stops early (`TRUNCATED_INPUT`) or
 * breaks after its root (`MALFORMED_XML`, e.g. a second root) ends with a final error result,
 * after the records before it; anything else is rethrown.
 * @param error - what the pipeline threw
 * @param rootSeen - whether the root element had been seen
 */
function finalResult(error: unknown, rootSeen: boolean): XmlRecordResult {
  if (
    isPubmatchError(error, 'TRUNCATED_INPUT') ||
    (rootSeen && isPubmatchError(error, 'MALFORMED_XML'))
  ) {
    return { kind: 'error', error }
  }
  throw error
}

/**
 * Streams the records of an XML input (a path, a stream, chunks; gzip detected) in bounded
 * memory: at most one record's text and one parsed record are held at a time.
 *
 * Per-record problems are yielded as `{ kind: 'error' }` and reading goes on. An input that
 * stops early (a truncated `.gz`, an unclosed final record or root) yields the records
 * before the cut, then one `TRUNCATED_INPUT` error, and ends. Everything else that makes the
 * input unusable is thrown as a {@link PubmatchError}: `IO`, `EMPTY_INPUT`,
 * `UNSUPPORTED_FORMAT` (not XML, or rejected by `onRoot`), `MALFORMED_XML` before the root,
 * `EXTERNAL_ENTITY` and `ENTITY_EXPANSION_LIMIT` (hostile input: reading stops at once).
 * @param input - a path, readable stream or async iterable of chunks
 * @param options - see {@link XmlRecordOptions} and {@link XmlTextOptions}
 */
export async function* readXmlRecords(
  input: XmlInput,
  options: XmlRecordOptions & XmlTextOptions = {},
): AsyncGenerator<XmlRecordResult> {
  const file = inputName(input, options.file)
  const pipeline = createXmlRecordPipeline({ ...options, file })
  try {
    for await (const text of readXmlText(input, { ...options, file })) {
      yield* pipeline.push(text)
    }
    yield* pipeline.end()
  } catch (error) {
    yield finalResult(error, pipeline.rootSeen)
  }
}

/**
 * The synchronous counterpart of {@link readXmlRecords} for a document already in memory
 * (e.g. an EFetch response body), with the same error behaviour. Lazy: each record is parsed
 * when the iteration reaches it, so that only one parsed record exists at a time.
 * @param xml - the whole document
 * @param options - see {@link XmlRecordOptions}; `file` defaults to `<string>`
 */
export function* iterateXmlRecords(
  xml: string,
  options: XmlRecordOptions = {},
): Generator<XmlRecordResult> {
  const pipeline = createXmlRecordPipeline({ ...options, file: options.file ?? '<string>' })
  try {
    yield* pipeline.push(xml)
    yield* pipeline.end()
  } catch (error) {
    yield finalResult(error, pipeline.rootSeen)
  }
}

/**
 * All the records of a document already in memory: {@link iterateXmlRecords} collected.
 * @param xml - the whole document
 * @param options - see {@link XmlRecordOptions}; `file` defaults to `<string>`
 */
export function parseXmlRecords(xml: string, options: XmlRecordOptions = {}): XmlRecordResult[] {
  return [...iterateXmlRecords(xml, options)]
}

/** A whole parsed document. */
export interface XmlDocument {
  root: XmlElement
  doctype?: XmlDoctype
}

/**
 * Parses a whole document held in memory into its root element, with the same hostile-input
 * protection as the streaming readers (DOCTYPE read by {@link parseDoctype}, bounded entity
 * expansion, nothing fetched). Use the streaming readers for large files.
 * @param xml - the document
 * @param options - limits and the file name for messages (`<string>` by default)
 * @throws PubmatchError on any problem, including a truncated or malformed document
 */
export function parseXmlDocument(
  xml: string,
  options: Omit<XmlRecordOptions, 'recordDepth' | 'recordId'> = {},
): XmlDocument {
  let doctype: XmlDoctype | undefined
  const results = parseXmlRecords(xml, {
    ...options,
    recordDepth: 1,
    onRoot: (root) => {
      doctype = root.doctype
      options.onRoot?.(root)
    },
  })
  const first = results[0]
  if (first === undefined) {
    throw new PubmatchError(
      'MALFORMED_XML',
      `${options.file ?? '<string>'}: no root element`,
      {
        details: { file: options.file ?? '<string>' },
      },
    )
  }
  if (first.kind === 'error') {
    throw first.error
  }
  const trailing = results.find((r) => r.kind === 'error')
  if (trailing?.kind === 'error') {
    throw trailing.error
  }
  return doctype === undefined ? { root: first.element } : { root: first.element, doctype }
}
