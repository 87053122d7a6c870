import { readFileSync } from 'node:fs'
import { samplePath } from '@pubmatch/sample-data'
import { describe, expect, it } from 'vitest'
import {
  MESH_QUALIFIERS,
  lookupSubheading,
  narrowerSubheadings,
  subheadingValues,
} from './subheadings.ts'

describe('MESH_QUALIFIERS', () => {
  it('is every qualifier record of NLM’s qual2014.xml: id, name, abbreviation, tree numbers', () => {
    const xml = readFileSync(samplePath('mesh', 'qual2014.xml'), 'utf8')
    const fromXml = [...xml.matchAll(/<QualifierRecord[\s\S]*?<\/QualifierRecord>/g)].map(
      ([record]) => ({
        ui: /<QualifierUI>(.*?)<\/QualifierUI>/.exec(record)?.[1],
        name: /<QualifierName>\s*<String>(.*?)<\/String>/
          .exec(record)?.[1]
          ?.replaceAll('&amp;', '&'),
        abbreviation: /<Abbreviation>(.*?)<\/Abbreviation>/.exec(record)?.[1],
        treeNumbers: [
          ...(/<TreeNumberList>([\s\S]*?)<\/TreeNumberList>/.exec(record)?.[1] ?? '').matchAll(
            /<TreeNumber>(.*?)<\/TreeNumber>/g,
          ),
        ].map((match) => match[1]),
      }),
    )
    expect(fromXml).toHaveLength(83)
    const byUi = (a: { ui?: string }, b: { ui?: string }): number => (a.ui! < b.ui! ? -1 : 1)
    expect([...MESH_QUALIFIERS].sort(byUi)).toEqual(fromXml.sort(byUi))
  })
})

describe('subheadingValues', () => {
  it('explodes a subheading to those below it in the qualifier trees (MeSH 2014)', () => {
    // therapy Y11; Y11.010 diet therapy, .020 drug therapy, .030 nursing, .040 prevention &
    // control, .050 radiotherapy, .060 rehabilitation, .070 surgery, .070.010 transplantation
    expect(subheadingValues('therapy', false).sort()).toEqual([
      'diet therapy',
      'drug therapy',
      'nursing',
      'prevention control',
      'radiotherapy',
      'rehabilitation',
      'surgery',
      'therapy',
      'transplantation',
    ])
    expect(subheadingValues('therapy', true)).toEqual(['therapy'])
    // adverse effects Y07.020 and Y10.020: poisoning Y07.020.010 (also Y10.040), toxicity Y07.020.020
    expect(subheadingValues('Adverse Effects', false).sort()).toEqual([
      'adverse effects',
      'poisoning',
      'toxicity',
    ])
    // a leaf
    expect(subheadingValues('drug therapy', false)).toEqual(['drug therapy'])
    // embryology Y02.030 and Y05.040: abnormalities Y02.030.010 below the first
    expect(subheadingValues('embryology', false).sort()).toEqual(['abnormalities', 'embryology'])
  })

  it('reads "&" and "and" alike and gives the values as an index keyword field holds them', () => {
    expect(subheadingValues('administration and dosage', false)).toEqual(['administration dosage'])
    expect(subheadingValues('Administration & Dosage', true)).toEqual(['administration dosage'])
    expect(lookupSubheading('prevention and control')?.ui).toBe('Q000517')
  })

  it('searches a text that is no MeSH 2014 qualifier as itself', () => {
    // "diagnostic imaging" was introduced after MeSH 2014
    expect(subheadingValues('Diagnostic Imaging', false)).toEqual(['diagnostic imaging'])
    expect(subheadingValues(' , ', false)).toEqual([])
  })

  it('finds narrower subheadings at every depth, never the subheading itself', () => {
    const surgery = lookupSubheading('surgery')!
    expect(narrowerSubheadings(surgery).map((q) => q.name)).toEqual(['transplantation'])
    const pharmacology = lookupSubheading('pharmacology')!
    // Y07: Y07.010 … Y07.070 and, below adverse effects, Y07.020.010 and Y07.020.020
    expect(
      narrowerSubheadings(pharmacology)
        .map((q) => q.treeNumbers.find((t) => t.startsWith('Y07.')))
        .sort(),
    ).toEqual([
      'Y07.010',
      'Y07.020',
      'Y07.020.010',
      'Y07.020.020',
      'Y07.030',
      'Y07.040',
      'Y07.050',
      'Y07.060',
      'Y07.070',
    ])
  })
})
