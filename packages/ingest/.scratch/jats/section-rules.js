/**
 * How JATS sections get the BioC `section_type` that NCBI's PMC BioC converter gives them, so
 * that a JATS article read here and the BioC text of the same article (read by `src/bioc/`)
 * end up with the same normalised section types.
 *
 * The converter's code is not public. Its section types are the 17 categories of Europe
 * PMC's section tagger (Kafkas et al., "Section level search functionality in Europe PMC",
 * J Biomed Semantics 2015, doi 10.1186/s13326-015-0003-7), which classifies a section by
 * its heading with ordered regular expressions, and by element for the parts JATS marks up
 * (`<ref-list>` → REF, `<fig>` → FIG, `<table-wrap>` → TABLE, `<glossary>` → ABBR,
 * `<ack>` → ACK_FUND). The rules below are those expressions, with the precedences and the
 * exceptions that the real BioC output in `shared/data/pmc/bioc-json` (267 articles, 1,905
 * section headings) and the JATS/BioC pair PMC1790863 show:
 *
 * - Only a top-level section is classified; its nested sections inherit its type (PMC1790863:
 *   "Conclusions", a subsection of "Discussion", is DISCUSS).
 * - A top-level section whose `sec-type` and heading match no rule inherits the type of the
 *   section before it, INTRO when there is none (review articles: every "topic" section after
 *   "Introduction" is INTRO; "Declarations" after "Availability of data and materials" is
 *   METHODS; "Publisher's note" after "Conflict of interest" is COMP_INT). Element sections
 *   (`<ack>`, `<ref-list>`, …) count as "the section before" too.
 * - Precedence where a heading matches several rules: METHODS before RESULTS ("Methods and
 *   results"), RESULTS before DISCUSS ("Results and discussion"), DISCUSS before CONCL
 *   ("Conclusions and perspectives" is DISCUSS), METHODS before SUPPL ("Availability of data
 *   and materials" is METHODS, "Data availability" SUPPL), METHODS never for a heading that
 *   mentions "supplement" (Kafkas' "AND NOT supplement").
 * - Kafkas' KEYWORD rule also matches "index" and "MeSH" (it would make "Body mass index" a
 *   keyword list); only "keyword(s)", "key words", "key terms", "search terms" and
 *   "accession number(s)" are kept. Its COMP_INT "declaration" is narrowed to "declaration of
 *   (competing) interest(s)": a bare "Declarations" inherits in the BioC output.
 *
 * `sec-type` values (JATS 1.x / the PMC tagging guidelines) are looked at before the heading;
 * a compound value (`materials|methods`, `results|discussion`) takes its first known part.
 * `test` pins every rule against the BioC headings in `section-rules.test.ts`.
 */
/**
 * The heading rules, in the order they are tried (the first match wins). Headings are
 * matched case-insensitively after a leading number ("2.", "3.1 ", "IV.") is removed.
 */
export const JATS_TITLE_RULES = [
    { section: 'ABBR', pattern: /abbreviation|glossary/ },
    {
        section: 'KEYWORD',
        pattern: /^(?:keywords?|key ?words?|key terms?|search terms?|accession numbers?)\b/,
    },
    { section: 'REF', pattern: /^(?:references?|bibliography|literature cited|references cited|notes and references)\b/ },
    { section: 'AUTH_CONT', pattern: /contribution/ },
    {
        section: 'COMP_INT',
        pattern: /competing|conflicts? of interest|disclosure|declarations? of (?:competing )?interest/,
    },
    {
        section: 'ACK_FUND',
        pattern: /acknowle?dge?ments?|funding|financial support|\bgrants?\b|open access|author notes?/,
    },
    {
        section: 'CASE',
        pattern: /case (?:study )?report|case presentation|case description|case summary|case history|^\d+\. case|^case \d+$|^cases?$/,
    },
    {
        section: 'INTRO',
        pattern: /introduction|background|related literature|literature review|objective|purpose of (?:this|the) study|study (?:purpose|aims?)|(?:aims?|purpose) of the study|(?:the|drug|systematic|book) review|review of (?:the )?literature|related work|recent advance|^aims?$|^purposes?$|^purpose\/aims?$|^purpose of study$|^reviews?$|^minireview$/,
    },
    {
        section: 'METHODS',
        pattern: /method|material|experimental procedure|implementation|treatment|statistical analys|experimental (?:section|evaluation|design|approach|protocol|setting|set up|investigation|detail|part|perspective|tool)|study protocol|construction and content|experiment \d|analys[ie]s|utility|design|theory and|theory of|^experiments$|^experimental$|^the study$|^protocols?$|^theory$/,
        unless: /supplement/,
    },
    {
        section: 'SUPPL',
        pattern: /supplementa|supporting information|web extra material|availability/,
    },
    { section: 'RESULTS', pattern: /result|finding|diagnosis/ },
    {
        section: 'DISCUSS',
        pattern: /discussion|management of|safety and tolerability|limitations|perspective|commentary|^management$|^comments?$/,
    },
    {
        section: 'CONCL',
        pattern: /conclu|key messages?|future|summary|recommendation|implications for clinical practice/,
    },
    { section: 'APPENDIX', pattern: /appendix|appendices/ },
    { section: 'FIG', pattern: /\bfigures?\b/ },
    { section: 'TABLE', pattern: /\btables?\b/ },
];
/**
 * `sec-type` values and their section type. Values are compared in lower case; a compound
 * value (`materials|methods`) is split on `|` and its first known part used.
 */
