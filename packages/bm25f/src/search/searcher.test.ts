import { biomedicalAnalyzer, createAnalyzer, whitespaceTokenize } from '@pubmatch/analysis'
import { isPubmatchError } from '@pubmatch/core'
import { defaultPubmedFields, type IndexReader } from '@pubmatch/index'
import { beforeAll, describe, expect, it } from 'vitest'
import { suiteIndex } from '../../test/helpers.ts'
import { SMALL_CORPUS, SMALL_MESH, SMALL_MESH_WITH_NAMES } from '../../test/small-corpus.ts'
import { parseQuery } from '../query/parse.ts'
import { bm25f } from '../scoring/bm25f.ts'
import { SCORER_NAMES } from '../scoring/scorer.ts'
import { createSearcher } from './searcher.ts'
import type { FirstStageRanker, SearchOptions, SearchResult } from './types.ts'

let reader: IndexReader
let searcher: FirstStageRanker

beforeAll(async () => {
  reader = await suiteIndex(SMALL_CORPUS, {
    fields: defaultPubmedFields({ analyzer: 'biomedical:nostem' }),
  })
  searcher = createSearcher(reader, { limit: 50 })
})

/** The matching ids, sorted (order of relevance is tested separately). */
const matches = (query: string, options: SearchOptions = {}): string[] =>
  searcher
    .search(query, options)
    .hits.map((hit) => hit.id)
    .sort()

const codes = (result: SearchResult): string[] => result.warnings.map((w) => w.code)

function thrown(fn: () => unknown): unknown {
  try {
    fn()
  } catch (error) {
    return error
  }
  throw new Error('expected an error')
}

describe('createSearcher: terms and runs', () => {
  it('requires every word of a bare run somewhere in the default fields under match "all"', () => {
    // 101: title; 102: "Attack of the heart"; 109: keyword "heart attack".
    expect(matches('heart attack')).toEqual(['101', '102', '109'])
    const result = searcher.search('heart attack')
    expect(result.total).toBe(3)
    expect(result.totalRelation).toBe('eq')
  })

  it('matches any word of the run under match "any"', () => {
    expect(matches('heart attack', { match: 'any' })).toEqual(['101', '102', '109'])
    expect(matches('colon breast', { match: 'any' })).toEqual(['103', '104', '106'])
    expect(matches('colon breast')).toEqual([])
  })

  it('searches a quoted phrase with positions, stop-word gaps included', () => {
    expect(matches('"heart attack"')).toEqual(['101', '109'])
    // "pain of the hip" analyses to pain@0 hip@3. 107's title "The pain of the hip" has the same
    // gap, and so has 104's abstract "pain in the hip" (stop words only keep their places).
    expect(matches('"pain of the hip"')).toEqual(['104', '107'])
    expect(matches('"pain hip"')).toEqual([])
  })

  it('matches a phrase across the joined and split forms of a compound', () => {
    // 106: title "COX-2 inhibitors", abstract "cox2": the parts cox 2 are indexed in both.
    expect(matches('"cox2 inhibitors"')).toEqual(['106'])
    expect(matches('"cox 2 inhibitors"')).toEqual(['106'])
    expect(matches('cox-2')).toEqual(['106'])
  })

  it("searches a tagged run as a phrase in the tag's fields", () => {
    expect(matches('heart attack[ti]')).toEqual(['101'])
    // [tiab] covers title, abstract and keywords.
    expect(matches('heart attack[tiab]')).toEqual(['101', '109'])
    expect(matches('cardiac[ab]')).toEqual(['102'])
    expect(matches('cardiac[ti]')).toEqual([])
    expect(matches('diet[ot]')).toEqual(['109'])
  })

  it('finds words in any order within N words with proximity', () => {
    // 102 "Attack of the heart": two words between.
    expect(matches('"heart attack"[tiab:~2]')).toEqual(['101', '102', '109'])
    expect(matches('"heart attack"[ti:~1]')).toEqual(['101'])
    // 107 "The pain of the hip": pain@1 hip@4.
    expect(matches('"hip pain"[ti:~0]')).toEqual(['104', '105'])
    expect(matches('"hip pain"[ti:~2]')).toEqual(['104', '105', '107'])
  })

  it('matches keyword fields by their whole normalised value', () => {
    expect(matches('smith ja[au]')).toEqual(['101'])
    expect(matches('Smith JA[Author]')).toEqual(['101'])
    // PubMed's automatic truncation of author names: a last name alone finds every initial,
    // fewer initials find more; quotes turn it off
    expect(matches('smith[au]')).toEqual(['101', '103'])
    expect(matches('smith j[au]')).toEqual(['101', '103'])
    expect(matches('"smith j"[au]')).toEqual([])
    expect(matches('"smith jb"[au]')).toEqual(['103'])
    expect(matches('smi[au]')).toEqual([])
    expect(matches('lancet[ta]')).toEqual(['101'])
    expect(matches('review[pt]')).toEqual(['101', '110'])
    expect(matches('randomized controlled trial[pt]')).toEqual(['103'])
    expect(matches('fre[la]')).toEqual(['104'])
    expect(matches('myocardial infarction[majr]')).toEqual(['101'])
    expect(matches('women[majr]')).toEqual([])
  })

  it('lets an untagged term match a whole keyword-field value ([all] semantics)', () => {
    // "review" is a word of 102's title and 110's publication type.
    expect(matches('review')).toEqual(['101', '102', '110'])
    expect(matches('bmj')).toEqual(['102'])
  })
})

