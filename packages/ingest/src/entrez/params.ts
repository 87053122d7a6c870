/**
 * Request parameters as ordered name/value pairs. A list rather than a record because
 * E-utilities give meaning to repeated names (ELink's `id=1&id=2` asks for one link set
 * per id, `id=1,2` for one link set for both).
 */
export type EntrezParams = ReadonlyArray<readonly [name: string, value: string]>

/** A parameter value as callers pass it; `undefined` and `false` leave the parameter out. */
export type EntrezParamValue = string | number | boolean | undefined

/**
 * Builds {@link EntrezParams} from a record, dropping `undefined`/`false` values and writing
 * `true` as `y` (the E-utilities convention, e.g. `usehistory=y`).
 * @param record - parameter names and values, in the order they should appear
 */
export function toParams(
  record: Readonly<Record<string, EntrezParamValue>>,
): Array<[string, string]> {
  const params: Array<[string, string]> = []
  for (const [name, value] of Object.entries(record)) {
    if (value === undefined || value === false) {
      continue
    }
    params.push([name, value === true ? 'y' : String(value)])
  }
  return params
}

/**
 * The parameters sorted by name, keeping the order of repeated names (a stable sort), for
 * keys that must not depend on the order in which callers listed the parameters.
 * @param params - the parameters
 */
export function sortParams(params: EntrezParams): Array<readonly [string, string]> {
  return [...params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
}

/**
 * `application/x-www-form-urlencoded` text of the parameters (also the query string).
 * @param params - the parameters
 */
export function encodeParams(params: EntrezParams): string {
  const search = new URLSearchParams()
  for (const [name, value] of params) {
    search.append(name, value)
  }
  return search.toString()
}

/**
 * The parameters without `api_key`: what goes into cache keys, error messages and hooks,
 * so that a key never leaks into logs.
 * @param params - the parameters
 */
export function withoutApiKey(params: EntrezParams): EntrezParams {
  return params.filter(([name]) => name !== 'api_key')
}

/**
 * A URL for messages and logs: the endpoint with its parameters, minus `api_key`. Long
 * values (id lists) are shortened so that a message stays readable.
 * @param endpointUrl - the endpoint, e.g. `https://eutils.ncbi.nlm.nih.gov/entrez/eutils/esearch.fcgi`
 * @param params - the request parameters
 */
export function describeUrl(endpointUrl: string, params: EntrezParams): string {
  const shown: Array<[string, string]> = withoutApiKey(params).map(([name, value]) => [
    name,
    value.length > 120 ? `${value.slice(0, 100)}…(${value.length} chars)` : value,
  ])
  const query = encodeParams(shown)
  return query === '' ? endpointUrl : `${endpointUrl}?${query}`
}

/**
 * Normalises a list of ids: trims, drops empty strings, keeps order and duplicates.
 * @param ids - UIDs as strings or numbers
 */
export function normaliseIds(ids: ReadonlyArray<string | number>): string[] {
  return ids.map((id) => String(id).trim()).filter((id) => id !== '')
}
