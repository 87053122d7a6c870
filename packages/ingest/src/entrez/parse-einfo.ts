import {
  isJsonObject,
  jsonArray,
  jsonString,
  malformedJson,
  parseJsonBody,
  type JsonObject,
  type JsonValue,
} from './json-value.ts'
import { malformedAnswer, readCount, wrongRoot, type EntrezFormat } from './parse-common.ts'
import { upstreamError } from './upstream-error.ts'
import {
  child,
  childText,
  children,
  parseXmlTree,
  textContent,
  type XmlElement,
} from './xml-tree.ts'

/** A searchable field of an Entrez database (`<Field>`), e.g. `TITL` (Title). */
export interface EInfoField {
  /** Short name used in queries, e.g. `MESH`. */
  readonly name: string
  /** Long name, e.g. `MeSH Terms`. */
  readonly fullName: string
  /** What the field holds. */
  readonly description: string
  /** Number of distinct terms, when NCBI reports it (newer answers leave it empty). */
  readonly termCount?: number
  /** Whether the field holds dates. */
  readonly isDate: boolean
  /** Whether the field holds numbers. */
  readonly isNumerical: boolean
  /** Whether values are indexed as a single token. */
  readonly singleToken: boolean
  /** Whether the field is hierarchical (e.g. MeSH). */
  readonly hierarchy: boolean
  /** Whether the field is hidden from the search builder. */
  readonly isHidden: boolean
}

/** A link an Entrez database offers to another (`<Link>`), e.g. `pubmed_pubmed`. */
export interface EInfoLink {
  /** Link name, e.g. `pubmed_pubmed_citedin`. */
  readonly name: string
  /** Menu label. */
  readonly menu: string
  /** What the link finds. */
  readonly description: string
  /** Target database. */
  readonly dbTo: string
}

/** Statistics and structure of one Entrez database (`<DbInfo>`). */
export interface EInfoDbInfo {
  /** Database name, e.g. `pubmed`. */
  readonly dbName: string
  /** Display name, e.g. `PubMed`. */
  readonly menuName: string
  /** One-line description. */
  readonly description: string
  /** Build name, when reported. */
  readonly dbBuild?: string
  /** Number of records. */
  readonly count: number
  /** Last update, as NCBI writes it (`YYYY/MM/DD hh:mm`). */
  readonly lastUpdate?: string
  /** Searchable fields. */
  readonly fields: readonly EInfoField[]
  /** Available links. */
  readonly links: readonly EInfoLink[]
}

/** A parsed EInfo answer: the list of databases (no `db`), or one database's info. */
export type EInfoResult =
  | { readonly kind: 'dbList'; readonly dbNames: readonly string[] }
  | { readonly kind: 'dbInfo'; readonly info: EInfoDbInfo }

/**
 * Parses an EInfo answer (XML `eInfoResult` or JSON `einforesult`).
 * @param body - the answer body
 * @param format - `xml` or `json`
 * @param source - the request URL or file, for messages. Defaults to `'einfo'`.
 * @throws PubmatchError `UPSTREAM_ERROR` for an error answer (e.g. unknown db),
 *   `MALFORMED_XML`/`MALFORMED_JSON` for unreadable or wrongly shaped bodies
 */
export function parseEInfo(body: string, format: EntrezFormat, source = 'einfo'): EInfoResult {
  return format === 'json' ? parseEInfoJson(body, source) : parseEInfoXml(body, source)
}

function flag(value: string | undefined): boolean {
  return value === 'Y'
}

function optionalCount(
  text: string | undefined,
  what: string,
  format: EntrezFormat,
  source: string,
): number | undefined {
  return text === undefined || text.trim() === ''
    ? undefined
    : readCount(text, what, format, source)
}

