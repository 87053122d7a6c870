import { readFileSync } from 'node:fs'
import { samplePath } from '@pubmatch/sample-data'
import { describe, expect, it } from 'vitest'
import type { TermNode } from './ast.ts'
import { resolveMeshTerm, type MeshLookup } from './mesh.ts'
import { parseQuery } from './parse.ts'

/** A minimal MeshLookup over the 43 real descriptors of the sample corpus's desc-samples.xml. */
const loadLookup = (): MeshLookup => {
  const xml = readFileSync(samplePath('mesh', 'desc-samples.xml'), 'utf8')
  const records = [...xml.matchAll(/<DescriptorRecord [\s\S]*?<\/DescriptorRecord>/g)].map(
    ([record]) => ({
      ui: /<DescriptorUI>(.*?)<\/DescriptorUI>/.exec(record)?.[1] ?? '',
      trees: [...record.matchAll(/<TreeNumber>(.*?)<\/TreeNumber>/g)].map(
        (match) => match[1] ?? '',
      ),
      terms: [
        ...record.matchAll(/<Term [^>]*>\s*<TermUI>.*?<\/TermUI>\s*<String>(.*?)<\/String>/g),
      ].map((match) => (match[1] ?? '').toLowerCase()),
    }),
  )
  if (records.length !== 43) {
    throw new Error(`expected 43 descriptors in desc-samples.xml, read ${records.length}`)
  }
  return {
    descriptorsForTerm: (term) =>
      records.filter((record) => record.terms.includes(term.toLowerCase())).map((r) => r.ui),
    explode: (ui) => {
      const roots = records.find((record) => record.ui === ui)?.trees ?? []
      return records
        .filter((record) =>
          record.trees.some((tree) =>
            roots.some((root) => tree === root || tree.startsWith(`${root}.`)),
          ),
        )
        .map((record) => record.ui)
    },
  }
}

const termOf = (query: string): TermNode => {
  const node = parseQuery(query)
  if (node.kind !== 'term') {
    throw new Error(`${query} is not a term`)
  }
  return node
}

describe('resolveMeshTerm', () => {
  const lookup = loadLookup()

  it('maps an entry term to its descriptor and explodes it through the tree numbers', () => {
    // Eyes → Eye D005123 (A01.456.505.420, A09.371); below: Eyebrows D005138 (A01.456.505.420.338),
    // Oculomotor Muscles D009801 (A09.371.613).
    expect(resolveMeshTerm(termOf('Eyes[mh]'), lookup)).toEqual(['D005123', 'D005138', 'D009801'])
    // Face D005145 (A01.456.505) holds Eye and Eyebrows, not Oculomotor Muscles (A02/A09).
    expect(resolveMeshTerm(termOf('"Face"[MeSH Terms]'), lookup)).toEqual([
      'D005145',
      'D005123',
      'D005138',
    ])
    // Diabetes Mellitus D003920 (C19.246) holds Diabetes Complications D048909 (C19.246.099).
    expect(resolveMeshTerm(termOf('diabetes mellitus[majr]'), lookup)).toEqual([
      'D003920',
      'D048909',
    ])
  })

  it('does not explode [mh:noexp]', () => {
    expect(resolveMeshTerm(termOf('Eyes[mh:noexp]'), lookup)).toEqual(['D005123'])
  })

  it('returns [] for an unknown heading and null for non-MeSH fields', () => {
    expect(resolveMeshTerm(termOf('no such heading[mh]'), lookup)).toEqual([])
    expect(resolveMeshTerm(termOf('Cancer[tiab]'), lookup)).toBeNull()
    expect(resolveMeshTerm(termOf('Cancer'), lookup)).toBeNull()
    expect(resolveMeshTerm(termOf('Cancer[mh]'), lookup)).toEqual(['D009369'])
  })
})
