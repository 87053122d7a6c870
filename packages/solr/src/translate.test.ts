import { getAnalyzer } from '@pubmatch/analysis'
import type { SearchMeshLookup } from '@pubmatch/bm25f'
import { describe, expect, it } from 'vitest'
import { solrFields } from './configset.ts'
import { translateQuery, type SolrQuery } from './translate.ts'

const analyzer = getAnalyzer('biomedical')
const pubmed = { fields: solrFields('pubmed'), analyzer }

/** The query with every `$pN` replaced by its value, recursively (what Solr parses). */
function expand(query: SolrQuery, value = query.params.q as string): string {
  return value.replace(/\$(p\d+)/g, (_, name: string) => `<${expand(query, query.params[name] as string)}>`)
}

describe('translateQuery', () => {
  it('scores plain text with one bm25f clause over the weighted fields, no filter', () => {
    const query = translateQuery('What are the effects of vitamin D?', {
      fields: solrFields('test-collection'),
      analyzer,
      syntax: 'plain',
      match: 'any',
    })
    // question words go (QUESTION_STOPWORDS), and so do words the analyzer drops whole ("d")
    expect(expand(query)).toBe('{!bm25f qf=<title^5 abstract> mm=any v=<effects vitamin>}')
    expect(query.params.fq).toBeUndefined()
  })

  it('keeps matching and scoring apart for PubMed syntax', () => {
    const query = translateQuery('aspirin AND smith j[au]', pubmed)
    const keywordFields = ['mesh_heading', 'mesh_major', 'authors', 'journal', 'pubtype', 'language', 'substance']
    // an untagged term: its words in the text fields, or the whole term as a keyword value (as the embedded searcher)
    const aspirin =
      '{!bool should=<{!bool should=<{!field f=title v=<aspirin>}> should=<{!field f=abstract v=<aspirin>}> ' +
      'should=<{!field f=mesh v=<aspirin>}> should=<{!field f=keywords v=<aspirin>}>}> ' +
      keywordFields.map((field) => `should=<{!term f=${field} v=<aspirin>}>`).join(' ') +
      '}'
    expect(expand(query)).toBe(
      // smith j[au]: PubMed's author truncation (smith j, smith ja, smith j jr, …)
      `{!bool filter=<{!bool must=<${aspirin}> must=<{!lucene v=<authors:/smith\\ j[a-z]*(\\ .*)?/>}>}> ` +
        'should=<{!bm25f qf=<title^5 abstract mesh^5 keywords> mm=any v=<aspirin>}>}',
    )
  })

  it('requires every word of a bare run in match all, and skips stop-word-only words', () => {
    const query = translateQuery('the heart', pubmed)
    const text = expand(query)
    expect(text).not.toContain('v=<the>')
    expect(text).toContain('{!field f=title v=<heart>}')
    const two = expand(translateQuery('heart attack', pubmed))
    expect(two).toMatch(/^\{!bool filter=<\{!bool should=<\{!bool must=<.*heart.*> must=<.*attack.*>\}> should=<\{!term f=mesh_heading v=<heart attack>\}>.*should=<\{!bm25f .* v=<heart attack>\}>\}$/)
  })

  it('searches quoted and tagged runs as phrases in the tag fields, and scores only those fields', () => {
    const text = expand(translateQuery('"heart attack"[ti]', pubmed))
    expect(text).toBe('{!bool filter=<{!field f=title v=<heart attack>}> should=<{!bm25f qf=<title^5> mm=any v=<heart attack>}>}')
  })

  it('does not score the words of a NOT', () => {
    const text = expand(translateQuery('aspirin NOT warfarin', pubmed))
    expect(text).toContain('must_not=')
    expect(text).toMatch(/bm25f qf=<[^>]*> mm=any v=<aspirin>/)
  })

  it('turns dates, ranges and PMIDs into filters on pubdate and id', () => {
    expect(expand(translateQuery('2015:2016/06[dp]', pubmed))).toBe('{!bool filter=<{!lucene v=<pubdate:[20150000 TO 20160699]>}>}')
    expect(expand(translateQuery('2019[dp]', pubmed))).toBe('{!bool filter=<{!lucene v=<pubdate:[20190000 TO 20199999]>}>}')
    expect(expand(translateQuery('123 456[pmid]', pubmed))).toBe('{!bool filter=<{!terms f=id v=<123,456>}>}')
  })

  it('maps and explodes MeSH headings through the vocabulary, scoring their words in mesh', () => {
    const mesh: SearchMeshLookup = {
      descriptorsForTerm: (term) => (term.toLowerCase() === 'neoplasms' ? ['D009369'] : []),
      explode: (ui) => (ui === 'D009369' ? ['D009371', 'D009369'] : []),
      descriptorName: (ui) => ({ D009369: 'Neoplasms', D009371: 'Neoplasms by Site' })[ui],
    }
    const text = expand(translateQuery('neoplasms[mh]', { ...pubmed, mesh }))
    expect(text).toContain('{!term f=mesh_heading v=<neoplasms>}')
    expect(text).toContain('{!terms f=mesh_heading v=<neoplasms,neoplasms by site>}')
    expect(text).toContain('{!bm25f qf=<mesh^5> mm=any v=<neoplasms>}')
    const noexp = expand(translateQuery('neoplasms[mh:noexp]', { ...pubmed, mesh }))
    expect(noexp).toContain('{!terms f=mesh_heading v=<neoplasms>}')
    const without = translateQuery('neoplasms[mh]', pubmed)
    expect(without.warnings.map((w) => w.code)).toEqual(['MESH_NOT_EXPLODED'])
  })

  it('turns truncation into prefixes and proximity into sloppy phrases', () => {
    expect(expand(translateQuery('colo*', pubmed))).toContain('{!prefix f=title v=<colo>}')
    expect(expand(translateQuery('smith*[au]', pubmed))).toContain('{!prefix f=authors v=<smith>}')
    expect(expand(translateQuery('"hip pain"[tiab:~2]', pubmed))).toContain('{!lucene df=title q.op=AND v=<"hip pain"~2>}')
  })

  it('adds the sidebar filters as filter queries', () => {
    const query = translateQuery('aspirin', { ...pubmed, filters: { years: [2010, 2015], publicationTypes: ['Review'], languages: ['eng'] } })
    expect((query.params.fq as string[]).map((fq) => expand(query, fq))).toEqual([
      '{!lucene v=<year:[2010 TO 2015]>}',
      '{!terms f=pubtype v=<review>}',
      '{!terms f=language v=<eng>}',
    ])
  })

  it('names what is wrong', () => {
    // a tag PubMed does not have: dropped, the term searched in all fields, with a warning
    const unknown = translateQuery('x[zz]', pubmed)
    expect(expand(unknown)).toBe(expand(translateQuery('x', pubmed)).replace(/\$p\d+/g, ''))
    expect(unknown.warnings.map((w) => [w.code, w.problem])).toEqual([['QUERY_SYNTAX', 'UNKNOWN_FIELD']])
    // a tag the collection has no data for matches nothing, with a warning
    const noAuthors = translateQuery('aspirin[au]', { fields: solrFields('test-collection'), analyzer })
    expect(noAuthors.warnings.map((w) => w.code)).toEqual(['FIELD_NOT_INDEXED'])
    expect(expand(noAuthors)).toBe('{!bool filter=<{!term f=id v=< pubmatch:none >}>}')
    expect(() => translateQuery('#3', pubmed)).toThrow(/search history/)
    expect(() => translateQuery('aspirin', { ...pubmed, fieldWeights: { title: -1 } })).toThrow(/finite and ≥ 0/)
    expect(() => translateQuery('aspirin', { ...pubmed, scoring: 'combined', fieldWeights: { title: 0.5 } })).toThrow(/at least 1/)
    expect(expand(translateQuery('aspirin', { ...pubmed, fieldWeights: { title: 0.5 } }))).toContain('qf=<title^0.5 abstract mesh keywords>')
    const empty = translateQuery('the', pubmed)
    expect(empty.empty).toBe(true)
    expect(empty.warnings.map((w) => w.code)).toEqual(['IGNORED_TERM', 'EMPTY_QUERY'])
  })

  it('translates every kind of PubMed field tag as the embedded searcher does', () => {
    const filterOf = (query: string): string => expand(translateQuery(query, pubmed)).replace(/^\{!bool filter=<(.*)>( should=.*)?\}$/, '$1')
    expect(filterOf('18[vi]')).toBe('{!term f=volume v=<18>}')
    expect(filterOf('546-7[pg]')).toBe('{!term f=pagination v=<546 7>}')
    expect(filterOf('2002/09[dcom]')).toBe('{!lucene v=<dcom:[20020900 TO 20020999]>}')
    expect(filterOf('2018:2019[edat]')).toBe('{!lucene v=<edat:[20180000 TO 20199999]>}')
    expect(filterOf('"last 2 years"[crdt]')).toMatch(/^\{!lucene v=<crdt:\[\d{8} TO \d{8}\]>\}$/)
    expect(filterOf('"lin c"[au]')).toBe('{!term f=authors v=<lin c>}')
    expect(filterOf('lin[lastau]')).toBe('{!lucene v=<last_author:/lin(\\ .*)?/>}')
    expect(filterOf('spector reynold[fau]')).toBe('{!lucene v=<authors_full:/spector\\ reynold(\\ .*)?/>}')
    expect(filterOf('tufts[ad]')).toBe('{!field f=affiliation v=<tufts>}')
    expect(filterOf('"johnson center"[ad:~1]')).toBe('{!lucene df=affiliation q.op=AND v=<"johnson center"~1>}')
    expect(filterOf('medline[sb]')).toBe('{!term f=filter v=<medline>}')
    expect(filterOf('hasabstract')).toBe('{!term f=filter v=<hasabstract>}')
    // [sh] explodes through MeSH's qualifier trees (surgery Y11.070 → transplantation Y11.070.010)
    expect(filterOf('surgery[sh]')).toBe('{!terms f=mesh_subheading v=<surgery,transplantation>}')
    expect(filterOf('surgery[sh:noexp]')).toBe('{!term f=mesh_subheading v=<surgery>}')
    expect(filterOf('adverse effects[sh]')).toBe('{!terms f=mesh_subheading v=<adverse effects,poisoning,toxicity>}')
    expect(filterOf('administration and dosage[sh]')).toBe('{!term f=mesh_subheading v=<administration dosage>}')
    expect(translateQuery('free full text[sb]', pubmed).warnings.map((w) => w.code)).toEqual(['FIELD_APPROXIMATED'])
    const unknownFilter = translateQuery('cancer[sb]', pubmed)
    expect(unknownFilter.warnings.map((w) => w.code)).toEqual(['FIELD_NOT_INDEXED'])
    // tag-only fields are neither searched by untagged terms nor scored
    const tagged = expand(translateQuery('nci[gr] AND aspirin', pubmed))
    expect(tagged).toContain('{!field f=grant v=<nci>}')
    expect(tagged).toMatch(/should=<\{!bm25f qf=<title\^5 abstract mesh\^5 keywords> mm=any v=<aspirin>\}>\}$/)
    expect(expand(translateQuery('aspirin', pubmed))).not.toMatch(/f=(affiliation|grant|volume|filter)\b/)
    // [all] (PubMed's All Fields) also searches them, all but the computed filters, and scores as untagged
    const all = expand(translateQuery('tufts[all]', pubmed))
    expect(all).toContain('{!field f=affiliation v=<tufts>}')
    expect(all).toContain('{!term f=volume v=<tufts>}')
    expect(all).not.toMatch(/f=filter\b/)
    expect(all).toMatch(/should=<\{!bm25f qf=<title\^5 abstract mesh\^5 keywords> mm=any v=<tufts>\}>\}$/)
  })

  it('never splices user text into query syntax', () => {
    const query = translateQuery('"} OR id:1 {!"', pubmed)
    // q and every sub-query are local-params heads whose values are $references, never the user's text
    for (const value of [query.params.q as string, ...Object.values(query.params).filter((v): v is string => typeof v === 'string' && v.startsWith('{!'))]) {
      expect(value).toMatch(/^\{!\w+( [\w.]+=[$\w^ .]+)*\}$/)
      expect(value).not.toContain('id:1')
    }
    expect(Object.values(query.params)).toContain('OR id:1')
  })
})

describe('translateQuery scoring options', () => {
  it("passes per-field b and the parser's model", () => {
    const text = expand(translateQuery('aspirin', { ...pubmed, fieldB: { title: 0.5 }, scoring: 'combined' }))
    expect(text).toContain('{!bm25f qf=<title^5 abstract mesh^5 keywords> fb=<title:0.5> model=combined mm=any v=<aspirin>}')
  })
})

describe('translateQuery units', () => {
  it('splits a bare hyphenated word into units that each must match, as the embedded searcher does', () => {
    const text = expand(translateQuery('co-enzyme statin', pubmed))
    for (const unit of ['co', 'enzyme', 'statin']) {
      expect(text).toContain(`{!field f=title v=<${unit}>}`)
    }
    expect(text).not.toContain('v=<co-enzyme>}')
    // a quoted or tagged run stays one phrase
    expect(expand(translateQuery('"co-enzyme statin"', pubmed))).toContain('{!field f=title v=<co-enzyme statin>}')
  })
})
