const body = (sectionType) => ({ sectionType, role: 'body' });
/**
 * The mapping tables. `sectionTypes` lists every `section_type` of the PMC BioC API (all
 * values seen in the real data plus `APPENDIX`, which the API documents and which occurs in
 * the wider NASA sample); `passageTypes` lists every passage `type` seen in the real data.
 * Values are matched case-insensitively. See the module comment above for the rule order.
 *
 * | `section_type` | passages in data | → sectionType / role |
 * |---|---|---|
 * | `TITLE`        | 268 (all `front`) | null / `front` |
 * | `ABSTRACT`     | 622    | `ABSTRACT` |
 * | `INTRO`        | 2,612  | `INTRO` |
 * | `METHODS`      | 5,106  | `METHODS` |
 * | `RESULTS`      | 4,049  | `RESULTS` |
 * | `DISCUSS`      | 2,316  | `DISCUSS` |
 * | `CONCL`        | 339    | `CONCL` |
 * | `CASE`         | 5      | `CASE` |
 * | `FIG`          | 2,118  | `CAPTION` |
 * | `TABLE`        | 1,072  | `CAPTION` |
 * | `ABBR`         | 524    | `ABBR` |
 * | `KEYWORD`      | 5      | `KEYWORD` |
 * | `SUPPL`        | 693    | `SUPPL` |
 * | `APPENDIX`     | 0      | `APPENDIX` |
 * | `REF`          | 17,436 | null / `reference` |
 * | `AUTH_CONT`    | 426    | null / `boilerplate` |
 * | `COMP_INT`     | 339    | null / `boilerplate` |
 * | `ACK_FUND`     | 145    | null / `boilerplate` |
 * | `REVIEW_INFO`  | 61     | null / `boilerplate` |
 *
 * | `type` | passages in data | kind |
 * |---|---|---|
 * | `front` | 268 | front |
 * | `title`, `title_1`…`title_4`, `abstract_title_1`, `title_caption`, `title_1_caption` | 680, 1,441, 2,897, 428, 38, 181, 18, 2 | heading |
 * | `fig`, `fig_caption`, `fig_title_caption` | 50, 1,603, 458 | caption |
 * | `table`, `table_caption`, `table_title_caption`, `table_footnote`, `table_foot`, `table_foot_title` | 405, 319, 58, 215, 71, 3 | caption |
 * | `footnote`, `footnote_title` | 369, 2 | footnote |
 * | `ref` | 17,122 | reference |
 * | `paragraph` | 11,067 | text |
 * | `abstract` | 441 | text (implies `ABSTRACT`) |
 *
 * Values not in the tables: `title_<n>`, `abstract_title_<n>` and `title_<n>_caption` with
 * any `n` are headings; any other `fig_*`/`table_*` is a caption; anything else is unknown.
 */
export const SECTION_TYPE_MAP = {
    sectionTypes: {
        TITLE: { sectionType: null, role: 'front' },
        ABSTRACT: body('ABSTRACT'),
        INTRO: body('INTRO'),
        METHODS: body('METHODS'),
        RESULTS: body('RESULTS'),
        DISCUSS: body('DISCUSS'),
        CONCL: body('CONCL'),
        CASE: body('CASE'),
        FIG: body('CAPTION'),
        TABLE: body('CAPTION'),
        ABBR: body('ABBR'),
        KEYWORD: body('KEYWORD'),
        SUPPL: body('SUPPL'),
        APPENDIX: body('APPENDIX'),
        REF: { sectionType: null, role: 'reference' },
        AUTH_CONT: { sectionType: null, role: 'boilerplate' },
        COMP_INT: { sectionType: null, role: 'boilerplate' },
        ACK_FUND: { sectionType: null, role: 'boilerplate' },
        REVIEW_INFO: { sectionType: null, role: 'boilerplate' },
    },
    passageTypes: {
        front: { kind: 'front' },
        title: { kind: 'heading' },
        title_1: { kind: 'heading' },
        title_2: { kind: 'heading' },
        title_3: { kind: 'heading' },
        title_4: { kind: 'heading' },
        abstract_title_1: { kind: 'heading' },
        title_caption: { kind: 'heading' },
        title_1_caption: { kind: 'heading' },
        fig: { kind: 'caption' },
        fig_caption: { kind: 'caption' },
        fig_title_caption: { kind: 'caption' },
        table: { kind: 'caption' },
        table_caption: { kind: 'caption' },
        table_title_caption: { kind: 'caption' },
        table_footnote: { kind: 'caption' },
        table_foot: { kind: 'caption' },
        table_foot_title: { kind: 'caption' },
        footnote: { kind: 'footnote' },
        footnote_title: { kind: 'footnote' },
        ref: { kind: 'reference' },
        paragraph: { kind: 'text' },
        abstract: { kind: 'text', impliedSection: 'ABSTRACT' },
    },
};
const HEADING_PATTERN = /^(?:abstract_)?title(?:_\d+)?(?:_caption)?$/;
const CAPTION_PATTERN = /^(?:fig|table)(?:_|$)/;
function passageTypeMapping(passageType) {
    if (passageType === undefined) {
        return undefined;
    }
    const key = passageType.trim().toLowerCase();
    if (Object.hasOwn(SECTION_TYPE_MAP.passageTypes, key)) {
        return SECTION_TYPE_MAP.passageTypes[key];
    }
    if (HEADING_PATTERN.test(key)) {
        return { kind: 'heading' };
    }
    if (CAPTION_PATTERN.test(key)) {
        return { kind: 'caption' };
    }
    return undefined;
}
function sectionTypeMapping(sectionType) {
    if (sectionType === undefined) {
        return undefined;
    }
    const key = sectionType.trim().toUpperCase();
    return Object.hasOwn(SECTION_TYPE_MAP.sectionTypes, key)
        ? SECTION_TYPE_MAP.sectionTypes[key]
        : undefined;
}
/**
 * Maps a BioC passage's `section_type` and `type` infons onto one of the 13 normalised
 * section types and a role, following the rules and tables of {@link SECTION_TYPE_MAP}.
 * Pure; never throws. Unknown or missing values give `{ sectionType: null, role: 'body' }`.
 * @param sectionType - the `section_type` infon (`INTRO`, `REF`, …), if any
 * @param passageType - the `type` infon (`paragraph`, `title_1`, …), if any
 * @example normaliseSectionType('RESULTS', 'title_2') // { sectionType: 'TITLE', role: 'heading' }
 */
export function normaliseSectionType(sectionType, passageType) {
    const section = sectionTypeMapping(sectionType);
    const passage = passageTypeMapping(passageType);
    const hasSection = sectionType !== undefined && sectionType.trim() !== '';
    if (passage?.kind === 'front' || section?.role === 'front') {
        return { sectionType: null, role: 'front' };
    }
    if (section?.role === 'reference' || passage?.kind === 'reference') {
        return { sectionType: null, role: 'reference' };
    }
    if (section?.role === 'boilerplate') {
        return { sectionType: null, role: 'boilerplate' };
    }
    switch (passage?.kind) {
        case 'heading':
            return { sectionType: 'TITLE', role: 'heading' };
        case 'caption':
            return { sectionType: 'CAPTION', role: 'body' };
        case 'footnote':
            return { sectionType: null, role: 'boilerplate' };
        default:
            break;
    }
    if (section !== undefined) {
        return { sectionType: section.sectionType, role: section.role };
    }
    if (!hasSection && passage?.impliedSection !== undefined) {
        return { sectionType: passage.impliedSection, role: 'body' };
    }
    return { sectionType: null, role: 'body' };
}
