import { PubmatchError, isPubmatchError, truncateForMessage } from '@pubmatch/core'
import { parseXmlDocument } from '../xml/records.ts'
import { childElement, childElements, type XmlElement, type XmlNode } from '../xml/tree.ts'
import { isJsonObject, malformedJson, parseJsonBody, type JsonObject } from './json-value.ts'
import { upstreamError } from './upstream-error.ts'

/** The answer format of an E-utility request (`retmode`). */
export type EntrezFormat = 'xml' | 'json'

/**
 * The error for an answer that parses but does not have the shape the E-utility sends
 * (`MALFORMED_XML` or `MALFORMED_JSON` by format).
 * @param format - the answer format
 * @param source - the request URL or file
 * @param reason - what is wrong
 * @param body - the answer, quoted truncated
 */
export function malformedAnswer(
  format: EntrezFormat,
  source: string,
  reason: string,
  body: string,
): PubmatchError {
  return new PubmatchError(
    format === 'json' ? 'MALFORMED_JSON' : 'MALFORMED_XML',
    `entrez answer from ${source} ${reason}: "${truncateForMessage(body)}"`,
    { details: { url: source } },
  )
}

/**
 * The error for an XML answer whose root element is not the one the E-utility sends.
 * @param source - the request URL or file
 * @param expected - the expected root element
 * @param actual - the root element found
 * @param body - the answer, quoted truncated
 */
export function wrongRoot(
  source: string,
  expected: string,
  actual: string,
  body: string,
): PubmatchError {
  return malformedAnswer('xml', source, `has root <${actual}>, expected <${expected}>`, body)
}

/**
 * Reads a non-negative integer field of an answer.
 * @param text - the field's text
 * @param what - the field's name, for messages
 * @param format - the answer format (picks the error code)
 * @param source - the request URL or file
 * @throws PubmatchError `MALFORMED_XML`/`MALFORMED_JSON` when the text is not digits
 */
export function readCount(
  text: string,
  what: string,
  format: EntrezFormat,
  source: string,
): number {
  const trimmed = text.trim()
  if (!/^\d+$/.test(trimmed)) {
    throw malformedAnswer(format, source, `has a non-numeric ${what}`, text)
  }
  return Number(trimmed)
}

/** Codes of the safe XML layer that, for an E-utilities answer, all mean "not well-formed". */
const NOT_WELL_FORMED: ReadonlySet<string> = new Set([
  'MALFORMED_XML',
  'TRUNCATED_INPUT',
  'EMPTY_INPUT',
  'UNSUPPORTED_FORMAT',
])

/**
 * What an E-utilities XML body is called in messages, e.g. `entrez answer from https://…`.
 * @param source - the request URL or file
 */
export function answerName(source: string): string {
  return `entrez answer from ${source}`
}

/**
 * An error of the safe XML layer about an E-utilities answer, as the client reports it:
 * anything that makes the body unreadable (malformed, truncated, empty, not XML) becomes
 * `MALFORMED_XML` with the request URL in its details, which the transport retries;
 * hostile-input errors (`EXTERNAL_ENTITY`, `ENTITY_EXPANSION_LIMIT`) are kept as they are,
 * so they are not retried.
 * @param error - what the XML layer threw or reported
 * @param source - the request URL or file
 */
export function answerXmlError(error: PubmatchError, source: string): PubmatchError {
  if (!NOT_WELL_FORMED.has(error.code)) {
    return error
  }
  return new PubmatchError('MALFORMED_XML', error.message, {
    cause: error,
    details: { ...error.details, url: source },
  })
}

/** A parsed E-utilities XML answer. */
export interface XmlAnswer {
  /** The root element (already checked to be the expected one). */
  readonly root: XmlElement
  /** The non-empty texts of the root's `<ERROR>` children. */
  readonly errors: string[]
}

/**
 * Parses an E-utilities XML answer with the safe XML layer and checks its root element. The
 * DOCTYPE every answer carries (an external DTD on www.ncbi.nlm.nih.gov) is read and
 * ignored; nothing is fetched, internal entities expand within the layer's bounds.
 * @param body - the answer body
 * @param source - the request URL or file, for messages
 * @param rootName - the root element the E-utility sends, e.g. `eSearchResult`
 * @throws PubmatchError `MALFORMED_XML` when the body is not well-formed (truncated, empty,
 *   not XML) or has another root; `EXTERNAL_ENTITY` / `ENTITY_EXPANSION_LIMIT` for hostile input
 */
export function readXmlAnswer(body: string, source: string, rootName: string): XmlAnswer {
  let root: XmlElement
  try {
    root = parseXmlDocument(body, { file: answerName(source) }).root
  } catch (error) {
    throw isPubmatchError(error) ? answerXmlError(error, source) : error
  }
  if (root.name !== rootName) {
    throw wrongRoot(source, rootName, root.name, body)
  }
  return { root, errors: errorTexts(root) }
}

/**
 * The root of an answer whose `<ERROR>` means the request failed (ESearch, EInfo, ESpell).
 * @param answer - the parsed answer
 * @param utility - the E-utility's name, e.g. `ESearch`
 * @param source - the request URL or file
 * @throws PubmatchError `UPSTREAM_ERROR` when the answer carries error messages
 */
export function rootWithoutErrors(answer: XmlAnswer, utility: string, source: string): XmlElement {
  if (answer.errors.length > 0) {
    throw upstreamError(utility, source, answer.errors)
  }
  return answer.root
}

/**
 * Parses an E-utilities JSON answer that must be an object.
 * @param body - the answer body
 * @param source - the request URL or file, for messages
 * @throws PubmatchError `MALFORMED_JSON` when the body is not JSON or not an object
 */
export function readJsonAnswer(body: string, source: string): JsonObject {
  const json = parseJsonBody(body, source)
  if (!isJsonObject(json)) {
    throw malformedJson(source, 'not an object', body)
  }
  return json
}

function appendText(node: XmlNode, out: string[]): void {
  if (typeof node === 'string') {
    out.push(node)
  } else {
    for (const child of node.children) {
      appendText(child, out)
    }
  }
}

/**
 * All text inside an element, descendants included, in document order, trimmed; nothing
 * else is collapsed (E-utilities values are taken as NCBI wrote them).
 * @param element - the element
 */
export function answerText(element: XmlElement): string {
  const parts: string[] = []
  appendText(element, parts)
  return parts.join('').trim()
}

/**
 * The {@link answerText} of the first child called `name`; `undefined` only when there is no
 * such child (an empty one gives `''`).
 * @param element - the parent
 * @param name - the child's tag name
 */
export function childAnswerText(element: XmlElement, name: string): string | undefined {
  const found = childElement(element, name)
  return found === undefined ? undefined : answerText(found)
}

/**
 * The non-empty texts of an element's `<ERROR>` children.
 * @param element - the parent (an answer's root, an ELink `LinkSet`…)
 */
export function errorTexts(element: XmlElement): string[] {
  return childElements(element, 'ERROR')
    .map(answerText)
    .filter((message) => message !== '')
}
