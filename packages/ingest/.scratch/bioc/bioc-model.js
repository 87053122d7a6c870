/**
 * The plain BioC data model both decoders (JSON and XML) produce, before any PMC-specific
 * interpretation: collections of documents of passages, each with its infons. Annotations,
 * relations and sentence-level structure are dropped (passages that carry their text only
 * in sentences get it back, see {@link joinSentences}).
 */
/**
 * Rebuilds a passage text from its sentences (BioC allows a passage to carry its text only
 * in `sentence` elements). Sentences are joined in the given order with one space where the
 * next sentence's offset leaves a gap or goes backwards, and nothing where it continues
 * exactly; offsets are not used for padding because they may count bytes or characters.
 * @param sentences - the sentences' offsets and texts
 */
export function joinSentences(sentences) {
    let text = '';
    let end;
    for (const sentence of sentences) {
        if (end !== undefined && sentence.offset !== end) {
            text += ' ';
        }
        text += sentence.text;
        end = sentence.offset + sentence.text.length;
    }
    return text;
}
