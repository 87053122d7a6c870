import { PubmatchError, truncateForMessage } from '@pubmatch/core'

/** Part of an internal entity's replacement text: literal text or a reference to another entity. */
export type EntityValuePart = { text: string } | { ref: string }

/** An entity declared in a DOCTYPE's internal subset. */
export type EntityDeclaration =
  /** `<!ENTITY name "value">`: character references already replaced, entity references kept. */
  | { kind: 'internal'; name: string; parts: readonly EntityValuePart[] }
  /** `<!ENTITY name SYSTEM "uri">` or `PUBLIC "id" "uri"` (optionally `NDATA`): never fetched. */
  | { kind: 'external'; name: string; systemId?: string; publicId?: string }

/** What a `<!DOCTYPE …>` declares. */
export interface XmlDoctype {
  /** The declared root element name. */
  name: string
  /** `PUBLIC` identifier of the external DTD, e.g. `-//NLM//DTD PubMedArticle, 1st January 2019//EN`. */
  publicId?: string
  /** `SYSTEM` identifier (URI) of the external DTD. It is only recorded, never fetched. */
  systemId?: string
  /** General entities from the internal subset (the first declaration of a name wins, as in XML). */
  entities: ReadonlyMap<string, EntityDeclaration>
  /** Parameter entities from the internal subset. Their references are not expanded (see {@link parseDoctype}). */
  parameterEntities: ReadonlyMap<string, EntityDeclaration>
}

/** Where a DOCTYPE came from, for error messages. */
export interface DoctypeContext {
  /** The file being read. Defaults to `<input>`. */
  file?: string
}

const NAME_START = /[A-Za-z_:\u00C0-\uFFFF]/
const NAME_CHAR = /[A-Za-z0-9_:.\-\u00B7\u00C0-\uFFFF]/

class Cursor {
  pos = 0
  readonly text: string
  constructor(text: string) {
    this.text = text
  }
  get done(): boolean {
    return this.pos >= this.text.length
  }
  peek(offset = 0): string {
    return this.text[this.pos + offset] ?? ''
  }
  startsWith(s: string): boolean {
    return this.text.startsWith(s, this.pos)
  }
  skipSpace(): boolean {
    const start = this.pos
    while (!this.done && /\s/.test(this.text[this.pos]!)) {
      this.pos++
    }
    return this.pos > start
  }
  readName(): string {
    const start = this.pos
    if (!NAME_START.test(this.peek())) {
      return ''
    }
    this.pos++
    while (!this.done && NAME_CHAR.test(this.text[this.pos]!)) {
      this.pos++
    }
    return this.text.slice(start, this.pos)
  }
  /** Reads a quoted literal; returns undefined when the next char is not a quote or the quote never closes. */
  readQuoted(): string | undefined {
    const quote = this.peek()
    if (quote !== '"' && quote !== "'") {
      return undefined
    }
    const end = this.text.indexOf(quote, this.pos + 1)
    if (end === -1) {
      return undefined
    }
    const value = this.text.slice(this.pos + 1, end)
    this.pos = end + 1
    return value
  }
  /** Skips to just after `terminator`; false when it never occurs. */
  skipPast(terminator: string): boolean {
    const end = this.text.indexOf(terminator, this.pos)
    if (end === -1) {
      return false
    }
    this.pos = end + terminator.length
    return true
  }
  /** Skips a markup declaration up to its closing `>`, stepping over quoted literals. */
  skipDeclaration(): boolean {
    while (!this.done) {
      const ch = this.peek()
      if (ch === '"' || ch === "'") {
        if (this.readQuoted() === undefined) {
          return false
        }
      } else if (ch === '>') {
        this.pos++
        return true
      } else {
        this.pos++
      }
    }
    return false
  }
}

function malformed(context: DoctypeContext, what: string, text: string): PubmatchError {
  const file = context.file ?? '<input>'
  return new PubmatchError(
    'MALFORMED_XML',
    `${file}: malformed DOCTYPE (${what}): "${truncateForMessage(text)}"`,
    { details: { file } },
  )
}

