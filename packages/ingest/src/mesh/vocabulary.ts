import type { MeshDescriptor, MeshSupplementaryRecord } from '@pubmatch/core'
import type { MeshEntry } from '../records.ts'

/** Lookups over a set of MeSH descriptors (and optionally supplementary concept records). */
export interface MeshVocabulary {
  /** How many descriptors it holds. */
  readonly size: number
  /**
   * The descriptor with this UI.
   * @param ui - e.g. `D000082`
   */
  descriptor(ui: string): MeshDescriptor | undefined
  /**
   * The descriptor whose preferred name is `name`, case-insensitively.
   * @param name - e.g. `acetaminophen`
   */
  descriptorByName(name: string): MeshDescriptor | undefined
  /**
   * The descriptor UIs an entry term maps to, case-insensitively (`paracetamol` →
   * `['D000082']`): descriptors whose entry terms include it first, then the descriptors
   * that matching supplementary concept records are mapped to. Empty when nothing matches.
   * @param term - any entry term
   */
  lookupTerm(term: string): string[]
  /**
   * The descriptor UI at a tree number.
   * @param treeNumber - e.g. `D02.065.199.092.040`
   */
  uiForTreeNumber(treeNumber: string): string | undefined
  /**
   * The descriptor and all its descendants, as PubMed's explosion does: `ui` first, then
   * every descriptor with a tree number under one of `ui`'s tree numbers, in tree-number
   * order, each once. Empty for an unknown UI.
   * @param ui - the descriptor to explode
   */
  explode(ui: string): string[]
  /**
   * The supplementary concept record with this UI.
   * @param ui - e.g. `C025735`
   */
  supplementary(ui: string): MeshSupplementaryRecord | undefined
}

/**
 * The key terms are compared by: Unicode NFKC, lower-cased, whitespace collapsed.
 * @param term - a term
 */
export function normaliseMeshTerm(term: string): string {
  return term.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim()
}

function addTo(map: Map<string, string[]>, key: string, ui: string): void {
  const list = map.get(key)
  if (list === undefined) {
    map.set(key, [ui])
  } else if (!list.includes(ui)) {
    list.push(ui)
  }
}

/**
 * Builds a {@link MeshVocabulary}. When a UI occurs twice the first record wins.
 * @param descriptors - descriptor records (e.g. collected from `readMeshXml`)
 * @param supplementary - supplementary concept records whose entry terms should also map
 *   (through `HeadingMappedTo`) to descriptors. Defaults to none.
 */
export function createMeshVocabulary(
  descriptors: Iterable<MeshDescriptor>,
  supplementary: Iterable<MeshSupplementaryRecord> = [],
): MeshVocabulary {
  const byUi = new Map<string, MeshDescriptor>()
  const byName = new Map<string, MeshDescriptor>()
  const byTerm = new Map<string, string[]>()
  const byTree = new Map<string, string>()
  for (const descriptor of descriptors) {
    if (byUi.has(descriptor.ui)) {
      continue
    }
    byUi.set(descriptor.ui, descriptor)
    const name = normaliseMeshTerm(descriptor.name)
    if (!byName.has(name)) {
      byName.set(name, descriptor)
    }
    addTo(byTerm, name, descriptor.ui)
    for (const term of descriptor.entryTerms) {
      addTo(byTerm, normaliseMeshTerm(term), descriptor.ui)
    }
    for (const treeNumber of descriptor.treeNumbers) {
      if (!byTree.has(treeNumber)) {
        byTree.set(treeNumber, descriptor.ui)
      }
    }
  }
  const scrs = new Map<string, MeshSupplementaryRecord>()
  const scrByTerm = new Map<string, string[]>()
  for (const record of supplementary) {
    if (scrs.has(record.ui)) {
      continue
    }
    scrs.set(record.ui, record)
    for (const term of [record.name, ...record.entryTerms]) {
      addTo(scrByTerm, normaliseMeshTerm(term), record.ui)
    }
  }
  const sortedTrees = [...byTree.keys()].sort()

  /** First index in sortedTrees whose value is >= key. */
  const lowerBound = (key: string): number => {
    let lo = 0
    let hi = sortedTrees.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (sortedTrees[mid]! < key) {
        lo = mid + 1
      } else {
        hi = mid
      }
    }
    return lo
  }

  return {
    size: byUi.size,
    descriptor: (ui) => byUi.get(ui),
    descriptorByName: (name) => byName.get(normaliseMeshTerm(name)),
    lookupTerm(term) {
      const key = normaliseMeshTerm(term)
      const out = [...(byTerm.get(key) ?? [])]
      for (const scrUi of scrByTerm.get(key) ?? []) {
        for (const ui of scrs.get(scrUi)?.mappedTo ?? []) {
          if (!out.includes(ui)) {
            out.push(ui)
          }
        }
      }
      return out
    },
    uiForTreeNumber: (treeNumber) => byTree.get(treeNumber),
    explode(ui) {
      const root = byUi.get(ui)
      if (root === undefined) {
        return []
      }
      const found = new Set<string>([ui])
      for (const treeNumber of [...root.treeNumbers].sort()) {
        const prefix = `${treeNumber}.`
        for (
          let k = lowerBound(prefix);
          k < sortedTrees.length && sortedTrees[k]!.startsWith(prefix);
          k++
        ) {
          found.add(byTree.get(sortedTrees[k]!)!)
        }
      }
      return [...found]
    },
    supplementary: (ui) => scrs.get(ui),
  }
}

/**
 * The MeSH entry terms (synonyms) of a descriptor, looked up by its unique id or, failing that,
 * by its name — what an index puts beside each descriptor name (`meshEntryTerms` of the PubMed
 * field set). `undefined` when the records hold no descriptor.
 * @param entries - MeSH records, e.g. a corpus store's `mesh()`
 */
export async function meshEntryTermLookup(
  entries: AsyncIterable<MeshEntry>,
): Promise<((descriptorUiOrName: string) => readonly string[]) | undefined> {
  const descriptors = []
  for await (const entry of entries) {
    if (entry.type === 'descriptor') {
      descriptors.push(entry.record)
    }
  }
  if (descriptors.length === 0) {
    return undefined
  }
  const vocabulary = createMeshVocabulary(descriptors)
  return (key) => (vocabulary.descriptor(key) ?? vocabulary.descriptorByName(key))?.entryTerms ?? []
}
