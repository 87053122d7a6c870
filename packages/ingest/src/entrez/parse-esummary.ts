import { attribute, childElements, type XmlElement } from '../xml/tree.ts'
import { isJsonObject, jsonArray, jsonString, type JsonValue } from './json-value.ts'
import {
  answerText,
  childAnswerText,
  errorTexts,
  malformedAnswer,
  readJsonAnswer,
  readXmlAnswer,
  type EntrezFormat,
} from './parse-common.ts'
import { upstreamError } from './upstream-error.ts'

/** A document-summary value: text, a number (v1 `Type="Integer"`, JSON numbers), a list or a structure. */
export type SummaryValue =
  | string
  | number
  | boolean
  | null
  | readonly SummaryValue[]
  | { readonly [key: string]: SummaryValue }

/** One document summary. */
export interface ESummaryDocument {
  /** The record's UID. */
  readonly uid: string
  /**
   * The summary fields, named as NCBI sends them: v1 XML `Item/@Name` (`Title`, `AuthorList`…),
   * v2 XML element names (`Title`, `Authors`…), JSON keys (`title`, `authors`…).
   */
  readonly fields: { readonly [key: string]: SummaryValue }
  /** Set when NCBI could not summarise this UID (e.g. `cannot get document summary`). */
  readonly error?: string
}

/** A parsed ESummary answer. */
export interface ESummaryResult {
  /** The summaries, in the order NCBI sent them. */
  readonly documents: readonly ESummaryDocument[]
  /** Top-level error messages that came alongside documents (non-fatal). */
  readonly warnings: readonly string[]
}

/**
 * Parses an ESummary answer: version 1 XML (`DocSum` with typed `Item`s), version 2 XML
 * (`DocumentSummarySet/DocumentSummary`) or JSON (`result` keyed by UID, in `uids` order).
 *
 * Version 1 items become: `Integer` → number (empty → `null`); a `List` whose name ends in
 * `List` (`AuthorList`, `LangList`, `PubTypeList`) → array of its values; any other `List`
 * (`ArticleIds`, `History`) or `Structure` → object by child name (a repeated name → array);
 * anything else → string.
 * Version 2 elements become strings (leaves) or objects of their children (repeated names
 * → arrays).
 * @param body - the answer body
 * @param format - `xml` or `json`
 * @param source - the request URL or file, for messages. Defaults to `'esummary'`.
 * @throws PubmatchError `UPSTREAM_ERROR` when the answer is only an error (e.g. invalid db),
 *   `MALFORMED_XML`/`MALFORMED_JSON` for unreadable or wrongly shaped bodies
 */
export function parseESummary(
  body: string,
  format: EntrezFormat,
  source = 'esummary',
): ESummaryResult {
  return format === 'json' ? parseESummaryJson(body, source) : parseESummaryXml(body, source)
}

function parseESummaryXml(body: string, source: string): ESummaryResult {
  const { root, errors } = readXmlAnswer(body, source, 'eSummaryResult')
  const documents: ESummaryDocument[] = []
  for (const docSum of childElements(root, 'DocSum')) {
    documents.push(docSumV1(docSum))
  }
  for (const set of childElements(root, 'DocumentSummarySet')) {
    errors.push(...errorTexts(set))
    for (const summary of childElements(set, 'DocumentSummary')) {
      documents.push(documentSummaryV2(summary))
    }
  }
  if (documents.length === 0 && errors.length > 0) {
    throw upstreamError('ESummary', source, errors)
  }
  return { documents, warnings: errors }
}

function docSumV1(docSum: XmlElement): ESummaryDocument {
  return {
    uid: childAnswerText(docSum, 'Id') ?? '',
    fields: itemsAsObject(childElements(docSum, 'Item')),
  }
}

