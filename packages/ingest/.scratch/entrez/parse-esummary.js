import { attribute, childElements } from "../xml/tree.js";
import { isJsonObject, jsonArray, jsonString } from "./json-value.js";
import { answerText, childAnswerText, errorTexts, malformedAnswer, readJsonAnswer, readXmlAnswer, } from "./parse-common.js";
import { upstreamError } from "./upstream-error.js";
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
export function parseESummary(body, format, source = 'esummary') {
    return format === 'json' ? parseESummaryJson(body, source) : parseESummaryXml(body, source);
}
function parseESummaryXml(body, source) {
    const { root, errors } = readXmlAnswer(body, source, 'eSummaryResult');
    const documents = [];
    for (const docSum of childElements(root, 'DocSum')) {
        documents.push(docSumV1(docSum));
    }
    for (const set of childElements(root, 'DocumentSummarySet')) {
        errors.push(...errorTexts(set));
        for (const summary of childElements(set, 'DocumentSummary')) {
            documents.push(documentSummaryV2(summary));
        }
    }
    if (documents.length === 0 && errors.length > 0) {
        throw upstreamError('ESummary', source, errors);
    }
    return { documents, warnings: errors };
}
function docSumV1(docSum) {
    return {
        uid: childAnswerText(docSum, 'Id') ?? '',
        fields: itemsAsObject(childElements(docSum, 'Item')),
    };
}
function itemValue(item) {
    const type = attribute(item, 'Type');
    const items = childElements(item, 'Item');
    if (type === 'List' && (attribute(item, 'Name') ?? '').endsWith('List')) {
        return items.map(itemValue);
    }
    if (type === 'List') {
        return itemsAsObject(items);
    }
    if (type === 'Structure') {
        return itemsAsObject(items);
    }
    const text = answerText(item);
    if (type === 'Integer') {
        if (text === '') {
            return null;
        }
        return /^-?\d+$/.test(text) ? Number(text) : text;
    }
    return text;
}
function itemsAsObject(items) {
    return collect(items.map((item) => [attribute(item, 'Name') ?? '', itemValue(item)]));
}
function documentSummaryV2(summary) {
    const error = childAnswerText(summary, 'error');
    const fields = collect(childElements(summary)
        .filter((e) => e.name !== 'error')
        .map((e) => [e.name, elementValue(e)]));
    return {
        uid: attribute(summary, 'uid') ?? '',
        fields,
        ...(error === undefined ? {} : { error }),
    };
}
function elementValue(element) {
    const children = childElements(element);
    if (children.length === 0) {
        return answerText(element);
    }
    return collect(children.map((c) => [c.name, elementValue(c)]));
}
/** Groups name/value pairs into an object; a name that occurs more than once maps to an array. */
function collect(entries) {
    const grouped = new Map();
    for (const [name, value] of entries) {
        const values = grouped.get(name);
        if (values === undefined) {
            grouped.set(name, [value]);
        }
        else {
            values.push(value);
        }
    }
    const object = {};
    for (const [name, values] of grouped) {
        object[name] = values.length === 1 ? (values[0] ?? null) : values;
    }
    return object;
}
function parseESummaryJson(body, source) {
    const json = readJsonAnswer(body, source);
    const topError = jsonString(json['error']);
    // Errors come as `esummaryresult: ["Invalid db name specified: fleegle"]`.
    const errors = [
        ...(topError === undefined ? [] : [topError]),
        ...jsonArray(json['esummaryresult']).flatMap((m) => jsonString(m) ?? []),
    ].filter((m) => m !== '');
    const result = json['result'];
    if (!isJsonObject(result)) {
        if (errors.length > 0) {
            throw upstreamError('ESummary', source, errors);
        }
        throw malformedAnswer('json', source, 'has no "result" object', body);
    }
    const uids = jsonArray(result['uids']).flatMap((u) => jsonString(u) ?? []);
    const documents = uids.map((uid) => {
        const entry = result[uid];
        if (!isJsonObject(entry)) {
            return { uid, fields: {}, error: 'no summary in the answer' };
        }
        const fields = {};
        for (const [key, value] of Object.entries(entry)) {
            if (key !== 'error') {
                fields[key] = jsonToSummary(value);
            }
        }
        const error = jsonString(entry['error']);
        return { uid, fields, ...(error === undefined ? {} : { error }) };
    });
    return { documents, warnings: errors };
}
function jsonToSummary(value) {
    if (Array.isArray(value)) {
        return value.map(jsonToSummary);
    }
    if (isJsonObject(value)) {
        const object = {};
        for (const [key, v] of Object.entries(value)) {
            object[key] = jsonToSummary(v);
        }
        return object;
    }
    return value;
}
/**
 * The text of a summary field, when it is text (or a number), e.g.
 * `summaryText(doc.fields['Title'])`.
 * @param value - a field value
 */
export function summaryText(value) {
    if (typeof value === 'string') {
        return value;
    }
    return typeof value === 'number' ? String(value) : undefined;
}
