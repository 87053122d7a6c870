import { childElement, childElements, type XmlElement } from '../xml/tree.ts'
import { isJsonObject, jsonArray, jsonString, malformedJson, type JsonValue } from './json-value.ts'
import {
  answerText,
  childAnswerText,
  malformedAnswer,
  readCount,
  readJsonAnswer,
  readXmlAnswer,
  rootWithoutErrors,
  type EntrezFormat,
} from './parse-common.ts'
import { upstreamError } from './upstream-error.ts'

/** One step of ESearch's query translation (`<Translation>`): a query term and its expansion. */
export interface ESearchTranslation {
  /** The term as the user wrote it. */
  readonly from: string
  /** What PubMed searched for instead. */
  readonly to: string
}

/** One entry of ESearch's translation stack: a term with its count, or an operator (reverse Polish order). */
export type TranslationStackEntry =
  | {
      readonly kind: 'term'
      readonly term: string
      readonly field: string
      readonly count: number
      readonly explode: boolean
    }
  | { readonly kind: 'operator'; readonly operator: string }

/**
 * A non-fatal message that came with a result: ESearch's `<ErrorList>` (e.g. `PhraseNotFound`,
 * `FieldNotFound`) and `<WarningList>` (e.g. `PhraseIgnored`, `QuotedPhraseNotFound`,
 * `OutputMessage`). The search still ran; these say which parts of the query were dropped.
 */
export interface EntrezWarning {
  /** Which list it came from. */
  readonly list: 'ErrorList' | 'WarningList'
  /** The XML element name, e.g. `PhraseNotFound` (JSON keys are mapped to these names). */
  readonly type: string
  /** The message or the offending phrase. */
  readonly text: string
}

/** A parsed ESearch answer. */
export interface ESearchResult {
  /** Total number of records matching the query. */
  readonly count: number
  /** Number of ids in this answer's page (`RetMax`). */
  readonly retMax: number
  /** Offset of this page (`RetStart`). */
  readonly retStart: number
  /** The UIDs of this page, in the order NCBI sent them. */
  readonly ids: readonly string[]
  /** The history-server query key (with `usehistory=y`). */
  readonly queryKey?: string
  /** The history-server Web environment (with `usehistory=y`). */
  readonly webEnv?: string
  /** How the query terms were expanded. */
  readonly translationSet: readonly ESearchTranslation[]
  /** The translated query as a reverse-Polish stack of terms and operators. */
  readonly translationStack: readonly TranslationStackEntry[]
  /** The full translated query. */
  readonly queryTranslation?: string
  /** Phrases not found, fields not found, ignored phrases, output messages. */
  readonly warnings: readonly EntrezWarning[]
}

const JSON_WARNING_TYPES: Readonly<Record<string, string>> = {
  phrasesnotfound: 'PhraseNotFound',
  fieldsnotfound: 'FieldNotFound',
  phrasesignored: 'PhraseIgnored',
  quotedphrasesnotfound: 'QuotedPhraseNotFound',
  outputmessages: 'OutputMessage',
}

/**
 * Parses an ESearch answer (XML `eSearchResult` or JSON `esearchresult`) into the same
 * typed result for both formats.
 * @param body - the answer body
 * @param format - `xml` or `json`
 * @param source - the request URL or file, for messages. Defaults to `'esearch'`.
 * @throws PubmatchError `UPSTREAM_ERROR` for an error answer (`<ERROR>`, JSON `ERROR`),
 *   `MALFORMED_XML`/`MALFORMED_JSON` for unreadable or wrongly shaped bodies
 */
export function parseESearch(
  body: string,
  format: EntrezFormat,
  source = 'esearch',
): ESearchResult {
  return format === 'json' ? parseESearchJson(body, source) : parseESearchXml(body, source)
}

function parseESearchXml(body: string, source: string): ESearchResult {
  const root = rootWithoutErrors(readXmlAnswer(body, source, 'eSearchResult'), 'ESearch', source)
  const count = childAnswerText(root, 'Count')
  if (count === undefined) {
    throw malformedAnswer('xml', source, 'has no <Count>', body)
  }
  const queryKey = childAnswerText(root, 'QueryKey')
  const webEnv = childAnswerText(root, 'WebEnv')
  const queryTranslation = childAnswerText(root, 'QueryTranslation')
  return {
    count: readCount(count, 'Count', 'xml', source),
    retMax: readCount(childAnswerText(root, 'RetMax') ?? '0', 'RetMax', 'xml', source),
    retStart: readCount(childAnswerText(root, 'RetStart') ?? '0', 'RetStart', 'xml', source),
    ids: childElements(childElement(root, 'IdList'), 'Id').map(answerText),
    ...(queryKey === undefined ? {} : { queryKey }),
    ...(webEnv === undefined ? {} : { webEnv }),
    translationSet: childElements(childElement(root, 'TranslationSet'), 'Translation').map((t) => ({
      from: childAnswerText(t, 'From') ?? '',
      to: childAnswerText(t, 'To') ?? '',
    })),
    translationStack: childElements(childElement(root, 'TranslationStack')).flatMap((entry) =>
      stackEntryXml(entry, source),
    ),
    ...(queryTranslation === undefined ? {} : { queryTranslation }),
    warnings: [...xmlWarnings(root, 'ErrorList'), ...xmlWarnings(root, 'WarningList')],
  }
}

