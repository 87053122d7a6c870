/**
 * A small ordered element tree: what the safe XML layer produces. Mixed content keeps its
 * order (`['CO', <sub>2</sub>, ' levels']`), entity and character references are already
 * decoded, comments and processing instructions are dropped, CDATA sections become text.
 */
/**
 * Whether a node is an element (not text).
 * @param node - a child of an element, or undefined
 */
export function isXmlElement(node) {
    return typeof node === 'object';
}
/**
 * The name without its namespace prefix: `mml:mi` → `mi`.
 * @param name - a qualified name
 */
export function localName(name) {
    const colon = name.indexOf(':');
    return colon === -1 ? name : name.slice(colon + 1);
}
/**
 * The element children of `element`, optionally only those named `name` (compared with the
 * qualified name as written).
 * @param element - the parent; undefined gives `[]`
 * @param name - keep only children with this name. Defaults to all element children.
 */
export function childElements(element, name) {
    if (element === undefined) {
        return [];
    }
    const out = [];
    for (const node of element.children) {
        if (typeof node === 'object' && (name === undefined || node.name === name)) {
            out.push(node);
        }
    }
    return out;
}
/**
 * The first child element named `name`.
 * @param element - the parent; undefined gives undefined
 * @param name - the child's qualified name
 */
export function childElement(element, name) {
    if (element === undefined) {
        return undefined;
    }
    for (const node of element.children) {
        if (typeof node === 'object' && node.name === name) {
            return node;
        }
    }
    return undefined;
}
/**
 * Follows a path of first-matching children: `childPath(article, 'Journal', 'JournalIssue', 'PubDate')`.
 * @param element - where to start; undefined gives undefined
 * @param names - child names, outermost first
 */
export function childPath(element, ...names) {
    let current = element;
    for (const name of names) {
        current = childElement(current, name);
    }
    return current;
}
/**
 * An attribute value.
 * @param element - the element; undefined gives undefined
 * @param name - the attribute's qualified name
 */
export function attribute(element, name) {
    if (element === undefined) {
        return undefined;
    }
    return Object.prototype.hasOwnProperty.call(element.attrs, name) ? element.attrs[name] : undefined;
}
/**
 * The plain-text content of the first child named `name`, or undefined when there is no
 * such child or its text is empty.
 * @param element - the parent; undefined gives undefined
 * @param name - the child's qualified name
 */
export function childText(element, name) {
    const text = textContent(childElement(element, name));
    return text === '' ? undefined : text;
}
/**
 * The element's own text children concatenated as written: the text of child elements is
 * left out and nothing is collapsed or trimmed (a BioC `<infon>` value, an ESpell piece).
 * @param element - the element; undefined gives `''`
 */
export function ownText(element) {
    let text = '';
    for (const node of element?.children ?? []) {
        if (typeof node === 'string') {
            text += node;
        }
    }
    return text;
}
/** Inline markup that binds to its neighbours without any space: `CO<sub>2</sub>`. */
const TIGHT_INLINE = new Set(['sub', 'sup', 'subscript', 'superscript']);
/** Font-style inline markup (PubMed `i b u`, JATS/HTML equivalents). */
// prettier-ignore
const STYLE_INLINE = new Set([
    'i', 'b', 'u', 'em', 'strong', 'italic', 'bold', 'underline', 'sc', 'monospace', 'span', 'tt',
    'overline', 'roman', 'sans-serif', 'small', 'big', 'strike', 'ins', 'del',
]);
const WORD_START = /^[\p{L}\p{N}]/u;
const WORD_END = /[\p{L}\p{N}]$/u;
/**
 * The plain text of a node, with inline markup and MathML flattened and whitespace collapsed
 * to single spaces (trimmed). Spacing rules:
 * - `sub`/`sup` join their neighbours directly: `CO<sub>2</sub>` → `CO2`.
 * - `i`/`b`/`u` (and similar style markup) join too, except that a space is inserted where a
 *   word character on one side meets a word character on the other, which restores the
 *   spaces NCBI's XML sometimes loses: `at the<i>TERT</i>gene` → `at the TERT gene`.
 * - MathML (`math`, prefixed or not) becomes a compact linear form with spaces around it
 *   (see {@link mathText}).
 * - Any other element is a block: it is separated from its neighbours by a space.
 * @param node - an element, a text run, a list of nodes, or undefined (gives `''`)
 */
export function textContent(node) {
    if (node === undefined) {
        return '';
    }
    let raw;
    if (typeof node === 'string') {
        raw = node;
    }
    else if (Array.isArray(node)) {
        raw = flattenNodes(node);
    }
    else {
        const element = node;
        raw = localName(element.name) === 'math' ? mathText(element) : flattenNodes(element.children);
    }
    return collapse(raw);
}
/**
 * What `replace(/\s+/g, ' ').trim()` would change: a `\s` character other than the space,
 * two spaces in a row, or a space at either end.
 */
const NOT_COLLAPSED = /[\t-\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]| {2}|^ | $/;
/**
 * Whitespace runs collapsed to single spaces and trimmed: `text.replace(/\s+/g, ' ').trim()`,
 * without the replacement when the text is already in that form (most fields are; the test
 * is one native regular-expression scan).
 */
function collapse(text) {
    return NOT_COLLAPSED.test(text) ? text.replace(/\s+/g, ' ').trim() : ownCopy(text);
}
/**
 * A copy of a string that does not share the memory of a larger one. The parser's text runs
 * are slices of the decoded input, and V8 keeps a whole parent string alive as long as one
 * slice of 13 characters or more is; a field kept by the caller must not pin its input chunk.
 * (`' ' + text` is a two-part string that `slice` flattens into a fresh copy.)
 */
