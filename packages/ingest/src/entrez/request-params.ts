import { PubmatchError } from '@pubmatch/core'
import { normaliseIds, toParams, type EntrezParamValue, type EntrezParams } from './params.ts'
import type { EntrezFormat } from './parse-common.ts'

/** A set of records stored on the history server (from ESearch `usehistory=y` or EPost). */
export interface HistoryRef {
  /** The Web environment. */
  readonly webEnv: string
  /** The query key within it. */
  readonly queryKey: string | number
}

/** Parameters any request may add verbatim (names as NCBI spells them). */
export interface ExtraParams {
  /** Further parameters, e.g. `{ field: 'title' }`; `undefined`/`false` values are left out. */
  readonly extra?: Readonly<Record<string, EntrezParamValue>>
}

/** ESearch parameters. */
export interface ESearchParams extends ExtraParams {
  /** Database. Defaults to `'pubmed'`. */
  readonly db?: string
  /** The query. */
  readonly term: string
  /** Offset of the first id returned. Defaults to NCBI's `0`. */
  readonly retstart?: number
  /** Number of ids returned. Defaults to NCBI's `20`; at most 10,000. */
  readonly retmax?: number
  /** Sort order, e.g. `relevance`, `pub_date`. Defaults to NCBI's (relevance for PubMed). */
  readonly sort?: string
  /** Store the result on the history server. Defaults to `false`. */
  readonly usehistory?: boolean
  /** Combine with (or store into) this history. */
  readonly history?: Partial<HistoryRef>
  /** Date field for `mindate`/`maxdate`/`reldate`: `pdat`, `edat`, `mdat`… */
  readonly datetype?: string
  /** Start of the date range, `YYYY`, `YYYY/MM` or `YYYY/MM/DD`. */
  readonly mindate?: string
  /** End of the date range (inclusive). */
  readonly maxdate?: string
  /** Only records from the last `reldate` days. */
  readonly reldate?: number
  /** Answer format. Defaults to the client's `retmode`. */
  readonly retmode?: EntrezFormat
}

/** ESummary parameters: ids or a history reference. */
export interface ESummaryParams extends ExtraParams {
  /** Database. Defaults to `'pubmed'`. */
  readonly db?: string
  /** UIDs to summarise. */
  readonly ids?: ReadonlyArray<string | number>
  /** Or: a history-server set. */
  readonly history?: HistoryRef
  /** Offset within a history set. */
  readonly retstart?: number
  /** Number of summaries from a history set. */
  readonly retmax?: number
  /** `'2.0'` for version 2.0 XML summaries. Defaults to NCBI's version 1 XML. */
  readonly version?: string
  /** Answer format. Defaults to the client's `retmode`. */
  readonly retmode?: EntrezFormat
}

/** ELink parameters. */
export interface ELinkParams extends ExtraParams {
  /** Source database. Defaults to `'pubmed'`. */
  readonly dbfrom?: string
  /** Target database(s). Defaults to `dbfrom` on NCBI's side. */
  readonly db?: string
  /** Source UIDs, linked as one group (`id=1,2,3` → one link set). */
  readonly ids?: ReadonlyArray<string | number>
  /** Or: groups linked separately (`id=1&id=2` → one link set per group). */
  readonly idGroups?: ReadonlyArray<ReadonlyArray<string | number>>
  /** Or: a history-server set. */
  readonly history?: HistoryRef
  /** `neighbor` (default), `neighbor_score`, `neighbor_history`, `acheck`, `ncheck`, `lcheck`, `llinks`, `prlinks`… */
  readonly cmd?: string
  /** Restrict to one link, e.g. `pubmed_pubmed_citedin`. */
  readonly linkname?: string
  /** Restrict linked records to an Entrez query. */
  readonly term?: string
  /** Answer format. Defaults to the client's `retmode`. */
  readonly retmode?: EntrezFormat
}

/** EPost parameters. */
export interface EPostParams {
  /** Database. Defaults to `'pubmed'`. */
  readonly db?: string
  /** UIDs to store. */
  readonly ids: ReadonlyArray<string | number>
  /** Add the set to an existing Web environment. */
  readonly webEnv?: string
}

/** EInfo parameters. */
export interface EInfoParams {
  /** A database to describe; without it EInfo lists every database. */
  readonly db?: string
  /** `'2.0'` for version 2.0 answers. */
  readonly version?: string
  /** Answer format. Defaults to the client's `retmode`. */
  readonly retmode?: EntrezFormat
}

/** ESpell parameters. */
export interface ESpellParams {
  /** Database. Defaults to `'pubmed'`. */
  readonly db?: string
  /** The query to check. */
  readonly term: string
}

