import { readFileSync } from 'node:fs'
import { sharedDataPath } from '@pubmatch/core/testing'
import { samplePath } from '@pubmatch/sample-data'
import { describe, expect, it } from 'vitest'
import { MESH_QUALIFIER_ABBREVIATIONS, detectOvidSyntax } from './ovid.ts'

describe('detectOvidSyntax', () => {
  it.each([
    // Real lines from the CLEF TAR 2017 strategies.
    ['glaucoma$.tw.', 'field-suffix', '.tw.'],
    ['(OHT or IOP).tw.', 'field-suffix', '.tw.'],
    ['kala-azar.ti,ab', 'field-suffix', '.ti,ab'],
    ['(Xpert or GeneXpert or cepheid or( near* patient)). tw.', 'field-suffix', '. tw.'],
    ['"K39 antigen, Leishmania".rn', 'field-suffix', '.rn'],
    ['exp glaucoma/', 'subject-heading', 'glaucoma/'],
    ['Lasers/du [Diagnostic Use]', 'subject-heading', 'Lasers/du'],
    ['exp Dementia/bl, cf [Blood, Cerebrospinal Fluid]', 'subject-heading', 'Dementia/bl, cf'],
    ['(Adult/ or Middle Aged/) not (Aged/)', 'subject-heading', '(Adult/'],
    ['exp "tissue inhibitor of metalloproteinase-1"/ or x', 'subject-heading', '"/'],
    ['(optic adj2 nerve$ adj2 head)', 'adjacency', 'adj2'],
    ['36 not (36 and 37)', 'line-combination', '36 not (36 and 37)'],
    ['or/1-16', 'line-range', 'or/1-16'],
    ['and/17,34', 'line-range', 'and/17,34'],
    ['limit 6 to yr="1970 -Current"', 'limit', 'limit 6 to yr="1970 -Current"'],
  ])('finds %j as %s', (line, signal, match) => {
    expect(detectOvidSyntax(line)).toMatchObject({ signal, line: 1, match })
  })

  it('reports the line and the offset in the whole text', () => {
    expect(detectOvidSyntax('cancer[tiab]\n  MoCA.mp.')).toEqual({
      signal: 'field-suffix',
      line: 2,
      position: 19,
      match: '.mp.',
    })
  })

  it.each([
    'pain AND/OR fatigue',
    'cancer and/or tumour',
    'Growth and cellular organization of /Arabidopsis/ pollen tubes in vitro',
    'dose 5 mg/kg',
    'HIV/AIDS',
    '"insulin/history"[All Fields]',
    '1 AND 2 AND 3 NOT 4',
    'sonenberg N AND Genes Dev.',
    'Eng[LA] AND bands. it is lax when the',
    "The ovalbumin gene AND McReynolds L.A. AND O'Malley B.W.",
    'J.rheuma[Jour] AND 1037[page]',
  ])('does not flag PubMed text %j', (text) => {
    expect(detectOvidSyntax(text)).toBeNull()
  })

  it('flags none of the 1,000 real PubMed log queries', { tags: ['real-data'] }, () => {
    const queries = readFileSync(
      sharedDataPath('pubmed-best-match', 'data', 'queries', 'queries.txt'),
      'utf8',
    )
      .split('\n')
      .filter(Boolean)
    expect(queries).toHaveLength(1000)
    expect(
      queries.filter((line) => detectOvidSyntax(line.slice(line.indexOf('|') + 1)) !== null),
    ).toEqual([])
  })
})

describe('MESH_QUALIFIER_ABBREVIATIONS', () => {
  it('equals the abbreviations of the 83 real MeSH 2014 qualifier records, lower-cased', () => {
    const xml = readFileSync(samplePath('mesh', 'qual2014.xml'), 'utf8')
    const abbreviations = [...xml.matchAll(/<Abbreviation>(.*?)<\/Abbreviation>/g)].map((match) =>
      (match[1] ?? '').toLowerCase(),
    )
    expect(abbreviations).toHaveLength(83)
    expect([...MESH_QUALIFIER_ABBREVIATIONS].sort()).toEqual([...new Set(abbreviations)].sort())
  })
})
