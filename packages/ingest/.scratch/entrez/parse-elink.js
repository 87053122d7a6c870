import { attribute, childElement, childElements } from "../xml/tree.js";
import { isJsonObject, jsonArray, jsonString } from "./json-value.js";
import { answerText, childAnswerText, errorTexts, malformedAnswer, readJsonAnswer, readXmlAnswer, } from "./parse-common.js";
import { upstreamError } from "./upstream-error.js";
/**
 * Parses an ELink answer (XML `eLinkResult` or JSON `linksets`). JSON covers link sets,
 * scores and history; the check and LinkOut commands are parsed from XML only.
 * @param body - the answer body
 * @param format - `xml` or `json`
 * @param source - the request URL or file, for messages. Defaults to `'elink'`.
 * @throws PubmatchError `UPSTREAM_ERROR` when the answer carries only errors,
 *   `MALFORMED_XML`/`MALFORMED_JSON` for unreadable or wrongly shaped bodies
 */
export function parseELink(body, format, source = 'elink') {
    const { linkSets, errors } = format === 'json' ? readJson(body, source) : readXml(body, source);
    const setErrors = linkSets.flatMap((s) => s.errors);
    const hasContent = linkSets.some((s) => s.ids.length > 0 || s.linkSetDbs.length > 0 || s.idChecks.length > 0 || s.idUrls.length > 0);
    if (!hasContent && errors.length + setErrors.length > 0) {
        throw upstreamError('ELink', source, [...errors, ...setErrors]);
    }
    return { linkSets };
}
function readXml(body, source) {
    const { root, errors } = readXmlAnswer(body, source, 'eLinkResult');
    return { linkSets: childElements(root, 'LinkSet').map(linkSetXml), errors };
}
function linkSetXml(set) {
    const webEnv = childAnswerText(set, 'WebEnv');
    const idCheckList = childElement(set, 'IdCheckList');
    return {
        dbFrom: childAnswerText(set, 'DbFrom') ?? '',
        ids: childElements(childElement(set, 'IdList'), 'Id').map(answerText),
        linkSetDbs: childElements(set, 'LinkSetDb').map((db) => ({
            dbTo: childAnswerText(db, 'DbTo') ?? '',
            linkName: childAnswerText(db, 'LinkName') ?? '',
            links: childElements(db, 'Link').map((link) => {
                const score = childAnswerText(link, 'Score');
                return {
                    id: childAnswerText(link, 'Id') ?? '',
                    ...(score === undefined || score === '' ? {} : { score: Number(score) }),
                };
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
    };
}
function idChecksXml(list) {
    const checks = [];
    for (const id of childElements(list, 'Id')) {
        const hasNeighbor = attribute(id, 'HasNeighbor');
        const hasLinkOut = attribute(id, 'HasLinkOut');
        checks.push({
            id: answerText(id),
            ...(hasNeighbor === undefined ? {} : { hasNeighbor: hasNeighbor === 'Y' }),
            ...(hasLinkOut === undefined ? {} : { hasLinkOut: hasLinkOut === 'Y' }),
            links: [],
        });
    }
    for (const set of childElements(list, 'IdLinkSet')) {
        checks.push({
            id: childAnswerText(set, 'Id') ?? '',
            links: childElements(set, 'LinkInfo').map((info) => {
                const menuTag = childAnswerText(info, 'MenuTag');
                return {
                    dbTo: childAnswerText(info, 'DbTo') ?? '',
                    linkName: childAnswerText(info, 'LinkName') ?? '',
                    ...(menuTag === undefined ? {} : { menuTag }),
                };
            }),
        });
    }
    return checks;
}
function idUrlsXml(set) {
    return {
        id: childAnswerText(set, 'Id') ?? '',
        urls: childElements(set, 'ObjUrl').map((obj) => {
            const linkName = childAnswerText(obj, 'LinkName');
            const provider = childElement(obj, 'Provider');
            const providerName = provider === undefined ? undefined : childAnswerText(provider, 'Name');
            return {
                url: childAnswerText(obj, 'Url') ?? '',
                ...(linkName === undefined ? {} : { linkName }),
                categories: childElements(obj, 'Category').map(answerText),
                attributes: childElements(obj, 'Attribute').map(answerText),
                ...(providerName === undefined ? {} : { provider: providerName }),
            };
        }),
    };
}
function readJson(body, source) {
    const json = readJsonAnswer(body, source);
    const errors = [jsonString(json['ERROR']), jsonString(json['error'])].flatMap((m) => m === undefined || m === '' ? [] : [m]);
    if (!('linksets' in json)) {
        if (errors.length > 0) {
            return { linkSets: [], errors };
        }
        throw malformedAnswer('json', source, 'has no "linksets"', body);
    }
    return { linkSets: jsonArray(json['linksets']).flatMap(linkSetJson), errors };
}
function linkSetJson(set) {
    if (!isJsonObject(set)) {
        return [];
    }
    const webEnv = jsonString(set['webenv']);
    const error = jsonString(set['ERROR']) ?? jsonString(set['error']);
    return [
        {
            dbFrom: jsonString(set['dbfrom']) ?? '',
            ids: jsonArray(set['ids']).flatMap((id) => jsonString(id) ?? []),
            linkSetDbs: jsonArray(set['linksetdbs']).flatMap((db) => isJsonObject(db)
                ? [
                    {
                        dbTo: jsonString(db['dbto']) ?? '',
                        linkName: jsonString(db['linkname']) ?? '',
                        links: jsonArray(db['links']).flatMap(linkJson),
                    },
                ]
                : []),
            histories: jsonArray(set['linksetdbhistories']).flatMap((h) => isJsonObject(h)
                ? [
                    {
                        dbTo: jsonString(h['dbto']) ?? '',
                        linkName: jsonString(h['linkname']) ?? '',
                        queryKey: jsonString(h['querykey']) ?? '',
                    },
                ]
                : []),
            ...(webEnv === undefined ? {} : { webEnv }),
            idChecks: [],
            idUrls: [],
            errors: error === undefined || error === '' ? [] : [error],
        },
    ];
}
function linkJson(link) {
    const id = jsonString(link);
    if (id !== undefined) {
        return [{ id }];
    }
    if (!isJsonObject(link)) {
        return [];
    }
    const linkId = jsonString(link['id']);
    const score = jsonString(link['score']);
    return linkId === undefined
        ? []
        : [{ id: linkId, ...(score === undefined ? {} : { score: Number(score) }) }];
}
