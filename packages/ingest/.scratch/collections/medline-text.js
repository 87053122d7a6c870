import { basename } from 'node:path';
import { emptyArticle, } from '@pubmatch/core';
import { ingestError } from "../bioc/errors.js";
import { parseMedlineDate, parseMonth } from "../pubmed/dates.js";
import { readLines } from "./lines.js";
/**
 * Parses a MeSH heading in MEDLINE notation: `*` marks a major topic, `/` separates
 * qualifiers, e.g. `Information Storage and Retrieval/*methods` or `*Software`.
 * @param text - the heading as written in an `MH` field
 */
export function parseMeshHeading(text) {
    const [descriptor = '', ...qualifiers] = text.split('/').map((part) => part.trim());
    const major = (part) => part.startsWith('*');
    const name = (part) => part.replace(/^\*+/, '').trim();
    return {
        descriptorName: name(descriptor),
        majorTopic: major(descriptor),
        qualifiers: qualifiers.map((part) => ({ name: name(part), majorTopic: major(part) })),
    };
}
/**
 * Parses a MEDLINE `DP` value the way the PubMed XML parser reads the same date: `2006`,
 * `2002 Sep`, `2006 Mar 1` and `2000 Spring` are a plain year, month, day or season (XML
 * `Year`/`Month`/`Day`/`Season`); anything else (`1998 Dec-1999 Jan`, `2005 Jan-Feb`) is a
 * `MedlineDate`, normalised by the PubMed parser's `parseMedlineDate` (first year, first
 * month, …, raw text kept).
 * @param text - the `DP` value
 */
