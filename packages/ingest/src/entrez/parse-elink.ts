import { attribute, childElement, childElements, type XmlElement } from '../xml/tree.ts'
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

/** One linked UID, with its similarity score when asked for (`cmd=neighbor_score`). */
export interface ELinkLink {
  /** The linked UID. */
  readonly id: string
  /** The neighbour score (PubMed's related-articles similarity); absent unless requested. */
  readonly score?: number
}

/** The links of one link name (`<LinkSetDb>`), e.g. `pubmed_pubmed` neighbours. */
export interface ELinkSetDb {
  /** The target database. */
  readonly dbTo: string
  /** The link name, e.g. `pubmed_pubmed`, `pubmed_pubmed_citedin`. */
  readonly linkName: string
  /** The linked UIDs, in NCBI's order (by score for neighbours). */
  readonly links: readonly ELinkLink[]
}

/** A link result stored on the history server (`cmd=neighbor_history`). */
export interface ELinkSetDbHistory {
  /** The target database. */
  readonly dbTo: string
  /** The link name. */
  readonly linkName: string
  /** The query key of the stored UIDs (with the link set's `webEnv`). */
  readonly queryKey: string
}

/** Which links exist for one UID (`cmd=acheck`, `ncheck`, `lcheck`). */
export interface ELinkIdCheck {
  /** The UID checked. */
  readonly id: string
  /** `ncheck`: whether the UID has neighbours. */
  readonly hasNeighbor?: boolean
  /** `lcheck`: whether the UID has LinkOut links. */
  readonly hasLinkOut?: boolean
  /** `acheck`: the links available for the UID. */
  readonly links: ReadonlyArray<{
    readonly dbTo: string
    readonly linkName: string
    readonly menuTag?: string
  }>
}

/** LinkOut URLs of one UID (`cmd=llinks`, `llinkslib`, `prlinks`). */
export interface ELinkIdUrls {
  /** The UID. */
  readonly id: string
  /** Its LinkOut URLs. */
  readonly urls: ReadonlyArray<{
    readonly url: string
    readonly linkName?: string
    readonly categories: readonly string[]
    readonly attributes: readonly string[]
    readonly provider?: string
  }>
}

/** One `<LinkSet>`: the links from one group of input UIDs. */
export interface ELinkSet {
  /** The source database. */
  readonly dbFrom: string
  /** The input UIDs of this set. */
  readonly ids: readonly string[]
  /** Links by link name. */
  readonly linkSetDbs: readonly ELinkSetDb[]
  /** Links stored on the history server. */
  readonly histories: readonly ELinkSetDbHistory[]
  /** The Web environment of {@link ELinkSet.histories}. */
  readonly webEnv?: string
  /** Link checks (`acheck`/`ncheck`/`lcheck`). */
  readonly idChecks: readonly ELinkIdCheck[]
  /** LinkOut URLs (`llinks`/`prlinks`). */
  readonly idUrls: readonly ELinkIdUrls[]
  /** Error messages NCBI attached to this set (non-fatal when other sets have links). */
  readonly errors: readonly string[]
}

/** A parsed ELink answer. */
export interface ELinkResult {
  /** One set per input UID group (one per `id=` parameter). */
  readonly linkSets: readonly ELinkSet[]
}

/**
 * Parses an ELink answer (XML `eLinkResult` or JSON `linksets`). JSON covers link sets,
 * scores and history; the check and LinkOut commands are parsed from XML only.
 * @param body - the answer body
 * @param format - `xml` or `json`
 * @param source - the request URL or file, for messages. Defaults to `'elink'`.
 * @throws PubmatchError `UPSTREAM_ERROR` when the answer carries only errors,
 *   `MALFORMED_XML`/`MALFORMED_JSON` for unreadable or wrongly shaped bodies
 */
export function parseELink(body: string, format: EntrezFormat, source = 'elink'): ELinkResult {
  const { linkSets, errors } = format === 'json' ? readJson(body, source) : readXml(body, source)
  const setErrors = linkSets.flatMap((s) => s.errors)
  const hasContent = linkSets.some(
    (s) =>
      s.ids.length > 0 || s.linkSetDbs.length > 0 || s.idChecks.length > 0 || s.idUrls.length > 0,
  )
  if (!hasContent && errors.length + setErrors.length > 0) {
    throw upstreamError('ELink', source, [...errors, ...setErrors])
  }
  return { linkSets }
}

function readXml(body: string, source: string): { linkSets: ELinkSet[]; errors: string[] } {
  const { root, errors } = readXmlAnswer(body, source, 'eLinkResult')
  return { linkSets: childElements(root, 'LinkSet').map(linkSetXml), errors }
}