function stackEntryXml(entry: XmlElement, source: string): TranslationStackEntry[] {
  if (entry.name === 'OP') {
    return [{ kind: 'operator', operator: answerText(entry) }]
  }
  if (entry.name === 'TermSet') {
    return [
      {
        kind: 'term',
        term: childAnswerText(entry, 'Term') ?? '',
        field: childAnswerText(entry, 'Field') ?? '',
        count: readCount(childAnswerText(entry, 'Count') ?? '0', 'TermSet/Count', 'xml', source),
        explode: (childAnswerText(entry, 'Explode') ?? 'N') === 'Y',
      },
    ]
  }
  return []
}

function xmlWarnings(root: XmlElement, list: 'ErrorList' | 'WarningList'): EntrezWarning[] {
  return childElements(childElement(root, list))
    .map((c) => ({ list, type: c.name, text: answerText(c) }))
    .filter((w) => w.text !== '')
}

function parseESearchJson(body: string, source: string): ESearchResult {
  const json = readJsonAnswer(body, source)
  const topError = jsonString(json['error'])
  if (topError !== undefined) {
    throw upstreamError('ESearch', source, [topError])
  }
  const result = json['esearchresult']
  if (!isJsonObject(result)) {
    throw malformedJson(source, 'no "esearchresult" object', body)
  }
  const error = jsonString(result['ERROR']) ?? jsonString(result['error'])
  if (error !== undefined && error !== '') {
    throw upstreamError('ESearch', source, [error])
  }
  const count = jsonString(result['count'])
  if (count === undefined) {
    throw malformedAnswer('json', source, 'has no "count" in "esearchresult"', body)
  }
  const queryKey = jsonString(result['querykey'])
  const webEnv = jsonString(result['webenv'])
  const queryTranslation = jsonString(result['querytranslation'])
  return {
    count: readCount(count, 'count', 'json', source),
    retMax: readCount(jsonString(result['retmax']) ?? '0', 'retmax', 'json', source),
    retStart: readCount(jsonString(result['retstart']) ?? '0', 'retstart', 'json', source),
    ids: jsonArray(result['idlist']).flatMap((id) => jsonString(id) ?? []),
    ...(queryKey === undefined ? {} : { queryKey }),
    ...(webEnv === undefined ? {} : { webEnv }),
    translationSet: jsonArray(result['translationset']).flatMap((t) =>
      isJsonObject(t) ? [{ from: jsonString(t['from']) ?? '', to: jsonString(t['to']) ?? '' }] : [],
    ),
    translationStack: jsonArray(result['translationstack']).flatMap((e) =>
      stackEntryJson(e, source),
    ),
    ...(queryTranslation === undefined ? {} : { queryTranslation }),
    warnings: [
      ...jsonWarnings(result['errorlist'], 'ErrorList'),
      ...jsonWarnings(result['warninglist'], 'WarningList'),
    ],
  }
}

function stackEntryJson(entry: JsonValue, source: string): TranslationStackEntry[] {
  if (typeof entry === 'string') {
    return [{ kind: 'operator', operator: entry }]
  }
  if (!isJsonObject(entry)) {
    return []
  }
  return [
    {
      kind: 'term',
      term: jsonString(entry['term']) ?? '',
      field: jsonString(entry['field']) ?? '',
      count: readCount(jsonString(entry['count']) ?? '0', 'translationstack.count', 'json', source),
      explode: jsonString(entry['explode']) === 'Y',
    },
  ]
}

function jsonWarnings(
  value: JsonValue | undefined,
  list: 'ErrorList' | 'WarningList',
): EntrezWarning[] {
  if (!isJsonObject(value)) {
    return []
  }
  const warnings: EntrezWarning[] = []
  for (const [key, entries] of Object.entries(value)) {
    const type = JSON_WARNING_TYPES[key.toLowerCase()] ?? key
    for (const entry of jsonArray(entries)) {
      const text = jsonString(entry)
      if (text !== undefined && text !== '') {
        warnings.push({ list, type, text })
      }
    }
  }
  return warnings
}
