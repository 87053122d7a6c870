import { emptyArticle, type Article } from '@pubmatch/core'
import { describe, expect, it } from 'vitest'
import { createDocumentMapper } from './documents.ts'
import { decodeRecord } from './records.ts'

describe('createDocumentMapper', () => {
  it('writes raw text fields, normalised keyword values and numeric dates, as the embedded index reads them', () => {
    const article: Article = {
      ...emptyArticle('12345', 'pubmed'),
      title: 'Aspirin and COX-2',
      abstract: [{ label: 'BACKGROUND', text: 'First part.' }, { text: 'Second part.' }],
      authors: [{ lastName: 'Smith', foreName: 'John Adam', affiliations: [], identifiers: [], valid: true }],
      publicationTypes: [{ name: 'Journal Article' }, { name: 'Review' }],
      languages: ['eng'],
      mesh: [{ descriptorName: 'Receptors, Tumor Necrosis Factor', majorTopic: true, qualifiers: [] }],
      pubDate: { year: 2016, month: 3 },
      journal: { volume: '12', issue: '3' },
      pagination: '123-9',
      dateCompleted: { year: 2016, month: 5, day: 2 },
    }
    const doc = createDocumentMapper('pubmed').toSolr(article, '000002.jsonl.gz')
    expect(doc).toMatchObject({
      id: '12345',
      title: ['Aspirin and COX-2'],
      abstract: ['First part.', 'Second part.'],
      mesh: ['Receptors, Tumor Necrosis Factor'],
      mesh_heading: ['receptors tumor necrosis factor'],
      mesh_major: ['receptors tumor necrosis factor'],
      authors: ['smith ja'],
      pubtype: ['journal article', 'review'],
      language: ['eng'],
      year: 2016,
      pubdate: 20160300,
      // the tag-only fields and PubMed's dates (schema version 5)
      authors_full: ['smith john adam', 'john adam smith'],
      first_author: ['smith ja'],
      volume: ['12'],
      issue: ['3'],
      pagination: ['123 9', '123'],
      filter: ['hasabstract', 'english'],
      dcom: 20160502,
      ppdat: 20160300,
      pubmatch_segment: '000002.jsonl.gz',
      // the features' doc values: as the embedded index's (raw names, not normalised)
      pubmatch_pubtype: ['Journal Article', 'Review'],
      pubmatch_language: ['eng'],
      pubmatch_article: '1',
    })
    expect(doc).not.toHaveProperty('keywords')
    const plain = createDocumentMapper('test-collection').toSolr({ ...emptyArticle('MED-1', 'test-collection'), title: 'T', abstract: [{ text: 'a' }, { text: 'b' }] })
    // "T" → t; "a b": a is a stop word (flags 1 | 2) dropped by biomedical, b → ref 2
    const forward = Buffer.from([1, 2, 1, 0x74, 1, 0x62, 1, 8, 2, 3, 16, 0]).toString('base64')
    // the record a serving process shows without a local index: the embedded index's stored record
    const record = JSON.stringify({ id: 'MED-1', title: 'T', authors: [], authorCount: 0, pubTypes: [], languages: [], abstract: 'a b' })
    expect(plain).toEqual({
      id: 'MED-1',
      title: ['T'],
      abstract: ['a b'],
      pubmatch_fwd: forward,
      pubmatch_ti_terms: ['t'],
      pubmatch_ab_terms: ['b'],
      pubmatch_tiab: ['t', 'b'],
      pubmatch_article: '1',
      // past usage starts at none (pushUsage writes it in place)
      pubmatch_usage_abstract: 0,
      pubmatch_usage_fulltext: 0,
      pubmatch_record: record,
    })
    expect(decodeRecord(String(doc.pubmatch_record), 'doc')).toMatchObject({ id: '12345', title: 'Aspirin and COX-2', year: 2016, pubTypes: ['Journal Article', 'Review'] })
  })

  it('writes the index terms of title and abstract as the embedded index holds them, joined compound forms included', () => {
    const article: Article = {
      ...emptyArticle('1', 'pubmed'),
      title: 'Aspirin and COX-2 in 4.031 µg',
      abstract: [{ text: 'The COX-2 cats.' }, { text: 'IL-6 and aspirin' }],
    }
    const doc = createDocumentMapper('pubmed').toSolr(article)
    // biomedical: stop words (and, in, the) dropped; COX-2 → cox2 (joined) beside cox, 2; 4.031 one
    // token (Solr's chain would split it); µg → ug; cats → cat; each term once per field
    expect(doc.pubmatch_ti_terms).toEqual(['aspirin', 'cox2', 'cox', '2', '4.031', 'ug'])
    expect(doc.pubmatch_ab_terms).toEqual(['cox2', 'cox', '2', 'cat', 'il6', 'il', '6', 'aspirin'])
    expect(doc.pubmatch_tiab).toEqual(['aspirin', 'cox2', 'cox', '2', '4.031', 'ug', 'cat', 'il6', 'il', '6'])
  })

  it('writes the token streams of title, abstract and MeSH names with the collection’s analyzer', () => {
    const article: Article = {
      ...emptyArticle('7', 'pubmed'),
      title: 'The cat',
      abstract: [{ text: 'a cat' }, { text: 'sat' }],
      mesh: [{ descriptorName: 'Cats', majorTopic: false, qualifiers: [] }],
    }
    const decode = (doc: Record<string, unknown>): number[] => [...Buffer.from(doc.pubmatch_fwd as string, 'base64')]
    // biomedical (by hand, see forward.test.ts): the → no term (5), cat → 8; a (3), cat, sat → 16; Cats → cat
    expect(decode(createDocumentMapper('pubmed').toSolr(article))).toEqual([1, 2, 3, 0x63, 0x61, 0x74, 3, 0x73, 0x61, 0x74, 2, 5, 8, 3, 3, 8, 16, 1, 8])
    // whitespace keeps every word with its term: The (ref 1, flags 5 → 13), cat (16); a (ref 3, flags 3 → 27), cat, sat (32); Cats (40)
    expect(decode(createDocumentMapper('pubmed', { analyzer: 'whitespace' }).toSolr(article))).toEqual([
      1, 5, 3, 0x54, 0x68, 0x65, 3, 0x63, 0x61, 0x74, 1, 0x61, 3, 0x73, 0x61, 0x74, 4, 0x43, 0x61, 0x74, 0x73,
      2, 13, 16, 3, 27, 16, 32, 1, 40,
    ])
  })
})
