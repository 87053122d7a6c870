import { emptyArticle, type Article } from '@pubmatch/core'
import { describe, expect, it } from 'vitest'
import { createDocumentMapper } from './documents.ts'

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
      pubmatch_segment: '000002.jsonl.gz',
    })
    expect(doc).not.toHaveProperty('keywords')
    const plain = createDocumentMapper('test-collection').toSolr({ ...emptyArticle('MED-1', 'test-collection'), title: 'T', abstract: [{ text: 'a' }, { text: 'b' }] })
    expect(plain).toEqual({ id: 'MED-1', title: ['T'], abstract: ['a b'] })
  })
})
