import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { PubmatchError } from '@pubmatch/core'
import { sharedDataPath } from '@pubmatch/core/testing'
import { samplePath } from '@pubmatch/sample-data'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { detectOvidSyntax } from './ovid.ts'
import { MESH_QUALIFIER_NAMES, translateOvid, type OvidNote } from './ovid-translate.ts'
import { parseQuery } from './parse.ts'

/** The PubMed query of a one-line strategy. */
const one = (line: string): string => translateOvid(line).query
const kinds = (text: string): string[] => translateOvid(text).notes.map((note) => note.kind)

describe('translateOvid', () => {
  it.each([
    // Subject headings: PubMed explodes [mh] by default, Ovid only with exp.
    ['exp Glaucoma/', '"Glaucoma"[mh]'],
    ['Glaucoma/', '"Glaucoma"[mh:noexp]'],
    ['*Glaucoma/', '"Glaucoma"[majr:noexp]'],
    ['exp *Glaucoma/', '"Glaucoma"[majr]'],
    ['exp Intraocular Pressure/', '"Intraocular Pressure"[mh]'],
    ['"Aged, 80 and over"/', '"Aged, 80 and over"[mh:noexp]'],
    ['humans.sh.', 'humans[mh:noexp]'],
    // Fields: Ovid MEDLINE's .tw. is title and abstract, PubMed's [tiab].
    ['glaucoma$.tw.', 'glaucoma*[tiab]'],
    ['glaucoma*.ti,ab.', 'glaucoma*[tiab]'],
    ['kala-azar.ti,ab', 'kala-azar[tiab]'],
    ['optic nerve.ti.', '"optic nerve"[ti]'],
    ['randomized controlled trial.pt.', '"randomized controlled trial"[pt]'],
    ['dt.fs.', '"drug therapy"[sh:noexp]'],
    ['(OHT or IOP).tw.', 'OHT[tiab] OR IOP[tiab]'],
    ['(Xpert or cepheid). tw.', 'Xpert[tiab] OR cepheid[tiab]'],
    // adjN allows N - 1 words between, in any order; PubMed's ~N allows N words between.
    ['(optic adj2 nerve).ti,ab.', '"optic nerve"[tiab:~1]'],
    ['(optic adj nerve).ti,ab.', '"optic nerve"[tiab]'],
    ['(optic adj1 nerve).ti.', '"optic nerve"[ti:~0]'],
    [
      '((optic or retinal) adj3 (nerve or disc)).tw.',
      '"optic nerve"[tiab:~2] OR "optic disc"[tiab:~2] OR "retinal nerve"[tiab:~2] OR "retinal disc"[tiab:~2]',
    ],
    ['(optic adj2 nerve$).ti,ab.', 'optic[tiab] AND nerve*[tiab]'],
    // Lines: references, ranges and limits.
    ['a.tw.\nb.tw.\n1 or 2', 'a[tiab] OR b[tiab]'],
    ['a.tw.\nb.tw.\nc.tw.\nor/1-3', 'a[tiab] OR b[tiab] OR c[tiab]'],
    ['a.tw.\nb.tw.\nc.tw.\nand/1,3', 'a[tiab] AND c[tiab]'],
    ['a.tw.\nb.tw.\n1 not 2', 'a[tiab] NOT b[tiab]'],
    ['a.tw.\nlimit 1 to yr="1970 -Current"', 'a[tiab] AND 1970:3000[dp]'],
    ['a.tw.\nlimit 1 to yr="2000 - 2010"', 'a[tiab] AND 2000:2010[dp]'],
    ['a.tw.\nlimit 1 to english language', 'a[tiab] AND english[la]'],
    ['a.tw.\nLimit 1 to humans', 'a[tiab] AND humans[mh]'],
    ['a.tw.\nlimit 1 to (english language and humans)', 'a[tiab] AND english[la] AND humans[mh]'],
    ['exp animals/ not humans.sh.', '"animals"[mh] NOT humans[mh:noexp]'],
    // Ovid's entry dates are yyyymmdd: a truncated prefix is PubMed's partial date (CLEF TAR topic 39).
    ['(2012* or 2013*).ed.', '2012[edat] OR 2013[edat]'],
    ['201203$.ed.', '2012/03[edat]'],
    // a bare number with a field suffix is a value of that field, not a reference to a line
    ['20120315.ed.', '2012/03/15[edat]'],
    ['a.tw.\n2010.yr.', '2010[dp]'],
    ['a.tw.\n1 and 2010.yr.', 'a[tiab] AND 2010[dp]'],
  ])('translates %j to %s', (ovid, pubmed) => {
    expect(one(ovid)).toBe(pubmed)
    expect(() => parseQuery(pubmed)).not.toThrow()
  })

  it('writes each line with earlier lines as history references, and resolves them in the final query', () => {
    const result = translateOvid(
      'exp Glaucoma/\nglaucoma$.tw.\n1 or 2\nlimit 3 to english language',
    )
    expect(result.lines.map((line) => line.pubmed)).toEqual([
      '"Glaucoma"[mh]',
      'glaucoma*[tiab]',
      '#1 OR #2',
      '#3 AND english[la]',
    ])
    expect(result.finalLine).toBe(4)
    expect(result.query).toBe('("Glaucoma"[mh] OR glaucoma*[tiab]) AND english[la]')
    expect(result.notes).toEqual([])
  })

  it("reads the strategy's own line numbers and drops hit counts", () => {
    const result = translateOvid(
      '1. exp Glaucoma/ (12345)\n2. glaucoma$.tw. (678)\n3. 1 and 2 (90)',
    )
    expect(result.lines.map((line) => line.ovid)).toEqual([
      'exp Glaucoma/',
      'glaucoma$.tw.',
      '1 and 2',
    ])
    expect(result.query).toBe('"Glaucoma"[mh] AND glaucoma*[tiab]')
  })

  it('translates the line asked for and names the lines it does not use', () => {
    const result = translateOvid('a.tw.\nb.tw.\nc.tw.\n1 or 2', { finalLine: 4 })
    expect(result.query).toBe('a[tiab] OR b[tiab]')
    expect(result.notes).toEqual([
      {
        line: 4,
        kind: 'unused-lines',
        construct: '3',
        message: 'the final line 4 does not use line 3',
        count: 1,
      },
    ])
    expect(translateOvid('a.tw.\nb.tw.', { finalLine: 1 }).query).toBe('a[tiab]')
  })

  it('notes every approximation with what was done instead', () => {
    const notes = (text: string): readonly OvidNote[] => translateOvid(text).notes
    expect(notes('ovar$3.ti.')).toEqual([
      {
        line: 1,
        kind: 'limited-truncation',
        construct: 'ovar$3',
        message:
          'PubMed has no limited truncation: "$3" (at most 3 more characters) searched as unlimited "*"',
        count: 1,
      },
    ])
    expect(one('ovar$3.ti.')).toBe('ovar*[ti]')
    // `?` is zero or one character: truncated at it when 4 characters precede it…
    expect(one('tolu?dine.tw.')).toBe('tolu*[tiab]')
    // …else only the spelling without the character is searched.
    expect(one('h?emorrhage$.tw.')).toBe('hemorrhage*[tiab]')
    expect(kinds('h?emorrhage$.tw.')).toEqual(['wildcard'])
    // PubMed refuses fewer than 4 characters before "*": the exact word is searched.
    expect(one('dis$.tw.')).toBe('dis[tiab]')
    expect(kinds('dis$.tw.')).toEqual(['short-truncation'])
    expect(one('MoCA.mp.')).toBe('MoCA[tw]')
    expect(kinds('MoCA.mp.')).toEqual(['field'])
    expect(one('glaucoma')).toBe('glaucoma[tw]')
    expect(kinds('glaucoma')).toEqual(['default-field'])
    expect(kinds('(optic adj2 nerve$).ti,ab.')).toEqual(['adjacency'])
    expect(one('(optic adj2 nerve).mp.')).toBe('optic[tw] AND nerve[tw]')
    expect(one('Glaucoma/dt, th')).toBe(
      '"Glaucoma/drug therapy"[mh:noexp] OR "Glaucoma/therapy"[mh:noexp]',
    )
    expect(kinds('Glaucoma/dt, th')).toEqual(['subheading'])
    expect(one('Lasers/du [Diagnostic Use]')).toBe('"Lasers/diagnostic use"[mh:noexp]')
    expect(kinds('Lasers/du [Diagnostic Use]')).toEqual(['dropped', 'subheading'])
    expect(one('a.tw. or b.tw. and c.tw.')).toBe('(a[tiab] OR b[tiab]) AND c[tiab]')
    expect(kinds('a.tw. or b.tw. and c.tw.')).toEqual(['precedence'])
    expect(one('a.tw.\nlimit 1 to "reviews (maximizes specificity)"')).toBe(
      'a[tiab] AND systematic[filter]',
    )
    expect(kinds('a.tw.\nlimit 1 to "reviews (maximizes specificity)"')).toEqual(['limit'])
    expect(one('a.tw.\nlimit 1 to dental journals')).toBe('a[tiab]')
    expect(kinds('a.tw.\nlimit 1 to dental journals')).toEqual(['limit'])
  })

  it('counts the same approximation on one line once, with its first construct', () => {
    expect(
      translateOvid('(ovary$3 or uterus$2 or cervix$2).tw.').notes.map((note) => [
        note.construct,
        note.count,
      ]),
    ).toEqual([
      ['ovary$3', 1],
      ['uterus$2', 2],
    ])
    expect(
      translateOvid('(esophag* varic* or oesophag* varix).mp.').notes.map((note) => [
        note.kind,
        note.count,
      ]),
    ).toEqual([
      ['field', 1],
      ['wildcard', 2],
    ])
  })

  it('reports a line that cannot be translated and goes on with the others', () => {
    const result = translateOvid('wom#n.tw.\nglaucoma.tw.\n1 or 2\n2 or 5\n2')
    expect(result.lines.map((line) => [line.pubmed, line.problem])).toEqual([
      [null, '"wom#n": PubMed has no "#" wildcard and "wom*" is too short to truncate'],
      ['glaucoma[tiab]', undefined],
      [null, 'refers to line 1, which could not be translated'],
      [null, 'line 5 is not an earlier line'],
      ['#2', undefined],
    ])
    expect(result.query).toBe('glaucoma[tiab]')
  })

  it('throws QUERY_SYNTAX naming the line when the final line cannot be translated', () => {
    let error: unknown
    try {
      translateOvid('glaucoma.tw.\n(optic adj2 nerve.tw.', { source: 'topic 7' })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(PubmatchError)
    expect((error as PubmatchError).code).toBe('QUERY_SYNTAX')
    expect((error as PubmatchError).message).toBe(
      'Ovid line 2 cannot be translated in topic 7: "(" is never closed with ")": "(optic adj2 nerve.tw."',
    )
    expect((error as PubmatchError).details).toMatchObject({
      line: 2,
      record: 'topic 7',
      problem: 'OVID_SYNTAX',
    })
    expect(() => translateOvid(' \n\n')).toThrow(/no search line/)
    expect(() => translateOvid('a.tw.', { finalLine: 2 })).toThrow(/has no line 2/)
  })
})

describe('translateOvid on any text', () => {
  it('gives a translation whose query parses back to its tree, or a PubmatchError', () => {
    const piece = fc.constantFrom(
      'glaucoma',
      'optic',
      'nerve$',
      'ovar$3',
      'wom#n',
      'colo?r',
      'h?em',
      'ab',
      'exp',
      '*Heart',
      'Glaucoma/',
      'Saliva/an,',
      'ch',
      '"aged, 80 and over"',
      '"',
      '(',
      ')',
      'or',
      'and',
      'not',
      'OR',
      'adj',
      'adj3',
      'adj1',
      '.tw.',
      '.ti,ab.',
      '.mp',
      '. tw.',
      '.sh.',
      '.xx.',
      '1',
      '2',
      '3',
      'or/1-2',
      'and/1,3',
      'limit',
      'to',
      'english language',
      'yr="2000 -Current"',
      '[mp=title]',
      ' ',
      '\n',
      '#1',
      '[tiab]',
      ':',
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 25 }), (parts) => {
        const text = parts.join(' ').replace(/ ?\n ?/g, '\n')
        let result
        try {
          result = translateOvid(text)
        } catch (error) {
          expect(error).toBeInstanceOf(PubmatchError)
          return
        }
        expect(parseQuery(result.query)).toEqual(result.node)
        for (const line of result.lines) {
          if (line.pubmed !== null) {
            expect(() => parseQuery(line.pubmed ?? '')).not.toThrow()
          }
        }
      }),
      { numRuns: 3000, seed: 20261128 },
    )
  })
})