function itemValue(item: XmlElement): SummaryValue {
  const type = attribute(item, 'Type')
  const items = childElements(item, 'Item')
  if (type === 'List' && (attribute(item, 'Name') ?? '').endsWith('List')) {
    return items.map(itemValue)
  }
  if (type === 'List') {
    return itemsAsObject(items)
  }
  if (type === 'Structure') {
    return itemsAsObject(items)
  }
  const text = answerText(item)
  if (type === 'Integer') {
    if (text === '') {
      return null
    }
    return /^-?\d+$/.test(text) ? Number(text) : text
  }
  return text
}

function itemsAsObject(items: readonly XmlElement[]): { [key: string]: SummaryValue } {
  return collect(items.map((item) => [attribute(item, 'Name') ?? '', itemValue(item)] as const))
}

function documentSummaryV2(summary: XmlElement): ESummaryDocument {
  const error = childAnswerText(summary, 'error')
  const fields = collect(
    childElements(summary)
      .filter((e) => e.name !== 'error')
      .map((e) => [e.name, elementValue(e)] as const),
  )
  return {
    uid: attribute(summary, 'uid') ?? '',
    fields,
    ...(error === undefined ? {} : { error }),
  }
}

function elementValue(element: XmlElement): SummaryValue {
  const children = childElements(element)
  if (children.length === 0) {
    return answerText(element)
  }
  return collect(children.map((c) => [c.name, elementValue(c)] as const))
}

/** Groups name/value pairs into an object; a name that occurs more than once maps to an array. */
function collect(entries: ReadonlyArray<readonly [string, SummaryValue]>): {
  [key: string]: SummaryValue
} {
  const grouped = new Map<string, SummaryValue[]>()
  for (const [name, value] of entries) {
    const values = grouped.get(name)
    if (values === undefined) {
      grouped.set(name, [value])
    } else {
      values.push(value)
    }
  }
  const object: Record<string, SummaryValue> = {}
  for (const [name, values] of grouped) {
    object[name] = values.length === 1 ? (values[0] ?? null) : values
  }
  return object
}

function parseESummaryJson(body: string, source: string): ESummaryResult {
  const json = readJsonAnswer(body, source)
  const topError = jsonString(json['error'])
  // Errors come as `esummaryresult: ["Invalid db name specified: fleegle"]`.
  const errors = [
    ...(topError === undefined ? [] : [topError]),
    ...jsonArray(json['esummaryresult']).flatMap((m) => jsonString(m) ?? []),
  ].filter((m) => m !== '')
  const result = json['result']
  if (!isJsonObject(result)) {
    if (errors.length > 0) {
      throw upstreamError('ESummary', source, errors)
    }
    throw malformedAnswer('json', source, 'has no "result" object', body)
  }
  const uids = jsonArray(result['uids']).flatMap((u) => jsonString(u) ?? [])
  const documents = uids.map((uid): ESummaryDocument => {
    const entry = result[uid]
    if (!isJsonObject(entry)) {
      return { uid, fields: {}, error: 'no summary in the answer' }
    }
    const fields: Record<string, SummaryValue> = {}
    for (const [key, value] of Object.entries(entry)) {
      if (key !== 'error') {
        fields[key] = jsonToSummary(value)
      }
    }
    const error = jsonString(entry['error'])
    return { uid, fields, ...(error === undefined ? {} : { error }) }
  })
  return { documents, warnings: errors }
}

function jsonToSummary(value: JsonValue): SummaryValue {
  if (Array.isArray(value)) {
    return value.map(jsonToSummary)
  }
  if (isJsonObject(value)) {
    const object: Record<string, SummaryValue> = {}
    for (const [key, v] of Object.entries(value)) {
      object[key] = jsonToSummary(v)
    }
    return object
  }
  return value
}

/**
 * The text of a summary field, when it is text (or a number), e.g.
 * `summaryText(doc.fields['Title'])`.
 * @param value - a field value
 */
export function summaryText(value: SummaryValue | undefined): string | undefined {
  if (typeof value === 'string') {
    return value
  }
  return typeof value === 'number' ? String(value) : undefined
}
