import { stat } from 'node:fs/promises';
import { readBiocFile } from "../bioc/read-bioc.js";
import { readJatsXml } from "../jats/reader.js";
import { readJsonlArticles } from "../collections/jsonl.js";
import { readMedlineText } from "../collections/medline-text.js";
import { readNfcorpusDocs } from "../collections/nfcorpus.js";
import { readMeshXml } from "../mesh/reader.js";
import { readPubmedXml } from "../pubmed/reader.js";
/** Wraps a reader that cannot report bytes: reports the whole file once it is read. */
function wholeFile(read) {
    return async function* (path, onBytes) {
        yield* read(path);
        onBytes((await stat(path)).size);
    };
}
/**
 * The reader for every input format: streaming PubMed XML, JATS and MeSH XML with byte
 * progress, BioC files, NFCorpus, JSON lines and MEDLINE text.
 */
export function defaultReaders() {
    const xml = (read) => (path, onBytes) => read(path, { file: path, onBytes });
    return {
        'pubmed-xml': xml(readPubmedXml),
        'mesh-descriptors': xml(readMeshXml),
        'mesh-qualifiers': xml(readMeshXml),
        'mesh-supplementary': xml(readMeshXml),
        'bioc-json': wholeFile(readBiocFile),
        'bioc-xml': wholeFile(readBiocFile),
        jats: xml(readJatsXml),
        nfcorpus: wholeFile(readNfcorpusDocs),
        jsonl: wholeFile(readJsonlArticles),
        'medline-text': wholeFile(readMedlineText),
    };
}