/** EFetch parameters (one request; see the client's `fetchBatches` for many). */
export interface EFetchParams extends ExtraParams {
  /** Database. Defaults to `'pubmed'`. */
  readonly db?: string
  /** UIDs to fetch. */
  readonly ids?: ReadonlyArray<string | number>
  /** Or: a history-server set. */
  readonly history?: HistoryRef
  /** Offset within a history set. */
  readonly retstart?: number
  /** Number of records from a history set. */
  readonly retmax?: number
  /** Record format, e.g. `abstract`, `medline`. Defaults to NCBI's full record. */
  readonly rettype?: string
  /** `xml` or `text`. Defaults to `'xml'`. */
  readonly retmode?: string
}

function historyParams(history: Partial<HistoryRef> | undefined): Record<string, EntrezParamValue> {
  return { WebEnv: history?.webEnv, query_key: history?.queryKey }
}

function requireIdsOrHistory(
  utility: string,
  hasIds: boolean,
  history: HistoryRef | undefined,
): void {
  if (!hasIds && history === undefined) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `entrez ${utility} needs ids or a history reference (webEnv + queryKey)`,
    )
  }
}

/**
 * The `id` (comma-joined), `WebEnv` and `query_key` parameters of a request that takes ids
 * or a history-server set.
 * @throws PubmatchError `INVALID_ARGUMENT` with neither
 */
function idsOrHistoryParams(
  utility: string,
  p: { readonly ids?: ReadonlyArray<string | number>; readonly history?: HistoryRef },
): Record<string, EntrezParamValue> {
  const ids = p.ids === undefined ? [] : normaliseIds(p.ids)
  requireIdsOrHistory(utility, ids.length > 0, p.history)
  return { id: ids.length > 0 ? ids.join(',') : undefined, ...historyParams(p.history) }
}

/**
 * ESearch request parameters.
 * @param p - the parameters
 * @param retmode - the answer format
 */
export function esearchParams(p: ESearchParams, retmode: EntrezFormat): EntrezParams {
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
  })
}

/**
 * ESummary request parameters.
 * @param p - the parameters
 * @param retmode - the answer format
 * @throws PubmatchError `INVALID_ARGUMENT` without ids or history
 */
export function esummaryParams(p: ESummaryParams, retmode: EntrezFormat): EntrezParams {
  return toParams({
    db: p.db ?? 'pubmed',
    ...idsOrHistoryParams('esummary', p),
    retstart: p.retstart,
    retmax: p.retmax,
    version: p.version,
    retmode,
    ...p.extra,
  })
}

/**
 * ELink request parameters (`idGroups` become repeated `id` parameters).
 * @param p - the parameters
 * @param retmode - the answer format
 * @throws PubmatchError `INVALID_ARGUMENT` without ids, id groups or history
 */
export function elinkParams(p: ELinkParams, retmode: EntrezFormat): EntrezParams {
  // `ids` is the first group; each group is one `id` parameter.
  const groups = [p.ids ?? [], ...(p.idGroups ?? [])]
    .map(normaliseIds)
    .filter((group) => group.length > 0)
  requireIdsOrHistory('elink', groups.length > 0, p.history)
  return [
    ...toParams({
      dbfrom: p.dbfrom ?? 'pubmed',
      db: p.db,
      cmd: p.cmd,
      linkname: p.linkname,
      term: p.term,
    }),
    ...groups.map((group) => ['id', group.join(',')] as const),
    ...toParams({ ...historyParams(p.history), retmode, ...p.extra }),
  ]
}

/**
 * EPost request parameters.
 * @param p - the parameters
 * @throws PubmatchError `INVALID_ARGUMENT` for an empty id list
 */
export function epostParams(p: EPostParams): EntrezParams {
  const ids = normaliseIds(p.ids)
  if (ids.length === 0) {
    throw new PubmatchError('INVALID_ARGUMENT', 'entrez epost needs at least one id')
  }
  return toParams({ db: p.db ?? 'pubmed', id: ids.join(','), WebEnv: p.webEnv })
}

/**
 * EInfo request parameters.
 * @param p - the parameters
 * @param retmode - the answer format
 */
export function einfoParams(p: EInfoParams, retmode: EntrezFormat): EntrezParams {
  return toParams({ db: p.db, version: p.version, retmode })
}

/**
 * ESpell request parameters.
 * @param p - the parameters
 */
export function espellParams(p: ESpellParams): EntrezParams {
  return toParams({ db: p.db ?? 'pubmed', term: p.term })
}

/**
 * EFetch request parameters.
 * @param p - the parameters
 * @throws PubmatchError `INVALID_ARGUMENT` without ids or history
 */
export function efetchParams(p: EFetchParams): EntrezParams {
  return toParams({
    db: p.db ?? 'pubmed',
    ...idsOrHistoryParams('efetch', p),
    retstart: p.retstart,
    retmax: p.retmax,
    rettype: p.rettype,
    retmode: p.retmode ?? 'xml',
    ...p.extra,
  })
}
