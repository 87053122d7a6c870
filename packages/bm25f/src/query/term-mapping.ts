/**
 * Automatic term mapping (PubMed's ATM, as its help describes it): an untagged, unquoted term
 * without truncation is looked up, longest run of words first, in the MeSH vocabulary (preferred
 * names and entry terms) and among journal names; a run that maps is searched as
 * `"Descriptor"[mh] OR descriptor words OR the words typed` (the `[mh]` term exploded when the
 * query is evaluated), and a whole term that names a journal also as `"Journal"[ta]`. Pure: a tree
 * in, a tree and the mappings out.
 */
import type { AndNode, OrNode, QueryNode, TermNode } from './ast.ts'
import type { MeshLookup } from './mesh.ts'

/** What term mapping looks terms up in. */
export interface TermMappingLookup {
  /** The MeSH vocabulary (entry terms → descriptors) and descriptor names. */
  readonly mesh?: MeshLookup & { descriptorName?(ui: string): string | undefined }
  /** The journal a term names (its MedlineTA), or `undefined`. */
  readonly journal?: (text: string) => string | undefined
  /**
   * Whether a term written as an author (`smith j`, `saunders nf`: last name, then 1–3 initials)
   * names an author of the index, as `term[au]` would find it.
   */
  readonly author?: (text: string) => boolean
}

/** Options of {@link mapQueryTerms}. */
export interface TermMappingOptions {
  /**
   * How a term whose words map in several runs is put together again: `and` (every run must
   * match, PubMed's Boolean search) or `or` (ranked retrieval over any word). Defaults to `and`.
   */
  readonly combine?: 'and' | 'or'
  /** Whether the index answers `[mh]` (else only the descriptor's words are added). Defaults to `true`. */
  readonly meshTag?: boolean
  /** Whether the index answers `[ta]` (else journals are not mapped). Defaults to `true`. */
  readonly journalTag?: boolean
  /** Whether the index answers `[au]` (else authors are not mapped). Defaults to `true`. */
  readonly authorTag?: boolean
  /** The longest run of words looked up. Defaults to `6`. */
  readonly maxWords?: number
}

/** One run of a term's words that mapped. */
export interface TermMapping {
  /** The words as typed. */
  readonly text: string
  /**
   * `mesh`: to descriptors (their preferred names); `journal`: to a journal (its MedlineTA);
   * `author`: to the author (searched as `[au]` only, as PubMed does).
   */
  readonly kind: 'mesh' | 'journal' | 'author'
  /** The descriptor names, the journal's MedlineTA, or the author as typed. */
  readonly to: readonly string[]
}

/** A last name (one or more words) and 1–3 initials: how people type an author. */
const AUTHOR_FORM = /^[\p{L}'-]{2,}(?: [\p{L}'-]{2,})* \p{L}{1,3}$/u

const term = (text: string, field: TermNode['field'], quoted: boolean): TermNode => ({
  kind: 'term',
  text,
  quoted,
  field,
  noExplode: false,
  wildcard: false,
})

const or = (children: QueryNode[]): QueryNode => {
  const flat = children.flatMap((child) => (child.kind === 'or' ? child.children : [child]))
  return flat.length === 1 ? flat[0]! : ({ kind: 'or', children: flat } satisfies OrNode)
}

const and = (children: QueryNode[]): QueryNode => {
  const flat = children.flatMap((child) => (child.kind === 'and' ? child.children : [child]))
  return flat.length === 1 ? flat[0]! : ({ kind: 'and', children: flat } satisfies AndNode)
}

/**
 * The query with PubMed's automatic term mapping applied to its untagged, unquoted terms without
 * `*`, and the mappings made (in query order). Terms that map nothing are kept as they are.
 * @param root - the query
 * @param lookup - the MeSH vocabulary and the journal names
 * @param options - how runs combine, which tags the index answers
 */
export function mapQueryTerms(
  root: QueryNode,
  lookup: TermMappingLookup,
  options: TermMappingOptions = {},
): { readonly query: QueryNode; readonly mappings: TermMapping[] } {
  const mappings: TermMapping[] = []
  const visit = (node: QueryNode): QueryNode => {
    switch (node.kind) {
      case 'term':
        return node.field === null && !node.quoted && !node.wildcard
          ? mapTerm(node, lookup, options, mappings)
          : node
      case 'and':
        return and(node.children.map(visit))
      case 'or':
        return or(node.children.map(visit))
      case 'not':
        // what is excluded keeps its words: mapping would widen the exclusion
        return { kind: 'not', include: visit(node.include), exclude: node.exclude }
      default:
        return node
    }
  }
  return { query: visit(root), mappings }
}

/** The descriptor names a run of words maps to (empty when none). */
function meshNames(text: string, lookup: TermMappingLookup): string[] {
  const mesh = lookup.mesh
  if (mesh === undefined) {
    return []
  }
  const names: string[] = []
  for (const ui of mesh.descriptorsForTerm(text)) {
    const name = mesh.descriptorName?.(ui)
    if (name !== undefined && !names.includes(name)) {
      names.push(name)
    }
  }
  return names
}

function mapTerm(
  node: TermNode,
  lookup: TermMappingLookup,
  options: TermMappingOptions,
  mappings: TermMapping[],
): QueryNode {
  const meshTag = options.meshTag !== false
  const journalTag = options.journalTag !== false
  // a whole term that names a journal
  const journal = journalTag ? lookup.journal?.(node.text) : undefined
  const wholeMesh = meshNames(node.text, lookup)
  if (journal !== undefined && wholeMesh.length === 0) {
    mappings.push({ text: node.text, kind: 'journal', to: [journal] })
    return or([term(journal, 'ta', true), node])
  }
  // a whole term written as an author that names one: the author alone
  if (
    wholeMesh.length === 0 &&
    options.authorTag !== false &&
    AUTHOR_FORM.test(node.text) &&
    lookup.author?.(node.text) === true
  ) {
    mappings.push({ text: node.text, kind: 'author', to: [node.text] })
    return term(node.text, 'au', false)
  }
  const words = node.text.split(' ')
  const maxWords = options.maxWords ?? 6
  const parts: QueryNode[] = []
  let plain: string[] = []
  let mapped = false
  const flush = (): void => {
    if (plain.length > 0) {
      parts.push(term(plain.join(' '), null, false))
      plain = []
    }
  }
  for (let start = 0; start < words.length;) {
    let found: { end: number; names: string[] } | undefined
    for (
      let end = Math.min(words.length, start + maxWords);
      end > start && found === undefined;
      end--
    ) {
      const names = meshNames(words.slice(start, end).join(' '), lookup)
      if (names.length > 0) {
        found = { end, names }
      }
    }
    if (found === undefined) {
      plain.push(words[start]!)
      start += 1
      continue
    }
    flush()
    const text = words.slice(start, found.end).join(' ')
    mappings.push({ text, kind: 'mesh', to: found.names })
    mapped = true
    parts.push(
      or([
        ...(meshTag ? found.names.map((name) => term(name, 'mh', true)) : []),
        ...found.names
          .filter((name) => name.toLowerCase() !== text.toLowerCase())
          .map((name) => term(name, null, false)),
        term(text, null, false),
      ]),
    )
    start = found.end
  }
  flush()
  if (!mapped) {
    return node
  }
  return options.combine === 'or' ? or(parts) : and(parts)
}
