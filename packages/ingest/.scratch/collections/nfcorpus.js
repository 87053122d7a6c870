import { basename } from 'node:path';
import { emptyArticle } from '@pubmatch/core';
import { ingestError } from "../bioc/errors.js";
import { readTabbedLines } from "./lines.js";
/**
 * Splits a pre-processed NFCorpus document text into title and abstract, exactly as the
 * reference scores in `shared/data/reference/nfcorpus-bm25` do: tokens are the text split
 * on whitespace; the title is the tokens before the first token `abstract` (which is
 * dropped) and the abstract the tokens after it; without an `abstract` token the split is
 * at the first `summary` token (also dropped); with neither, everything is title.
 * Tokens are joined with single spaces.
 * @param text - the text after the document id
 */
export function splitNfcorpusText(text) {
    const tokens = text.split(/\s+/).filter((token) => token !== '');
    let at = tokens.indexOf('abstract');
    if (at === -1) {
        at = tokens.indexOf('summary');
    }
    return at === -1
        ? { title: tokens.join(' '), abstract: '' }
        : { title: tokens.slice(0, at).join(' '), abstract: tokens.slice(at + 1).join(' ') };
}
/**
 * Reads NFCorpus's `corpus.docs` (`DOC_ID<TAB>text`, one document per line; the text is
 * lower-cased, stop-worded and has title and abstract separated by the token `abstract`)
 * into articles with source `test-collection`, streaming line by line. See
 * {@link splitNfcorpusText} for the title/abstract rule. Everything after the first tab is
 * the text: the real file has one line (3,295) where a missing line break glued `MED-10`
 * onto `MED-5371`; like the reference scores, the reader keeps that as one document whose
 * abstract ends in `… MED-10 statin breast cancer …`, so the corpus has 3,394 documents.
 *
 * Blank lines are skipped; a line without a tab or with an empty id is an `error` record
 * (`MISSING_FIELD`) naming the line. Throws a `PubmatchError` (`IO`) only when the file
 * cannot be read.
 * @param path - the `corpus.docs` file
 */
export async function* readNfcorpusDocs(path) {
    const file = basename(path);
    for await (const { text, number, id, rest } of readTabbedLines(path)) {
        if (id === '') {
            yield {
                kind: 'error',
                error: ingestError('MISSING_FIELD', { file, line: number }, 'expected DOC_ID<TAB>text', text),
            };
            continue;
        }
        const { title, abstract } = splitNfcorpusText(rest);
        const article = { ...emptyArticle(id, 'test-collection'), title };
        if (abstract !== '') {
            article.abstract = [{ text: abstract }];
        }
        yield { kind: 'article', article };
    }
}
