import { isPubmatchError } from '@pubmatch/core';
import { inputName } from "./input.js";
import { iterateXmlRecords, readXmlRecords, } from "./records.js";
/**
 * Creates the reader of an XML vocabulary whose records are elements (PubMed articles, MeSH
 * records): the safe record layer (`readXmlRecords`, `parseXmlRecords`) plus the
 * vocabulary's root check, record naming and conversion.
 * @param vocabulary - the root check, record naming and conversion
 */
export function createXmlRecordReader(vocabulary) {
    const toIngestRecord = (result, file) => {
        if (result.kind === 'error') {
            return result;
        }
        try {
            return vocabulary.convert(result.element, { file, record: `#${result.ordinal}` });
        }
        catch (error) {
            if (isPubmatchError(error)) {
                return { kind: 'error', error };
            }
            throw error;
        }
    };
    return {
        async *read(input, options = {}) {
            const file = inputName(input, options.file);
            for await (const result of readXmlRecords(input, {
                ...options,
                ...vocabulary.recordOptions(file),
                file,
            })) {
                yield toIngestRecord(result, file);
            }
        },
        parse(xml, options = {}) {
            const file = options.file ?? '<string>';
            // Converted as they come, so that only one record's tree exists at a time.
            return Array.from(iterateXmlRecords(xml, { ...options, ...vocabulary.recordOptions(file), file }), (result) => toIngestRecord(result, file));
        },
    };
}
