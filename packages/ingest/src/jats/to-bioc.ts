import type { BiocDocument, BiocPassage } from '../bioc/bioc-model.ts'
import { attribute, childElement, childElements, localName, type XmlElement } from '../xml/tree.ts'
import { classifyFootnote, classifySection, type JatsSectionCode } from './section-rules.ts'
import { jatsParagraphText, jatsText } from './text.ts'

/**
 * A JATS `<article>` as the BioC document NCBI's PMC BioC converter would make of it: the same
 * passages in document order with the same `section_type` and `type` infons, offsets counted
 * the same way. The BioC reader (`src/bioc/to-fulltext.ts`) then turns it into a
 * `FullTextDocument`, so that both formats go through one normalisation
 * (`normaliseSectionType`) and give the same section types, roles, ids, licence and title.
 *
 * | JATS | BioC `section_type` / `type` |
 * |---|---|
 * | `article-meta/title-group/article-title` | `TITLE` / `front` (ids, authors, year, volume, licence, keywords as infons) |
 * | `<abstract>` (every one but `trans-abstract`); its section titles | `ABSTRACT` / `abstract`, `abstract_title_N` |
 * | `<kwd-group>` | `KEYWORD` / `paragraph` (keywords joined with `; `) and the front infon `kwd` |
 * | body `<sec>` at depth N: its `<title>`; `<p>`, list items, quotes, statements | by {@link classifySection} / `title_N`; `paragraph` |
 * | body `<p>` before any section | `INTRO` / `paragraph` |
 * | `<fig>`: caption title, caption paragraphs | `FIG` / `fig_title_caption`, `fig_caption` |
 * | `<table-wrap>`: caption title, caption paragraphs, the table, its footnotes | `TABLE` / `table_title_caption`, `table_caption`, `table` (cells joined by tabs, rows by new lines), `table_footnote` |
 * | `<supplementary-material>`: title, caption paragraphs | `SUPPL` / `paragraph` |
 * | `<boxed-text>` | its section's type / `title_{N+1}`, `paragraph` |
 * | `<floats-group>` (figures and tables collected at the end) | as above, after the body |
 * | `<ack>` | `ACK_FUND` / `title`, `paragraph` |
 * | `<ref-list>`: title, one passage per `<ref>` (its article title; names, source, year, volume, pages and ids as infons) | `REF` / `title`, `ref` |
 * | `<fn-group>`: title, footnotes | by `fn-type` or opening words (`COMP_INT`, `ACK_FUND`, …) / `footnote_title`, `footnote` |
 * | `<glossary>`, `<def-list>` of abbreviations: each term and each definition | `ABBR` / `title`, `paragraph` |
 * | `<app-group>`/`<app>` | `APPENDIX` / `title_1`…, `paragraph` |
 * | back `<sec>`, `<notes>` | by {@link classifySection} / `title_1` (`title` for notes), `paragraph` |
 * | `<sub-article>` (decision letters, author responses) | `REVIEW_INFO` / `title`, `paragraph` |
 *
 * Offsets are those of the BioC API: the text of each passage is followed by one separator
 * byte, and offsets count UTF-8 bytes (`offset[k+1] = offset[k] + utf8Length(text[k]) + 1`).
 * Passages without text are left out, except references (the BioC API keeps an empty `ref`
 * for a reference without an article title).
 */

/** Collects passages and their offsets. */
class PassageList {
  readonly passages: BiocPassage[] = []
  private offset = 0

  add(
    sectionType: JatsSectionCode,
    type: string,
    text: string,
    infons: Record<string, string> = {},
    keepEmpty = false,
  ): void {
    if (text === '' && !keepEmpty) {
      return
    }
    this.passages.push({
      offset: this.offset,
      text,
      infons: { ...infons, section_type: sectionType, type },
    })
    this.offset += Buffer.byteLength(text, 'utf8') + 1
  }
}

