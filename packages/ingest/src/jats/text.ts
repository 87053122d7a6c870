import { attribute, localName, mathText, type XmlElement, type XmlNode } from '../xml/tree.ts'

/**
 * Plain text of JATS mixed content, as NCBI's BioC converter writes it (checked against the
 * pair PMC1790863, `.nxml` and BioC XML):
 *
 * - Inline markup (`italic`, `bold`, `sup`, `sub`, `xref`, `ext-link`, `named-content`, …)
 *   joins its neighbours as written: `Φ<italic>X</italic>174` → `ΦX174`.
 * - Bibliographic citations are removed: a run of `<xref ref-type="bibr">` with only
 *   separators between them (`,` `;` `–` `-` white space, also inside `sup`) goes with the
 *   white space before it, and with brackets that enclose nothing else:
 *   `evolution [1]–[5]. Although` → `evolution. Although`, `Hirsh [16] showed` → `Hirsh showed`,
 *   `Wang <italic>et al. </italic>[<xref>28</xref>], Ryan` → `Wang et al., Ryan`,
 *   `growth<sup>3,4</sup>.` → `growth.`. The BioC API drops them too (both generations:
 *   PMC1790863's BioC text, and `(  )`, `(; Figure 5c)` left in the newer BioC JSON files).
 * - Display formulas give their MathML as linear text (see {@link mathText}) and nothing when
 *   they are only a graphic (PMC1790863: `could be written<disp-formula>…</disp-formula>in which`
 *   → `could be writtenin which`, as in the BioC text); TeX alternatives are not used.
 * - Labels, footnotes inside a paragraph, graphics and media give nothing; block content
 *   (`list`, `disp-quote`, table cells) is separated by a space.
 * - Figures, tables, boxed text and supplementary material inside a paragraph are not part of
 *   its text: {@link jatsParagraphText} hands them back so that they become passages of their own.
 *
 * White space is collapsed to single spaces and trimmed.
 */

/** Elements whose content is not text of the element around them (their own passages or nothing). */
const FLOATS = new Set([
  'fig',
  'fig-group',
  'table-wrap',
  'table-wrap-group',
  'boxed-text',
  'supplementary-material',
  'chem-struct-wrap',
])

/** Elements that give no text at all. */
const SILENT = new Set([
  'label',
  'fn',
  'graphic',
  'inline-graphic',
  'media',
  'inline-media',
  'object-id',
  'tex-math',
  'alt-text',
  'long-desc',
  'target',
  'sec-meta',
  'permissions',
  'attrib',
  'annotation',
])

/** Block elements: separated from their neighbours by a space. */
const BLOCKS = new Set([
  'p',
  'list',
  'list-item',
  'def-list',
  'def-item',
  'term',
  'def',
  'disp-quote',
  'statement',
  'preformat',
  'code',
  'title',
  'caption',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'array',
  'verse-group',
  'verse-line',
  'speech',
  'break',
  'address',
  'disp-formula-group',
])

/** Where a citation was: NUL cannot occur in XML text, so it cannot clash with the input. */
const CUT = '\u0000'

/** What may stand between citations of one run: `,` `;` dashes and white space. */
const SEP = '[\\s,;–—‒−-]*'
/** One citation or several with separators between them. */
const CUTS = `\\u0000(?:${SEP}\\u0000)*`
/** A citation alone, or citations in brackets that hold nothing else. */
const UNIT = `(?:\\[${SEP}${CUTS}${SEP}\\]|\\(${SEP}${CUTS}${SEP}\\)|\\u0000)`
/**
 * A run of removed citations (each marked {@link CUT}) with the separators between them and
 * the white space before it: `evolution [1]–[5].` → `evolution.`, `et al. [28], Ryan` →
 * `et al., Ryan`, `growth<sup>3,4</sup>.` → `growth.`.
 */
const CITATION_RUN = new RegExp(`\\s*${UNIT}(?:${SEP}${UNIT})*`, 'g')

function isBibr(element: XmlElement): boolean {
  return localName(element.name) === 'xref' && attribute(element, 'ref-type') === 'bibr'
}

function flatten(nodes: readonly XmlNode[], floats: XmlElement[] | undefined): string {
  let out = ''
  for (const node of nodes) {
    if (typeof node === 'string') {
      out += node
      continue
    }
    const local = localName(node.name)
    if (isBibr(node)) {
      out += CUT
    } else if (local === 'math') {
      out += ` ${mathText(node)} `
    } else if (FLOATS.has(local)) {
      floats?.push(node)
    } else if (SILENT.has(local)) {
      // nothing
    } else if (local === 'alternatives') {
      out += alternativesText(node, floats)
    } else if (local === 'disp-formula') {
      const text = flatten(node.children, floats)
      out += text.trim() === '' ? '' : ` ${text} `
    } else if (BLOCKS.has(local)) {
      out += ` ${flatten(node.children, floats)} `
    } else {
      out += flatten(node.children, floats)
    }
  }
  return out
}

/** `<alternatives>`: MathML if there is one, else the first child that gives text. */
function alternativesText(element: XmlElement, floats: XmlElement[] | undefined): string {
  const children = element.children.filter((node): node is XmlElement => typeof node === 'object')
  const math = children.find((child) => localName(child.name) === 'math')
  if (math !== undefined) {
    return ` ${mathText(math)} `
  }
  for (const child of children) {
    const text = flatten([child], floats)
    if (text.trim() !== '') {
      return text
    }
  }
  return ''
}

/**
 * White space collapsed to single spaces and trimmed; returns a fresh string (not a slice
 * that would keep the parsed document alive).
 */
export function collapseSpace(text: string): string {
  const collapsed = text.replace(/\s+/g, ' ').trim()
  return collapsed.length < 13 ? collapsed : (' ' + collapsed).slice(1)
}

/** The flattened text with citations cut out and white space collapsed. */
function finish(raw: string): string {
  return collapseSpace(raw.includes(CUT) ? raw.replace(CITATION_RUN, '') : raw)
}

/**
 * The text of a JATS element's content (a title, a caption paragraph, a table cell), with
 * the rules of the module comment; floats inside it are left out.
 * @param node - an element, or undefined (gives `''`)
 */
export function jatsText(node: XmlElement | undefined): string {
  return node === undefined ? '' : finish(flatten(node.children, undefined))
}

/**
 * The text of a paragraph and the floats (figures, tables, boxed text, supplementary
 * material) found inside it, in document order.
 * @param paragraph - a `<p>` (or any element with mixed content)
 */
export function jatsParagraphText(paragraph: XmlElement): { text: string; floats: XmlElement[] } {
  const floats: XmlElement[] = []
  const text = finish(flatten(paragraph.children, floats))
  return { text, floats }
}
