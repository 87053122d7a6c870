import { PubmatchError } from '@pubmatch/core'
import { decodeCharacterReference, type EntityDeclaration, type XmlDoctype } from './doctype.ts'
import { HTML_ENTITIES } from './html-entities.ts'

/** Bounds on the expansion of entities declared in a DOCTYPE's internal subset. */
export interface EntityLimits {
  /**
   * Most characters that internal DTD entities may expand to, summed over every reference in
   * the whole input (all records of a streamed file share one budget). Character references
   * and the predefined/HTML entities do not count: they replace a reference by one character.
   * Defaults to `1_000_000`.
   */
  maxEntityExpansion?: number
  /** Longest chain of entity references nested inside entity values. Defaults to `16`. */
  maxEntityDepth?: number
}

/** The defaults of {@link EntityLimits}. */
export const DEFAULT_ENTITY_LIMITS: Readonly<Required<EntityLimits>> = {
  maxEntityExpansion: 1_000_000,
  maxEntityDepth: 16,
}

/** Options of {@link createEntityDecoder}. */
export interface EntityDecoderOptions extends EntityLimits {
  /** The file being read, for messages. Defaults to `<input>`. */
  file?: string
}

/** Replaces entity and character references in parsed text and attribute values. */
export interface EntityDecoder {
  /**
   * Returns `text` with references replaced: numeric character references, the five XML
   * entities, entities declared in the internal subset (bounded, see {@link EntityLimits}),
   * then the HTML 4 names ({@link HTML_ENTITIES}). Anything else (an undeclared name, a
   * reference to a code point XML forbids) is kept as written.
   * @param text - raw character data
   * @throws PubmatchError `EXTERNAL_ENTITY` when the text uses an external entity,
   *   `ENTITY_EXPANSION_LIMIT` when an expansion would exceed the limits; both are thrown
   *   before anything is expanded.
   */
  decode(text: string): string
  /** Characters produced by internal-entity expansion so far. */
  readonly expanded: number
}

const XML_PREDEFINED: ReadonlyMap<string, string> = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
])

