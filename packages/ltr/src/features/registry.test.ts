import { describe, expect, it } from 'vitest'
import { BEST_MATCH_SCHEMA, COLUMNS, FEATURE_COUNT, LANGUAGES, PUBLICATION_TYPES, slug } from './registry.ts'

describe('BEST_MATCH_SCHEMA', () => {
  const features = BEST_MATCH_SCHEMA.features

  it('lists 179 features F1…F179 in columns 0…178', () => {
    expect(features).toHaveLength(FEATURE_COUNT)
    features.forEach((feature, i) => {
      expect(feature.id).toBe(`F${i + 1}`)
      expect(feature.column).toBe(i)
    })
    expect(BEST_MATCH_SCHEMA.version).toBe('bestmatch-179/1')
  })

  it('has 142 document, 33 query-document and 4 query features, in that order', () => {
    const count = (group: string): number => features.filter((f) => f.group === group).length
    expect([count('document'), count('query-document'), count('query')]).toEqual([142, 33, 4])
    expect(features.slice(0, 142).every((f) => f.group === 'document')).toBe(true)
    expect(features.slice(142, 175).every((f) => f.group === 'query-document')).toBe(true)
    expect(features.slice(175).every((f) => f.group === 'query')).toBe(true)
  })

  it('has unique names and a description for each feature', () => {
    expect(new Set(features.map((f) => f.name)).size).toBe(FEATURE_COUNT)
    expect(features.every((f) => f.description.length > 10)).toBe(true)
  })

  it('builds the one-hot blocks from NCBI’s 74 publication types and 61 languages', () => {
    expect(PUBLICATION_TYPES).toHaveLength(74)
    expect(LANGUAGES).toHaveLength(61)
    expect(features[3]!.name).toBe('pubtype_addresses') // F4
    expect(features[7]!.name).toBe('pubtype_case_reports') // F8
    expect(features[38]!.name).toBe('pubtype_journal_article') // F39
    expect(features[76]!.name).toBe('pubtype_book') // F77
    expect(features[79]!.name).toBe('language_afr') // F80
    expect(features[93]!.name).toBe('language_eng') // F94
    expect(features[139]!.name).toBe('language_wel') // F140
    expect(slug('Research Support, N.I.H., Extramural')).toBe('research_support_n_i_h_extramural')
  })

  it('places the named columns where the spec puts them', () => {
    const name = (column: number): string => features[column]!.name
    expect(name(COLUMNS.year)).toBe('year') // F1
    expect(name(COLUMNS.titleTokens)).toBe('title_tokens') // F78
    expect(name(COLUMNS.abstractStopwordRatio)).toBe('abstract_stopword_ratio') // F142
    expect(name(COLUMNS.firstStageScore)).toBe('first_stage_score') // F143
    expect(name(COLUMNS.abstractAvgPosition)).toBe('abstract_avg_match_position') // F148
    expect(name(COLUMNS.spanFirst)).toBe('span_multi_term_spans') // F149
    expect(name(COLUMNS.spanFirst + 18)).toBe('span_longest_running_density') // F167
    expect(name(COLUMNS.titleMatches)).toBe('title_matches') // F168
    expect(name(COLUMNS.titleIdfTiab)).toBe('title_idf_sum_tiab') // F171
    expect(name(COLUMNS.meshIdfTiab)).toBe('mesh_idf_sum_tiab') // F175
    expect(name(COLUMNS.resultCount)).toBe('result_count') // F176
    expect(name(COLUMNS.queryUniqueTokens)).toBe('query_unique_tokens') // F179
  })

  it('documents −1 as the neutral average position and 0 elsewhere', () => {
    const nonZero = features.filter((f) => f.neutral !== 0).map((f) => [f.id, f.neutral])
    expect(nonZero).toEqual([
      ['F147', -1],
      ['F148', -1],
    ])
  })
})