/** The ids and metadata of an article, read from `<front>`. */
export interface JatsFront {
  /** `pub-id-type` → value of every `<article-id>`. */
  articleIds: Record<string, string>
  title: string
  /** Short licence code (`CC BY`, `CC BY-NC-ND`, `CC0`, …) when one can be told. */
  licenseCode?: string
}

const CC_URL = /creativecommons\.org\/licenses\/((?:by|nc|nd|sa)(?:-(?:by|nc|nd|sa))*)\b/i
const CC_TEXT =
  /creative commons attribution(?:[- ]?(non-?commercial))?(?:[- ]?(no-?deriv\w*))?(?:[- ]?(share-?alike))?/i

/**
 * A short licence code, like the BioC document infon `license`: from a Creative Commons URL
 * (`…/licenses/by-nc/3.0` → `CC BY-NC`, `…/publicdomain/zero/…` → `CC0`) or the licence text
 * ("Creative Commons Attribution License" → `CC BY`).
 */
function licenseCode(url: string | undefined, text: string): string | undefined {
  const fromUrl = url === undefined ? null : CC_URL.exec(url)
  if (fromUrl?.[1] !== undefined) {
    return `CC ${fromUrl[1].toUpperCase()}`
  }
  if (url !== undefined && /creativecommons\.org\/publicdomain\/zero/i.test(url)) {
    return 'CC0'
  }
  const fromText = CC_TEXT.exec(text)
  if (fromText !== null) {
    const parts = ['BY']
    if (fromText[1] !== undefined) parts.push('NC')
    if (fromText[2] !== undefined) parts.push('ND')
    if (fromText[3] !== undefined) parts.push('SA')
    return `CC ${parts.join('-')}`
  }
  return undefined
}

function firstText(element: XmlElement | undefined, ...names: string[]): string | undefined {
  for (const name of names) {
    const text = jatsText(childElement(element, name))
    if (text !== '') {
      return text
    }
  }
  return undefined
}

/** Every descendant named `name` (document order), not descending into matches. */
function descendants(element: XmlElement | undefined, name: string): XmlElement[] {
  const out: XmlElement[] = []
  const walk = (node: XmlElement): void => {
    for (const child of node.children) {
      if (typeof child === 'object') {
        if (child.name === name) {
          out.push(child)
        } else {
          walk(child)
        }
      }
    }
  }
  if (element !== undefined) {
    walk(element)
  }
  return out
}

function nameInfon(name: XmlElement): string | undefined {
  const surname = jatsText(childElement(name, 'surname'))
  const given = jatsText(childElement(name, 'given-names'))
  if (surname === '' && given === '') {
    const collab = jatsText(name)
    return collab === '' ? undefined : collab
  }
  return `surname:${surname};given-names:${given}`
}