const REFERENCE = /&(#x[0-9A-Fa-f]+|#[0-9]+|[A-Za-z_:][\w.:-]*);/g

interface Measure {
  length: number
  depth: number
}

/**
 * Creates the decoder for one input. The internal entities of `doctype` are measured before
 * they are expanded: each entity's expanded length and nesting depth are computed from its
 * declaration alone (memoised numbers, never strings), so a billion-laughs document is
 * rejected from its first reference without materialising anything.
 * @param doctype - the input's DOCTYPE, if it has one
 * @param options - limits and the file name for messages
 */
export function createEntityDecoder(
  doctype: XmlDoctype | undefined,
  options: EntityDecoderOptions = {},
): EntityDecoder {
  const file = options.file ?? '<input>'
  const maxExpansion = options.maxEntityExpansion ?? DEFAULT_ENTITY_LIMITS.maxEntityExpansion
  const maxDepth = options.maxEntityDepth ?? DEFAULT_ENTITY_LIMITS.maxEntityDepth
  const declared = doctype?.entities ?? new Map<string, EntityDeclaration>()
  const measures = new Map<string, Measure>()
  const expansions = new Map<string, string>()
  let expanded = 0

  const externalError = (
    name: string,
    declaration: EntityDeclaration & { kind: 'external' },
    via?: string,
  ): PubmatchError =>
    new PubmatchError(
      'EXTERNAL_ENTITY',
      `${file}: the document uses the external entity &${name};` +
        `${via === undefined ? '' : ` (through &${via};)`} declared as ` +
        `${declaration.systemId ?? declaration.publicId ?? 'an external resource'}; pubmatch never fetches external entities`,
      {
        details: {
          file,
          entity: name,
          systemId: declaration.systemId,
          publicId: declaration.publicId,
        },
      },
    )

  const limitError = (
    name: string,
    message: string,
    extra: Record<string, unknown>,
  ): PubmatchError =>
    new PubmatchError(
      'ENTITY_EXPANSION_LIMIT',
      `${file}: entity &${name}; ${message}`,
      {
        details: { file, entity: name, ...extra },
      },
    )

  /** Length and depth of the expansion of a reference inside an entity value. */
  const measureReference = (
    name: string,
    depth: number,
    root: string,
    visiting: Set<string>,
  ): Measure => {
    const predefined = XML_PREDEFINED.get(name)
    if (predefined !== undefined) {
      return { length: predefined.length, depth: 0 }
    }
    const declaration = declared.get(name)
    if (declaration === undefined) {
      return { length: HTML_ENTITIES.get(name)?.length ?? name.length + 2, depth: 0 }
    }
    if (declaration.kind === 'external') {
      throw externalError(name, declaration, root === name ? undefined : root)
    }
    return measureEntity(declaration, depth, root, visiting)
  }

  const measureEntity = (
    declaration: EntityDeclaration & { kind: 'internal' },
    depth: number,
    root: string,
    visiting: Set<string>,
  ): Measure => {
    const known = measures.get(declaration.name)
    if (known !== undefined) {
      return known
    }
    if (visiting.has(declaration.name)) {
      throw limitError(root, `is recursive (&${declaration.name}; refers to itself)`, {
        recursive: true,
      })
    }
    if (depth > maxDepth) {
      throw limitError(root, `nests entity references deeper than the limit of ${maxDepth}`, {
        depth,
        limit: maxDepth,
      })
    }
    visiting.add(declaration.name)
    let length = 0
    let childDepth = 0
    for (const part of declaration.parts) {
      if ('text' in part) {
        length += part.text.length
      } else {
        const inner = measureReference(part.ref, depth + 1, root, visiting)
        length += inner.length
        childDepth = Math.max(childDepth, inner.depth)
      }
    }
    visiting.delete(declaration.name)
    const measure = { length, depth: childDepth + 1 }
    measures.set(declaration.name, measure)
    return measure
  }

  const materialise = (name: string): string => {
    const done = expansions.get(name)
    if (done !== undefined) {
      return done
    }
    const declaration = declared.get(name)
    let value = ''
    if (declaration?.kind === 'internal') {
      for (const part of declaration.parts) {
        if ('text' in part) {
          value += part.text
        } else {
          value +=
            XML_PREDEFINED.get(part.ref) ??
            (declared.has(part.ref)
              ? materialise(part.ref)
              : (HTML_ENTITIES.get(part.ref) ?? `&${part.ref};`))
        }
      }
    }
    expansions.set(name, value)
    return value
  }

  const expandDeclared = (name: string, declaration: EntityDeclaration): string => {
    if (declaration.kind === 'external') {
      throw externalError(name, declaration)
    }
    const { length, depth } = measureEntity(declaration, 1, name, new Set())
    if (depth > maxDepth) {
      throw limitError(
        name,
        `nests entity references ${depth} deep, over the limit of ${maxDepth}`,
        {
          depth,
          limit: maxDepth,
        },
      )
    }
    if (expanded + length > maxExpansion) {
      throw limitError(
        name,
        `would expand to ${length} characters` +
          `${expanded > 0 ? ` (after ${expanded} already expanded)` : ''}, over the limit of ${maxExpansion}`,
        { expandedLength: length, alreadyExpanded: expanded, limit: maxExpansion },
      )
    }
    expanded += length
    return materialise(name)
  }

  return {
    decode(text: string): string {
      if (!text.includes('&')) {
        return text
      }
      return text.replace(REFERENCE, (reference: string, body: string) => {
        if (body.startsWith('#')) {
          return decodeCharacterReference(body) ?? reference
        }
        const predefined = XML_PREDEFINED.get(body)
        if (predefined !== undefined) {
          return predefined
        }
        const declaration = declared.get(body)
        if (declaration !== undefined) {
          return expandDeclared(body, declaration)
        }
        return HTML_ENTITIES.get(body) ?? reference
      })
    },
    get expanded(): number {
      return expanded
    },
  }
}
