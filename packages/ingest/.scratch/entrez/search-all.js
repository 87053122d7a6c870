import { PubmatchError } from '@pubmatch/core';
import { splitDateRange } from "./date-split.js";
/**
 * Retrieves every id of a query, also above ESearch's 9,999-record paging cap: when the
 * count exceeds the cap, the date range is bisected (see `splitDateRange`) until each range
 * fits, and each range is paged separately with `mindate`/`maxdate`/`datetype`.
 * @param esearch - the client's ESearch
 * @param params - the query; see {@link SearchAllParams}
 * @param call - per-call options (signal, cache mode)
 * @param today - the current time, for the default `maxdate`. Defaults to `Date.now()`.
 */
export async function searchAllIds(esearch, params, call, today = Date.now()) {
    const cap = params.cap ?? 9999;
    const pageSize = params.pageSize ?? 9999;
    if (!(pageSize >= 1) || !(cap >= 1)) {
        throw new PubmatchError('INVALID_ARGUMENT', `ingest: searchAll needs cap ≥ 1 and pageSize ≥ 1, got ${cap} and ${pageSize}`);
    }
    const datetype = params.datetype ?? 'pdat';
    let requests = 0;
    const search = async (range, retstart, retmax) => {
        requests += 1;
        return esearch({
            db: params.db ?? 'pubmed',
            term: params.term,
            retstart,
            retmax,
            ...(range === undefined ? {} : { datetype, mindate: range.from, maxdate: range.to }),
            ...(params.extra === undefined ? {} : { extra: params.extra }),
        }, call);
    };
    const given = params.mindate === undefined && params.maxdate === undefined
        ? undefined
        : {
            from: params.mindate ?? '1781/01/01',
            to: params.maxdate ?? `${new Date(today).getUTCFullYear() + 1}/12/31`,
        };
    const first = await search(given, 0, Math.min(pageSize, cap));
    const ids = new Set();
    const page = async (range, count, firstPage) => {
        const limit = Math.min(count, cap);
        let retstart = 0;
        if (firstPage !== undefined) {
            firstPage.ids.forEach((id) => ids.add(id));
            retstart = firstPage.ids.length;
            if (firstPage.ids.length === 0) {
                return;
            }
        }
        while (retstart < limit) {
            const result = await search(range, retstart, Math.min(pageSize, limit - retstart));
            if (result.ids.length === 0) {
                break;
            }
            result.ids.forEach((id) => ids.add(id));
            retstart += result.ids.length;
        }
    };
    const common = {
        count: first.count,
        ...(first.queryTranslation === undefined ? {} : { queryTranslation: first.queryTranslation }),
        warnings: first.warnings,
    };
    if (first.count <= cap) {
        await page(given, first.count, first);
        return {
            ...common,
            ids: [...ids],
            split: false,
            ranges: given === undefined ? [] : [{ range: given, count: first.count }],
            overflow: [],
            requests,
        };
    }
    const whole = given ?? {
        from: '1781/01/01',
        to: `${new Date(today).getUTCFullYear() + 1}/12/31`,
    };
    const split = await splitDateRange(whole, async (range) => (await search(range, 0, 0)).count, given === undefined ? { cap } : { cap, knownCount: first.count });
    const ordered = [...split.leaves, ...split.overflow].sort((a, b) => a.range.from < b.range.from ? -1 : a.range.from > b.range.from ? 1 : 0);
    for (const { range, count } of ordered) {
        await page(range, count);
    }
    return {
        ...common,
        ids: [...ids],
        split: true,
        ranges: split.leaves,
        overflow: split.overflow,
        requests,
    };
}