function readFront(article: XmlElement, list: PassageList): JatsFront {
  const meta = childPath(article, 'front', 'article-meta')
  const infons: Record<string, string> = {}
  const articleIds: Record<string, string> = {}
  for (const id of childElements(meta, 'article-id')) {
    const type = attribute(id, 'pub-id-type') ?? 'unknown'
    const value = jatsText(id)
    if (value !== '' && !Object.hasOwn(articleIds, type)) {
      articleIds[type] = value
      infons[`article-id_${type}`] = value
    }
  }
  let names = 0
  for (const group of childElements(meta, 'contrib-group')) {
    for (const contrib of childElements(group, 'contrib')) {
      const name = childElement(contrib, 'name') ?? childElement(contrib, 'collab')
      const value = name === undefined ? undefined : nameInfon(name)
      if (value !== undefined) {
        infons[`name_${names++}`] = value
      }
    }
  }
  const titleGroup = childElement(meta, 'title-group')
  const altTitle = firstText(titleGroup, 'alt-title')
  if (altTitle !== undefined) {
    infons['alt-title'] = altTitle
  }
  const dates = childElements(meta, 'pub-date')
  const dated =
    dates.find((date) =>
      /^(?:epub|ppub|pub)$/.test(attribute(date, 'pub-type') ?? attribute(date, 'date-type') ?? ''),
    ) ?? dates[0]
  const year = firstText(dated, 'year')
  if (year !== undefined) {
    infons.year = year
  }
  for (const field of ['volume', 'issue', 'fpage', 'lpage', 'elocation-id']) {
    const value = firstText(meta, field)
    if (value !== undefined) {
      infons[field] = value
    }
  }
  const permissions = childElement(meta, 'permissions')
  const license = childElement(permissions, 'license')
  const licenseText =
    jatsText(license) ||
    jatsText(childElement(permissions, 'copyright-statement')) ||
    firstText(meta, 'copyright-statement') ||
    ''
  if (licenseText !== '') {
    infons.license = licenseText
  }
  const keywords = childElements(meta, 'kwd-group').flatMap(keywordsOf)
  if (keywords.length > 0) {
    infons.kwd = keywords.join(' ')
  }
  const title = jatsText(childElement(titleGroup, 'article-title'))
  list.add('TITLE', 'front', title, infons, true)
  const front: JatsFront = { articleIds, title }
  const code = licenseCode(
    attribute(license, 'xlink:href') ??
      childElements(license, 'ali:license_ref').map((ref) => jatsText(ref))[0],
    licenseText,
  )
  if (code !== undefined) {
    front.licenseCode = code
  }
  return front
}

function childPath(element: XmlElement | undefined, ...names: string[]): XmlElement | undefined {
  let current = element
  for (const name of names) {
    current = childElement(current, name)
  }
  return current
}

function keywordsOf(group: XmlElement): string[] {
  return childElements(group)
    .filter((child) => child.name === 'kwd' || child.name === 'compound-kwd')
    .map((kwd) => jatsText(kwd))
    .filter((text) => text !== '')
}

/** Walks the body, back matter and floats of one article. */
class ArticleWalker {
  /** The type of the last top-level section, inherited by one that matches no rule. */
  private previous: JatsSectionCode = 'INTRO'
  private readonly list: PassageList

  constructor(list: PassageList) {
    this.list = list
  }

  abstracts(meta: XmlElement | undefined): void {
    for (const abstract of childElements(meta, 'abstract')) {
      const title = jatsText(childElement(abstract, 'title'))
      if (title !== '' && !/^abstract$/i.test(title)) {
        this.list.add('ABSTRACT', 'abstract_title_1', title)
      }
      this.abstractContent(abstract, 1)
    }
  }

  private abstractContent(element: XmlElement, depth: number): void {
    for (const child of childElements(element)) {
      const local = localName(child.name)
      if (local === 'sec') {
        this.list.add('ABSTRACT', `abstract_title_${depth}`, jatsText(childElement(child, 'title')))
        this.abstractContent(child, depth + 1)
      } else if (local === 'p') {
        const { text, floats } = jatsParagraphText(child)
        this.list.add('ABSTRACT', 'abstract', text)
        this.floats(floats, 'ABSTRACT', depth)
      } else if (local === 'list') {
        for (const { text, floats } of listItems(child)) {
          this.list.add('ABSTRACT', 'abstract', text)
          this.floats(floats, 'ABSTRACT', depth)
        }
      }
    }
  }

  keywords(meta: XmlElement | undefined): void {
    for (const group of childElements(meta, 'kwd-group')) {
      this.list.add('KEYWORD', 'paragraph', keywordsOf(group).join('; '))
    }
  }

  body(body: XmlElement | undefined): void {
    for (const child of childElements(body)) {
      if (localName(child.name) === 'sec') {
        this.topSection(child, 'title_1')
      } else {
        this.block(child, this.previous, 0)
      }
    }
  }

