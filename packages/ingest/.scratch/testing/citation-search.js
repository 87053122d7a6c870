import { formatEntrezDate, parseEntrezDate } from "../entrez/date-split.js";
import { escapeXml, esearchErrorBody, } from "./replay-server.js";
/**
 * A route generator answering ESearch from the server's real citations: the matching
 * records are those whose publication date falls in `mindate`–`maxdate` (all of them without
 * dates), newest PMID first; `retstart`/`retmax` page them; `usehistory=y` stores them on the
 * history server. Answers XML in the 2006 ESearch DTD shape, or JSON with `retmode=json`.
 * @param options - count function and paging limit; see {@link CitationSearchOptions}
 */
export function citationSearchResponder(options = {}) {
    const retstartLimit = options.retstartLimit ?? 9999;
    return (request, context) => {
        const store = context.citations;
        if (store === undefined) {
            return { status: 500, body: 'replay server: citationSearchResponder needs citations' };
        }
        const { mindate, maxdate } = request.params;
        const range = mindate === undefined && maxdate === undefined
            ? undefined
            : {
                from: formatEntrezDate(parseEntrezDate(mindate ?? '1781', 'start')),
                to: formatEntrezDate(parseEntrezDate(maxdate ?? '3000', 'end')),
            };
        const matching = (range === undefined
            ? store.pmids.map((pmid) => store.get(pmid))
            : store.inDateRange(range.from, range.to))
            .flatMap((c) => (c === undefined ? [] : [c.pmid]))
            .sort((a, b) => Number(b) - Number(a));
        const retstart = Number(request.params['retstart'] ?? '0');
        const retmax = Number(request.params['retmax'] ?? '20');
        if (retstart >= retstartLimit) {
            return {
                body: esearchErrorBody(`Search Backend failed: Exception:\n'retstart' cannot be larger than ${retstartLimit - 1}.`),
            };
        }
        const count = options.count?.(range) ?? matching.length;
        const page = matching.slice(retstart, retstart + retmax);
        const stored = request.params['usehistory'] === 'y' ? context.history.store(matching) : undefined;
        const term = request.params['term'] ?? '';
        if (request.params['retmode'] === 'json') {
            return {
                body: JSON.stringify({
                    header: { type: 'esearch', version: '0.3' },
                    esearchresult: {
                        count: String(count),
                        retmax: String(page.length),
                        retstart: String(retstart),
                        ...(stored === undefined ? {} : { querykey: stored.queryKey, webenv: stored.webEnv }),
                        idlist: page,
                        translationset: [],
                        querytranslation: term,
                    },
                }),
            };
        }
        return {
            body: [
                '<?xml version="1.0" encoding="UTF-8" ?>',
                '<!DOCTYPE eSearchResult PUBLIC "-//NLM//DTD esearch 20060628//EN" "https://eutils.ncbi.nlm.nih.gov/eutils/dtd/20060628/esearch.dtd">',
                `<eSearchResult><Count>${count}</Count><RetMax>${page.length}</RetMax><RetStart>${retstart}</RetStart>` +
                    (stored === undefined
                        ? ''
                        : `<QueryKey>${stored.queryKey}</QueryKey><WebEnv>${stored.webEnv}</WebEnv>`) +
                    `<IdList>\n${page.map((id) => `<Id>${id}</Id>\n`).join('')}</IdList>` +
                    `<TranslationSet/><QueryTranslation>${escapeXml(term)}</QueryTranslation></eSearchResult>`,
                '',
            ].join('\n'),
        };
    };
}
