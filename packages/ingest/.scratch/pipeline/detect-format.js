import { open } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { gunzipSync, constants as zlibConstants } from 'node:zlib';
/** The input formats `pubmatch ingest` reads. */
export const INPUT_FORMATS = [
    'pubmed-xml',
    'bioc-json',
    'bioc-xml',
    'jats',
    'nfcorpus',
    'jsonl',
    'medline-text',
    'mesh-descriptors',
    'mesh-qualifiers',
    'mesh-supplementary',
];
const HEAD_BYTES = 64 * 1024;
/** File extensions whose content must be readable; anything else unrecognised is skipped. */
const ARTICLE_EXTENSIONS = new Set(['.xml', '.nxml', '.gz', '.json', '.jsonl', '.ndjson', '.docs', '.medline', '.nbib']);
const XML_ROOTS = {
    PubmedArticleSet: 'pubmed-xml',
    PubmedArticle: 'pubmed-xml',
    PubmedBookArticle: 'pubmed-xml',
    MedlineCitationSet: 'pubmed-xml',
    DeleteCitation: 'pubmed-xml',
    collection: 'bioc-xml',
    'pmc-articleset': 'jats',
    article: 'jats',
    DescriptorRecordSet: 'mesh-descriptors',
    QualifierRecordSet: 'mesh-qualifiers',
    SupplementalRecordSet: 'mesh-supplementary',
};
const XML_NOT_ARTICLES = {
    eSearchResult: 'an ESearch response (ids, not articles)',
    eSummaryResult: 'an ESummary response (summaries, not articles)',
    eLinkResult: 'an ELink response',
    eInfoResult: 'an EInfo response',
    ePostResult: 'an EPost response',
    eSpellResult: 'an ESpell response',
    Result: 'an EGQuery response',
    html: 'an HTML page, not XML data',
    HTML: 'an HTML page, not XML data',
};
/**
 * Decides the format of a file from its name and first 64 KiB (decompressed when gzip'd).
 * Returns `{ format: null, reason }` for files that hold no articles; the caller decides
 * whether that is an error (a file named explicitly, or an article-like extension) or a skip.
 * @param path - the file
 */
export async function detectFormat(path) {
    const handle = await open(path, 'r');
    let head;
    let size;
    try {
        size = (await handle.stat()).size;
        const buffer = Buffer.alloc(Math.min(HEAD_BYTES, size));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
        head = buffer.subarray(0, bytesRead);
    }
    finally {
        await handle.close();
    }
    if (size === 0) {
        return { format: null, reason: 'the file is empty', known: false, empty: true };
    }
    if (head[0] === 0x1f && head[1] === 0x8b) {
        try {
            // A partial gzip stream: decompress what there is without insisting on its end.
            head = gunzipSync(head, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
        }
        catch {
            return { format: null, reason: 'a gzip file that cannot be decompressed', known: false };
        }
        if (head.length === 0) {
            return { format: null, reason: 'a gzip file with no content', known: false, empty: true };
        }
    }
    const text = decodeHead(head);
    return typeof text === 'string' ? detectFromText(basename(path), text) : text;
}
/**
 * Decodes the first bytes of a file as the XML reader will: by its byte-order mark (UTF-8,
 * UTF-16LE, UTF-16BE), by the UTF-16 shape of `<?` without one, by the encoding its XML
 * declaration names, else as UTF-8. An encoding the platform cannot decode is named.
 */
function decodeHead(head) {
    let encoding = 'utf-8';
    if (head[0] === 0xff && head[1] === 0xfe) {
        encoding = 'utf-16le';
    }
    else if (head[0] === 0xfe && head[1] === 0xff) {
        encoding = 'utf-16be';
    }
    else if (head[0] === 0x3c && head[1] === 0x00 && head[2] === 0x3f && head[3] === 0x00) {
        encoding = 'utf-16le';
    }
    else if (head[0] === 0x00 && head[1] === 0x3c && head[2] === 0x00 && head[3] === 0x3f) {
        encoding = 'utf-16be';
    }
    else if (!(head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf)) {
        const declared = /^<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head.subarray(0, 256).toString('latin1'))?.[1];
        if (declared !== undefined) {
            encoding = declared;
        }
    }
    try {
        // a cut multi-byte sequence at the end of the head becomes U+FFFD, which detection ignores
        return new TextDecoder(encoding).decode(head);
    }
    catch {
        return { format: null, reason: `XML in the encoding "${encoding}", which pubmatch cannot decode`, known: false };
    }
}
/**
 * The content-based half of {@link detectFormat}, for text already in memory.
 * @param name - the file name (its extension breaks ties such as `.docs`)
 * @param head - the first few KiB of the decompressed content
 */
