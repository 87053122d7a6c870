import { SECTION_TYPES } from '@pubmatch/core'
import { describe, expect, it } from 'vitest'
import { normaliseSectionType, SECTION_TYPE_MAP } from './section-types.ts'

describe('normaliseSectionType', () => {
  it('maps content paragraphs to their section type', () => {
    expect(normaliseSectionType('INTRO', 'paragraph')).toEqual({
      sectionType: 'INTRO',
      role: 'body',
    })
    expect(normaliseSectionType('METHODS', 'paragraph')).toEqual({
      sectionType: 'METHODS',
      role: 'body',
    })
    expect(normaliseSectionType('RESULTS', 'paragraph')).toEqual({
      sectionType: 'RESULTS',
      role: 'body',
    })
    expect(normaliseSectionType('DISCUSS', 'paragraph')).toEqual({
      sectionType: 'DISCUSS',
      role: 'body',
    })
    expect(normaliseSectionType('CONCL', 'paragraph')).toEqual({
      sectionType: 'CONCL',
      role: 'body',
    })
    expect(normaliseSectionType('CASE', 'paragraph')).toEqual({ sectionType: 'CASE', role: 'body' })
    expect(normaliseSectionType('ABBR', 'paragraph')).toEqual({ sectionType: 'ABBR', role: 'body' })
    expect(normaliseSectionType('KEYWORD', 'paragraph')).toEqual({
      sectionType: 'KEYWORD',
      role: 'body',
    })
    expect(normaliseSectionType('SUPPL', 'paragraph')).toEqual({
      sectionType: 'SUPPL',
      role: 'body',
    })
    expect(normaliseSectionType('APPENDIX', 'paragraph')).toEqual({
      sectionType: 'APPENDIX',
      role: 'body',
    })
    expect(normaliseSectionType('ABSTRACT', 'abstract')).toEqual({
      sectionType: 'ABSTRACT',
      role: 'body',
    })
  })

  it('maps headings of content sections to TITLE whatever section they head', () => {
    for (const [section, type] of [
      ['INTRO', 'title_1'],
      ['METHODS', 'title_2'],
      ['RESULTS', 'title_3'],
      ['DISCUSS', 'title_4'],
      ['ABSTRACT', 'abstract_title_1'],
      ['SUPPL', 'title'],
      ['INTRO', 'title_caption'],
      ['DISCUSS', 'title_1_caption'],
      ['FIG', 'title_1'],
      ['TABLE', 'title_1'],
      ['KEYWORD', 'title_2'],
      ['METHODS', 'title_7'],
      ['ABSTRACT', 'abstract_title_2'],
    ]) {
      expect(normaliseSectionType(section, type), `${section}/${type}`).toEqual({
        sectionType: 'TITLE',
        role: 'heading',
      })
    }
  })

  it('maps figure and table parts to CAPTION', () => {
    for (const [section, type] of [
      ['FIG', 'fig_caption'],
      ['FIG', 'fig_title_caption'],
      ['FIG', 'fig'],
      ['FIG', 'paragraph'],
      ['TABLE', 'table'],
      ['TABLE', 'table_caption'],
      ['TABLE', 'table_title_caption'],
      ['TABLE', 'table_footnote'],
      ['TABLE', 'table_foot'],
      ['TABLE', 'table_foot_title'],
      ['RESULTS', 'fig_caption'],
      ['TABLE', 'table_something_new'],
    ]) {
      expect(normaliseSectionType(section, type), `${section}/${type}`).toEqual({
        sectionType: 'CAPTION',
        role: 'body',
      })
    }
  })

  it('marks the front passage, references and boilerplate with a null section type', () => {
    expect(normaliseSectionType('TITLE', 'front')).toEqual({ sectionType: null, role: 'front' })
    expect(normaliseSectionType(undefined, 'front')).toEqual({ sectionType: null, role: 'front' })
    expect(normaliseSectionType('REF', 'ref')).toEqual({ sectionType: null, role: 'reference' })
    expect(normaliseSectionType('REF', 'title')).toEqual({ sectionType: null, role: 'reference' })
    expect(normaliseSectionType('REF', 'paragraph')).toEqual({
      sectionType: null,
      role: 'reference',
    })
    expect(normaliseSectionType(undefined, 'ref')).toEqual({ sectionType: null, role: 'reference' })
    for (const section of ['AUTH_CONT', 'COMP_INT', 'ACK_FUND', 'REVIEW_INFO']) {
      expect(normaliseSectionType(section, 'paragraph')).toEqual({
        sectionType: null,
        role: 'boilerplate',
      })
      expect(normaliseSectionType(section, 'title_1')).toEqual({
        sectionType: null,
        role: 'boilerplate',
      })
    }
  })

  it('treats footnotes outside tables as boilerplate in any section', () => {
    for (const section of ['INTRO', 'DISCUSS', 'SUPPL', 'FIG', 'ABBR', 'METHODS']) {
      expect(normaliseSectionType(section, 'footnote')).toEqual({
        sectionType: null,
        role: 'boilerplate',
      })
    }
    expect(normaliseSectionType('CONCL', 'footnote_title')).toEqual({
      sectionType: null,
      role: 'boilerplate',
    })
  })

  it('reads PubMed-style passages that have a type but no section type', () => {
    expect(normaliseSectionType(undefined, 'abstract')).toEqual({
      sectionType: 'ABSTRACT',
      role: 'body',
    })
    expect(normaliseSectionType('', 'abstract')).toEqual({ sectionType: 'ABSTRACT', role: 'body' })
    expect(normaliseSectionType(undefined, 'title_1')).toEqual({
      sectionType: 'TITLE',
      role: 'heading',
    })
  })

  it('is case-insensitive and ignores surrounding blanks', () => {
    expect(normaliseSectionType(' methods ', 'Paragraph')).toEqual({
      sectionType: 'METHODS',
      role: 'body',
    })
    expect(normaliseSectionType('Results', 'TITLE_2')).toEqual({
      sectionType: 'TITLE',
      role: 'heading',
    })
  })

  it('maps unknown and missing values to null with role body without throwing', () => {
    expect(normaliseSectionType()).toEqual({ sectionType: null, role: 'body' })
    expect(normaliseSectionType('SOMETHING_NEW', 'paragraph')).toEqual({
      sectionType: null,
      role: 'body',
    })
    expect(normaliseSectionType(undefined, 'weird')).toEqual({ sectionType: null, role: 'body' })
    expect(normaliseSectionType('__proto__', 'constructor')).toEqual({
      sectionType: null,
      role: 'body',
    })
    expect(normaliseSectionType('toString', 'hasOwnProperty')).toEqual({
      sectionType: null,
      role: 'body',
    })
  })
})

