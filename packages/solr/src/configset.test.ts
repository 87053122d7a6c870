import { PUBMED_STOPWORDS } from '@pubmatch/analysis'
import { strFromU8, unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { createConfigset, solrFields, zipConfigset } from './configset.ts'

describe('createConfigset', () => {
  it('declares the PubMed field set with text, keyword and numeric fields', () => {
    const fields = solrFields('pubmed')
    expect(fields.text).toEqual([
      'title', 'abstract', 'mesh', 'keywords',
      // searched by their tags only
      'affiliation', 'corporate_author', 'grant', 'cois', 'transliterated_title', 'publisher', 'book',
    ])
    expect(fields.keyword).toEqual([
      'mesh_heading', 'mesh_major', 'authors', 'journal', 'pubtype', 'language', 'substance',
      'authors_full', 'first_author', 'last_author', 'author_id', 'investigators', 'investigators_full', 'editors',
      'personal_name', 'registry_number', 'mesh_subheading', 'article_id', 'location_id', 'pmcid', 'isbn', 'issue',
      'volume', 'pagination', 'journal_id', 'place', 'secondary_source', 'filter',
    ])
    const schema = createConfigset().files['schema.xml']!
    for (const name of fields.text) {
      expect(schema).toContain(`<field name="${name}" type="text_pubmatch"`)
    }
    for (const name of fields.keyword) {
      expect(schema).toContain(`<field name="${name}" type="string"`)
    }
    for (const name of ['pubdate', 'edat', 'crdt', 'mhda', 'dcom', 'lr', 'ppdat', 'epdat']) {
      expect(schema).toContain(`<field name="${name}" type="pint"`)
    }
    expect(solrFields('test-collection')).toEqual({
      text: ['title', 'abstract'],
      keyword: [],
      numeric: ['year', 'pubdate', 'edat', 'crdt', 'mhda', 'dcom', 'lr', 'ppdat', 'epdat'],
    })
  })

  it('declares what the features read: the forward doc value, raw doc values, title-or-abstract terms, the article marker', () => {
    for (const fieldSet of ['pubmed', 'test-collection'] as const) {
      const schema = createConfigset({ fieldSet }).files['schema.xml']!
      expect(schema).toContain('<fieldType name="binary" class="solr.BinaryField"/>')
      expect(schema).toContain('<field name="pubmatch_fwd" type="binary" indexed="false" stored="false" docValues="true"/>')
      expect(schema).toContain('<field name="pubmatch_pubtype" type="string" indexed="false" stored="false" docValues="true" multiValued="true"/>')
      expect(schema).toContain('<field name="pubmatch_language" type="string" indexed="false" stored="false" docValues="true" multiValued="true"/>')
      for (const name of ['pubmatch_tiab', 'pubmatch_ti_terms', 'pubmatch_ab_terms']) {
        expect(schema).toContain(
          `<field name="${name}" type="string" indexed="true" stored="false" docValues="false" multiValued="true" omitNorms="true" omitTermFreqAndPositions="true"/>`,
        )
      }
      expect(schema).not.toContain('<copyField')
      expect(schema).toContain('<field name="pubmatch_article" type="string" indexed="true"')
    }
  })

  it('sets BM25 k1 and b as the one similarity', () => {
    const schema = createConfigset({ k1: 0.9, b: 0.4 }).files['schema.xml']!
    expect(schema).toContain('<similarity class="solr.BM25SimilarityFactory">')
    expect(schema).toContain('<float name="k1">0.9</float>')
    expect(schema).toContain('<float name="b">0.4</float>')
    expect(() => createConfigset({ b: 1.5 })).toThrow(/0 ≤ b ≤ 1/)
  })

  it('approximates the biomedical analyzer: joined forms at index time only, stop words, Porter2', () => {
    const schema = createConfigset().files['schema.xml']!
    const [index, query] = schema.split('<analyzer type="query">')
    expect(index).toContain('catenateAll="1"')
    expect(index).toContain('FlattenGraphFilterFactory')
    expect(query).toContain('catenateAll="0"')
    expect(query).not.toContain('FlattenGraphFilterFactory')
    expect(schema).toContain('words="stopwords_pubmed.txt"')
    expect(schema).toContain('language="English"')
    expect(createConfigset({ analyzer: 'biomedical:nostem:nostop' }).files['schema.xml']).not.toMatch(/Snowball|StopFilter/)
    expect(() => createConfigset({ analyzer: 'klingon' })).toThrow(/no Solr analysis chain for the analyzer "klingon"/)
  })

  it('writes the PubMed stop words and spells every Greek letter out', () => {
    const files = createConfigset().files
    const words = files['stopwords_pubmed.txt']!.split('\n').filter((line) => line !== '' && !line.startsWith('#'))
    expect(words).toHaveLength(new Set(PUBMED_STOPWORDS).size)
    const greek = files['mapping-greek.txt']!
    // the alphabet's first, the sigmas (U+03A3, U+03C2, U+03C3) and the last, by code point
    expect(greek).toContain('"\u03b1" => "-alpha-"')
    expect(greek).toContain('"\u0391" => "-alpha-"')
    expect(greek).toContain('"\u03c3" => "-sigma-"')
    expect(greek).toContain('"\u03a3" => "-sigma-"')
    expect(greek).toContain('"\u03c2" => "-sigma-"')
    expect(greek).toContain('"\u03c9" => "-omega-"')
    expect(greek).toContain('"\u03a9" => "-omega-"')
    expect(greek).toContain('"\u00b5" => "-mu-"')
  })

  it('asks for global term statistics and the bm25f parser', () => {
    const config = createConfigset().files['solrconfig.xml']!
    expect(config).toContain('<statsCache class="org.apache.solr.search.stats.ExactStatsCache"/>')
    expect(config).toContain('<queryParser name="bm25f" class="org.pubmatch.solr.Bm25fQParserPlugin"/>')
    expect(config).toContain('<queryParser name="pubmatch" class="org.pubmatch.solr.rerank.PubmatchRerankQParserPlugin"/>')
    expect(config).toContain('<transformer name="pubmatch" class="org.pubmatch.solr.rerank.PubmatchFeaturesTransformerFactory"/>')
    expect(config).toMatch(/<autoSoftCommit>\s*<maxTime>-1<\/maxTime>/)
    expect(config).toMatch(/<openSearcher>false<\/openSearcher>/)
  })

  it('zips to the same bytes every time, with every file', () => {
    const configset = createConfigset()
    const zip = zipConfigset(configset)
    expect(zipConfigset(createConfigset())).toEqual(zip)
    const files = unzipSync(zip)
    expect(Object.keys(files).sort()).toEqual(Object.keys(configset.files).sort())
    expect(strFromU8(files['schema.xml']!)).toBe(configset.files['schema.xml'])
  })
})
