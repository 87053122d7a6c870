import { PubmatchError } from '@pubmatch/core'
import { biocDocumentToRecord } from '../bioc/to-fulltext.ts'
import { ingestError } from '../bioc/errors.ts'
import type { IngestRecord } from '../records.ts'
import type { XmlInput } from '../xml/input.ts'
import {
  createXmlRecordReader,
  type XmlRecordReaderOptions,
  type XmlRecordSource,
} from '../xml/record-reader.ts'
import type { XmlRootInfo } from '../xml/records.ts'
import type { XmlRecordText } from '../xml/scanner.ts'
import type { XmlElement } from '../xml/tree.ts'
import { jatsFrontArticle } from './front-article.ts'
import { jatsArticleToBioc } from './to-bioc.ts'

/**
 * Options of {@link readJatsXml} and {@link parseJatsXml}: the file name for messages, entity
 * and length limits, progress callback, read-chunk size and stats hook.
 */
export type JatsXmlOptions = XmlRecordReaderOptions

/** The roots a JATS input may have: one article, or PMC's EFetch wrapper of many. */
const ROOTS = new Set(['article', 'pmc-articleset'])

function checkRoot(file: string): (root: XmlRootInfo) => void {
  return (root) => {
    if (!ROOTS.has(root.name)) {
      throw new PubmatchError(
        'UNSUPPORTED_FORMAT',
        `${file}: <${root.name}> is not JATS (expected an <article> or <pmc-articleset> root)`,
        { details: { file, root: root.name } },
      )
    }
  }
}

/**
 * The PMCID of an article, from its raw text (to name records that cannot be parsed). Only
 * the start is searched: the article's own ids come first in `<article-meta>`, while later
 * ones belong to references or sub-articles.
 */
function rawPmcid(record: XmlRecordText): string | undefined {
  const match = /<article-id\s+pub-id-type\s*=\s*["']pmc(?:id)?["']\s*>\s*(?:PMC)?(\d+)\s*</i.exec(
    record.xml.slice(0, 16_384),
  )
  return match?.[1] === undefined ? undefined : `PMC${match[1]}`
}

function convert(element: XmlElement, source: XmlRecordSource): IngestRecord {
  const { file, record: ordinalName } = source
  const ordinal = Number(ordinalName.slice(1))
  if (element.name !== 'article') {
    return {
      kind: 'error',
      error: ingestError(
        'UNSUPPORTED_FORMAT',
        { file, record: ordinalName, label: `record ${ordinalName}` },
        `<${element.name}> is not a JATS <article>`,
      ),
    }
  }
  const { document } = jatsArticleToBioc(element)
  if (document.id === undefined) {
    return {
      kind: 'error',
      error: ingestError(
        'MISSING_FIELD',
        { file, record: ordinalName, label: `article ${ordinalName}` },
        'JATS article has no PMC id (no <article-id pub-id-type="pmc">)',
      ),
    }
  }
  const record = biocDocumentToRecord(document, {
    source: 'PMC',
    file,
    ordinal: Number.isFinite(ordinal) ? ordinal : 1,
    malformedCode: 'MALFORMED_XML',
  })
  return record.kind === 'fulltext' ? { ...record, article: jatsFrontArticle(element, record.document) } : record
}

const jatsReader = createXmlRecordReader({
  recordOptions: (file) => ({
    recordDepth: (rootName) => (rootName === 'article' ? 1 : 2),
    onRoot: checkRoot(file),
    recordId: rawPmcid,
    recordIdLabel: 'PMCID',
  }),
  convert,
})

/**
 * Streams JATS full texts — a PMC Open Access `.nxml` file (`<article>` root) or an EFetch
 * `db=pmc` answer (`<pmc-articleset>` holding many articles), plain or gzip'd — through the
 * package's safe XML layer: the external DTD every `.nxml` names is never fetched, DOCTYPE
 * entities are bounded, and a `<pmc-articleset>` is read one `<article>` at a time.
 *
 * Yields one `{ kind: 'fulltext', document, article }` per article, with passages and section
 * types as the BioC reader gives them for the BioC text of the same article (see
 * `src/jats/README.md`), and the article record derived from its `<front>` (`jatsFrontArticle`),
 * which the corpus store keeps while it holds no citation of the article.
 * An article that fails (not well-formed: `MALFORMED_XML`; no PMC id: `MISSING_FIELD`) is
 * yielded as `{ kind: 'error' }` naming the file and the article (its PMCID when it can be
 * found, else `#<ordinal>`) and reading goes on; a truncated input yields the articles
 * before the cut and then a `TRUNCATED_INPUT` error.
 * @param input - a path, a readable stream or an async iterable of byte/string chunks
 * @param options - file name for messages, limits, progress callback, stats hook
 * @throws PubmatchError `IO`, `EMPTY_INPUT`, `UNSUPPORTED_FORMAT` (not XML, or another root),
 *   `MALFORMED_XML` (a broken prolog/DOCTYPE), `EXTERNAL_ENTITY` / `ENTITY_EXPANSION_LIMIT`
 *   (hostile input)
 * @example for await (const r of readJatsXml('PMC1790863.nxml')) if (r.kind === 'fulltext') console.log(r.document.pmcid)
 */
export function readJatsXml(
  input: XmlInput,
  options: JatsXmlOptions = {},
): AsyncGenerator<IngestRecord> {
  return jatsReader.read(input, options)
}

/**
 * Parses JATS held in memory (an EFetch `db=pmc` response body, one `.nxml` file) with the
 * same rules and errors as {@link readJatsXml}.
 * @param xml - the document
 * @param options - `file` names the document in messages. Defaults to `<string>`.
 */
export function parseJatsXml(xml: string, options: JatsXmlOptions = {}): IngestRecord[] {
  return jatsReader.parse(xml, options)
}