describe('MESH_QUALIFIER_NAMES', () => {
  it('names the 83 real MeSH 2014 qualifiers by their abbreviation, "&" as "and"', () => {
    const xml = readFileSync(samplePath('mesh', 'qual2014.xml'), 'utf8')
    const fromXml = Object.fromEntries(
      [...xml.matchAll(/<QualifierRecord[\s\S]*?<\/QualifierRecord>/g)].map((record) => [
        (/<Abbreviation>(.*?)<\/Abbreviation>/.exec(record[0])?.[1] ?? '').toLowerCase(),
        (/<QualifierName>\s*<String>(.*?)<\/String>/.exec(record[0])?.[1] ?? '').replaceAll(
          '&amp;',
          'and',
        ),
      ]),
    )
    expect(Object.keys(fromXml)).toHaveLength(83)
    expect(MESH_QUALIFIER_NAMES).toEqual(fromXml)
  })
})

describe('translateOvid on the CLEF eHealth TAR 2017 strategies', { tags: ['real-data'] }, () => {
  it('translates all 40 Ovid strategies, and every final query parses as PubMed', () => {
    const strategies: Array<{ id: string; text: string }> = []
    for (const dir of [
      ['testing', 'topics'],
      ['training', 'topics_train'],
    ]) {
      const folder = sharedDataPath('clef-tar', '2017-TAR', ...dir)
      for (const name of readdirSync(folder)) {
        const text = readFileSync(join(folder, name), 'utf8')
        const query = text.slice(text.indexOf('Query:') + 'Query:'.length, text.indexOf('Pids:'))
        if (detectOvidSyntax(query) !== null) {
          strategies.push({ id: name, text: query })
        }
      }
    }
    expect(strategies).toHaveLength(40)
    for (const { id, text } of strategies) {
      const result = translateOvid(text, { source: id })
      expect(
        result.lines.filter((line) => line.problem !== undefined),
        id,
      ).toEqual([])
      expect(parseQuery(result.query), id).toEqual(result.node)
    }
  })
})
