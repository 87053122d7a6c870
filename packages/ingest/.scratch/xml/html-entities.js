/**
 * The 253 named character entities of HTML 4 / XHTML 1.0 (`xhtml-lat1.ent`,
 * `xhtml-symbol.ent`, `xhtml-special.ent`), which are also the ISO 8879 names the PubMed
 * DTD pulls in through its MathML module (`isolat1`, `isonum`, `isogrk3`, …). PubMed XML is
 * always read without its external DTD (it is never fetched), so a PubMed text that uses
 * `&nbsp;` or `&alpha;` would otherwise keep the raw reference.
 */
/** Latin-1 supplement names, in code point order from U+00A0. */
const LATIN1_FROM_A0 = 'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr ' +
    'deg plusmn sup2 sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest ' +
    'Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ' +
    'ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig ' +
    'agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml ' +
    'eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml';
/** Greek capitals from U+0391 (U+03A2 is unassigned, marked `-`). */
const GREEK_UPPER_FROM_391 = 'Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu Nu Xi Omicron Pi Rho - ' +
    'Sigma Tau Upsilon Phi Chi Psi Omega';
/** Greek small letters from U+03B1. */
const GREEK_LOWER_FROM_3B1 = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigmaf ' +
    'sigma tau upsilon phi chi psi omega';
/** The remaining names with their code points. */
// prettier-ignore
const OTHERS = {
    quot: 0x22, amp: 0x26, apos: 0x27, lt: 0x3c, gt: 0x3e,
    OElig: 0x152, oelig: 0x153, Scaron: 0x160, scaron: 0x161, Yuml: 0x178, fnof: 0x192,
    circ: 0x2c6, tilde: 0x2dc, thetasym: 0x3d1, upsih: 0x3d2, piv: 0x3d6,
    ensp: 0x2002, emsp: 0x2003, thinsp: 0x2009, zwnj: 0x200c, zwj: 0x200d, lrm: 0x200e, rlm: 0x200f,
    ndash: 0x2013, mdash: 0x2014, lsquo: 0x2018, rsquo: 0x2019, sbquo: 0x201a, ldquo: 0x201c,
    rdquo: 0x201d, bdquo: 0x201e, dagger: 0x2020, Dagger: 0x2021, bull: 0x2022, hellip: 0x2026,
    permil: 0x2030, prime: 0x2032, Prime: 0x2033, lsaquo: 0x2039, rsaquo: 0x203a, oline: 0x203e,
    frasl: 0x2044, euro: 0x20ac, image: 0x2111, weierp: 0x2118, real: 0x211c, trade: 0x2122,
    alefsym: 0x2135, larr: 0x2190, uarr: 0x2191, rarr: 0x2192, darr: 0x2193, harr: 0x2194,
    crarr: 0x21b5, lArr: 0x21d0, uArr: 0x21d1, rArr: 0x21d2, dArr: 0x21d3, hArr: 0x21d4,
    forall: 0x2200, part: 0x2202, exist: 0x2203, empty: 0x2205, nabla: 0x2207, isin: 0x2208,
    notin: 0x2209, ni: 0x220b, prod: 0x220f, sum: 0x2211, minus: 0x2212, lowast: 0x2217,
    radic: 0x221a, prop: 0x221d, infin: 0x221e, ang: 0x2220, and: 0x2227, or: 0x2228, cap: 0x2229,
    cup: 0x222a, int: 0x222b, there4: 0x2234, sim: 0x223c, cong: 0x2245, asymp: 0x2248, ne: 0x2260,
    equiv: 0x2261, le: 0x2264, ge: 0x2265, sub: 0x2282, sup: 0x2283, nsub: 0x2284, sube: 0x2286,
    supe: 0x2287, oplus: 0x2295, otimes: 0x2297, perp: 0x22a5, sdot: 0x22c5, lceil: 0x2308,
    rceil: 0x2309, lfloor: 0x230a, rfloor: 0x230b, lang: 0x2329, rang: 0x232a, loz: 0x25ca,
    spades: 0x2660, clubs: 0x2663, hearts: 0x2665, diams: 0x2666,
};
function buildTable() {
    const table = new Map();
    const addRun = (names, first) => {
        names.split(' ').forEach((name, i) => {
            if (name !== '-') {
                table.set(name, String.fromCodePoint(first + i));
            }
        });
    };
    addRun(LATIN1_FROM_A0, 0xa0);
    addRun(GREEK_UPPER_FROM_391, 0x391);
    addRun(GREEK_LOWER_FROM_3B1, 0x3b1);
    for (const [name, codePoint] of Object.entries(OTHERS)) {
        table.set(name, String.fromCodePoint(codePoint));
    }
    return table;
}
/**
 * Named character entities of HTML 4 / XHTML 1.0 (253 names, e.g. `nbsp` → U+00A0,
 * `ndash` → U+2013, `alpha` → U+03B1), decoded in PubMed text that was written against the
 * (never fetched) external DTD.
 */
export const HTML_ENTITIES = buildTable();