describe('createSearcher: Boolean operators', () => {
  it('intersects, unites and subtracts', () => {
    expect(matches('cancer AND colon')).toEqual(['103', '106'])
    expect(matches('colon OR breast')).toEqual(['103', '104', '106'])
    expect(matches('cancer NOT colon')).toEqual(['104'])
    expect(matches('(hip OR heart) AND pain')).toEqual(['104', '105', '107'])
    expect(matches('hip OR heart AND pain')).toEqual(['104', '105', '107'])
    expect(matches('pain NOT (breast OR runners)')).toEqual(['107'])
  })

  it('scores only the positive terms', () => {
    const alone = searcher.search('cancer').hits.find((h) => h.id === '103')!.score
    expect(searcher.search('cancer NOT breast').hits.find((h) => h.id === '103')!.score).toBe(alone)
    expect(searcher.search('cancer AND 2020[dp]').hits.map((h) => [h.id, h.score])).toEqual([
      ['103', alone],
    ])
    expect(searcher.search('cancer AND review[pt]').hits).toEqual([])
  })
})

describe('createSearcher: dates, ids and filters', () => {
  it('reads [dp] ranges and single dates from the pubdate doc values', () => {
    expect(matches('2015:2019[dp]')).toEqual(['101', '102', '106', '109', '110'])
    // 101 is March 2015: excluded from April on.
    expect(matches('2015/04:2019[dp]')).toEqual(['102', '106', '109', '110'])
    expect(matches('2020/06/15[dp]')).toEqual(['103'])
    expect(matches('2020/06/16:3000[dp]')).toEqual(['105'])
    expect(matches('"2011"[dp]')).toEqual(['111', '112'])
    expect(matches('heart AND 2016:2018[dp]')).toEqual(['102', '109'])
  })

  it('reads relative dates against "now"', () => {
    const now = new Date(Date.UTC(2021, 5, 30))
    expect(matches('"last 2 years"[dp]', { now })).toEqual(['103', '105'])
  })

  it('warns about a backwards range and matches nothing', () => {
    const result = searcher.search('2019:2015[dp]')
    expect(result.hits).toEqual([])
    expect(codes(result)).toEqual(['EMPTY_DATE_RANGE'])
  })

  it('looks PMIDs up', () => {
    expect(matches('103[pmid]')).toEqual(['103'])
    expect(matches('103 105 999[pmid]')).toEqual(['103', '105'])
    expect(matches('hip AND 105[uid]')).toEqual(['105'])
  })

  it('applies year, publication type and language filters', () => {
    expect(matches('cancer', { filters: { years: [2015, 2020] } })).toEqual(['103', '106'])
    expect(matches('heart', { filters: { publicationTypes: ['review'] } })).toEqual(['101'])
    expect(matches('cancer', { filters: { languages: ['fre', 'ger'] } })).toEqual(['104'])
    expect(matches('cancer', { filters: { languages: ['eng'], years: [2019, 2019] } })).toEqual([
      '106',
    ])
  })
})

