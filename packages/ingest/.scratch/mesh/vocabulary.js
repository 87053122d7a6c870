/**
 * The key terms are compared by: Unicode NFKC, lower-cased, whitespace collapsed.
 * @param term - a term
 */
export function normaliseMeshTerm(term) {
    return term.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}
function addTo(map, key, ui) {
    const list = map.get(key);
    if (list === undefined) {
        map.set(key, [ui]);
    }
    else if (!list.includes(ui)) {
        list.push(ui);
    }
}
/**
 * Builds a {@link MeshVocabulary}. When a UI occurs twice the first record wins.
 * @param descriptors - descriptor records (e.g. collected from `readMeshXml`)
 * @param supplementary - supplementary concept records whose entry terms should also map
 *   (through `HeadingMappedTo`) to descriptors. Defaults to none.
 */
export function createMeshVocabulary(descriptors, supplementary = []) {
    const byUi = new Map();
    const byName = new Map();
    const byTerm = new Map();
    const byTree = new Map();
    for (const descriptor of descriptors) {
        if (byUi.has(descriptor.ui)) {
            continue;
        }
        byUi.set(descriptor.ui, descriptor);
        const name = normaliseMeshTerm(descriptor.name);
        if (!byName.has(name)) {
            byName.set(name, descriptor);
        }
        addTo(byTerm, name, descriptor.ui);
        for (const term of descriptor.entryTerms) {
            addTo(byTerm, normaliseMeshTerm(term), descriptor.ui);
        }
        for (const treeNumber of descriptor.treeNumbers) {
            if (!byTree.has(treeNumber)) {
                byTree.set(treeNumber, descriptor.ui);
            }
        }
    }
    const scrs = new Map();
    const scrByTerm = new Map();
    for (const record of supplementary) {
        if (scrs.has(record.ui)) {
            continue;
        }
        scrs.set(record.ui, record);
        for (const term of [record.name, ...record.entryTerms]) {
            addTo(scrByTerm, normaliseMeshTerm(term), record.ui);
        }
    }
    const sortedTrees = [...byTree.keys()].sort();
    /** First index in sortedTrees whose value is >= key. */
    const lowerBound = (key) => {
        let lo = 0;
        let hi = sortedTrees.length;
        while (lo < hi) {
            const mid = (lo + hi) >>> 1;
            if (sortedTrees[mid] < key) {
                lo = mid + 1;
            }
            else {
                hi = mid;
            }
        }
        return lo;
    };
    return {
        size: byUi.size,
        descriptor: (ui) => byUi.get(ui),
        descriptorByName: (name) => byName.get(normaliseMeshTerm(name)),
        lookupTerm(term) {
            const key = normaliseMeshTerm(term);
            const out = [...(byTerm.get(key) ?? [])];
            for (const scrUi of scrByTerm.get(key) ?? []) {
                for (const ui of scrs.get(scrUi)?.mappedTo ?? []) {
                    if (!out.includes(ui)) {
                        out.push(ui);
                    }
                }
            }
            return out;
        },
        uiForTreeNumber: (treeNumber) => byTree.get(treeNumber),
        explode(ui) {
            const root = byUi.get(ui);
            if (root === undefined) {
                return [];
            }
            const found = new Set([ui]);
            for (const treeNumber of [...root.treeNumbers].sort()) {
                const prefix = `${treeNumber}.`;
                for (let k = lowerBound(prefix); k < sortedTrees.length && sortedTrees[k].startsWith(prefix); k++) {
                    found.add(byTree.get(sortedTrees[k]));
                }
            }
            return [...found];
        },
        supplementary: (ui) => scrs.get(ui),
    };
}
