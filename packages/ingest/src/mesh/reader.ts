import { PubmatchError } from '@pubmatch/core'
import type { IngestRecord } from '../records.ts'
import type { XmlInput } from '../xml/input.ts'
import { createXmlRecordReader, type XmlRecordReaderOptions } from '../xml/record-reader.ts'
import type { XmlRootInfo } from '../xml/records.ts'
import type { XmlRecordText } from '../xml/scanner.ts'
import { MESH_RECORD_ROOTS, meshEntryFromElement } from './records.ts'

/**
 * Options of {@link readMeshXml} and {@link parseMeshXmlString}: the file name for messages,
 * entity and length limits, progress callback, read-chunk size and stats hook.
 */
export type MeshXmlOptions = XmlRecordReaderOptions

function checkRoot(file: string): (root: XmlRootInfo) => void {
  return (root) => {
    if (!(root.name in MESH_RECORD_ROOTS)) {
      throw new PubmatchError(
        'UNSUPPORTED_FORMAT',
        `${file}: <${root.name}> is not MeSH XML ` +
          `(expected ${Object.keys(MESH_RECORD_ROOTS).join(', ')})`,
        { details: { file, root: root.name } },
      )
    }
  }
}

/** The record's UI, found at its start in the raw text (for naming records that cannot be parsed). */
function rawUi(record: XmlRecordText): string | undefined {
  return /<(?:DescriptorUI|QualifierUI|SupplementalRecordUI)>\s*([A-Z]\d+)\s*</.exec(
    record.xml.slice(0, 512),
  )?.[1]
}

const meshReader = createXmlRecordReader({
  recordOptions: (file) => ({ onRoot: checkRoot(file), recordId: rawUi, recordIdLabel: 'UI' }),
  convert: (element, source) => ({ kind: 'mesh', entry: meshEntryFromElement(element, source) }),
})

/**
 * Streams a MeSH XML file — descriptors (`DescriptorRecordSet`, `desc20xx.xml`, ~300 MB),
 * qualifiers (`QualifierRecordSet`) or supplementary concept records
 * (`SupplementalRecordSet`) — in bounded memory, one record at a time, `.gz` detected by
 * magic bytes. Yields `{ kind: 'mesh', entry }` per record and `{ kind: 'error' }` for a
 * record that cannot be read (then goes on), with the same whole-input errors as
 * `readPubmedXml`.
 * @param input - a path, a readable stream or an async iterable of byte/string chunks
 * @param options - file name for messages, limits, progress callback, stats hook
 * @throws PubmatchError `IO`, `EMPTY_INPUT`, `UNSUPPORTED_FORMAT` (not XML, or another root),
 *   `MALFORMED_XML`, `EXTERNAL_ENTITY`, `ENTITY_EXPANSION_LIMIT`
 */
export function readMeshXml(
  input: XmlInput,
  options: MeshXmlOptions = {},
): AsyncGenerator<IngestRecord> {
  return meshReader.read(input, options)
}

/**
 * Parses a MeSH XML document held in memory with the same rules as {@link readMeshXml}.
 * @param xml - the document
 * @param options - `file` names the document in messages. Defaults to `<string>`.
 */
export function parseMeshXmlString(xml: string, options: MeshXmlOptions = {}): IngestRecord[] {
  return meshReader.parse(xml, options)
}