describe('createSearcher: truncation', () => {
  it('expands a truncated word to the index terms with its prefix', () => {
    // colon, colonic, colonoscopy, colorectal
    expect(matches('colo*')).toEqual(['103', '106'])
    expect(matches('neopla*[ti]')).toEqual(['108'])
    expect(matches('smith*[au]')).toEqual(['101', '103'])
    expect(matches('"colo* cancer"')).toEqual(['103', '106'])
  })

  it('keeps the first maxExpansions terms in index order and warns', () => {
    const result = searcher.search('colo*[ti]', { maxExpansions: 1 })
    // colon (106's title) comes before colorectal (103's title).
    expect(result.hits.map((h) => h.id)).toEqual(['106'])
    expect(codes(result)).toEqual(['TRUNCATION_LIMIT'])
    expect(result.warnings[0]!.message).toMatchInlineSnapshot(
      `""colo*" matches 2 index terms; only the first 1 were searched"`,
    )
  })
})

describe('createSearcher: MeSH', () => {
  it('matches [mh] by heading name and warns that it cannot explode without a vocabulary', () => {
    const result = searcher.search('neoplasms[mh]')
    expect(result.hits.map((h) => h.id)).toEqual(['108'])
    expect(codes(result)).toEqual(['MESH_NOT_EXPLODED'])
    expect(codes(searcher.search('neoplasms[mh:noexp]'))).toEqual([])
  })

  it('maps and explodes [mh] through a MeSH lookup (descriptor ids in the doc values)', () => {
    expect(matches('neoplasms[mh]', { mesh: SMALL_MESH })).toEqual(['103', '104', '106', '108'])
    expect(matches('neoplasms[mh:noexp]', { mesh: SMALL_MESH })).toEqual(['108'])
    // An entry term maps to its descriptor.
    expect(matches('cancer[mh]', { mesh: SMALL_MESH })).toEqual(['103', '104', '106', '108'])
    expect(matches('neoplasms[mh] NOT breast', { mesh: SMALL_MESH })).toEqual(['103', '106', '108'])
  })

  it('explodes by descriptor names when the lookup has them, also for [majr]', () => {
    expect(matches('neoplasms[mh]', { mesh: SMALL_MESH_WITH_NAMES })).toEqual([
      '103',
      '104',
      '106',
      '108',
    ])
    // 108's Neoplasms heading is not major.
    expect(matches('neoplasms[majr]', { mesh: SMALL_MESH_WITH_NAMES })).toEqual([
      '103',
      '104',
      '106',
    ])
  })

  it('scores the words of a [mh] term in the mesh text field', () => {
    const hits = searcher.search('neoplasms[mh]', { mesh: SMALL_MESH }).hits
    expect(hits.every((hit) => hit.score > 0)).toBe(true)
    // 108's MeSH field is just "neoplasms": the shortest, so the best.
    expect(hits[0]!.id).toBe('108')
  })
})