  /** A top-level section: classified, or inheriting the previous section's type. */
  private topSection(sec: XmlElement, headingType: string): void {
    const title = jatsText(childElement(sec, 'title'))
    const code =
      classifySection(attribute(sec, 'sec-type'), title === '' ? undefined : title) ?? this.previous
    this.previous = code
    this.section(sec, code, 1, headingType)
  }

  private section(
    sec: XmlElement,
    code: JatsSectionCode,
    depth: number,
    headingType: string,
  ): void {
    this.list.add(code, headingType, jatsText(childElement(sec, 'title')))
    for (const child of childElements(sec)) {
      this.block(child, code, depth)
    }
  }

  /** One child of a section (or of the body) at nesting `depth`. */
  private block(child: XmlElement, code: JatsSectionCode, depth: number): void {
    switch (localName(child.name)) {
      case 'title':
      case 'label':
      case 'sec-meta':
        return
      case 'sec':
        this.section(child, code, depth + 1, `title_${depth + 1}`)
        return
      case 'p': {
        const { text, floats } = jatsParagraphText(child)
        this.list.add(code, 'paragraph', text)
        this.floats(floats, code, depth)
        return
      }
      case 'list':
        for (const { text, floats } of listItems(child)) {
          this.list.add(code, 'paragraph', text)
          this.floats(floats, code, depth)
        }
        return
      case 'def-list':
        this.defList(child, code)
        return
      case 'ref-list':
        this.refList(child)
        return
      case 'glossary':
        this.glossary(child)
        return
      case 'fn-group':
        this.fnGroup(child)
        return
      default:
        break
    }
    if (FLOAT_NAMES.has(localName(child.name))) {
      this.floats([child], code, depth)
      return
    }
    const { text, floats } = jatsParagraphText(child)
    this.list.add(code, 'paragraph', text)
    this.floats(floats, code, depth)
  }

  private floats(floats: readonly XmlElement[], code: JatsSectionCode, depth: number): void {
    for (const float of floats) {
      switch (localName(float.name)) {
        case 'fig':
          this.caption(float, 'FIG', 'fig')
          break
        case 'table-wrap':
          this.tableWrap(float)
          break
        case 'fig-group':
        case 'table-wrap-group':
          this.caption(
            float,
            localName(float.name) === 'fig-group' ? 'FIG' : 'TABLE',
            localName(float.name) === 'fig-group' ? 'fig' : 'table',
          )
          this.floats(
            childElements(float).filter((child) => FLOAT_NAMES.has(localName(child.name))),
            code,
            depth,
          )
          break
        case 'supplementary-material':
          this.supplementary(float)
          break
        case 'boxed-text':
          this.section(float, code, depth, `title_${depth + 1}`)
          break
        default:
          break
      }
    }
  }

  /** The caption of a figure or table: its title, then one passage per paragraph. */
  private caption(float: XmlElement, code: 'FIG' | 'TABLE', prefix: 'fig' | 'table'): void {
    const infons: Record<string, string> = {}
    const id = attribute(float, 'id')
    if (id !== undefined) {
      infons.id = id
    }
    const caption = childElement(float, 'caption')
    this.list.add(code, `${prefix}_title_caption`, jatsText(childElement(caption, 'title')), infons)
    for (const child of childElements(caption)) {
      if (localName(child.name) !== 'title') {
        this.list.add(code, `${prefix}_caption`, jatsParagraphText(child).text, infons)
      }
    }
  }

  private tableWrap(wrap: XmlElement): void {
    this.caption(wrap, 'TABLE', 'table')
    const infons: Record<string, string> = {}
    const id = attribute(wrap, 'id')
    if (id !== undefined) {
      infons.id = id
    }
    for (const table of descendants(wrap, 'table')) {
      this.list.add('TABLE', 'table', tableText(table), infons)
    }
    for (const foot of childElements(wrap, 'table-wrap-foot')) {
      for (const child of childElements(foot)) {
        if (localName(child.name) === 'fn-group') {
          for (const fn of childElements(child, 'fn')) {
            this.list.add('TABLE', 'table_footnote', jatsText(fn), infons)
          }
        } else if (localName(child.name) !== 'title') {
          this.list.add('TABLE', 'table_footnote', jatsText(child), infons)
        }
      }
    }
  }

