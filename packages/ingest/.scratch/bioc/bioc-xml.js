import { PubmatchError, isPubmatchError } from '@pubmatch/core';
import { parseXmlRecords } from "../xml/records.js";
import { attribute, childElements, ownText } from "../xml/tree.js";
import { joinSentences, } from "./bioc-model.js";
import { decodeOffset } from "./bioc-json.js";
import { ingestError } from "./errors.js";
/**
 * Options for the package's safe XML layer (`src/xml/`) to read BioC XML: each child of the
 * `<collection>` root (`source`, `date`, `key`, `infon`, `document`) is one record, parsed on
 * its own with bounded DOCTYPE entity expansion and no external entities; anything but a
 * `<collection>` root is `UNSUPPORTED_FORMAT`.
 * @param file - the file name for messages
 */
export function biocXmlRecordOptions(file) {
    return {
        file,
        recordDepth: 2,
        recordIdLabel: 'document',
        recordId: rawDocumentId,
        onRoot: (root) => {
            if (root.name !== 'collection') {
                throw ingestError('UNSUPPORTED_FORMAT', { file }, `expected a BioC <collection> root element, found <${root.name}>`);
            }
        },
    };
}
/** The `<id>` (v1) or `id` attribute (v2) of a document record, from its raw text. */
function rawDocumentId(record) {
    if (record.name !== 'document') {
        return undefined;
    }
    const head = record.xml.slice(0, 2048);
    return (/^<document\b[^>]*\bid\s*=\s*["']([^"'<]*)["']/.exec(head) ??
        /<id>\s*([^<]*?)\s*<\/id>/.exec(head))?.[1];
}
/**
 * Creates a {@link BiocXmlAssembler}. Text is kept exactly as written (entity and character
 * references decoded, no trimming or whitespace collapsing); annotations, relations and
 * locations are dropped; a passage with sentences but no `text` gets its text from them.
 * Both BioC XML versions are read: v1 (`<id>`, `<offset>` child elements, the PMC BioC API's
 * form) and v2 (`id`/`offset` attributes).
 */
export function createBiocXmlAssembler() {
    const header = { infons: {} };
    return {
        header,
        push(result) {
            if (result.kind === 'error') {
                return result.error;
            }
            const { element } = result;
            switch (element.name) {
                case 'document':
                    return decodeDocument(element);
                case 'source':
                case 'date':
                case 'key':
                    header[element.name] = ownText(element);
                    return undefined;
                case 'infon':
                    addInfon(header.infons, element);
                    return undefined;
                default:
                    return undefined;
            }
        },
    };
}
/**
 * Decodes BioC XML held in memory into plain collections, the same shape `decodeBiocJson`
 * gives for the JSON twin: one collection with every readable document, followed by the
 * errors (a per-document `MALFORMED_XML`; `TRUNCATED_INPUT` for a cut-off file; or one
 * error for an unusable input: `MALFORMED_XML`, `UNSUPPORTED_FORMAT`, `EMPTY_INPUT`,
 * `ENTITY_EXPANSION_LIMIT`, `EXTERNAL_ENTITY`). Never throws.
 * @param text - the file content
 * @param file - the file name for messages. Defaults to `<string>`.
 */
export function decodeBiocXml(text, file = '<string>') {
    const assembler = createBiocXmlAssembler();
    const documents = [];
    const errors = [];
    for (const item of biocXmlItems(text, file, assembler)) {
        if (item instanceof PubmatchError) {
            errors.push(item);
        }
        else {
            documents.push(item);
        }
    }
    const collection = { ...assembler.header, documents };
    return documents.length === 0 && errors.length > 0 ? errors : [collection, ...errors];
}
/**
 * The documents and errors of BioC XML held in memory, in input order (see
 * {@link decodeBiocXml} for the errors). Never throws.
 * @param text - the file content
 * @param file - the file name for messages
 * @param assembler - collects the collection header as a side effect
 */
export function biocXmlItems(text, file, assembler) {
    const items = [];
    try {
        for (const result of parseXmlRecords(text, biocXmlRecordOptions(file))) {
            const item = assembler.push(result);
            if (item !== undefined) {
                items.push(item);
            }
        }
    }
    catch (error) {
        items.push(asPubmatchError(error, file));
    }
    return items;
}
/**
 * A thrown value as a {@link PubmatchError} (the safe XML layer throws only those; anything
 * else is reported as `MALFORMED_XML`).
 * @param error - what was thrown
 * @param file - the file name for messages
 */
export function asPubmatchError(error, file) {
    if (isPubmatchError(error)) {
        return error;
    }
    const reason = error instanceof Error ? error.message : String(error);
    return ingestError('MALFORMED_XML', { file }, `cannot read BioC XML (${reason})`, undefined, error);
}
function childRawText(element, name) {
    const [child] = childElements(element, name);
    return child === undefined ? undefined : ownText(child);
}
function addInfon(infons, element) {
    const key = attribute(element, 'key');
    if (key !== undefined && key !== '__proto__') {
        infons[key] = ownText(element);
    }
}
function decodeInfons(element) {
    const infons = {};
    for (const infon of childElements(element, 'infon')) {
        addInfon(infons, infon);
    }
    return infons;
}
function decodeDocument(element) {
    const problems = [];
    const document = { infons: decodeInfons(element), passages: [], problems };
    const id = childRawText(element, 'id') ?? attribute(element, 'id');
    if (id !== undefined) {
        document.id = id;
    }
    childElements(element, 'passage').forEach((passage, index) => {
        const decoded = decodePassage(passage, index, problems);
        if (decoded !== undefined) {
            document.passages.push(decoded);
        }
    });
    return document;
}
function decodePassage(element, index, problems) {
    const rawOffset = childRawText(element, 'offset') ?? attribute(element, 'offset');
    const offset = decodeOffset(rawOffset);
    if (offset === undefined) {
        problems.push(`passage #${index + 1} has no valid <offset> (${JSON.stringify(rawOffset ?? null)})`);
        return undefined;
    }
    let text = childRawText(element, 'text') ?? '';
    const sentences = childElements(element, 'sentence');
    if (text === '' && sentences.length > 0) {
        text = joinSentences(sentences.map((sentence) => ({
            offset: decodeOffset(childRawText(sentence, 'offset') ?? attribute(sentence, 'offset')) ?? -1,
            text: childRawText(sentence, 'text') ?? '',
        })));
    }
    return { offset, text, infons: decodeInfons(element) };
}
