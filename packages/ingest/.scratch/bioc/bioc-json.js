import { joinSentences, } from "./bioc-model.js";
import { ingestError } from "./errors.js";
/**
 * Decodes BioC JSON into plain collections. Accepted shapes, all seen in real data:
 * - an array of collections (the PMC BioC API, both generations),
 * - one collection object (`{ source, date, key, infons, documents }`),
 * - one document object or an array of them (PubTator exports: `{ _id, id, infons,
 *   passages, pmid, pmcid, … }`), each wrapped in a collection of its own.
 *
 * The two generations of the PMC BioC API in `shared/data/pmc/bioc-json` (267 files, 268
 * collections) differ only in these ways:
 * - newer (collection `date` 2025, 205 collections): `bioctype` keys on collection
 *   (`BioCCollection`), document (`BioCDocument`) and passage (`BioCPassage`), and a
 *   collection `version: "1.0"`; the document id and `article-id_pmc` are `PMC…` (200) or,
 *   for 5 documents, digits only;
 * - older (dates 2020–2024, 63 collections): no `bioctype`, no `version`; the document id
 *   and `article-id_pmc` are digits only (`"10020673"`).
 * Both are an array holding one collection (PMC11484870.json holds the same one twice;
 * `source: "PMC"`, `key: "pmc.key"`, empty
 * infons, one document whose infons hold only the short `license`), whose first passage is
 * the front matter (`type: front`, `section_type: TITLE`, `article-id_*` infons); offsets
 * count UTF-8 bytes and sometimes skip a gap; sentences, annotations and relations are
 * empty. The sets of section and passage types differ slightly (CASE, KEYWORD,
 * `table_title_caption`, `table_foot_title`, `footnote_title` only in newer files;
 * REVIEW_INFO, `title_1_caption` only in older ones), which follows the articles rather
 * than the API. `bioctype` and `version` carry no information and are ignored.
 *
 * Malformed JSON yields one `MALFORMED_JSON` error. A top-level item that is neither a
 * collection nor a document yields a `MALFORMED_JSON` error for that item. A document of
 * the wrong shape is kept with its `problems` listed (see {@link BiocDocument.problems}).
 * Infon values that are numbers or booleans become strings; `null` and nested values are
 * dropped.
 * @param text - the file content
 * @param file - the file name for messages
 */
export function decodeBiocJson(text, file) {
    let value;
    try {
        value = JSON.parse(stripBom(text));
    }
    catch (cause) {
        const reason = cause instanceof Error ? cause.message : String(cause);
        return [
            ingestError('MALFORMED_JSON', { file }, `not valid BioC JSON (${reason})`, text.slice(-200), cause),
        ];
    }
    const items = Array.isArray(value) ? value : [value];
    return items.map((item, index) => {
        if (isRecord(item) && Array.isArray(item.documents)) {
            return decodeCollection(item);
        }
        if (isRecord(item) && 'passages' in item) {
            return { infons: {}, documents: [decodeDocument(item)] };
        }
        return ingestError('MALFORMED_JSON', { file, record: `#${index + 1}` }, 'expected a BioC collection (with "documents") or document (with "passages")', JSON.stringify(item) ?? String(item));
    });
}
function decodeCollection(value) {
    const collection = {
        infons: decodeInfons(value.infons),
        documents: value.documents.map((document, index) => isRecord(document)
            ? decodeDocument(document)
            : {
                infons: {},
                passages: [],
                problems: [`document #${index + 1} is not an object`],
            }),
    };
    for (const key of ['source', 'date', 'key']) {
        const field = value[key];
        if (typeof field === 'string') {
            collection[key] = field;
        }
    }
    return collection;
}
function decodeDocument(value) {
    const problems = [];
    const document = { infons: decodeInfons(value.infons), passages: [], problems };
    const id = scalarString(value.id);
    if (id !== undefined) {
        document.id = id;
    }
    if (Array.isArray(value.passages)) {
        value.passages.forEach((passage, index) => {
            const decoded = decodePassage(passage, index, problems);
            if (decoded !== undefined) {
                document.passages.push(decoded);
            }
        });
    }
    else {
        problems.push('"passages" is not an array');
    }
    const pmid = scalarString(value.pmid);
    const pmcid = scalarString(value.pmcid);
    if ((pmid !== undefined && pmid !== '') || (pmcid !== undefined && pmcid !== '')) {
        document.pubtator = {};
        if (pmid !== undefined && pmid !== '') {
            document.pubtator.pmid = pmid;
        }
        if (pmcid !== undefined && pmcid !== '') {
            document.pubtator.pmcid = pmcid;
        }
    }
    return document;
}
function decodePassage(value, index, problems) {
    if (!isRecord(value)) {
        problems.push(`passage #${index + 1} is not an object`);
        return undefined;
    }
    const offset = decodeOffset(value.offset);
    if (offset === undefined) {
        problems.push(`passage #${index + 1} has no valid offset (${JSON.stringify(value.offset) ?? 'undefined'})`);
        return undefined;
    }
    let text;
    if (typeof value.text === 'string') {
        text = value.text;
    }
    else if (value.text === undefined || value.text === null) {
        text = '';
    }
    else {
        problems.push(`passage #${index + 1} has a non-string text`);
        return undefined;
    }
    if (text === '' && Array.isArray(value.sentences) && value.sentences.length > 0) {
        const sentences = [];
        for (const sentence of value.sentences) {
            if (isRecord(sentence) && typeof sentence.text === 'string') {
                sentences.push({ offset: decodeOffset(sentence.offset) ?? -1, text: sentence.text });
            }
        }
        text = joinSentences(sentences);
    }
    return { offset, text, infons: decodeInfons(value.infons) };
}
/** A non-negative integer offset from a number or a numeric string. */
export function decodeOffset(value) {
    const number = typeof value === 'number'
        ? value
        : typeof value === 'string' && /^\s*\d+\s*$/.test(value)
            ? Number(value)
            : NaN;
    return Number.isSafeInteger(number) && number >= 0 ? number : undefined;
}
function decodeInfons(value) {
    const infons = {};
    if (!isRecord(value)) {
        return infons;
    }
    for (const [key, raw] of Object.entries(value)) {
        const text = scalarString(raw);
        if (text !== undefined && key !== '__proto__') {
            infons[key] = text;
        }
    }
    return infons;
}
function scalarString(value) {
    if (typeof value === 'string') {
        return value;
    }
    if (typeof value === 'number' || typeof value === 'boolean') {
        return String(value);
    }
    return undefined;
}
function isRecord(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function stripBom(text) {
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
