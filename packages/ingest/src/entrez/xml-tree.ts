import { PubmatchError, truncateForMessage } from '@pubmatch/core'
import { XMLParser, XMLValidator } from 'fast-xml-parser'

/**
 * One element of an E-utilities XML answer, with its children in document order (order
 * matters: an ESearch translation stack interleaves `TermSet` and `OP` elements).
 */
export interface XmlElement {
  /** The tag name. */
  readonly name: string
  /** Attributes by name (values as written, entities decoded). */
  readonly attributes: Readonly<Record<string, string>>
  /** Child elements in document order. */
  readonly children: readonly XmlElement[]
  /** The element's own text nodes, concatenated, untrimmed (child elements' text excluded). */
  readonly text: string
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  processEntities: true,
  htmlEntities: false,
})

/**
 * Parses an E-utilities XML answer into its root element. The text is first checked for
 * well-formedness, so a truncated or garbled answer fails here instead of yielding a
 * silently partial tree.
 * @param xml - the answer body
 * @param source - what was read (URL or file), for error messages
 * @throws PubmatchError `MALFORMED_XML` when the text is not well-formed or has no root element
 */
export function parseXmlTree(xml: string, source: string): XmlElement {
  assertWellFormedXml(xml, source)
  let nodes: unknown
  try {
    nodes = parser.parse(xml)
  } catch (error) {
    throw malformed(source, (error as Error).message, xml, error)
  }
  const root = toElements(nodes)[0]
  if (root === undefined) {
    throw malformed(source, 'no root element', xml)
  }
  return root
}

/**
 * Throws unless `xml` is well-formed XML with a root element.
 * @param xml - the text to check
 * @param source - what was read (URL or file), for error messages
 * @throws PubmatchError `MALFORMED_XML`
 */
export function assertWellFormedXml(xml: string, source: string): void {
  if (xml.trim() === '') {
    throw malformed(source, 'empty body', xml)
  }
  const result = XMLValidator.validate(xml)
  if (result !== true) {
    const { msg, line, col } = result.err
    throw malformed(source, `${msg} (line ${line}, column ${col})`, xml)
  }
}

function malformed(source: string, reason: string, xml: string, cause?: unknown): PubmatchError {
  return new PubmatchError(
    'MALFORMED_XML',
    `ingest: entrez answer from ${source} is not well-formed XML: ${reason}; body starts "${truncateForMessage(xml)}"`,
    { cause, details: { url: source } },
  )
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function toElements(nodes: unknown): XmlElement[] {
  if (!Array.isArray(nodes)) {
    return []
  }
  const elements: XmlElement[] = []
  for (const node of nodes) {
    if (!isRecord(node)) {
      continue
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === ':@' || key === '#text' || key.startsWith('?') || key.startsWith('!')) {
        continue
      }
      elements.push(toElement(key, value, node[':@']))
    }
  }
  return elements
}

function toElement(name: string, content: unknown, rawAttributes: unknown): XmlElement {
  const attributes: Record<string, string> = {}
  if (isRecord(rawAttributes)) {
    for (const [key, value] of Object.entries(rawAttributes)) {
      attributes[key] = String(value)
    }
  }
  let text = ''
  if (Array.isArray(content)) {
    for (const node of content) {
      if (isRecord(node) && '#text' in node) {
        text += String(node['#text'])
      }
    }
  }
  return { name, attributes, children: toElements(content), text }
}

/**
 * The first child element called `name`.
 * @param element - the parent
 * @param name - the tag name
 */
export function child(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((c) => c.name === name)
}

/**
 * Every child element called `name`, in document order.
 * @param element - the parent
 * @param name - the tag name
 */
export function children(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((c) => c.name === name)
}

/**
 * All text inside an element, its descendants' included, in document order, trimmed.
 * @param element - the element
 */
export function textContent(element: XmlElement): string {
  return deepText(element).trim()
}

function deepText(element: XmlElement): string {
  if (element.children.length === 0) {
    return element.text
  }
  // Own text and children's text are interleaved in the document; the tree keeps them
  // apart, which is fine for E-utilities answers (their text-bearing elements are leaves).
  return element.text + element.children.map(deepText).join('')
}

/**
 * The trimmed text of the first child called `name`, or `undefined` when there is none.
 * @param element - the parent
 * @param name - the tag name
 */
export function childText(element: XmlElement, name: string): string | undefined {
  const found = child(element, name)
  return found === undefined ? undefined : textContent(found)
}
