import { abstractText } from '@pubmatch/core';
import { parsePubmedXmlString } from "../pubmed/reader.js";
import { escapeXml } from "./replay-server.js";
const WORD = /[\p{L}\p{N}]+(?:[-'][\p{L}\p{N}]+)*/gu;
/**
 * A route generator answering ESearch `term`s of OR-ed words (`statin OR cholesterol`) from the
 * server's real citations, as a stand-in for PubMed's relevance search in tests: a citation
 * matches when its title or abstract holds one of the words (case-insensitive, whole words); the
 * matches are ordered by how many distinct words they hold, then by PMID, newest first, and paged
 * by `retstart`/`retmax`. XML answers in the 2006 ESearch DTD shape.
 * @param citations - the citations (the same store the server serves EFetch from)
 */
export function citationTextSearchResponder(citations) {
    const words = new Map();
    for (const pmid of citations.pmids) {
        const xml = citations.get(pmid).xml;
        const text = parsePubmedXmlString(`<PubmedArticleSet>${xml}</PubmedArticleSet>`)
            .flatMap((record) => (record.kind === 'article' ? [`${record.article.title} ${abstractText(record.article)}`] : []))
            .join(' ');
        words.set(pmid, new Set(text.toLowerCase().match(WORD) ?? []));
    }
    return (request) => {
        const term = request.params['term'] ?? '';
        const asked = [...new Set(term.split(/\s+OR\s+/i).map((w) => w.trim().toLowerCase()).filter(Boolean))];
        const matching = citations.pmids
            .map((pmid) => ({ pmid, hits: asked.filter((w) => words.get(pmid).has(w)).length }))
            .filter((m) => m.hits > 0)
            .sort((a, b) => b.hits - a.hits || Number(b.pmid) - Number(a.pmid))
            .map((m) => m.pmid);
        const retstart = Number(request.params['retstart'] ?? '0');
        const retmax = Number(request.params['retmax'] ?? '20');
        const page = matching.slice(retstart, retstart + retmax);
        return {
            body: [
                '<?xml version="1.0" encoding="UTF-8" ?>',
                '<!DOCTYPE eSearchResult PUBLIC "-//NLM//DTD esearch 20060628//EN" "https://eutils.ncbi.nlm.nih.gov/eutils/dtd/20060628/esearch.dtd">',
                `<eSearchResult><Count>${matching.length}</Count><RetMax>${page.length}</RetMax><RetStart>${retstart}</RetStart>` +
                    `<IdList>\n${page.map((id) => `<Id>${id}</Id>\n`).join('')}</IdList>` +
                    `<TranslationSet/><QueryTranslation>${escapeXml(term)}</QueryTranslation></eSearchResult>`,
                '',
            ].join('\n'),
        };
    };
}