export function parsePublicationDate(text) {
    const value = text.trim();
    const exact = /^(\d{4})(?: ([A-Za-z]{3})(?: (\d{1,2}))?)?$/.exec(value);
    const month = exact?.[2] === undefined ? undefined : parseMonth(exact[2]);
    if (exact !== null && (exact[2] === undefined || month !== undefined)) {
        const date = { year: Number(exact[1]) };
        if (month !== undefined) {
            date.month = month;
        }
        if (exact[3] !== undefined) {
            date.day = Number(exact[3]);
        }
        return date;
    }
    const season = /^(\d{4}) (Spring|Summer|Fall|Autumn|Winter)$/i.exec(value);
    if (season?.[1] !== undefined && season[2] !== undefined) {
        return { year: Number(season[1]), season: season[2] };
    }
    return parseMedlineDate(value);
}
/** `20030606` or `2005/06/17[ 13:10]` → year, month, day. */
function compactDate(text) {
    const match = /^(\d{4})\/?(\d{2})\/?(\d{2})/.exec(text.trim());
    return match === null
        ? undefined
        : { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
}
/** MEDLINE comment/correction tags and the PubMed XML `RefType` they stand for. */
const COMMENT_TAGS = {
    CON: 'CommentOn',
    CIN: 'CommentIn',
    EIN: 'ErratumIn',
    EFR: 'ErratumFor',
    CRI: 'CorrectedandRepublishedIn',
    CRF: 'CorrectedandRepublishedFrom',
    RIN: 'RetractionIn',
    ROF: 'RetractionOf',
    UIN: 'UpdateIn',
    UOF: 'UpdateOf',
    SPIN: 'SummaryForPatientsIn',
    ORI: 'OriginalReportIn',
    RPI: 'RepublishedIn',
    RPF: 'RepublishedFrom',
    ECI: 'ExpressionOfConcernIn',
    ECF: 'ExpressionOfConcernFor',
};
/**
 * Builds an article from the fields of one MEDLINE record (`source: 'pubmed'`: these are
 * PubMed citations keyed by PMID). Mapped tags: PMID, TI, TT, AB (one unlabelled section:
 * the display format has no section structure), CI, FAU/AU/CN/AD/AUID (authors; an `AD`
 * before any author belongs to the first one, as in older records), LA, PT, MH, OT/OTO, RN,
 * NM, DP, DEP, DCOM, LR, PHST, IS, TA, JT, JID, PL, VI, IP, PG, LID/AID/PMC (ids), STAT, OWN,
 * PST and the comment/correction tags (CON, CIN, EIN, RIN, ROF, …). Other tags are ignored.
 * @param pmid - the PMID
 * @param fields - the record's fields in order
 */
export function medlineFieldsToArticle(pmid, fields) {
    const article = emptyArticle(pmid, 'pubmed');
    const journal = {};
    const pendingAffiliations = [];
    let author;
    let authorFromFau = false;
    let keywordOwner;
    const addId = (type, value) => {
        if (!article.articleIds.some((id) => id.type === type && id.value === value)) {
            article.articleIds.push({ type, value });
        }
    };
    const newAuthor = (fields) => {
        const created = {
            affiliations: [...pendingAffiliations],
            identifiers: [],
            valid: true,
            ...fields,
        };
        pendingAffiliations.length = 0;
        article.authors.push(created);
        return created;
    };
    for (const { tag, value } of fields) {
        switch (tag) {
            case 'TI':
                article.title = value;
                break;
            case 'TT':
                article.vernacularTitle = value;
                break;
            case 'AB':
                article.abstract = value === '' ? [] : [{ text: value }];
                break;
            case 'CI':
                article.copyright = value;
                break;
            case 'FAU': {
                const comma = value.indexOf(',');
                const lastName = comma === -1 ? value : value.slice(0, comma).trim();
                const foreName = comma === -1 ? '' : value.slice(comma + 1).trim();
                author = newAuthor(foreName === '' ? { lastName } : { lastName, foreName });
                authorFromFau = true;
                break;
            }
            case 'AU': {
                const match = /^(.*\S)\s+([A-Z]+)$/.exec(value);
                if (authorFromFau &&
                    author !== undefined &&
                    author.initials === undefined &&
                    match !== null) {
                    author.initials = match[2];
                }
                else {
                    author = newAuthor(match === null ? { lastName: value } : { lastName: match[1], initials: match[2] });
                }
                authorFromFau = false;
                break;
            }
            case 'CN':
                author = newAuthor({ collectiveName: value });
                authorFromFau = false;
                break;
            case 'AD':
                if (author === undefined) {
                    pendingAffiliations.push(value);
                }
                else {
                    author.affiliations.push(value);
                }
                break;
            case 'AUID': {
                const match = /^([^:]+):\s*(.+)$/.exec(value);
                if (author !== undefined && match?.[1] !== undefined && match[2] !== undefined) {
                    author.identifiers.push({ source: match[1].trim(), value: match[2].trim() });
                }
                break;
            }
            case 'LA':
                article.languages.push(value);
                break;
            case 'PT':
                article.publicationTypes.push({ name: value });
                break;
            case 'MH':
                article.mesh.push(parseMeshHeading(value));
                break;
            case 'OTO':
                keywordOwner = value;
                break;
            case 'OT': {
                const major = value.startsWith('*');
                const keyword = { text: value.replace(/^\*/, ''), majorTopic: major };
                article.keywords.push(keywordOwner === undefined ? keyword : { ...keyword, owner: keywordOwner });
                break;
            }
            case 'RN': {
                const match = /^(.*?)\s*\((.*)\)$/.exec(value);
                article.chemicals.push(match?.[1] !== undefined && match[2] !== undefined
                    ? { registryNumber: match[1], name: match[2] }
                    : { name: value });
                break;
            }
            case 'NM':
                article.supplementaryConcepts.push({ name: value.replace(/\s*\[[^\]]*\]$/, '') });
                break;
            case 'DP':
                article.pubDate = parsePublicationDate(value);
                break;
            case 'DEP':
                setDate(value, (date) => (article.electronicDate = date));
                break;
            case 'DCOM':
                setDate(value, (date) => (article.dateCompleted = date));
                break;
            case 'LR':
                setDate(value, (date) => (article.dateRevised = date));
                break;
            case 'PHST': {
                const match = /^(.*?)\s*\[([^\]]+)\]$/.exec(value);
                const date = match?.[1] === undefined ? undefined : compactDate(match[1]);
                if (match?.[2] !== undefined && date !== undefined) {
                    article.history.push({ status: match[2], date });
                }
                break;
            }
            case 'IS': {
                const match = /^(\S+)\s*\(([^)]+)\)$/.exec(value);
                if (match?.[1] !== undefined && match[2] === 'Linking') {
                    journal.issnLinking = match[1];
                }
                else if (journal.issn === undefined) {
                    journal.issn = match?.[1] ?? value;
                    if (match?.[2] !== undefined) {
                        journal.issnType = match[2];
                    }
                }
                break;
            }
            case 'TA':
                journal.medlineTa = value;
                break;
            case 'JT':
                journal.title = value;
                break;
            case 'JID':
                journal.nlmUniqueId = value;
                break;
            case 'PL':
                journal.country = value;
                break;
            case 'VI':
                journal.volume = value;
                break;
            case 'IP':
                journal.issue = value;
                break;
            case 'PG':
                article.pagination = value;
                break;
            case 'LID':
            case 'AID': {
                const match = /^(.*\S)\s*\[([^\]]+)\]$/.exec(value);
                if (match?.[1] !== undefined && match[2] !== undefined) {
                    addId(match[2], match[1]);
                }
                break;
            }
            case 'PMC':
                addId('pmc', value);
                break;
            case 'MID':
                addId('mid', value);
                break;
            case 'STAT':
                article.citationStatus = value;
                break;
            case 'OWN':
                article.owner = value;
                break;
            case 'PST':
                article.publicationStatus = value;
                break;
            default: {
                const refType = COMMENT_TAGS[tag];
                if (refType !== undefined) {
                    article.commentsCorrections.push(commentCorrection(refType, value));
                }
            }
        }
    }
    if (Object.keys(journal).length > 0) {
        article.journal = journal;
    }
    return article;
}
function setDate(value, set) {
    const date = compactDate(value);
    if (date !== undefined) {
        set(date);
    }
}
function commentCorrection(refType, value) {
    const match = /^(.*?)\s*PMID:\s*(\d+)\s*$/.exec(value);
    const entry = { refType };
    const source = (match?.[1] ?? value).replace(/\s+$/, '');
    if (source !== '') {
        entry.refSource = source;
    }
    if (match?.[2] !== undefined) {
        entry.pmid = match[2];
    }
    return entry;
}
const TAG_LINE = /^([A-Z][A-Z0-9]{0,3}) {0,3}- ?(.*)$/;
/**
 * Reads a file in the MEDLINE text display format (what PubMed's "Save → Format: PubMed"
 * and `efetch rettype=medline` give): records separated by blank lines, one `TAG - value`
 * field per line (the tag padded to four characters), continuation lines indented by six
 * spaces and joined with one space. A `PMID-` line also starts a new record when the
 * previous one has no blank line after it. Streams line by line.
 *
 * Yields an `article` per record (see {@link medlineFieldsToArticle}), or an `error` record
 * (`MISSING_FIELD`) naming the line where a record without a valid PMID starts. Throws a
 * `PubmatchError` (`IO`) only when the file cannot be read.
 * @param path - the MEDLINE text file
 */
