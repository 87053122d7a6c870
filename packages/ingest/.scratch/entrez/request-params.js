import { PubmatchError } from '@pubmatch/core';
import { normaliseIds, toParams } from "./params.js";
function historyParams(history) {
    return { WebEnv: history?.webEnv, query_key: history?.queryKey };
}
function requireIdsOrHistory(utility, hasIds, history) {
    if (!hasIds && history === undefined) {
        throw new PubmatchError('INVALID_ARGUMENT', `ingest: entrez ${utility} needs ids or a history reference (webEnv + queryKey)`);
    }
}
/**
 * The `id` (comma-joined), `WebEnv` and `query_key` parameters of a request that takes ids
 * or a history-server set.
 * @throws PubmatchError `INVALID_ARGUMENT` with neither
 */
function idsOrHistoryParams(utility, p) {
    const ids = p.ids === undefined ? [] : normaliseIds(p.ids);
    requireIdsOrHistory(utility, ids.length > 0, p.history);
    return { id: ids.length > 0 ? ids.join(',') : undefined, ...historyParams(p.history) };
}
/**
 * ESearch request parameters.
 * @param p - the parameters
 * @param retmode - the answer format
 */
export function esearchParams(p, retmode) {
    return toParams({
        db: p.db ?? 'pubmed',
        term: p.term,
        retstart: p.retstart,
        retmax: p.retmax,
        sort: p.sort,
        usehistory: p.usehistory === true,
        ...historyParams(p.history),
        datetype: p.datetype,
        mindate: p.mindate,
        maxdate: p.maxdate,
        reldate: p.reldate,
        retmode,
        ...p.extra,
    });
}
/**
 * ESummary request parameters.
 * @param p - the parameters
 * @param retmode - the answer format
 * @throws PubmatchError `INVALID_ARGUMENT` without ids or history
 */
export function esummaryParams(p, retmode) {
    return toParams({
        db: p.db ?? 'pubmed',
        ...idsOrHistoryParams('esummary', p),
        retstart: p.retstart,
        retmax: p.retmax,
        version: p.version,
        retmode,
        ...p.extra,
    });
}
/**
 * ELink request parameters (`idGroups` become repeated `id` parameters).
 * @param p - the parameters
 * @param retmode - the answer format
 * @throws PubmatchError `INVALID_ARGUMENT` without ids, id groups or history
 */
export function elinkParams(p, retmode) {
    // `ids` is the first group; each group is one `id` parameter.
    const groups = [p.ids ?? [], ...(p.idGroups ?? [])]
        .map(normaliseIds)
        .filter((group) => group.length > 0);
    requireIdsOrHistory('elink', groups.length > 0, p.history);
    return [
        ...toParams({
            dbfrom: p.dbfrom ?? 'pubmed',
            db: p.db,
            cmd: p.cmd,
            linkname: p.linkname,
            term: p.term,
        }),
        ...groups.map((group) => ['id', group.join(',')]),
        ...toParams({ ...historyParams(p.history), retmode, ...p.extra }),
    ];
}
/**
 * EPost request parameters.
 * @param p - the parameters
 * @throws PubmatchError `INVALID_ARGUMENT` for an empty id list
 */
export function epostParams(p) {
    const ids = normaliseIds(p.ids);
    if (ids.length === 0) {
        throw new PubmatchError('INVALID_ARGUMENT', 'ingest: entrez epost needs at least one id');
    }
    return toParams({ db: p.db ?? 'pubmed', id: ids.join(','), WebEnv: p.webEnv });
}
/**
 * EInfo request parameters.
 * @param p - the parameters
 * @param retmode - the answer format
 */
export function einfoParams(p, retmode) {
    return toParams({ db: p.db, version: p.version, retmode });
}
/**
 * ESpell request parameters.
 * @param p - the parameters
 */
export function espellParams(p) {
    return toParams({ db: p.db ?? 'pubmed', term: p.term });
}
/**
 * EFetch request parameters.
 * @param p - the parameters
 * @throws PubmatchError `INVALID_ARGUMENT` without ids or history
 */
export function efetchParams(p) {
    return toParams({
        db: p.db ?? 'pubmed',
        ...idsOrHistoryParams('efetch', p),
        retstart: p.retstart,
        retmax: p.retmax,
        rettype: p.rettype,
        retmode: p.retmode ?? 'xml',
        ...p.extra,
    });
}
