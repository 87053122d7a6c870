import { childElement, childElements } from "../xml/tree.js";
import { answerText, childAnswerText, readXmlAnswer } from "./parse-common.js";
import { upstreamError } from "./upstream-error.js";
/**
 * Parses an EPost answer (`ePostResult`; EPost answers in XML only).
 * @param body - the answer body
 * @param source - the request URL or file, for messages. Defaults to `'epost'`.
 * @throws PubmatchError `UPSTREAM_ERROR` when nothing was stored (`<ERROR>` without a
 *   `WebEnv`), `MALFORMED_XML` for unreadable or wrongly shaped bodies
 */
export function parseEPost(body, source = 'epost') {
    const { root, errors } = readXmlAnswer(body, source, 'ePostResult');
    const webEnv = childAnswerText(root, 'WebEnv');
    const queryKey = childAnswerText(root, 'QueryKey');
    if (webEnv === undefined || webEnv === '' || queryKey === undefined || queryKey === '') {
        throw upstreamError('EPost', source, errors.length > 0 ? errors : ['no WebEnv/QueryKey in the answer']);
    }
    return {
        webEnv,
        queryKey,
        invalidIds: childElements(childElement(root, 'InvalidIdList'), 'Id').map(answerText),
        warnings: errors,
    };
}
