import { XMLParser } from 'fast-xml-parser'
import { PubmatchError, truncateForMessage } from '@pubmatch/core'
import type { EntityDecoder } from './entities.ts'
import type { XmlElement, XmlNode } from './tree.ts'

/**
 * fast-xml-parser 5.12 configuration. What the library does on its own with a DOCTYPE (see
 * `src/xml/README.md` and the tests in `hostile.test.ts`): with `processEntities` on (its
 * default) it registers internal entities but silently drops any whose value contains `&`
 * (a billion-laughs document parses "successfully" with `&lol9;` left unexpanded), throws a
 * plain `Error` for a SYSTEM entity even when it is never used, misreads PUBLIC entities
 * ("Expected quoted string"), and caps expansion at 100 000 characters per document. It
 * never fetches anything. It also accepts unbalanced tags unless asked to validate.
 *
 * So: the DOCTYPE never reaches the library (the scanner cuts records out of the document,
 * and {@link parseDoctype} reads the DOCTYPE itself), `processEntities` and `htmlEntities`
 * are off so references reach us verbatim and are decoded by our bounded
 * {@link EntityDecoder}, every record is validated (`parse(xml, true)`), `preserveOrder`
 * keeps mixed content in order, CDATA is kept apart (`#cdata`) so that its text is not
 * entity-decoded, and values are neither trimmed nor converted to numbers.
 */
const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  allowBooleanAttributes: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  cdataPropName: '#cdata',
  commentPropName: false,
  removeNSPrefix: false,
  maxNestedTags: 256,
  jPath: false,
})

/** Where a fragment comes from, for error messages. */
export interface XmlParseContext {
  /** Decodes entity and character references (it carries the input's DOCTYPE entities and budget). */
  decoder: EntityDecoder
  /** The file, for messages. Defaults to `<input>`. */
  file?: string
  /** The record, for messages: a PMID or `#<ordinal>`. */
  record?: string
}

type FxpNode = Record<string, unknown>

function convert(nodes: readonly FxpNode[], decoder: EntityDecoder): XmlNode[] {
  const out: XmlNode[] = []
  const pushText = (text: string): void => {
    if (text === '') {
      return
    }
    const last = out.length - 1
    if (last >= 0 && typeof out[last] === 'string') {
      out[last] += text
    } else {
      out.push(text)
    }
  }
  for (const node of nodes) {
    if ('#text' in node) {
      pushText(decoder.decode(String(node['#text'])))
      continue
    }
    if ('#cdata' in node) {
      for (const inner of node['#cdata'] as FxpNode[]) {
        if ('#text' in inner) {
          pushText(String(inner['#text']))
        }
      }
      continue
    }
    const name = Object.keys(node).find((key) => key !== ':@')
    if (name === undefined) {
      continue
    }
    const attrs = Object.create(null) as Record<string, string>
    const rawAttrs = node[':@'] as Record<string, unknown> | undefined
    if (rawAttrs !== undefined) {
      for (const [key, value] of Object.entries(rawAttrs)) {
        attrs[key.startsWith('@_') ? key.slice(2) : key] = decoder.decode(String(value))
      }
    }
    out.push({
      name,
      attrs,
      children: convert((node[name] as FxpNode[] | undefined) ?? [], decoder),
    })
  }
  return out
}

/**
 * Parses one well-formed element (a record cut out of a larger document by the scanner, or
 * a whole document's root) into an {@link XmlElement}. The text must not contain a DOCTYPE.
 * @param xml - the element's text, from its start tag to its end tag
 * @param context - the entity decoder and the names for messages
 * @throws PubmatchError `MALFORMED_XML` naming the file, record and parser message;
 *   `EXTERNAL_ENTITY` / `ENTITY_EXPANSION_LIMIT` from the decoder
 */
export function parseXmlElement(xml: string, context: XmlParseContext): XmlElement {
  const file = context.file ?? '<input>'
  const where = context.record === undefined ? file : `${file} record ${context.record}`
  const malformed = (reason: string, cause?: unknown): PubmatchError =>
    new PubmatchError(
      'MALFORMED_XML',
      `${where}: not well-formed XML (${truncateForMessage(reason, 120)}): "${truncateForMessage(xml, 80)}"`,
      { cause, details: { file, record: context.record } },
    )
  const declaration = forbiddenDeclaration(xml)
  if (declaration !== undefined) {
    throw malformed(`${declaration} inside a record`)
  }
  if (!xml.trimEnd().endsWith('>')) {
    // fast-xml-parser silently drops text after a self-closing root element.
    throw malformed('text outside the element')
  }
  let nodes: FxpNode[]
  try {
    nodes = parser.parse(xml, true) as FxpNode[]
  } catch (error) {
    throw malformed(error instanceof Error ? error.message : String(error), error)
  }
  // Exactly one element, with nothing but white space around it (the validator accepts more).
  let element: FxpNode | undefined
  for (const node of nodes) {
    if ('#text' in node) {
      if (String(node['#text']).trim() !== '') {
        throw malformed('text outside the element')
      }
    } else if (!('#cdata' in node)) {
      if (element !== undefined) {
        throw malformed('a second element after the first')
      }
      element = node
    } else {
      throw malformed('a CDATA section outside the element')
    }
  }
  const converted = element === undefined ? undefined : convert([element], context.decoder)[0]
  if (converted === undefined || typeof converted === 'string') {
    throw malformed('no element found')
  }
  return converted
}

/**
 * fast-xml-parser takes `<!X>` for an element named `!X` and a misspelt `<![CDTA[` for a CDATA
 * section, and it skips `<?xml …?>` and `<!DOCTYPE …>` anywhere. None of them belongs inside a
 * record, so they are refused before parsing: only comments and CDATA sections may start with
 * `<!`, and the XML declaration only at the start of a document (which never reaches here).
 */
function forbiddenDeclaration(xml: string): string | undefined {
  for (let at = xml.indexOf('<!'); at >= 0; at = xml.indexOf('<!', at + 2)) {
    if (xml.startsWith('<!--', at)) {
      const end = xml.indexOf('-->', at + 4)
      if (end < 0) {
        return undefined // the parser reports the unclosed comment
      }
      at = end
      continue
    }
    if (xml.startsWith('<![CDATA[', at)) {
      const end = xml.indexOf(']]>', at + 9)
      if (end < 0) {
        return undefined // the parser reports the unclosed section
      }
      at = end
      continue
    }
    return `a "${truncateForMessage(xml.slice(at, at + 12), 12)}" declaration`
  }
  if (/<\?xml[\s?]/i.test(xml)) {
    return 'an XML declaration'
  }
  return undefined
}
