import type { MeshDescriptor, MeshSupplementaryRecord } from '@pubmatch/core'
import { sharedDataPath } from '@pubmatch/core/testing'
import { samplePath } from '@pubmatch/sample-data'
import { beforeAll, describe, expect, it } from 'vitest'
import { readMeshXml } from './reader.ts'
import type { MeshEntry } from '../records.ts'
import { createMeshVocabulary, meshEntryTermLookup, type MeshVocabulary } from './vocabulary.ts'

/** The descriptors and SCRs of a MeSH XML file. */
async function load(path: string): Promise<(MeshDescriptor | MeshSupplementaryRecord)[]> {
  const out: (MeshDescriptor | MeshSupplementaryRecord)[] = []
  for await (const record of readMeshXml(path)) {
    if (
      record.kind === 'mesh' &&
      (record.entry.type === 'descriptor' || record.entry.type === 'supplementary')
    ) {
      out.push(record.entry.record)
    }
  }
  return out
}

describe('createMeshVocabulary on the sample corpus (desc-samples.xml, supp-samples.xml)', () => {
  let vocabulary: MeshVocabulary

  beforeAll(async () => {
    const descriptors = (await load(samplePath('mesh', 'desc-samples.xml'))) as MeshDescriptor[]
    const supplementary = (await load(samplePath('mesh', 'supp-samples.xml'))) as MeshSupplementaryRecord[]
    vocabulary = createMeshVocabulary(descriptors, supplementary)
  })

  // Every value below was read off the raw XML.
  it('holds the 43 descriptors, by UI and by name, case-insensitively', () => {
    expect(vocabulary.size).toBe(43)
    expect(vocabulary.descriptor('D000082')?.name).toBe('Acetaminophen')
    expect(vocabulary.descriptorByName('ACETAMINOPHEN')?.ui).toBe('D000082')
    expect(vocabulary.descriptor('D999999')).toBeUndefined()
  })

  it('maps entry terms to descriptor UIs, and SCR terms through their mappings', () => {
    expect(vocabulary.lookupTerm('PARACETAMOL')).toEqual(['D000082'])
    expect(vocabulary.lookupTerm('a23187')).toEqual(['D000001'])
    expect(vocabulary.lookupTerm('Aeron')).toEqual(['D001286', 'D002164', 'D004338', 'D012602'])
    expect(vocabulary.supplementary('C025735')?.name).toBe('Aeron')
    expect(vocabulary.lookupTerm('no such term')).toEqual([])
  })

  it('maps tree numbers to UIs and explodes along them, in tree order', () => {
    expect(vocabulary.uiForTreeNumber('D02.065.199.092.040')).toBe('D000082')
    // Face A01.456.505: Eye A01.456.505.420, Eyebrows A01.456.505.420.338.
    expect(vocabulary.explode('D005145')).toEqual(['D005145', 'D005123', 'D005138'])
    // Eye also sits at A09.371, above Oculomotor Muscles A09.371.613.
    expect([...vocabulary.explode('D005123')].sort()).toEqual(['D005123', 'D005138', 'D009801'])
    expect(vocabulary.explode('D005138')).toEqual(['D005138'])
  })
})

describe('createMeshVocabulary', { tags: ['real-data'] }, () => {
  let vocabulary: MeshVocabulary

  beforeAll(async () => {
    const descriptors = [
      ...(await load(sharedDataPath('mesh', 'desc2014-head.xml'))),
      ...(await load(samplePath('mesh', 'desc-samples.xml'))),
    ] as MeshDescriptor[]
    const supplementary = (await load(samplePath('mesh', 'supp-samples.xml'))) as MeshSupplementaryRecord[]
    vocabulary = createMeshVocabulary(descriptors, supplementary)
  })

  it('holds each UI once (the two descriptor files overlap)', () => {
    // 63 + 43 records, 2 UIs (D000001, D000005) in both files.
    expect(vocabulary.size).toBe(104)
  })

  it('looks descriptors up by UI and by name, case-insensitively', () => {
    expect(vocabulary.descriptor('D000082')?.name).toBe('Acetaminophen')
    expect(vocabulary.descriptorByName('acetaminophen')?.ui).toBe('D000082')
    expect(vocabulary.descriptorByName('ABORTION,  SPONTANEOUS')?.ui).toBe('D000022')
    expect(vocabulary.descriptor('D999999')).toBeUndefined()
  })

  it('maps entry terms to descriptor UIs, case-insensitively, and SCR terms through their mappings', () => {
    expect(vocabulary.lookupTerm('PARACETAMOL')).toEqual(['D000082'])
    expect(vocabulary.lookupTerm('a23187')).toEqual(['D000001'])
    expect(vocabulary.lookupTerm('Aeron')).toEqual(['D001286', 'D002164', 'D004338', 'D012602'])
    expect(vocabulary.lookupTerm('no such term')).toEqual([])
    expect(vocabulary.supplementary('C025735')?.name).toBe('Aeron')
  })

  it('maps tree numbers to UIs', () => {
    expect(vocabulary.uiForTreeNumber('D02.065.199.092.040')).toBe('D000082')
    expect(vocabulary.uiForTreeNumber('C13.703.039.256')).toBe('D000031')
  })

  it('explodes a descriptor into itself and its descendants in tree order', () => {
    // C13.703.039 Abortion, Spontaneous: .089 Habitual, .093 Incomplete, .173 Missed,
    // .256 Septic, .339 Threatened, .422 Veterinary.
    expect(vocabulary.explode('D000022')).toEqual([
      'D000022',
      'D000026',
      'D000027',
      'D000030',
      'D000031',
      'D000033',
      'D000034',
    ])
    // A leaf explodes to itself; an unknown UI to nothing.
    expect(vocabulary.explode('D000026')).toEqual(['D000026'])
    expect(vocabulary.explode('D999999')).toEqual([])
  })

  it('explodes across every tree number of a descriptor', () => {
    // Eye: A01.456.505.420 and A09.371; within the loaded records its descendants are
    // D005138 (Eyebrows, A01.456.505.420.338) and D009801 (Oculomotor Muscles, A09.371.613).
    const exploded = vocabulary.explode('D005123')
    expect(exploded[0]).toBe('D005123')
    expect([...exploded].sort()).toEqual(['D005123', 'D005138', 'D009801'])
  })
})

describe('meshEntryTermLookup', () => {
  it("gives a descriptor's entry terms by UI or by name, and nothing without descriptors", async () => {
    async function* entries(): AsyncGenerator<MeshEntry> {
      for await (const record of readMeshXml(samplePath('mesh', 'desc-samples.xml'))) {
        if (record.kind === 'mesh') {
          yield record.entry
        }
      }
    }
    const lookup = await meshEntryTermLookup(entries())
    const byUi = lookup!('D000082')
    expect(byUi).toEqual(createMeshVocabulary((await load(samplePath('mesh', 'desc-samples.xml'))) as MeshDescriptor[]).descriptor('D000082')!.entryTerms)
    expect(byUi.length).toBeGreaterThan(0)
    expect(lookup!('acetaminophen')).toEqual(byUi)
    expect(lookup!('no such heading')).toEqual([])
    expect(await meshEntryTermLookup((async function* () {})())).toBeUndefined()
  })
})
