import { PubmatchError, truncateForMessage } from '@pubmatch/core';
/**
 * A {@link PubmatchError} whose message names the package, the file and the record, and
 * quotes at most 200 characters of the offending input.
 * @param code - the error code
 * @param place - file and record
 * @param problem - what is wrong, in a few words
 * @param input - the offending input, quoted (truncated) when given
 * @param cause - the underlying error
 */
export function ingestError(code, place, problem, input, cause) {
    const where = [
        place.file,
        place.line === undefined ? undefined : `line ${place.line}`,
        place.label ?? place.record,
    ]
        .filter((part) => part !== undefined && part !== '')
        .join(', ');
    const quoted = input === undefined ? '' : `: "${truncateForMessage(input)}"`;
    const message = `@pubmatch/ingest: ${where === '' ? '' : `${where}: `}${problem}${quoted}`;
    const details = {};
    if (place.file !== undefined) {
        details.file = place.file;
    }
    if (place.record !== undefined) {
        details.record = place.record;
    }
    if (place.line !== undefined) {
        details.position = place.line;
    }
    return new PubmatchError(code, message, cause === undefined ? { details } : { details, cause });
}