function linkSetXml(set: XmlElement): ELinkSet {
  const webEnv = childAnswerText(set, 'WebEnv')
  const idCheckList = childElement(set, 'IdCheckList')
  return {
    dbFrom: childAnswerText(set, 'DbFrom') ?? '',
    ids: childElements(childElement(set, 'IdList'), 'Id').map(answerText),
    linkSetDbs: childElements(set, 'LinkSetDb').map((db) => ({
      dbTo: childAnswerText(db, 'DbTo') ?? '',
      linkName: childAnswerText(db, 'LinkName') ?? '',
      links: childElements(db, 'Link').map((link) => {
        const score = childAnswerText(link, 'Score')
        return {
          id: childAnswerText(link, 'Id') ?? '',
          ...(score === undefined || score === '' ? {} : { score: Number(score) }),
        }
      }),
    })),
    histories: childElements(set, 'LinkSetDbHistory').map((h) => ({
      dbTo: childAnswerText(h, 'DbTo') ?? '',
      linkName: childAnswerText(h, 'LinkName') ?? '',
      queryKey: childAnswerText(h, 'QueryKey') ?? '',
    })),
    ...(webEnv === undefined ? {} : { webEnv }),
    idChecks: idCheckList === undefined ? [] : idChecksXml(idCheckList),
    idUrls: childElements(childElement(set, 'IdUrlList'), 'IdUrlSet').map(idUrlsXml),
    errors: [...errorTexts(set), ...childElements(set, 'LinkSetDb').flatMap(errorTexts)],
  }
}

function idChecksXml(list: XmlElement): ELinkIdCheck[] {
  const checks: ELinkIdCheck[] = []
  for (const id of childElements(list, 'Id')) {
    const hasNeighbor = attribute(id, 'HasNeighbor')
    const hasLinkOut = attribute(id, 'HasLinkOut')
    checks.push({
      id: answerText(id),
      ...(hasNeighbor === undefined ? {} : { hasNeighbor: hasNeighbor === 'Y' }),
      ...(hasLinkOut === undefined ? {} : { hasLinkOut: hasLinkOut === 'Y' }),
      links: [],
    })
  }
  for (const set of childElements(list, 'IdLinkSet')) {
    checks.push({
      id: childAnswerText(set, 'Id') ?? '',
      links: childElements(set, 'LinkInfo').map((info) => {
        const menuTag = childAnswerText(info, 'MenuTag')
        return {
          dbTo: childAnswerText(info, 'DbTo') ?? '',
          linkName: childAnswerText(info, 'LinkName') ?? '',
          ...(menuTag === undefined ? {} : { menuTag }),
        }
      }),
    })
  }
  return checks
}

function idUrlsXml(set: XmlElement): ELinkIdUrls {
  return {
    id: childAnswerText(set, 'Id') ?? '',
    urls: childElements(set, 'ObjUrl').map((obj) => {
      const linkName = childAnswerText(obj, 'LinkName')
      const provider = childElement(obj, 'Provider')
      const providerName = provider === undefined ? undefined : childAnswerText(provider, 'Name')
      return {
        url: childAnswerText(obj, 'Url') ?? '',
        ...(linkName === undefined ? {} : { linkName }),
        categories: childElements(obj, 'Category').map(answerText),
        attributes: childElements(obj, 'Attribute').map(answerText),
        ...(providerName === undefined ? {} : { provider: providerName }),
      }
    }),
  }
}

function readJson(body: string, source: string): { linkSets: ELinkSet[]; errors: string[] } {
  const json = readJsonAnswer(body, source)
  const errors = [jsonString(json['ERROR']), jsonString(json['error'])].flatMap((m) =>
    m === undefined || m === '' ? [] : [m],
  )
  if (!('linksets' in json)) {
    if (errors.length > 0) {
      return { linkSets: [], errors }
    }
    throw malformedAnswer('json', source, 'has no "linksets"', body)
  }
  return { linkSets: jsonArray(json['linksets']).flatMap(linkSetJson), errors }
}

function linkSetJson(set: JsonValue): ELinkSet[] {
  if (!isJsonObject(set)) {
    return []
  }
  const webEnv = jsonString(set['webenv'])
  const error = jsonString(set['ERROR']) ?? jsonString(set['error'])
  return [
    {
      dbFrom: jsonString(set['dbfrom']) ?? '',
      ids: jsonArray(set['ids']).flatMap((id) => jsonString(id) ?? []),
      linkSetDbs: jsonArray(set['linksetdbs']).flatMap((db) =>
        isJsonObject(db)
          ? [
              {
                dbTo: jsonString(db['dbto']) ?? '',
                linkName: jsonString(db['linkname']) ?? '',
                links: jsonArray(db['links']).flatMap(linkJson),
              },
            ]
          : [],
      ),
      histories: jsonArray(set['linksetdbhistories']).flatMap((h) =>
        isJsonObject(h)
          ? [
              {
                dbTo: jsonString(h['dbto']) ?? '',
                linkName: jsonString(h['linkname']) ?? '',
                queryKey: jsonString(h['querykey']) ?? '',
              },
            ]
          : [],
      ),
      ...(webEnv === undefined ? {} : { webEnv }),
      idChecks: [],
      idUrls: [],
      errors: error === undefined || error === '' ? [] : [error],
    },
  ]
}

function linkJson(link: JsonValue): ELinkLink[] {
  const id = jsonString(link)
  if (id !== undefined) {
    return [{ id }]
  }
  if (!isJsonObject(link)) {
    return []
  }
  const linkId = jsonString(link['id'])
  const score = jsonString(link['score'])
  return linkId === undefined
    ? []
    : [{ id: linkId, ...(score === undefined ? {} : { score: Number(score) }) }]
}
