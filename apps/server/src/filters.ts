/**
 * The search filters of the query string (`year`, `pt`, `lang`), shared by `GET /search` and
 * `GET /articles/:pmid/explain`: their schema, the engine's `SearchFilters`, and their labels in
 * the search log. Years follow the one grammar of `parseYearRange` (`@pubmatch/bm25f`), as the
 * CLI's `--year` does.
 */
import { parseYearRange, YEAR_RANGE_PATTERN, type SearchFilters } from '@pubmatch/bm25f'

/** The filters as the query string has them. */
export interface FilterQuery {
  readonly year?: string
  readonly pt?: readonly string[]
  readonly lang?: readonly string[]
}

/** A query-string parameter of strings (repeatable: `pt=Review&pt=Letter`). */
interface StringListParameter {
  readonly type: 'array'
  readonly items: { readonly type: 'string'; readonly maxLength: number }
  readonly maxItems: number
  readonly description: string
}

/** The filters' query-string properties (JSON schema). */
export const FILTER_PROPERTIES: {
  readonly year: { readonly type: 'string'; readonly pattern: string; readonly description: string }
  readonly pt: StringListParameter
  readonly lang: StringListParameter
} = {
  year: { type: 'string', pattern: YEAR_RANGE_PATTERN, description: 'YYYY, YYYY:YYYY, YYYY: (from) or :YYYY (until)' },
  pt: { type: 'array', items: { type: 'string', maxLength: 100 }, maxItems: 20, description: 'Publication types (any of them)' },
  lang: { type: 'array', items: { type: 'string', maxLength: 20 }, maxItems: 20, description: 'Language codes (any of them)' },
}

/**
 * The engine's filters of a query string.
 * @param query - `year`, `pt`, `lang`
 * @returns the filters, or `undefined` when there are none
 * @throws PubmatchError `INVALID_ARGUMENT` for a year range that starts after it ends
 */
export function filtersOf(query: FilterQuery): SearchFilters | undefined {
  const filters: SearchFilters = {
    ...(query.year === undefined ? {} : { years: parseYearRange(query.year) }),
    ...(query.pt === undefined || query.pt.length === 0 ? {} : { publicationTypes: query.pt }),
    ...(query.lang === undefined || query.lang.length === 0 ? {} : { languages: query.lang }),
  }
  return Object.keys(filters).length === 0 ? undefined : filters
}

/**
 * A search's filters (and a date sort) as the search log records them: `year:…`, `pt:…`, `lang:…`, `sort:date`.
 * @param query - the filters and the sort
 */
export function filterLabels(query: FilterQuery & { readonly sort?: string }): string[] {
  return [
    ...(query.year === undefined ? [] : [`year:${query.year}`]),
    ...(query.pt ?? []).map((pt) => `pt:${pt}`),
    ...(query.lang ?? []).map((lang) => `lang:${lang}`),
    ...(query.sort === 'date' ? ['sort:date'] : []),
  ]
}
