/**
 * Facet counts of the embedded engine: over every document the first stage matches (not the
 * page), each year, publication type and language as the index's doc values hold them (`year`;
 * `pubtype` and `language`, raw, each counted once per document). A Solr collection counts the
 * same doc values with its JSON Facet API (`createSolrServing` of `@pubmatch/solr`); both order
 * them alike: years newest first, the others by count, then by value.
 */
import type { FirstStageRanker, SearchFilters } from '@pubmatch/bm25f'
import { compareCodePoints } from '@pubmatch/core'
import type { IndexReader } from '@pubmatch/index'
import type { FacetCount, SearchFacets } from '@pubmatch/solr'

/**
 * The facets of a query's matching set.
 * @param reader - the index
 * @param searcher - its first stage
 * @param query - the query
 * @param filters - the search's filters
 * @param deadline - `performance.now()` past which the search stops with `TIMEOUT`
 */
export function matchingFacets(
  reader: IndexReader,
  searcher: FirstStageRanker,
  query: string,
  filters: SearchFilters | undefined,
  deadline: number | undefined,
): SearchFacets {
  const all = searcher.search(query, {
    limit: Math.max(1, reader.docCount),
    exactTotal: true,
    ...(filters === undefined ? {} : { filters }),
    ...(deadline === undefined ? {} : { deadline }),
  })
  const has = (list: readonly string[], name: string): boolean => list.includes(name)
  const years = new Map<string, number>()
  const types = new Map<string, number>()
  const languages = new Map<string, number>()
  const add = (counts: Map<string, number>, value: string): void => {
    counts.set(value, (counts.get(value) ?? 0) + 1)
  }
  const { numericDocValues, sortedSetDocValues } = reader.schema
  for (const hit of all.hits) {
    if (has(numericDocValues, 'year')) {
      const year = reader.numericValue('year', hit.docNumber)
      if (year !== undefined) {
        add(years, String(year))
      }
    }
    if (has(sortedSetDocValues, 'pubtype')) {
      reader.sortedSetValues('pubtype', hit.docNumber).forEach((value) => add(types, value))
    }
    if (has(sortedSetDocValues, 'language')) {
      reader.sortedSetValues('language', hit.docNumber).forEach((value) => add(languages, value))
    }
  }
  const list = (counts: Map<string, number>): FacetCount[] =>
    [...counts].map(([value, count]) => ({ value, count }))
  const byCount = (a: FacetCount, b: FacetCount): number =>
    b.count - a.count || compareCodePoints(a.value, b.value)
  return {
    years: list(years).sort((a, b) => Number(b.value) - Number(a.value)),
    publicationTypes: list(types).sort(byCount),
    languages: list(languages).sort(byCount),
  }
}
