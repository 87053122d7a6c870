import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { ingestError } from "../bioc/errors.js";
import { parseXmlDocument } from "../xml/records.js";
import { attribute, childElements, childText, textContent } from "../xml/tree.js";
import { readTabbedLines } from "./lines.js";
/**
 * Reads a query file of `QID<TAB>text` lines (NFCorpus `*.queries`, BEIR-style TSV without
 * a header), in file order. The text is everything after the first tab, trimmed; blank
 * lines are skipped.
 * @param path - the query file
 * @returns the queries
 * @throws PubmatchError `UNSUPPORTED_FORMAT` naming the line when a line has no tab or an
 *   empty id, `INVALID_ARGUMENT` when an id repeats, `IO` when the file cannot be read
 */
export async function readQueries(path) {
    const file = basename(path);
    const queries = [];
    const seen = new Set();
    for await (const { text, number, id, rest } of readTabbedLines(path)) {
        if (id === '') {
            throw ingestError('UNSUPPORTED_FORMAT', { file, line: number }, 'expected QID<TAB>text', text);
        }
        if (seen.has(id)) {
            throw ingestError('INVALID_ARGUMENT', { file, line: number, record: id, label: `query ${id}` }, 'duplicate query id');
        }
        seen.add(id);
        queries.push({ id, text: rest.trim() });
    }
    return queries;
}
/**
 * Reads TREC topics in XML form, `<topics><topic number="1"><disease>…</disease>…</topic>…`
 * (TREC Precision Medicine 2017–2019 and similar). The query id is the `number` attribute
 * (else `id`, else a `<number>`/`<num>` child); the text is the chosen fields' texts joined
 * with a space, whitespace collapsed. Parsing goes through the package's safe XML layer
 * (bounded DOCTYPE entities, no external ones). The older SGML `<top><num>` form is not XML
 * and is not read.
 * @param path - the topics file
 * @param options - see {@link TrecTopicOptions}
 * @returns the topics as queries, in file order
 * @throws PubmatchError `MALFORMED_XML`/`TRUNCATED_INPUT` (or `ENTITY_EXPANSION_LIMIT`/
 *   `EXTERNAL_ENTITY`) when the file is not well-formed, `MISSING_FIELD` when a topic has no
 *   number, `IO` when the file cannot be read
 */
export async function readTrecTopics(path, options = {}) {
    const file = basename(path);
    let xml;
    try {
        xml = await readFile(path, 'utf8');
    }
    catch (cause) {
        const reason = cause instanceof Error ? cause.message : String(cause);
        throw ingestError('IO', { file: path }, `cannot read topics (${reason})`, undefined, cause);
    }
    const { root } = parseXmlDocument(xml, { file });
    if (root.name !== 'topics') {
        throw ingestError('MALFORMED_XML', { file }, `expected a <topics> root element, found <${root.name}>`);
    }
    return childElements(root, 'topic').map((topic, index) => {
        const id = [
            attribute(topic, 'number'),
            attribute(topic, 'id'),
            childText(topic, 'number'),
            childText(topic, 'num'),
        ]
            .find((value) => value !== undefined && value.trim() !== '')
            ?.trim();
        if (id === undefined) {
            throw ingestError('MISSING_FIELD', { file, record: `#${index + 1}`, label: `topic #${index + 1}` }, 'topic has no number');
        }
        const fields = childElements(topic).filter((child) => child.name !== 'number' && child.name !== 'num');
        const chosen = options.fields === undefined
            ? fields
            : options.fields.flatMap((name) => fields.filter((field) => field.name === name));
        const text = chosen
            .map((field) => textContent(field))
            .filter((part) => part !== '')
            .join(' ');
        return { id, text };
    });
}
