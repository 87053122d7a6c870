import { childElement, childElements, ownText } from "../xml/tree.js";
import { childAnswerText, readXmlAnswer, rootWithoutErrors } from "./parse-common.js";
/**
 * Parses an ESpell answer (`eSpellResult`). An empty `<ERROR/>` is normal and ignored.
 * @param body - the answer body
 * @param source - the request URL or file, for messages. Defaults to `'espell'`.
 * @throws PubmatchError `UPSTREAM_ERROR` when `<ERROR>` has text, `MALFORMED_XML` for
 *   unreadable or wrongly shaped bodies
 */
export function parseESpell(body, source = 'espell') {
    const root = rootWithoutErrors(readXmlAnswer(body, source, 'eSpellResult'), 'ESpell', source);
    const query = childAnswerText(root, 'Query') ?? '';
    const correctedQuery = childAnswerText(root, 'CorrectedQuery') ?? '';
    const pieces = childElements(childElement(root, 'SpelledQuery'))
        .filter((c) => c.name === 'Original' || c.name === 'Replaced')
        .map((c) => ({
        kind: c.name === 'Original' ? 'original' : 'replaced',
        // The piece as written, spaces included.
        text: ownText(c),
    }))
        .filter((p) => p.text !== '');
    return {
        database: childAnswerText(root, 'Database') ?? '',
        query,
        correctedQuery,
        changed: correctedQuery !== '' && correctedQuery !== query,
        pieces,
    };
}
