import { PubmatchError } from '@pubmatch/core'
import type { IngestRecord } from '../records.ts'
import type { XmlInput } from '../xml/input.ts'
import { createXmlRecordReader, type XmlRecordReaderOptions } from '../xml/record-reader.ts'
import type { XmlRootInfo } from '../xml/records.ts'
import type { XmlRecordText } from '../xml/scanner.ts'
import { PUBMED_RECORD_ELEMENTS, pubmedRecordFromElement } from './article.ts'

/** Roots that hold PubMed records as children. */
const SET_ROOTS = new Set([
  'PubmedArticleSet',
  'MedlineCitationSet',
  'PubmedBookArticleSet',
  'BookDocumentSet',
])

/** Record elements that may also be a file's root (a single saved record). */
const RECORD_ROOTS = new Set(PUBMED_RECORD_ELEMENTS)

/**
 * Options of {@link readPubmedXml} and {@link parsePubmedXmlString}: the file name for
 * messages, entity and length limits, progress callback, read-chunk size and stats hook.
 */
export type PubmedXmlOptions = XmlRecordReaderOptions

function checkRoot(file: string): (root: XmlRootInfo) => void {
  return (root) => {
    if (!SET_ROOTS.has(root.name) && !RECORD_ROOTS.has(root.name)) {
      const html = root.name.toLowerCase() === 'html'
      throw new PubmatchError(
        'UNSUPPORTED_FORMAT',
        `${file}: ${html ? 'an HTML page, not PubMed XML' : `<${root.name}> is not PubMed XML`} ` +
          `(expected a PubmedArticleSet or MedlineCitationSet root)`,
        { details: { file, root: root.name } },
      )
    }
  }
}

/**
 * The PMID of a record, found in its raw text (for naming records that cannot be parsed).
 * Only the record's start is searched: its own PMID is the first child of MedlineCitation /
 * BookDocument, while later PMIDs belong to CommentsCorrections or references.
 */
function rawPmid(record: XmlRecordText): string | undefined {
  return /^<(?:PubmedArticle|PubmedBookArticle)\b[^>]*>\s*<(?:MedlineCitation|BookDocument)\b[^>]*>\s*<PMID\b[^>]*>\s*(\d+)\s*<\/PMID>|^<(?:MedlineCitation|BookDocument|DeleteCitation)\b[^>]*>\s*<PMID\b[^>]*>\s*(\d+)\s*<\/PMID>/
    .exec(record.xml.slice(0, 1024))
    ?.slice(1)
    .find((id) => id !== undefined)
}

const pubmedReader = createXmlRecordReader({
  recordOptions: (file) => ({
    recordDepth: (rootName) => (RECORD_ROOTS.has(rootName) ? 1 : 2),
    onRoot: checkRoot(file),
    recordId: rawPmid,
    recordIdLabel: 'PMID',
  }),
  // Conversion fails only when the record's own PMID is missing: it is named by its ordinal.
  convert: pubmedRecordFromElement,
})

/**
 * Streams a MEDLINE/PubMed XML file — a baseline or update file (`.xml` or `.xml.gz`, gzip
 * detected by magic bytes), an EFetch download, a single saved record — in bounded memory:
 * the text is cut into top-level records by an incremental scanner and each record is parsed
 * on its own, so at most one record is held at a time.
 *
 * Yields one {@link IngestRecord} per `PubmedArticle`/`MedlineCitation`/`PubmedBookArticle`
 * (`kind: 'article'`) and per `DeleteCitation` (`kind: 'delete'`). A record that fails
 * (malformed XML, no PMID: `MISSING_FIELD`) is yielded as `{ kind: 'error' }` naming the
 * file and the record (its PMID when it can be found, else `#<ordinal>`) and reading goes on.
 * An input that stops early yields everything before the cut and then one `TRUNCATED_INPUT`
 * error.
 * @param input - a path, a readable stream or an async iterable of byte/string chunks
 * @param options - file name for messages, limits, progress callback, stats hook
 * @throws PubmatchError `IO` (unreadable file), `EMPTY_INPUT`, `UNSUPPORTED_FORMAT` (not XML,
 *   HTML, or another XML vocabulary), `MALFORMED_XML` (a broken prolog/DOCTYPE),
 *   `EXTERNAL_ENTITY` / `ENTITY_EXPANSION_LIMIT` (hostile input)
 */
export function readPubmedXml(
  input: XmlInput,
  options: PubmedXmlOptions = {},
): AsyncGenerator<IngestRecord> {
  return pubmedReader.read(input, options)
}

/**
 * Parses a PubMed XML document held in memory (an EFetch response body) with the same rules
 * and errors as {@link readPubmedXml}.
 * @param xml - the document
 * @param options - `file` names the document in messages. Defaults to `<string>`.
 */
export function parsePubmedXmlString(xml: string, options: PubmedXmlOptions = {}): IngestRecord[] {
  return pubmedReader.parse(xml, options)
}