/** Replaces character references (`&#233;`, `&#xE9;`) in an entity value and splits out `&name;` references. */
function parseEntityValue(value: string): EntityValuePart[] {
  const parts: EntityValuePart[] = []
  let text = ''
  const pattern = /&(#x[0-9A-Fa-f]+|#[0-9]+|[A-Za-z_:][\w.:-]*);/g
  let last = 0
  for (let m = pattern.exec(value); m !== null; m = pattern.exec(value)) {
    text += value.slice(last, m.index)
    last = m.index + m[0].length
    const body = m[1]!
    if (body.startsWith('#')) {
      text += decodeCharacterReference(body) ?? m[0]
    } else {
      if (text) {
        parts.push({ text })
        text = ''
      }
      parts.push({ ref: body })
    }
  }
  text += value.slice(last)
  if (text) {
    parts.push({ text })
  }
  return parts
}

/**
 * Decodes the body of a numeric character reference (`#233` or `#xE9`). Returns undefined
 * for code points XML does not allow (NUL, surrogates, beyond U+10FFFF, C0 controls other
 * than tab/newline/return), so the caller can keep the reference as written.
 * @param body - the text between `&` and `;`
 */
export function decodeCharacterReference(body: string): string | undefined {
  const codePoint =
    body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10)
  if (
    !Number.isFinite(codePoint) ||
    codePoint > 0x10ffff ||
    (codePoint < 0x20 && codePoint !== 0x9 && codePoint !== 0xa && codePoint !== 0xd) ||
    (codePoint >= 0xd800 && codePoint <= 0xdfff) ||
    codePoint === 0xfffe ||
    codePoint === 0xffff
  ) {
    return undefined
  }
  return String.fromCodePoint(codePoint)
}

function readExternalId(cursor: Cursor): { systemId?: string; publicId?: string } | undefined {
  if (cursor.startsWith('SYSTEM')) {
    cursor.pos += 6
    cursor.skipSpace()
    const systemId = cursor.readQuoted()
    return systemId === undefined ? undefined : { systemId }
  }
  if (cursor.startsWith('PUBLIC')) {
    cursor.pos += 6
    cursor.skipSpace()
    const publicId = cursor.readQuoted()
    if (publicId === undefined) {
      return undefined
    }
    cursor.skipSpace()
    const systemId = cursor.readQuoted()
    return systemId === undefined ? { publicId } : { publicId, systemId }
  }
  return {}
}

/**
 * Parses a `<!DOCTYPE …>` declaration without fetching anything. The external DTD
 * (`PUBLIC`/`SYSTEM` after the root name, as in every PubMed file) is recorded and ignored.
 * The internal subset's `<!ENTITY>` declarations are collected: internal ones with their
 * replacement text, external ones (SYSTEM/PUBLIC, NDATA) only by name, so that a document
 * that *uses* one fails with `EXTERNAL_ENTITY`. `<!ELEMENT>`, `<!ATTLIST>`, `<!NOTATION>`,
 * comments and processing instructions are skipped.
 *
 * A parameter-entity reference (`%name;`) in the internal subset is where a classic XXE
 * attack fetches a remote DTD: a reference to an *external* parameter entity throws
 * `EXTERNAL_ENTITY`. References to internal parameter entities are not expanded (the
 * declarations they would inject are ignored), which keeps DOCTYPE processing a single
 * bounded pass.
 * @param text - the whole declaration, from `<!DOCTYPE` to its closing `>`
 * @param context - the file name for messages
 * @throws PubmatchError `MALFORMED_XML` for a declaration that cannot be read, `EXTERNAL_ENTITY` as above
 */