  private supplementary(element: XmlElement): void {
    const caption = childElement(element, 'caption')
    this.list.add('SUPPL', 'paragraph', jatsText(childElement(caption, 'title')))
    for (const child of childElements(caption)) {
      if (localName(child.name) !== 'title') {
        this.list.add('SUPPL', 'paragraph', jatsParagraphText(child).text)
      }
    }
  }

  /** Terms and definitions, each a passage (as the BioC API writes abbreviation lists). */
  private defList(list: XmlElement, code: JatsSectionCode): void {
    this.list.add(code, 'title', jatsText(childElement(list, 'title')))
    for (const child of childElements(list)) {
      if (localName(child.name) === 'def-item') {
        for (const part of childElements(child)) {
          this.list.add(code, 'paragraph', jatsText(part))
        }
      } else if (localName(child.name) === 'def-list') {
        this.defList(child, code)
      }
    }
  }

  private glossary(glossary: XmlElement): void {
    this.previous = 'ABBR'
    this.list.add('ABBR', 'title', jatsText(childElement(glossary, 'title')))
    for (const child of childElements(glossary)) {
      const local = localName(child.name)
      if (local === 'def-list') {
        this.defList(child, 'ABBR')
      } else if (local === 'glossary') {
        this.glossary(child)
      } else if (local !== 'title' && local !== 'label') {
        this.block(child, 'ABBR', 1)
      }
    }
  }

  private refList(refList: XmlElement): void {
    this.previous = 'REF'
    this.list.add('REF', 'title', jatsText(childElement(refList, 'title')))
    for (const child of childElements(refList)) {
      const local = localName(child.name)
      if (local === 'ref') {
        const { text, infons } = reference(child)
        this.list.add('REF', 'ref', text, infons, true)
      } else if (local === 'ref-list') {
        this.refList(child)
      }
    }
  }

  private fnGroup(group: XmlElement): void {
    this.list.add(this.previous, 'footnote_title', jatsText(childElement(group, 'title')))
    for (const fn of childElements(group, 'fn')) {
      const text = jatsText(fn)
      const code = classifyFootnote(attribute(fn, 'fn-type'), text) ?? this.previous
      this.list.add(code, 'footnote', text)
    }
  }

  back(back: XmlElement | undefined): void {
    for (const child of childElements(back)) {
      switch (localName(child.name)) {
        case 'sec':
          this.topSection(child, 'title_1')
          break
        case 'notes':
          this.topSection(child, 'title')
          break
        case 'ack':
          this.previous = 'ACK_FUND'
          this.section(child, 'ACK_FUND', 1, 'title')
          break
        case 'ref-list':
          this.refList(child)
          break
        case 'fn-group':
          this.fnGroup(child)
          break
        case 'glossary':
          this.glossary(child)
          break
        case 'app-group':
          this.previous = 'APPENDIX'
          this.list.add('APPENDIX', 'title', jatsText(childElement(child, 'title')))
          for (const app of childElements(child)) {
            if (localName(app.name) === 'app') {
              this.section(app, 'APPENDIX', 1, 'title_1')
            } else {
              this.block(app, 'APPENDIX', 0)
            }
          }
          break
        case 'app':
          this.previous = 'APPENDIX'
          this.section(child, 'APPENDIX', 1, 'title_1')
          break
        default:
          this.block(child, this.previous, 0)
          break
      }
    }
  }

  floatsGroup(group: XmlElement | undefined): void {
    this.floats(childElements(group), this.previous, 0)
  }