function ownCopy(text) {
    return text.length < 13 ? text : (' ' + text).slice(1);
}
function flattenNodes(nodes) {
    let out = '';
    for (let k = 0; k < nodes.length; k++) {
        const node = nodes[k];
        if (typeof node === 'string') {
            out += node;
            continue;
        }
        const local = localName(node.name);
        if (local === 'math') {
            out += ` ${mathText(node)} `;
            continue;
        }
        const inner = flattenNodes(node.children);
        if (TIGHT_INLINE.has(local)) {
            out += inner;
        }
        else if (STYLE_INLINE.has(local)) {
            const previous = nodes[k - 1];
            const next = nodes[k + 1];
            const before = typeof previous === 'string' && WORD_END.test(previous) && WORD_START.test(inner) ? ' ' : '';
            const after = typeof next === 'string' && WORD_END.test(inner) && WORD_START.test(next) ? ' ' : '';
            out += before + inner + after;
        }
        else {
            out += ` ${inner} `;
        }
    }
    return out;
}
/** Operators written with a space on each side. */
// prettier-ignore
const SPACED_OPERATORS = new Set([
    '=', '+', '-', '−', '±', '∓', '×', '÷', '<', '>', '≤', '≥', '≠', '≈', '≅', '≡', '∼', '~', '→', '←',
    '↔', '⇒', '⇔', '∝', '∈', '∉', '⊂', '⊆', '∪', '∩',
]);
/** Over/under scripts that are decorations of their base (a dot for a rate, a hat, a bar, a vector arrow). */
// prettier-ignore
const ACCENTS = new Set([
    '.', '˙', '\u0307', '¨', '\u0308', '^', 'ˆ', '\u0302', '~', '˜', '\u0303', '¯', '‾', '\u0304', '_', '→', '⃗',
    '´', '`', '˘', 'ˇ', '‥', '…', '⏞', '⏟', '︷', '︸',
]);
function tokenText(element) {
    return flattenNodes(element.children).replace(/\s+/g, ' ');
}
/**
 * A MathML element as compact linear text, for indexing: token elements give their text
 * (`mi`, `mn` trimmed; `mtext` keeps inner spaces), relational and additive operators get a
 * space on each side (`x = 2`), scripts join their base (`msub`/`msup` → `VO2max`), accents
 * over or under a base are dropped (`<mover><mi>V</mi><mo>.</mo></mover>` → `V`), `mfrac`
 * becomes `a/b`, `msqrt` `√(…)`, `mfenced` its fences and separators, `mmultiscripts` its
 * pre-scripts before the base (`³He` → `3He`), `semantics` its first child only. Whitespace between MathML elements is ignored.
 * @param element - a `math` element or any MathML element inside one
 */
export function mathText(element) {
    return collapse(mathNode(element));
}
function mathNode(node) {
    if (typeof node === 'string') {
        return node.trim();
    }
    const local = localName(node.name);
    const kids = childElements(node);
    const join = (nodes) => nodes.map(mathNode).join('');
    switch (local) {
        case 'mi':
        case 'mn':
            return tokenText(node).trim();
        case 'mtext':
        case 'ms':
            return tokenText(node);
        case 'mo': {
            const op = tokenText(node).trim();
            return SPACED_OPERATORS.has(op) ? ` ${op} ` : op;
        }
        case 'mspace':
            return ' ';
        case 'mfrac':
            return `${kids[0] ? mathNode(kids[0]).trim() : ''}/${kids[1] ? mathNode(kids[1]).trim() : ''}`;
        case 'msqrt': {
            const inner = collapse(join(node.children));
            return /^[\p{L}\p{N}]+$/u.test(inner) ? `√${inner}` : `√(${inner})`;
        }
        case 'mroot':
            return `√(${kids[0] ? collapse(mathNode(kids[0])) : ''})`;
        case 'mover':
        case 'munder':
        case 'munderover': {
            const [base, ...scripts] = kids;
            const accentAttribute = node.attrs[local === 'munder' ? 'accentunder' : 'accent'] === 'true';
            const kept = scripts.filter((script) => !accentAttribute && !isAccent(script));
            return (base ? mathNode(base) : '') + kept.map(mathNode).join('');
        }
        case 'mfenced': {
            const open = node.attrs.open ?? '(';
            const close = node.attrs.close ?? ')';
            const separator = (node.attrs.separators ?? ',').trim().charAt(0);
            return (open +
                kids.map((kid) => collapse(mathNode(kid))).join(separator ? `${separator} ` : ' ') +
                close);
        }
        case 'mmultiscripts': {
            // base, post-scripts…, <mprescripts/>, pre-scripts…: written pre-scripts first (³He → 3He).
            const split = kids.findIndex((kid) => localName(kid.name) === 'mprescripts');
            const post = split === -1 ? kids : kids.slice(0, split);
            const pre = split === -1 ? [] : kids.slice(split + 1);
            return join(pre) + join(post);
        }
        case 'semantics':
            return kids[0] ? mathNode(kids[0]) : '';
        case 'annotation':
        case 'annotation-xml':
        case 'mphantom':
        case 'none':
        case 'mprescripts':
            return '';
        case 'mtable':
        case 'mtr':
        case 'mlabeledtr':
            return ` ${kids.map((kid) => collapse(mathNode(kid))).join(' ')} `;
        default:
            return join(node.children);
    }
}
function isAccent(script) {
    return localName(script.name) === 'mo' && ACCENTS.has(tokenText(script).trim());
}