export function parseDoctype(text: string, context: DoctypeContext = {}): XmlDoctype {
  const cursor = new Cursor(text)
  if (!cursor.startsWith('<!DOCTYPE')) {
    throw malformed(context, 'does not start with <!DOCTYPE', text)
  }
  cursor.pos += 9
  cursor.skipSpace()
  const name = cursor.readName()
  if (!name) {
    throw malformed(context, 'no root element name', text)
  }
  cursor.skipSpace()
  const external = readExternalId(cursor)
  if (external === undefined) {
    throw malformed(context, 'bad external identifier', text)
  }
  const entities = new Map<string, EntityDeclaration>()
  const parameterEntities = new Map<string, EntityDeclaration>()
  cursor.skipSpace()
  if (cursor.peek() === '[') {
    cursor.pos++
    readInternalSubset(cursor, entities, parameterEntities, context)
  }
  cursor.skipSpace()
  if (cursor.peek() !== '>') {
    throw malformed(context, 'expected > after the declaration', text)
  }
  return { name, ...external, entities, parameterEntities }
}

function readInternalSubset(
  cursor: Cursor,
  entities: Map<string, EntityDeclaration>,
  parameterEntities: Map<string, EntityDeclaration>,
  context: DoctypeContext,
): void {
  const file = context.file ?? '<input>'
  for (;;) {
    cursor.skipSpace()
    if (cursor.done) {
      throw malformed(context, 'unterminated internal subset', cursor.text)
    }
    if (cursor.peek() === ']') {
      cursor.pos++
      return
    }
    if (cursor.startsWith('<!--')) {
      if (!cursor.skipPast('-->')) {
        throw malformed(context, 'unterminated comment', cursor.text)
      }
    } else if (cursor.startsWith('<?')) {
      if (!cursor.skipPast('?>')) {
        throw malformed(context, 'unterminated processing instruction', cursor.text)
      }
    } else if (cursor.startsWith('<!ENTITY')) {
      const start = cursor.pos
      cursor.pos += 8
      const declaration = readEntityDeclaration(cursor)
      if (declaration === undefined) {
        throw malformed(context, 'bad <!ENTITY> declaration', cursor.text.slice(start))
      }
      const target = declaration.parameter ? parameterEntities : entities
      if (!target.has(declaration.entity.name)) {
        target.set(declaration.entity.name, declaration.entity)
      }
    } else if (cursor.startsWith('<!')) {
      if (!cursor.skipDeclaration()) {
        throw malformed(context, 'unterminated markup declaration', cursor.text)
      }
    } else if (cursor.peek() === '%') {
      cursor.pos++
      const name = cursor.readName()
      if (!name || cursor.peek() !== ';') {
        throw malformed(context, 'bad parameter-entity reference', cursor.text)
      }
      cursor.pos++
      const declaration = parameterEntities.get(name)
      if (declaration?.kind === 'external') {
        throw new PubmatchError(
          'EXTERNAL_ENTITY',
          `${file}: the DOCTYPE references the external parameter entity %${name}; ` +
            `(${declaration.systemId ?? declaration.publicId ?? 'no identifier'}); pubmatch never fetches external entities`,
          {
            details: {
              file,
              entity: name,
              systemId: declaration.systemId,
              publicId: declaration.publicId,
            },
          },
        )
      }
    } else {
      throw malformed(
        context,
        'unexpected content in the internal subset',
        cursor.text.slice(cursor.pos),
      )
    }
  }
}

function readEntityDeclaration(
  cursor: Cursor,
): { parameter: boolean; entity: EntityDeclaration } | undefined {
  if (!cursor.skipSpace()) {
    return undefined
  }
  let parameter = false
  if (cursor.peek() === '%') {
    parameter = true
    cursor.pos++
    if (!cursor.skipSpace()) {
      return undefined
    }
  }
  const name = cursor.readName()
  if (!name || !cursor.skipSpace()) {
    return undefined
  }
  let entity: EntityDeclaration
  const value = cursor.readQuoted()
  if (value !== undefined) {
    entity = { kind: 'internal', name, parts: parseEntityValue(value) }
  } else {
    const external = readExternalId(cursor)
    if (
      external === undefined ||
      (external.systemId === undefined && external.publicId === undefined)
    ) {
      return undefined
    }
    entity = { kind: 'external', name, ...external }
  }
  // Optional NDATA notation, then `>`.
  if (!cursor.skipDeclaration()) {
    return undefined
  }
  return { parameter, entity }
}
