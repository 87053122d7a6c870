import { isPubmatchError } from '@pubmatch/core';
import { iterateXmlRecords } from "../xml/records.js";
import { answerName, answerText, answerXmlError } from "./parse-common.js";
import { upstreamError } from "./upstream-error.js";
/**
 * Checks an EFetch answer before it is handed to the caller (and cached): an XML answer must
 * be well-formed, record by record (which catches truncated and garbled bodies), with the
 * same DOCTYPE and entity rules as every XML reader of the package; an `<eFetchResult>` with
 * `<ERROR>` is an upstream error. Records are parsed one at a time and dropped, so a body of
 * 10,000 articles is never held as a tree. Text answers (`retmode=text`) pass unchecked.
 * @param body - the answer body
 * @param retmode - the requested `retmode`; only `xml` is checked
 * @param source - the request URL, for messages
 * @throws PubmatchError `MALFORMED_XML` (not well-formed, truncated, empty, not XML),
 *   `UPSTREAM_ERROR`, `EXTERNAL_ENTITY` / `ENTITY_EXPANSION_LIMIT` (hostile input)
 */
export function checkEFetchBody(body, retmode, source) {
    if (retmode !== 'xml') {
        return;
    }
    let errorAnswer = false;
    const errors = [];
    try {
        for (const result of iterateXmlRecords(body, {
            file: answerName(source),
            onRoot: (root) => {
                errorAnswer = root.name === 'eFetchResult';
            },
        })) {
            if (result.kind === 'error') {
                throw result.error;
            }
            if (errorAnswer && result.element.name === 'ERROR') {
                const message = answerText(result.element);
                if (message !== '') {
                    errors.push(message);
                }
            }
        }
    }
    catch (error) {
        throw isPubmatchError(error) ? answerXmlError(error, source) : error;
    }
    if (errors.length > 0) {
        throw upstreamError('EFetch', source, errors);
    }
}