export function detectFromText(name, head) {
    const text = head.replace(/^\uFEFF/, '').trimStart();
    if (text.length === 0) {
        return { format: null, reason: 'the file holds only white space', known: false, empty: true };
    }
    if (looksBinary(text)) {
        return { format: null, reason: 'binary data, not text', known: false };
    }
    if (text.startsWith('<')) {
        const root = xmlRoot(text);
        if (root === undefined) {
            return { format: null, reason: 'not well-formed XML (no root element in its first 64 KiB)', known: false };
        }
        const format = XML_ROOTS[root];
        if (format === 'jats' && root === 'article' && !looksLikeJats(text)) {
            return { format: null, reason: 'XML with root element <article> that is not JATS (no <front> or JATS DOCTYPE)', known: true };
        }
        if (format) {
            return { format };
        }
        return {
            format: null,
            reason: XML_NOT_ARTICLES[root] ?? `XML with root element <${root}>, which holds no articles pubmatch reads`,
            known: !root.toLowerCase().startsWith('html'),
        };
    }
    if (text.startsWith('[') || text.startsWith('{')) {
        if (/"passages"\s*:/.test(text)) {
            return { format: 'bioc-json' };
        }
        const firstLine = text.split('\n', 1)[0] ?? '';
        if (text.startsWith('{') && isArticleJsonLine(firstLine)) {
            return { format: 'jsonl' };
        }
        return { format: null, reason: 'JSON that is neither BioC nor JSON lines of articles', known: true };
    }
    if (/^PMID- ?\d/.test(text)) {
        return { format: 'medline-text' };
    }
    const ext = extname(name).toLowerCase();
    if (ext === '.docs' && /^[^\t\n]+\t[^\n]*/.test(text)) {
        return { format: 'nfcorpus' };
    }
    if (ext === '.queries') {
        return { format: null, reason: 'a queries file (QID<TAB>text): pass it to `pubmatch run --queries`', known: true };
    }
    if (/^\S+\s+(0|Q0)\s+\S+\s+-?\d+\s*$/m.test(text.split('\n', 1)[0] ?? '')) {
        return { format: null, reason: 'TREC qrels (judgements, not articles)', known: true };
    }
    return { format: null, reason: 'text in no format pubmatch ingests', known: false };
}
/**
 * Whether a file that holds no articles should be reported as an error (its extension says
 * it should hold some) rather than skipped.
 * @param name - the file name
 */
export function expectsArticles(name) {
    return ARTICLE_EXTENSIONS.has(extname(name).toLowerCase());
}
function xmlRoot(text) {
    let at = 0;
    while (at < text.length) {
        const open = text.indexOf('<', at);
        if (open < 0) {
            return undefined;
        }
        const next = text[open + 1];
        if (next === '?') {
            at = text.indexOf('?>', open);
            if (at < 0) {
                return undefined;
            }
            continue;
        }
        if (text.startsWith('<!--', open)) {
            at = text.indexOf('-->', open);
            if (at < 0) {
                return undefined;
            }
            continue;
        }
        if (next === '!') {
            at = skipDeclaration(text, open);
            if (at < 0) {
                return undefined;
            }
            continue;
        }
        const match = /^<([A-Za-z_][\w.:-]*)/.exec(text.slice(open, open + 200));
        return match?.[1];
    }
    return undefined;
}
/**
 * Whether a document whose root is `<article>` is JATS (NLM/JATS DTD, PMC `.nxml`, EFetch
 * `db=pmc`): a JATS or NLM DOCTYPE, or `<front>`/`<article-meta>` in its first 64 KiB (the
 * front matter is the first child of a JATS article). Other vocabularies also name their root
 * `article` (DocBook, HTML fragments).
 */
function looksLikeJats(text) {
    return /<!DOCTYPE\s+article\s[^>]*(?:JATS|NLM|archivearticle|journalpublishing)/i.test(text) || /<(?:front|article-meta)[\s>]/.test(text);
}
/** Skips `<!DOCTYPE … [ … ]>` including an internal subset. */
function skipDeclaration(text, open) {
    let depth = 0;
    for (let i = open + 2; i < text.length; i++) {
        const c = text[i];
        if (c === '[') {
            depth++;
        }
        else if (c === ']') {
            depth--;
        }
        else if (c === '>' && depth <= 0) {
            return i + 1;
        }
    }
    return -1;
}
function looksBinary(text) {
    const sample = text.slice(0, 4096);
    let control = 0;
    for (let i = 0; i < sample.length; i++) {
        const code = sample.charCodeAt(i);
        if (code === 0) {
            return true;
        }
        if (code < 9 || (code > 13 && code < 32) || code === 0xfffd) {
            control++;
        }
    }
    return control > sample.length * 0.05;
}
function isArticleJsonLine(line) {
    try {
        const value = JSON.parse(line);
        return (typeof value === 'object' &&
            value !== null &&
            ('id' in value || '_id' in value || 'pmid' in value) &&
            ('title' in value || 'abstract' in value || 'text' in value));
    }
    catch {
        return false;
    }
}
