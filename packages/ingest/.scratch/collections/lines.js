import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { ingestError } from "../bioc/errors.js";
/**
 * Streams a UTF-8 text file line by line (bounded memory: one line at a time), with `\n` or
 * `\r\n` breaks and a leading byte-order mark removed.
 * @param path - the file
 * @throws PubmatchError `IO` when the file cannot be opened or read
 */
export async function* readLines(path) {
    const stream = createReadStream(path, { encoding: 'utf8' });
    const lines = createInterface({ input: stream, crlfDelay: Infinity });
    let number = 0;
    try {
        for await (const line of lines) {
            number += 1;
            yield { text: number === 1 && line.charCodeAt(0) === 0xfeff ? line.slice(1) : line, number };
        }
    }
    catch (cause) {
        const reason = cause instanceof Error ? cause.message : String(cause);
        throw ingestError('IO', { file: path }, `cannot read file (${reason})`, undefined, cause);
    }
    finally {
        lines.close();
        stream.destroy();
    }
}
/**
 * Streams the non-blank lines of an `ID<TAB>text` file (NFCorpus documents, query files),
 * each split at its first tab; see {@link readLines}.
 * @param path - the file
 * @throws PubmatchError `IO` when the file cannot be opened or read
 */
export async function* readTabbedLines(path) {
    for await (const line of readLines(path)) {
        if (line.text.trim() === '') {
            continue;
        }
        const tab = line.text.indexOf('\t');
        yield {
            ...line,
            id: tab === -1 ? '' : line.text.slice(0, tab).trim(),
            rest: tab === -1 ? '' : line.text.slice(tab + 1),
        };
    }
}