describe('SECTION_TYPE_MAP', () => {
  it('only produces the 13 section types of core', () => {
    const produced = new Set(
      Object.values(SECTION_TYPE_MAP.sectionTypes)
        .map((mapping) => mapping.sectionType)
        .concat(
          Object.values(SECTION_TYPE_MAP.passageTypes).map(
            (mapping) => mapping.impliedSection ?? null,
          ),
        ),
    )
    produced.delete(null)
    for (const type of produced) {
      expect(SECTION_TYPES).toContain(type)
    }
    // Every one of the 13 types is reachable: 11 from section types, CAPTION and TITLE from passage types.
    const reachable = new Set([...produced, 'CAPTION', 'TITLE'])
    expect([...reachable].sort()).toEqual([...SECTION_TYPES].sort())
  })

  it('lists every section_type and type value of the real PMC BioC data', () => {
    // Distinct values of the 267 files in shared/data/pmc/bioc-json (printed in exploration).
    expect(Object.keys(SECTION_TYPE_MAP.sectionTypes).sort()).toEqual([
      'ABBR',
      'ABSTRACT',
      'ACK_FUND',
      'APPENDIX',
      'AUTH_CONT',
      'CASE',
      'COMP_INT',
      'CONCL',
      'DISCUSS',
      'FIG',
      'INTRO',
      'KEYWORD',
      'METHODS',
      'REF',
      'RESULTS',
      'REVIEW_INFO',
      'SUPPL',
      'TABLE',
      'TITLE',
    ])
    expect(Object.keys(SECTION_TYPE_MAP.passageTypes).sort()).toEqual([
      'abstract',
      'abstract_title_1',
      'fig',
      'fig_caption',
      'fig_title_caption',
      'footnote',
      'footnote_title',
      'front',
      'paragraph',
      'ref',
      'table',
      'table_caption',
      'table_foot',
      'table_foot_title',
      'table_footnote',
      'table_title_caption',
      'title',
      'title_1',
      'title_1_caption',
      'title_2',
      'title_3',
      'title_4',
      'title_caption',
    ])
  })
})