export async function* readMedlineText(path) {
    const file = basename(path);
    let fields = [];
    const finish = () => {
        if (fields.length === 0) {
            return undefined;
        }
        const record = fields;
        fields = [];
        const pmidField = record.find((field) => field.tag === 'PMID');
        const pmid = pmidField?.value.trim();
        if (pmid === undefined || !/^\d+$/.test(pmid)) {
            return {
                kind: 'error',
                error: ingestError('MISSING_FIELD', { file, line: pmidField?.line ?? record[0]?.line }, pmid === undefined ? 'MEDLINE record has no PMID' : 'MEDLINE record has an invalid PMID', pmidField === undefined
                    ? record.map((f) => `${f.tag} - ${f.value}`).join(' ')
                    : pmidField.value),
            };
        }
        return { kind: 'article', article: medlineFieldsToArticle(pmid, record) };
    };
    for await (const { text, number } of readLines(path)) {
        if (text.trim() === '') {
            const done = finish();
            if (done !== undefined) {
                yield done;
            }
            continue;
        }
        const tagged = TAG_LINE.exec(text);
        const last = fields.at(-1);
        if (tagged === null || /^\s/.test(text)) {
            if (last !== undefined) {
                last.value = `${last.value.trimEnd()} ${text.trim()}`.trim();
            }
            continue;
        }
        const tag = tagged[1] ?? '';
        if (tag === 'PMID' && fields.some((field) => field.tag === 'PMID')) {
            const done = finish();
            if (done !== undefined) {
                yield done;
            }
        }
        fields.push({ tag, value: (tagged[2] ?? '').trim(), line: number });
    }
    const done = finish();
    if (done !== undefined) {
        yield done;
    }
}
