import type { MeshDescriptor } from '@pubmatch/core'
import { describe, expect, it } from 'vitest'
import type { SolrClient } from './client.ts'
import { toExplanation } from './explain.ts'
import { meshDocument, MESH_FIELD, readMeshVocabulary } from './records.ts'

describe('the MeSH vocabulary document', () => {
  it('reads back the descriptors it was written from', async () => {
    const descriptors: MeshDescriptor[] = [
      {
        ui: 'D009369',
        name: 'Neoplasms',
        treeNumbers: ['C04'],
        entryTerms: ['Neoplasms', 'Tumors', 'Cancer'],
        allowableQualifiers: [],
      },
      {
        ui: 'D001943',
        name: 'Breast Neoplasms',
        treeNumbers: ['C04.588.180'],
        entryTerms: ['Breast Neoplasms', 'Breast Cancer'],
        allowableQualifiers: [],
      },
    ]
    const doc = meshDocument(descriptors)
    const client = (stored: Record<string, unknown> | undefined): SolrClient => ({
      urls: ['http://127.0.0.1:1/solr'],
      request: () =>
        Promise.resolve({
          response: {
            numFound: stored === undefined ? 0 : 1,
            docs: stored === undefined ? [] : [stored],
          },
        }),
    })
    expect(await readMeshVocabulary(client(doc), 'c')).toEqual(descriptors)
    expect(await readMeshVocabulary(client(undefined), 'c')).toBeUndefined()
    await expect(readMeshVocabulary(client({ [MESH_FIELD]: 'not gzip' }), 'c')).rejects.toThrow(
      /is not gzip'd base64/,
    )
  })
})

describe('toExplanation', () => {
  it("turns Bm25fQuery's explanation into pubmatch's tree, leaving Lucene's Boolean wrappers out", () => {
    // as Solr answers debug.explain.structured for {!bool filter=… should={!bm25f …}}
    const term = {
      match: true,
      value: 1.5,
      description: "bm25f score(doc=3) for term 'cancer', computed as idf * tf~ / (k1 + tf~) from:",
      details: [
        {
          value: 2,
          description: 'idf, computed as ln(1 + (N - n + 0.5) / (n + 0.5)) from:',
          details: [
            {
              value: 10,
              description: 'n, largest per-field number of documents containing the term, from:',
              details: [{ value: 10, description: 'docFreq in title' }],
            },
            { value: 100, description: 'N, number of documents (maxDoc)' },
          ],
        },
        {
          value: 3,
          description: 'tf~, sum over the fields containing the term of:',
          details: [
            {
              value: 3,
              description: 'title: w * tf / (1 - b + b * len / avgl) from:',
              details: [
                { value: 1, description: 'tf, occurrences of the term in the field' },
                { value: 8, description: 'len, field length (from the norm)' },
                { value: 8, description: 'avgl, sumTotalTermFreq / N' },
                { value: 5, description: 'w, field weight' },
                { value: 0.75, description: 'b, length normalisation' },
              ],
            },
          ],
        },
        { value: 1.2, description: 'k1' },
      ],
    }
    const solr = {
      match: true,
      value: 1.5,
      description: 'sum of:',
      details: [
        { match: true, value: 0, description: 'match on required clause, product of:' },
        term,
      ],
    }
    const tree = toExplanation(solr)
    expect(tree).toEqual({
      label: 'bm25f',
      value: 1.5,
      formula: 'Σ_t score(t)',
      details: [
        {
          label: 'cancer',
          value: 1.5,
          formula: 'idf · tf~ / (k1 + tf~)',
          details: [
            {
              label: 'tf~',
              value: 3,
              formula: 'Σ_f w(f)·occ(t,f) / (1 − b(f) + b(f)·l(f)/avgl(f))',
              details: [
                {
                  label: 'title',
                  value: 3,
                  formula: 'w(f)·occ(t,f) / (1 − b(f) + b(f)·l(f)/avgl(f))',
                  details: [
                    { label: 'occ(t,f)', value: 1, details: [] },
                    { label: 'w(f)', value: 5, details: [] },
                    { label: 'b(f)', value: 0.75, details: [] },
                    { label: 'l(f)', value: 8, details: [] },
                    { label: 'avgl(f)', value: 8, formula: 'totalLength(f) / N', details: [] },
                  ],
                },
              ],
            },
            { label: 'k1', value: 1.2, details: [] },
            {
              label: 'idf',
              value: 2,
              formula: 'ln(1 + (N − n + 0.5) / (n + 0.5))',
              details: [
                { label: 'N', value: 100, details: [] },
                {
                  label: 'n',
                  value: 10,
                  formula: 'max_f n(f)',
                  details: [{ label: 'n(title)', value: 10, details: [] }],
                },
              ],
            },
          ],
        },
      ],
    })
  })
})
