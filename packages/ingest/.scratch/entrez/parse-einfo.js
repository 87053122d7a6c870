import { childElement, childElements } from "../xml/tree.js";
import { isJsonObject, jsonArray, jsonString, } from "./json-value.js";
import { answerText, childAnswerText, malformedAnswer, readCount, readJsonAnswer, readXmlAnswer, rootWithoutErrors, } from "./parse-common.js";
import { upstreamError } from "./upstream-error.js";
/**
 * Parses an EInfo answer (XML `eInfoResult` or JSON `einforesult`).
 * @param body - the answer body
 * @param format - `xml` or `json`
 * @param source - the request URL or file, for messages. Defaults to `'einfo'`.
 * @throws PubmatchError `UPSTREAM_ERROR` for an error answer (e.g. unknown db),
 *   `MALFORMED_XML`/`MALFORMED_JSON` for unreadable or wrongly shaped bodies
 */
export function parseEInfo(body, format, source = 'einfo') {
    return format === 'json' ? parseEInfoJson(body, source) : parseEInfoXml(body, source);
}
function flag(value) {
    return value === 'Y';
}
function optionalCount(text, what, format, source) {
    return text === undefined || text.trim() === ''
        ? undefined
        : readCount(text, what, format, source);
}
function parseEInfoXml(body, source) {
    const root = rootWithoutErrors(readXmlAnswer(body, source, 'eInfoResult'), 'EInfo', source);
    const dbList = childElement(root, 'DbList');
    if (dbList !== undefined) {
        return { kind: 'dbList', dbNames: childElements(dbList, 'DbName').map(answerText) };
    }
    const dbInfo = childElement(root, 'DbInfo');
    if (dbInfo === undefined) {
        throw malformedAnswer('xml', source, 'has neither <DbList> nor <DbInfo>', body);
    }
    const dbBuild = childAnswerText(dbInfo, 'DbBuild');
    const lastUpdate = childAnswerText(dbInfo, 'LastUpdate');
    return {
        kind: 'dbInfo',
        info: {
            dbName: childAnswerText(dbInfo, 'DbName') ?? '',
            menuName: childAnswerText(dbInfo, 'MenuName') ?? '',
            description: childAnswerText(dbInfo, 'Description') ?? '',
            ...(dbBuild === undefined ? {} : { dbBuild }),
            count: readCount(childAnswerText(dbInfo, 'Count') ?? '', 'Count', 'xml', source),
            ...(lastUpdate === undefined ? {} : { lastUpdate }),
            fields: childElements(childElement(dbInfo, 'FieldList'), 'Field').map((f) => fieldXml(f, source)),
            links: childElements(childElement(dbInfo, 'LinkList'), 'Link').map((l) => ({
                name: childAnswerText(l, 'Name') ?? '',
                menu: childAnswerText(l, 'Menu') ?? '',
                description: childAnswerText(l, 'Description') ?? '',
                dbTo: childAnswerText(l, 'DbTo') ?? '',
            })),
        },
    };
}
function fieldXml(field, source) {
    const termCount = optionalCount(childAnswerText(field, 'TermCount'), 'TermCount', 'xml', source);
    return {
        name: childAnswerText(field, 'Name') ?? '',
        fullName: childAnswerText(field, 'FullName') ?? '',
        description: childAnswerText(field, 'Description') ?? '',
        ...(termCount === undefined ? {} : { termCount }),
        isDate: flag(childAnswerText(field, 'IsDate')),
        isNumerical: flag(childAnswerText(field, 'IsNumerical')),
        singleToken: flag(childAnswerText(field, 'SingleToken')),
        hierarchy: flag(childAnswerText(field, 'Hierarchy')),
        isHidden: flag(childAnswerText(field, 'IsHidden')),
    };
}
function parseEInfoJson(body, source) {
    const json = readJsonAnswer(body, source);
    const result = json['einforesult'];
    if (!isJsonObject(result)) {
        const error = jsonString(json['error']);
        if (error !== undefined) {
            throw upstreamError('EInfo', source, [error]);
        }
        throw malformedAnswer('json', source, 'has no "einforesult" object', body);
    }
    const error = jsonString(result['ERROR']) ?? jsonString(result['error']);
    if (error !== undefined && error !== '') {
        throw upstreamError('EInfo', source, [error]);
    }
    if ('dblist' in result) {
        return {
            kind: 'dbList',
            dbNames: jsonArray(result['dblist']).flatMap((d) => jsonString(d) ?? []),
        };
    }
    // Production answers wrap the one DbInfo in an array; the 2012 prototype did not.
    const info = jsonArray(result['dbinfo'])[0];
    if (!isJsonObject(info)) {
        throw malformedAnswer('json', source, 'has neither "dblist" nor "dbinfo"', body);
    }
    const dbBuild = jsonString(info['dbbuild']);
    const lastUpdate = jsonString(info['lastupdate']);
    return {
        kind: 'dbInfo',
        info: {
            dbName: jsonString(info['dbname']) ?? '',
            menuName: jsonString(info['menuname']) ?? '',
            description: jsonString(info['description']) ?? '',
            ...(dbBuild === undefined ? {} : { dbBuild }),
            count: readCount(jsonString(info['count']) ?? '', 'count', 'json', source),
            ...(lastUpdate === undefined ? {} : { lastUpdate }),
            fields: jsonArray(info['fieldlist']).flatMap((f) => isJsonObject(f) ? [fieldJson(f, source)] : []),
            links: jsonArray(info['linklist']).flatMap((l) => isJsonObject(l)
                ? [
                    {
                        name: jsonString(l['name']) ?? '',
                        menu: jsonString(l['menu']) ?? '',
                        description: jsonString(l['description']) ?? '',
                        dbTo: jsonString(l['dbto']) ?? '',
                    },
                ]
                : []),
        },
    };
}
function fieldJson(field, source) {
    const termCount = optionalCount(jsonString(field['termcount']), 'termcount', 'json', source);
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
    };
}
