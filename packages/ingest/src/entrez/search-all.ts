import { PubmatchError } from '@pubmatch/core'
import { splitDateRange, type DateRange, type DateRangeCount } from './date-split.ts'
import type { ESearchResult, EntrezWarning } from './parse-esearch.ts'
import type { ESearchParams } from './request-params.ts'
import type { EntrezCallOptions } from './transport.ts'

/** Parameters of `searchAll`: an ESearch whose every id is wanted, however many. */
export interface SearchAllParams {
  /** Database. Defaults to `'pubmed'`. */
  readonly db?: string
  /** The query. */
  readonly term: string
  /** Date field used to split the result set. Defaults to `'pdat'` (publication date). */
  readonly datetype?: string
  /** Start of the date range to cover. Defaults to `'1781/01/01'` when a split is needed. */
  readonly mindate?: string
  /** End of the date range to cover. Defaults to the end of next year when a split is needed. */
  readonly maxdate?: string
  /**
   * The most ids one query may page through. Defaults to `9999`: ESearch does not page past
   * `retstart` 9,998 for PubMed.
   */
  readonly cap?: number
  /** Ids per ESearch page. Defaults to `9999` (one page per range). */
  readonly pageSize?: number
  /** Further ESearch parameters. */
  readonly extra?: ESearchParams['extra']
}

/** What `searchAll` found. */
export interface SearchAllResult {
  /** ESearch's count for the whole query (and date range, when given). */
  readonly count: number
  /**
   * Every id retrieved, in range order, without duplicates (a record whose print and
   * electronic dates fall in different ranges would otherwise come twice).
   */
  readonly ids: readonly string[]
  /** Whether the result set had to be split by date. */
  readonly split: boolean
  /** The date ranges paged, in date order (without a split: the given range, or none). */
  readonly ranges: readonly DateRangeCount[]
  /** Single days still above the cap: only their first `cap` ids were retrieved. */
  readonly overflow: readonly DateRangeCount[]
  /** ESearch requests made. */
  readonly requests: number
  /** The first answer's query translation. */
  readonly queryTranslation?: string
  /** The first answer's warnings (phrases not found …). */
  readonly warnings: readonly EntrezWarning[]
}

/** The ESearch call `searchAll` builds on. */
export type ESearchFunction = (
  params: ESearchParams,
  call?: EntrezCallOptions,
) => Promise<ESearchResult>

/**
 * Retrieves every id of a query, also above ESearch's 9,999-record paging cap: when the
 * count exceeds the cap, the date range is bisected (see `splitDateRange`) until each range
 * fits, and each range is paged separately with `mindate`/`maxdate`/`datetype`.
 * @param esearch - the client's ESearch
 * @param params - the query; see {@link SearchAllParams}
 * @param call - per-call options (signal, cache mode)
 * @param today - the current time, for the default `maxdate`. Defaults to `Date.now()`.
 */
export async function searchAllIds(
  esearch: ESearchFunction,
  params: SearchAllParams,
  call?: EntrezCallOptions,
  today: number = Date.now(),
): Promise<SearchAllResult> {
  const cap = params.cap ?? 9999
  const pageSize = params.pageSize ?? 9999
  if (!(pageSize >= 1) || !(cap >= 1)) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `searchAll needs cap ≥ 1 and pageSize ≥ 1, got ${cap} and ${pageSize}`,
    )
  }
  const datetype = params.datetype ?? 'pdat'
  let requests = 0
  const search = async (
    range: DateRange | undefined,
    retstart: number,
    retmax: number,
  ): Promise<ESearchResult> => {
    requests += 1
    return esearch(
      {
        db: params.db ?? 'pubmed',
        term: params.term,
        retstart,
        retmax,
        ...(range === undefined ? {} : { datetype, mindate: range.from, maxdate: range.to }),
        ...(params.extra === undefined ? {} : { extra: params.extra }),
      },
      call,
    )
  }
  const given: DateRange | undefined =
    params.mindate === undefined && params.maxdate === undefined
      ? undefined
      : {
          from: params.mindate ?? '1781/01/01',
          to: params.maxdate ?? `${new Date(today).getUTCFullYear() + 1}/12/31`,
        }

  const first = await search(given, 0, Math.min(pageSize, cap))
  const ids = new Set<string>()
  const page = async (
    range: DateRange | undefined,
    count: number,
    firstPage?: ESearchResult,
  ): Promise<void> => {
    const limit = Math.min(count, cap)
    let retstart = 0
    if (firstPage !== undefined) {
      firstPage.ids.forEach((id) => ids.add(id))
      retstart = firstPage.ids.length
      if (firstPage.ids.length === 0) {
        return
      }
    }
    while (retstart < limit) {
      const result = await search(range, retstart, Math.min(pageSize, limit - retstart))
      if (result.ids.length === 0) {
        break
      }
      result.ids.forEach((id) => ids.add(id))
      retstart += result.ids.length
    }
  }

  const common = {
    count: first.count,
    ...(first.queryTranslation === undefined ? {} : { queryTranslation: first.queryTranslation }),
    warnings: first.warnings,
  }
  if (first.count <= cap) {
    await page(given, first.count, first)
    return {
      ...common,
      ids: [...ids],
      split: false,
      ranges: given === undefined ? [] : [{ range: given, count: first.count }],
      overflow: [],
      requests,
    }
  }

  const whole: DateRange = given ?? {
    from: '1781/01/01',
    to: `${new Date(today).getUTCFullYear() + 1}/12/31`,
  }
  const split = await splitDateRange(
    whole,
    async (range) => (await search(range, 0, 0)).count,
    given === undefined ? { cap } : { cap, knownCount: first.count },
  )
  const ordered = [...split.leaves, ...split.overflow].sort((a, b) =>
    a.range.from < b.range.from ? -1 : a.range.from > b.range.from ? 1 : 0,
  )
  for (const { range, count } of ordered) {
    await page(range, count)
  }
  return {
    ...common,
    ids: [...ids],
    split: true,
    ranges: split.leaves,
    overflow: split.overflow,
    requests,
  }
}
