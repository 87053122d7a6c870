import { open, readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { PubmatchError, isPubmatchError } from '@pubmatch/core';
import { readXmlRecords } from "../xml/records.js";
import { decodeBiocJson } from "./bioc-json.js";
import { asPubmatchError, biocXmlItems, biocXmlRecordOptions, createBiocXmlAssembler, } from "./bioc-xml.js";
import { ingestError } from "./errors.js";
import { biocDocumentToRecord, biocToRecords } from "./to-fulltext.js";
/**
 * Parses BioC JSON (the PMC BioC API's `BioC_json` output of either generation, a single
 * collection, or PubTator's single-document export) into one record per document: a
 * `fulltext` record with passages and normalised section types, or an `error` record.
 * Malformed JSON (e.g. a truncated file) gives a single `MALFORMED_JSON` error record.
 * Never throws.
 * @param text - the JSON text
 * @param options - see {@link BiocParseOptions}
 * @example parseBiocJson(await readFile('PMC10020673.json', 'utf8'), { file: 'PMC10020673.json' })
 */
export function parseBiocJson(text, options = {}) {
    return biocToRecords(decodeBiocJson(text, options.file), options.file, 'MALFORMED_JSON');
}
/**
 * Parses BioC XML (`collection/document/passage` with `infon` elements) into one record per
 * document, exactly as {@link parseBiocJson} does for the JSON twin. It goes through the
 * package's safe XML layer: DOCTYPE entities are bounded (`ENTITY_EXPANSION_LIMIT`) and
 * external ones refused (`EXTERNAL_ENTITY`); a malformed document is a `MALFORMED_XML`
 * record and the others are still read; a truncated file gives the documents before the cut
 * and a `TRUNCATED_INPUT` record; an input that is not BioC XML at all gives a single error
 * record. Never throws.
 * @param text - the XML text
 * @param options - see {@link BiocParseOptions}
 */
export function parseBiocXml(text, options = {}) {
    const file = options.file ?? '<string>';
    const assembler = createBiocXmlAssembler();
    let ordinal = 0;
    return biocXmlItems(text, file, assembler).map((item) => {
        if (item instanceof PubmatchError) {
            return { kind: 'error', error: item };
        }
        ordinal += 1;
        return biocDocumentToRecord(item, {
            source: assembler.header.source,
            file: options.file,
            ordinal,
            malformedCode: 'MALFORMED_XML',
        });
    });
}
/** Codes for which a whole input is unusable: {@link readBiocFile} throws them. */
const UNUSABLE = new Set(['IO', 'EMPTY_INPUT', 'UNSUPPORTED_FORMAT']);
/**
 * Reads one BioC file, JSON or XML, and yields its records. The format is told by the first
 * non-blank character (`[`/`{` → JSON, `<` → XML) or gzip magic bytes (→ XML, `.xml.gz`).
 * JSON files are read whole (PMC BioC files are at most a few MB); XML files are streamed
 * document by document in bounded memory, so large BioC XML collections are fine.
 *
 * Errors inside the file are yielded as `error` records (see {@link parseBiocJson} and
 * {@link parseBiocXml}). The generator throws a `PubmatchError` only when the file cannot be
 * used at all: `IO` when it cannot be read, `EMPTY_INPUT` when it is empty or blank,
 * `UNSUPPORTED_FORMAT` when it is neither JSON nor XML, or XML without a `<collection>` root.
 * @param path - the file path; messages name its base name
 */
export async function* readBiocFile(path) {
    const file = basename(path);
    const kind = await sniff(path, file);
    if (kind === 'json') {
        const text = await readFile(path, 'utf8').catch((cause) => {
            throw ioError(path, cause);
        });
        yield* parseBiocJson(text, { file });
        return;
    }
    const assembler = createBiocXmlAssembler();
    let ordinal = 0;
    try {
        for await (const result of readXmlRecords(path, biocXmlRecordOptions(file))) {
            const item = assembler.push(result);
            if (item instanceof PubmatchError) {
                yield { kind: 'error', error: item };
            }
            else if (item !== undefined) {
                ordinal += 1;
                yield biocDocumentToRecord(item, {
                    source: assembler.header.source,
                    file,
                    ordinal,
                    malformedCode: 'MALFORMED_XML',
                });
            }
        }
    }
    catch (error) {
        if (isPubmatchError(error) && UNUSABLE.has(error.code)) {
            throw error;
        }
        yield { kind: 'error', error: asPubmatchError(error, file) };
    }
}
const SNIFF_BYTES = 65_536;
/** JSON or XML, from the start of the file. */
async function sniff(path, file) {
    let head;
    try {
        const handle = await open(path, 'r');
        try {
            const buffer = Buffer.alloc(SNIFF_BYTES);
            const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
            head = buffer.subarray(0, bytesRead);
        }
        finally {
            await handle.close();
        }
    }
    catch (cause) {
        throw ioError(path, cause);
    }
    if (head[0] === 0x1f && head[1] === 0x8b) {
        return 'xml';
    }
    const text = head.toString('utf8').replace(/^\uFEFF/, '');
    const first = /\S/.exec(text)?.[0];
    if (first === '[' || first === '{') {
        return 'json';
    }
    if (first === '<') {
        return 'xml';
    }
    if (first === undefined && head.length < SNIFF_BYTES) {
        throw ingestError('EMPTY_INPUT', { file }, 'BioC file is empty');
    }
    throw ingestError('UNSUPPORTED_FORMAT', { file }, 'neither BioC JSON nor BioC XML', text.slice(0, 200));
}
function ioError(path, cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    return ingestError('IO', { file: path }, `cannot read BioC file (${reason})`, undefined, cause);
}