  subArticle(sub: XmlElement): void {
    const meta = childElement(sub, 'front-stub') ?? childPath(sub, 'front', 'article-meta')
    this.list.add('REVIEW_INFO', 'title', jatsText(childPath(meta, 'title-group', 'article-title')))
    for (const child of childElements(childElement(sub, 'body'))) {
      this.block(child, 'REVIEW_INFO', 1)
    }
  }
}

const FLOAT_NAMES = new Set([
  'fig',
  'fig-group',
  'table-wrap',
  'table-wrap-group',
  'boxed-text',
  'supplementary-material',
])

/** Each list item as one text (nested lists flattened into it), with the floats inside it. */
function listItems(list: XmlElement): { text: string; floats: XmlElement[] }[] {
  return childElements(list, 'list-item').map((item) => jatsParagraphText(item))
}

/** Cells joined by tabs, rows by new lines. */
function tableText(table: XmlElement): string {
  return descendants(table, 'tr')
    .map((row) =>
      childElements(row)
        .map((cell) => jatsText(cell))
        .join('\t'),
    )
    .join('\n')
}

const REF_FIELDS = ['source', 'year', 'volume', 'issue', 'fpage', 'lpage'] as const

/** A reference: its article title (BioC API style) and bibliographic fields as infons. */
function reference(ref: XmlElement): { text: string; infons: Record<string, string> } {
  const citation =
    childElements(ref).find((child) =>
      ['element-citation', 'mixed-citation', 'citation', 'nlm-citation'].includes(
        localName(child.name),
      ),
    ) ?? ref
  const infons: Record<string, string> = {}
  const id = attribute(ref, 'id')
  if (id !== undefined) {
    infons.id = id
  }
  let names = 0
  for (const name of descendants(citation, 'name')) {
    const value = nameInfon(name)
    if (value !== undefined) {
      infons[`name_${names++}`] = value
    }
  }
  for (const field of REF_FIELDS) {
    const value = firstText(citation, field)
    if (value !== undefined) {
      infons[field] = value
    }
  }
  for (const pubId of childElements(citation, 'pub-id')) {
    const type = attribute(pubId, 'pub-id-type')
    const value = jatsText(pubId)
    if (type !== undefined && value !== '') {
      infons[`pub-id_${type}`] = value
    }
  }
  const text = firstText(citation, 'article-title', 'chapter-title') ?? ''
  return { text, infons }
}

/** What {@link jatsArticleToBioc} gives: the BioC document and the front matter. */
export interface JatsBioc {
  document: BiocDocument
  front: JatsFront
}

/**
 * Converts one JATS `<article>` into a BioC document (see the module comment for the map).
 * Never throws; an article without a PMC id gives a document without an id, which the caller
 * reports.
 * @param article - the `<article>` element
 */
export function jatsArticleToBioc(article: XmlElement): JatsBioc {
  const list = new PassageList()
  const front = readFront(article, list)
  const walker = new ArticleWalker(list)
  const meta = childPath(article, 'front', 'article-meta')
  walker.abstracts(meta)
  walker.keywords(meta)
  walker.body(childElement(article, 'body'))
  walker.floatsGroup(childElement(article, 'floats-group'))
  walker.back(childElement(article, 'back'))
  for (const sub of childElements(article, 'sub-article')) {
    walker.subArticle(sub)
  }
  // The BioC API's document licence: a Creative Commons code, else `NO-CC CODE`.
  const infons: Record<string, string> = { license: front.licenseCode ?? 'NO-CC CODE' }
  const pmc = front.articleIds.pmc ?? front.articleIds.pmcid
  const digits = pmc === undefined ? undefined : /^\s*(?:pmc)?(\d+)\s*$/i.exec(pmc)?.[1]
  const document: BiocDocument = { infons, passages: list.passages, problems: [] }
  if (digits !== undefined) {
    document.id = `PMC${digits}`
    document.passages[0]!.infons['article-id_pmc'] = digits
  }
  return { document, front }
}
