import { childElement, childElements } from "../xml/tree.js";
import { isJsonObject, jsonArray, jsonString, malformedJson } from "./json-value.js";
import { answerText, childAnswerText, malformedAnswer, readCount, readJsonAnswer, readXmlAnswer, rootWithoutErrors, } from "./parse-common.js";
import { upstreamError } from "./upstream-error.js";
const JSON_WARNING_TYPES = {
    phrasesnotfound: 'PhraseNotFound',
    fieldsnotfound: 'FieldNotFound',
    phrasesignored: 'PhraseIgnored',
    quotedphrasesnotfound: 'QuotedPhraseNotFound',
    outputmessages: 'OutputMessage',
};
/**
 * Parses an ESearch answer (XML `eSearchResult` or JSON `esearchresult`) into the same
 * typed result for both formats.
 * @param body - the answer body
 * @param format - `xml` or `json`
 * @param source - the request URL or file, for messages. Defaults to `'esearch'`.
 * @throws PubmatchError `UPSTREAM_ERROR` for an error answer (`<ERROR>`, JSON `ERROR`),
 *   `MALFORMED_XML`/`MALFORMED_JSON` for unreadable or wrongly shaped bodies
 */
export function parseESearch(body, format, source = 'esearch') {
    return format === 'json' ? parseESearchJson(body, source) : parseESearchXml(body, source);
}
function parseESearchXml(body, source) {
    const root = rootWithoutErrors(readXmlAnswer(body, source, 'eSearchResult'), 'ESearch', source);
    const count = childAnswerText(root, 'Count');
    if (count === undefined) {
        throw malformedAnswer('xml', source, 'has no <Count>', body);
    }
    const queryKey = childAnswerText(root, 'QueryKey');
    const webEnv = childAnswerText(root, 'WebEnv');
    const queryTranslation = childAnswerText(root, 'QueryTranslation');
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
        translationStack: childElements(childElement(root, 'TranslationStack')).flatMap((entry) => stackEntryXml(entry, source)),
        ...(queryTranslation === undefined ? {} : { queryTranslation }),
        warnings: [...xmlWarnings(root, 'ErrorList'), ...xmlWarnings(root, 'WarningList')],
    };
}
function stackEntryXml(entry, source) {
    if (entry.name === 'OP') {
        return [{ kind: 'operator', operator: answerText(entry) }];
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
        ];
    }
    return [];
}
function xmlWarnings(root, list) {
    return childElements(childElement(root, list))
        .map((c) => ({ list, type: c.name, text: answerText(c) }))
        .filter((w) => w.text !== '');
}
function parseESearchJson(body, source) {
    const json = readJsonAnswer(body, source);
    const topError = jsonString(json['error']);
    if (topError !== undefined) {
        throw upstreamError('ESearch', source, [topError]);
    }
    const result = json['esearchresult'];
    if (!isJsonObject(result)) {
        throw malformedJson(source, 'no "esearchresult" object', body);
    }
    const error = jsonString(result['ERROR']) ?? jsonString(result['error']);
    if (error !== undefined && error !== '') {
        throw upstreamError('ESearch', source, [error]);
    }
    const count = jsonString(result['count']);
    if (count === undefined) {
        throw malformedAnswer('json', source, 'has no "count" in "esearchresult"', body);
    }
    const queryKey = jsonString(result['querykey']);
    const webEnv = jsonString(result['webenv']);
    const queryTranslation = jsonString(result['querytranslation']);
    return {
        count: readCount(count, 'count', 'json', source),
        retMax: readCount(jsonString(result['retmax']) ?? '0', 'retmax', 'json', source),
        retStart: readCount(jsonString(result['retstart']) ?? '0', 'retstart', 'json', source),
        ids: jsonArray(result['idlist']).flatMap((id) => jsonString(id) ?? []),
        ...(queryKey === undefined ? {} : { queryKey }),
        ...(webEnv === undefined ? {} : { webEnv }),
        translationSet: jsonArray(result['translationset']).flatMap((t) => isJsonObject(t) ? [{ from: jsonString(t['from']) ?? '', to: jsonString(t['to']) ?? '' }] : []),
        translationStack: jsonArray(result['translationstack']).flatMap((e) => stackEntryJson(e, source)),
        ...(queryTranslation === undefined ? {} : { queryTranslation }),
        warnings: [
            ...jsonWarnings(result['errorlist'], 'ErrorList'),
            ...jsonWarnings(result['warninglist'], 'WarningList'),
        ],
    };
}
function stackEntryJson(entry, source) {
    if (typeof entry === 'string') {
        return [{ kind: 'operator', operator: entry }];
    }
    if (!isJsonObject(entry)) {
        return [];
    }
    return [
        {
            kind: 'term',
            term: jsonString(entry['term']) ?? '',
            field: jsonString(entry['field']) ?? '',
            count: readCount(jsonString(entry['count']) ?? '0', 'translationstack.count', 'json', source),
            explode: jsonString(entry['explode']) === 'Y',
        },
    ];
}
function jsonWarnings(value, list) {
    if (!isJsonObject(value)) {
        return [];
    }
    const warnings = [];
    for (const [key, entries] of Object.entries(value)) {
        const type = JSON_WARNING_TYPES[key.toLowerCase()] ?? key;
        for (const entry of jsonArray(entries)) {
            const text = jsonString(entry);
            if (text !== undefined && text !== '') {
                warnings.push({ list, type, text });
            }
        }
    }
    return warnings;
}