function parseEInfoXml(body: string, source: string): EInfoResult {
  const root = parseXmlTree(body, source)
  if (root.name !== 'eInfoResult') {
    throw wrongRoot(source, 'eInfoResult', root.name, body)
  }
  const errors = children(root, 'ERROR')
    .map(textContent)
    .filter((m) => m !== '')
  if (errors.length > 0) {
    throw upstreamError('EInfo', source, errors)
  }
  const dbList = child(root, 'DbList')
  if (dbList !== undefined) {
    return { kind: 'dbList', dbNames: children(dbList, 'DbName').map(textContent) }
  }
  const dbInfo = child(root, 'DbInfo')
  if (dbInfo === undefined) {
    throw malformedAnswer('xml', source, 'has neither <DbList> nor <DbInfo>', body)
  }
  const fieldList = child(dbInfo, 'FieldList')
  const linkList = child(dbInfo, 'LinkList')
  const dbBuild = childText(dbInfo, 'DbBuild')
  const lastUpdate = childText(dbInfo, 'LastUpdate')
  return {
    kind: 'dbInfo',
    info: {
      dbName: childText(dbInfo, 'DbName') ?? '',
      menuName: childText(dbInfo, 'MenuName') ?? '',
      description: childText(dbInfo, 'Description') ?? '',
      ...(dbBuild === undefined ? {} : { dbBuild }),
      count: readCount(childText(dbInfo, 'Count') ?? '', 'Count', 'xml', source),
      ...(lastUpdate === undefined ? {} : { lastUpdate }),
      fields:
        fieldList === undefined ? [] : children(fieldList, 'Field').map((f) => fieldXml(f, source)),
      links:
        linkList === undefined
          ? []
          : children(linkList, 'Link').map((l) => ({
              name: childText(l, 'Name') ?? '',
              menu: childText(l, 'Menu') ?? '',
              description: childText(l, 'Description') ?? '',
              dbTo: childText(l, 'DbTo') ?? '',
            })),
    },
  }
}

function fieldXml(field: XmlElement, source: string): EInfoField {
  const termCount = optionalCount(childText(field, 'TermCount'), 'TermCount', 'xml', source)
  return {
    name: childText(field, 'Name') ?? '',
    fullName: childText(field, 'FullName') ?? '',
    description: childText(field, 'Description') ?? '',
    ...(termCount === undefined ? {} : { termCount }),
    isDate: flag(childText(field, 'IsDate')),
    isNumerical: flag(childText(field, 'IsNumerical')),
    singleToken: flag(childText(field, 'SingleToken')),
    hierarchy: flag(childText(field, 'Hierarchy')),
    isHidden: flag(childText(field, 'IsHidden')),
  }
}

function parseEInfoJson(body: string, source: string): EInfoResult {
  const json = parseJsonBody(body, source)
  if (!isJsonObject(json)) {
    throw malformedJson(source, 'not an object', body)
  }
  const result = json['einforesult']
  if (!isJsonObject(result)) {
    const error = jsonString(json['error'])
    if (error !== undefined) {
      throw upstreamError('EInfo', source, [error])
    }
    throw malformedAnswer('json', source, 'has no "einforesult" object', body)
  }
  const error = jsonString(result['ERROR']) ?? jsonString(result['error'])
  if (error !== undefined && error !== '') {
    throw upstreamError('EInfo', source, [error])
  }
  if ('dblist' in result) {
    return {
      kind: 'dbList',
      dbNames: jsonArray(result['dblist']).flatMap((d) => jsonString(d) ?? []),
    }
  }
  // Production answers wrap the one DbInfo in an array; the 2012 prototype did not.
  const info = jsonArray(result['dbinfo'])[0]
  if (!isJsonObject(info)) {
    throw malformedAnswer('json', source, 'has neither "dblist" nor "dbinfo"', body)
  }
  const dbBuild = jsonString(info['dbbuild'])
  const lastUpdate = jsonString(info['lastupdate'])
  return {
    kind: 'dbInfo',
    info: {
      dbName: jsonString(info['dbname']) ?? '',
      menuName: jsonString(info['menuname']) ?? '',
      description: jsonString(info['description']) ?? '',
      ...(dbBuild === undefined ? {} : { dbBuild }),
      count: readCount(jsonString(info['count']) ?? '', 'count', 'json', source),
      ...(lastUpdate === undefined ? {} : { lastUpdate }),
      fields: jsonArray(info['fieldlist']).flatMap((f) =>
        isJsonObject(f) ? [fieldJson(f, source)] : [],
      ),
      links: jsonArray(info['linklist']).flatMap((l: JsonValue) =>
        isJsonObject(l)
          ? [
              {
                name: jsonString(l['name']) ?? '',
                menu: jsonString(l['menu']) ?? '',
                description: jsonString(l['description']) ?? '',
                dbTo: jsonString(l['dbto']) ?? '',
              },
            ]
          : [],
      ),
    },
  }
}

function fieldJson(field: JsonObject, source: string): EInfoField {
  const termCount = optionalCount(jsonString(field['termcount']), 'termcount', 'json', source)
  return {
    name: jsonString(field['name']) ?? '',
    fullName: jsonString(field['fullname']) ?? '',
    description: jsonString(field['description']) ?? '',
    ...(termCount === undefined ? {} : { termCount }),
    isDate: flag(jsonString(field['isdate'])),
    isNumerical: flag(jsonString(field['isnumerical'])),
    singleToken: flag(jsonString(field['singletoken'])),
    hierarchy: flag(jsonString(field['hierarchy'])),
    isHidden: flag(jsonString(field['ishidden'])),
  }
}