describe('createSearcher: errors and warnings', () => {
  it('rejects an empty query with INVALID_ARGUMENT', () => {
    for (const query of ['', '   ']) {
      const error = thrown(() => searcher.search(query))
      expect(isPubmatchError(error, 'INVALID_ARGUMENT')).toBe(true)
    }
  })

  it('rejects a history reference with a typed error', () => {
    const error = thrown(() => searcher.search('#1 AND cancer'))
    expect(isPubmatchError(error, 'INVALID_ARGUMENT')).toBe(true)
    expect((error as { details: unknown }).details).toEqual({
      problem: 'HISTORY_REFERENCE',
      index: 1,
    })
    expect((error as Error).message).toMatchInlineSnapshot(
      `"#1 refers to the search history (search 1 of a PubMed session), which pubmatch does not keep: PubMed resolves #N only against the earlier searches of the same session (ESearch only with a history, usehistory=y), so the query cannot run; put that search's query in place of #1"`,
    )
  })

  it('answers a tag the index has no data for with no hits and a FIELD_NOT_INDEXED warning', async () => {
    // an index of the PubMed fields as they were before the tag-only fields and dates existed
    const old = await suiteIndex(SMALL_CORPUS, {
      fields: defaultPubmedFields({ analyzer: 'biomedical:nostem' }).slice(0, 11),
      numericDocValues: [{ name: 'pubdate', source: () => 20200101 }],
    })
    const oldSearcher = createSearcher(old, { limit: 50 })
    const result = oldSearcher.search('heidelberg[ad]')
    expect(result.hits).toEqual([])
    expect(result.warnings).toEqual([
      {
        code: 'FIELD_NOT_INDEXED',
        message:
          '"heidelberg"[ad] matches nothing: this index has no Affiliation data (an index built before pubmatch indexed [ad] has none until it is rebuilt with `pubmatch index --rebuild`; a test collection has none at all)',
      },
    ])
    // in an OR the term drops out, as in PubMed; in an AND the whole query finds nothing
    expect(oldSearcher.search('cancer OR 2019[edat]').hits.length).toBeGreaterThan(0)
    expect(codes(oldSearcher.search('cancer OR 2019[edat]'))).toEqual(['FIELD_NOT_INDEXED'])
    expect(oldSearcher.search('cancer AND 12[vi]').hits).toEqual([])
    // a tag PubMed does not have is dropped, the term searched in all fields, with a warning
    const unknown = searcher.search('cancer[zz]')
    expect(unknown.hits.map((hit) => hit.id).sort()).toEqual(matches('cancer'))
    expect(unknown.warnings.map((w) => [w.code, w.problem])).toEqual([['QUERY_SYNTAX', 'UNKNOWN_FIELD']])
  })

  it('ignores stop-word-only terms with a warning', () => {
    const ignored = searcher.search('the')
    expect(ignored.hits).toEqual([])
    expect(codes(ignored)).toEqual(['IGNORED_TERM', 'EMPTY_QUERY'])
    const partly = searcher.search('colon AND "of the"')
    expect(partly.hits.map((h) => h.id).sort()).toEqual(['103', '106'])
    expect(codes(partly)).toEqual(['IGNORED_TERM'])
  })

  it("reports the parser's workarounds with recover", () => {
    const result = searcher.search('hip [ti] OR [au]', { parse: { recover: true } })
    expect(result.hits.map((h) => h.id).sort()).toEqual(['104', '105', '107'])
    expect(result.warnings.map((w) => w.problem)).toEqual([
      'MISPLACED_FIELD_TAG',
      'MISSING_OPERAND',
    ])
  })

  it('checks limit and ranker', () => {
    expect(
      isPubmatchError(
        thrown(() => searcher.search('hip', { limit: -1 })),
        'INVALID_ARGUMENT',
      ),
    ).toBe(true)
    expect(
      isPubmatchError(
        thrown(() => searcher.search('hip', { ranker: 'bm26' as 'bm25' })),
        'INVALID_ARGUMENT',
      ),
    ).toBe(true)
    expect(
      isPubmatchError(
        thrown(() => createSearcher(reader, { scoredFields: ['nope'] }).search('hip')),
        'UNKNOWN_FIELD',
      ),
    ).toBe(true)
  })

  it('reads plain text as one bag of words, quotes and brackets included', () => {
    const result = searcher.search('heart "attack" (risk)', { syntax: 'plain', match: 'any' })
    expect(result.query).toEqual({
      kind: 'term',
      text: 'heart "attack" (risk)',
      quoted: false,
      field: null,
      noExplode: false,
      wildcard: false,
    })
    expect(result.hits.map((h) => h.id).sort()).toEqual(['101', '102', '109'])
  })

  it('drops English function words from plain-text queries, keeping their positions', () => {
    // "why", "you" and "vs" are not PubMed stop words.
    const plain = searcher.search('why heart vs you', { syntax: 'plain', match: 'any' })
    expect(plain.stats.clauses).toBe(1)
    expect(
      searcher.search('why heart vs you', { syntax: 'plain', match: 'any', queryStopwords: false })
        .stats.clauses,
    ).toBe(4)
    expect(searcher.search('why heart', { match: 'any' }).stats.clauses).toBe(2)
    // Dropped words keep their place: "pain" + gap + "hip" is 104's "pain in the hip".
    expect(matches('"pain why hip"', { queryStopwords: ['why'] })).toEqual([])
    expect(matches('"pain why why hip"', { queryStopwords: ['why'] })).toEqual(['104', '107'])
    expect(codes(searcher.search('why how', { syntax: 'plain' }))).toEqual([
      'IGNORED_TERM',
      'EMPTY_QUERY',
    ])
  })

  it('scores the joined forms of compounds only when asked', () => {
    // COX-2 → cox, 2 (and the joined cox2).
    const parts = searcher.search('cox-2', { match: 'any', explain: true })
    const joined = searcher.search('cox-2', { match: 'any', explain: true, joinedForms: true })
    expect(parts.stats.clauses).toBe(2)
    expect(joined.stats.clauses).toBe(3)
    expect(parts.hits.map((h) => h.id)).toEqual(['106'])
    expect(joined.hits[0]!.explain!.details.map((d) => d.label)).toEqual(['cox2', 'cox', '2'])
    expect(joined.hits[0]!.score).toBeGreaterThan(parts.hits[0]!.score)
  })

  it('takes a parsed tree', () => {
    const node = parseQuery('hip AND pain[ti]')
    const result = searcher.search(node)
    expect(result.query).toBe(node)
    expect(result.hits.map((h) => h.id).sort()).toEqual(['104', '105', '107'])
  })
})

