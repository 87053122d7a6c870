/**
 * Builds {@link EntrezParams} from a record, dropping `undefined`/`false` values and writing
 * `true` as `y` (the E-utilities convention, e.g. `usehistory=y`).
 * @param record - parameter names and values, in the order they should appear
 */
export function toParams(record) {
    const params = [];
    for (const [name, value] of Object.entries(record)) {
        if (value === undefined || value === false) {
            continue;
        }
        params.push([name, value === true ? 'y' : String(value)]);
    }
    return params;
}
/**
 * The parameters sorted by name, keeping the order of repeated names (a stable sort), for
 * keys that must not depend on the order in which callers listed the parameters.
 * @param params - the parameters
 */
export function sortParams(params) {
    return [...params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
/**
 * `application/x-www-form-urlencoded` text of the parameters (also the query string).
 * @param params - the parameters
 */
export function encodeParams(params) {
    const search = new URLSearchParams();
    for (const [name, value] of params) {
        search.append(name, value);
    }
    return search.toString();
}
/**
 * The parameters without `api_key`: what goes into cache keys, error messages and hooks,
 * so that a key never leaks into logs.
 * @param params - the parameters
 */
export function withoutApiKey(params) {
    return params.filter(([name]) => name !== 'api_key');
}
/**
 * A URL for messages and logs: the endpoint with its parameters, minus `api_key`. Long
 * values (id lists) are shortened so that a message stays readable.
 * @param endpointUrl - the endpoint, e.g. `https://eutils.ncbi.nlm.nih.gov/entrez/eutils/esearch.fcgi`
 * @param params - the request parameters
 */
export function describeUrl(endpointUrl, params) {
    const shown = withoutApiKey(params).map(([name, value]) => [
        name,
        value.length > 120 ? `${value.slice(0, 100)}…(${value.length} chars)` : value,
    ]);
    const query = encodeParams(shown);
    return query === '' ? endpointUrl : `${endpointUrl}?${query}`;
}
/**
 * Normalises a list of ids: trims, drops empty strings, keeps order and duplicates.
 * @param ids - UIDs as strings or numbers
 */
export function normaliseIds(ids) {
    return ids.map((id) => String(id).trim()).filter((id) => id !== '');
}