export const JATS_SEC_TYPES = {
    intro: 'INTRO',
    introduction: 'INTRO',
    background: 'INTRO',
    methods: 'METHODS',
    materials: 'METHODS',
    'materials-methods': 'METHODS',
    'methods-and-materials': 'METHODS',
    'materials-and-methods': 'METHODS',
    subjects: 'METHODS',
    patients: 'METHODS',
    results: 'RESULTS',
    discussion: 'DISCUSS',
    conclusions: 'CONCL',
    conclusion: 'CONCL',
    cases: 'CASE',
    'case-report': 'CASE',
    'supplementary-material': 'SUPPL',
    'data-availability': 'SUPPL',
    'coi-statement': 'COMP_INT',
    'author-contributions': 'AUTH_CONT',
    funding: 'ACK_FUND',
    acknowledgments: 'ACK_FUND',
    acknowledgements: 'ACK_FUND',
};
const LEADING_NUMBER = /^(?:(?:\d+|[ivxlc]+)(?:\.\d+)*\.?|[a-z]\.)\s+/;
/**
 * The section type a heading implies, by {@link JATS_TITLE_RULES}; `undefined` when no rule
 * matches (the section then inherits, see the module comment).
 * @param title - the heading text
 * @example sectionTypeOfTitle('2. Materials and Methods') // 'METHODS'
 */
export function sectionTypeOfTitle(title) {
    const text = title
        .toLowerCase()
        .replace(/[’‘`]/g, "'")
        .replace(/\s+/g, ' ')
        .trim()
        .replace(LEADING_NUMBER, '')
        .replace(/[\s:.]+$/, '');
    if (text === '') {
        return undefined;
    }
    for (const rule of JATS_TITLE_RULES) {
        if (rule.pattern.test(text) && !(rule.unless?.test(text) ?? false)) {
            return rule.section;
        }
    }
    return undefined;
}
/**
 * The section type a `sec-type` attribute implies, by {@link JATS_SEC_TYPES}.
 * @param secType - the attribute value, if any
 */
export function sectionTypeOfSecType(secType) {
    if (secType === undefined) {
        return undefined;
    }
    for (const part of secType.toLowerCase().split('|')) {
        const key = part.trim();
        if (Object.hasOwn(JATS_SEC_TYPES, key)) {
            return JATS_SEC_TYPES[key];
        }
    }
    return undefined;
}
/**
 * The section type of a top-level section: its `sec-type`, else its heading, else
 * `undefined` (inherit from the section before).
 * @param secType - the `sec-type` attribute, if any
 * @param title - the heading text, if any
 */
export function classifySection(secType, title) {
    return sectionTypeOfSecType(secType) ?? (title === undefined ? undefined : sectionTypeOfTitle(title));
}
/** `fn-type` values of back-matter footnotes and their section type. */
const FOOTNOTE_TYPES = {
    conflict: 'COMP_INT',
    'coi-statement': 'COMP_INT',
    'financial-disclosure': 'ACK_FUND',
    supported: 'ACK_FUND',
    funding: 'ACK_FUND',
    con: 'AUTH_CONT',
    'supplementary-material': 'SUPPL',
    'data-availability': 'SUPPL',
};
/**
 * What a footnote's text says it is, when its `fn-type` and opening words do not (Kafkas et
 * al.'s footnote rules: "supplementary" → SUPPL; "financial disclosure", "support", "fund",
 * "grant", "thank" → ACK_FUND; and "competing interest" / "conflict of interest" → COMP_INT).
 */
const FOOTNOTE_TEXT_RULES = [
    { section: 'SUPPL', pattern: /supplementa/ },
    { section: 'COMP_INT', pattern: /competing interest|conflicts? of interest/ },
    { section: 'ACK_FUND', pattern: /financial disclosure|support|\bfund|\bgrant|thank/ },
];
/**
 * The section type of a back-matter footnote (`<fn-group>`): its `fn-type`, else what its
 * opening words say ("Competing Interests: …", "Funding: …", by {@link JATS_TITLE_RULES}),
 * else what its text mentions, else `undefined`. Footnotes are boilerplate whatever their
 * section type (the BioC reader's rule 6), so this only names them.
 * @param fnType - the `fn-type` attribute, if any
 * @param text - the footnote text
 */
export function classifyFootnote(fnType, text) {
    const key = fnType?.trim().toLowerCase();
    if (key !== undefined && Object.hasOwn(FOOTNOTE_TYPES, key)) {
        return FOOTNOTE_TYPES[key];
    }
    const lead = /^([^:.]{1,60})[:.]/.exec(text)?.[1];
    const fromLead = lead === undefined ? undefined : sectionTypeOfTitle(lead);
    if (fromLead !== undefined) {
        return fromLead;
    }
    const lower = text.toLowerCase();
    return FOOTNOTE_TEXT_RULES.find((rule) => rule.pattern.test(lower))?.section;
}