describe('createSearcher: ranking', () => {
  it('ranks by score and breaks ties by document number, or by id descending', () => {
    const byDoc = searcher.search('twin')
    expect(byDoc.hits.map((h) => h.id)).toEqual(['111', '112'])
    expect(byDoc.hits[0]!.score).toBe(byDoc.hits[1]!.score)
    expect(byDoc.hits.map((h) => h.rank)).toEqual([1, 2])
    expect(searcher.search('twin', { tieBreak: 'idDescending' }).hits.map((h) => h.id)).toEqual([
      '112',
      '111',
    ])
  })

  it('computes BM25F over the scored fields with the index statistics', () => {
    // "hip" in 105: title "Hip pain in runners" (3 tokens: hip pain runners), abstract "Hip joint
    // pain is common in runners." (hip joint pain common runners: 5), no MeSH term "hip", no keywords.
    const hit = searcher.search('hip[tiab]', { limit: 10 }).hits.find((h) => h.id === '105')!
    const stats = (field: string): number => reader.fieldStats(field).sumLength
    const expected = bm25f({
      collection: {
        docCount: 12,
        fields: ['title', 'abstract', 'mesh', 'keywords'].map((name) => ({
          name,
          totalLength: stats(name),
        })),
      },
      // hip in 104 (title, abstract), 105, 107; [tiab] scores title, abstract and keywords.
      term: { docFreq: 3 },
      tfs: [1, 1, 0, 0],
      lengths: [3, 5, 1, 0],
    })
    expect(hit.score).toBe(expected.value)
    expect(stats('title')).toBe(
      SMALL_CORPUS.reduce(
        (sum, a) =>
          sum +
          biomedicalAnalyzer({ stem: false })
            .analyze(a.title)
            .filter((t) => t.positionLength === undefined).length,
        0,
      ),
    )
  })

  it('attaches explanation trees whose value is the score, for every ranker', () => {
    for (const ranker of SCORER_NAMES) {
      const result = searcher.search('colon cancer OR heart', {
        ranker,
        explain: true,
        match: 'any',
      })
      expect(result.hits.length).toBeGreaterThan(0)
      for (const hit of result.hits) {
        expect(hit.explain).toBeDefined()
        expect(hit.explain!.value).toBe(hit.score)
      }
    }
    const withoutExplain = searcher.search('colon')
    expect(withoutExplain.hits.every((hit) => hit.explain === undefined)).toBe(true)
  })

  it('returns the same hits with and without pruning, for every ranker and Boolean shape', () => {
    const queries = [
      'colon cancer',
      'heart OR hip OR pain',
      'cancer NOT breast',
      '"hip pain" OR heart',
      'colo* OR review',
    ]
    for (const ranker of SCORER_NAMES) {
      for (const query of queries) {
        for (const limit of [1, 2, 3]) {
          const pruned = searcher.search(query, { ranker, limit, match: 'any' })
          const exhaustive = searcher.search(query, { ranker, limit, match: 'any', pruning: false })
          expect(pruned.hits).toEqual(exhaustive.hits)
        }
      }
    }
  })

  it('uses a query analyzer override for every text field', () => {
    // An analyzer that upper-cases makes nothing match (the index is lower-case).
    const upper = createAnalyzer('upper', (text) => whitespaceTokenize(text.toUpperCase()), [])
    expect(matches('hip', { queryAnalyzer: upper })).toEqual([])
    expect(matches('hip', { queryAnalyzer: 'whitespace' })).toEqual(['104', '105', '107'])
  })
})
