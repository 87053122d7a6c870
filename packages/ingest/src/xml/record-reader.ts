import { isPubmatchError } from '@pubmatch/core'
import type { IngestRecord } from '../records.ts'
import { inputName, type XmlInput, type XmlTextOptions } from './input.ts'
import {
  iterateXmlRecords,
  readXmlRecords,
  type XmlRecordOptions,
  type XmlRecordResult,
} from './records.ts'
import type { XmlScanStats } from './scanner.ts'
import type { XmlElement } from './tree.ts'

/** Options of a record reader made by {@link createXmlRecordReader} (`readPubmedXml`, `readMeshXml`…). */
export interface XmlRecordReaderOptions
  extends
    Pick<
      XmlRecordOptions,
      'maxEntityExpansion' | 'maxEntityDepth' | 'maxRecordLength' | 'maxDoctypeLength'
    >,
    Pick<XmlTextOptions, 'onBytes' | 'chunkSize'> {
  /** The name used in messages. Defaults to the path, `<stream>` or `<string>`. */
  file?: string
  /** Scanner counters, updated while reading (an internal stats hook). */
  stats?: XmlScanStats
}

/** Where a record comes from, as a vocabulary's conversion sees it (for its messages). */
export interface XmlRecordSource {
  /** The file name. */
  file: string
  /** The record's name, `#<ordinal>`. */
  record: string
}

/** What makes a reader for one XML vocabulary (PubMed, MeSH). */
export interface XmlVocabulary {
  /**
   * The record-layer settings for one input: its root check (`onRoot`), record depth and
   * how records are named in messages (`recordId`, `recordIdLabel`).
   * @param file - the input's name for messages
   */
  recordOptions(file: string): XmlRecordOptions
  /**
   * Converts one record element; a {@link PubmatchError} it throws becomes that record's
   * `{ kind: 'error' }` and reading goes on.
   * @param element - the record
   * @param source - its file and name, for messages
   */
  convert(element: XmlElement, source: XmlRecordSource): IngestRecord
}

/** A streaming reader and an in-memory parser for one XML vocabulary, with the same rules. */
export interface XmlRecordReader {
  /**
   * Streams an input (a path, a stream or chunks; gzip detected) in bounded memory, one
   * {@link IngestRecord} per record; see {@link readXmlRecords} for what is thrown and what is
   * yielded as an error.
   * @param input - a path, a readable stream or an async iterable of byte/string chunks
   * @param options - file name, limits, progress callback, stats hook
   */
  read(input: XmlInput, options?: XmlRecordReaderOptions): AsyncGenerator<IngestRecord>
  /**
   * Parses a document held in memory, with the same records and errors as `read`.
   * @param xml - the document
   * @param options - `file` names it in messages (`<string>` by default), limits
   */
  parse(xml: string, options?: XmlRecordReaderOptions): IngestRecord[]
}

/**
 * Creates the reader of an XML vocabulary whose records are elements (PubMed articles, MeSH
 * records): the safe record layer (`readXmlRecords`, `parseXmlRecords`) plus the
 * vocabulary's root check, record naming and conversion.
 * @param vocabulary - the root check, record naming and conversion
 */
export function createXmlRecordReader(vocabulary: XmlVocabulary): XmlRecordReader {
  const toIngestRecord = (result: XmlRecordResult, file: string): IngestRecord => {
    if (result.kind === 'error') {
      return result
    }
    try {
      return vocabulary.convert(result.element, { file, record: `#${result.ordinal}` })
    } catch (error) {
      if (isPubmatchError(error)) {
        return { kind: 'error', error }
      }
      throw error
    }
  }
  return {
    async *read(input, options = {}) {
      const file = inputName(input, options.file)
      for await (const result of readXmlRecords(input, {
        ...options,
        ...vocabulary.recordOptions(file),
        file,
      })) {
        yield toIngestRecord(result, file)
      }
    },
    parse(xml, options = {}) {
      const file = options.file ?? '<string>'
      // Converted as they come, so that only one record's tree exists at a time.
      return Array.from(
        iterateXmlRecords(xml, { ...options, ...vocabulary.recordOptions(file), file }),
        (result) => toIngestRecord(result, file),
      )
    },
  }
}
