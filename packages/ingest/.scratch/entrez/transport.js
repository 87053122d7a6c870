import { PubmatchError, isPubmatchError, toPubmatchError, truncateForMessage } from '@pubmatch/core';
import { abortedError } from "./clock.js";
import { describeUrl, encodeParams } from "./params.js";
import { responseCacheKey } from "./response-cache.js";
import { backoffDelay, isRetryableStatus, parseRetryAfter, } from "./retry.js";
/**
 * Counts the ids of a request (the comma-separated values of every `id` parameter), which
 * decides between GET and POST.
 * @param params - the request parameters
 */
export function countIds(params) {
    let n = 0;
    for (const [name, value] of params) {
        if (name === 'id' && value !== '') {
            n += value.split(',').length;
        }
    }
    return n;
}
/**
 * Creates the transport the Entrez client sends every request through.
 * @param options - see {@link TransportOptions}
 */
export function createTransport(options) {
    const { clock, limiter, retry, hooks } = options;
    const attemptOnce = async (request, method, endpoint, params, source, timeoutMs) => {
        const callerSignal = request.call?.signal;
        const timeout = AbortSignal.timeout(timeoutMs);
        const signal = callerSignal === undefined ? timeout : AbortSignal.any([callerSignal, timeout]);
        const query = encodeParams(params);
        let status;
        let body;
        let retryAfter;
        try {
            const response = method === 'GET'
                ? await options.fetch(`${endpoint}?${query}`, { method, signal })
                : await options.fetch(endpoint, {
                    method,
                    body: query,
                    headers: { 'content-type': 'application/x-www-form-urlencoded' },
                    signal,
                });
            status = response.status;
            retryAfter = response.headers.get('retry-after');
            body = await response.text();
        }
        catch (error) {
            if (callerSignal?.aborted === true) {
                throw abortedError(callerSignal);
            }
            if (timeout.aborted) {
                return {
                    ok: false,
                    retryable: true,
                    error: new PubmatchError('UPSTREAM_TIMEOUT', `ingest: entrez ${request.utility} did not answer within ${timeoutMs} ms: ${source}`, { cause: error, details: { url: source, timeoutMs } }),
                };
            }
            return {
                ok: false,
                retryable: true,
                error: new PubmatchError('NETWORK', `ingest: entrez ${request.utility} request failed (${describeCause(error)}): ${source}`, { cause: error, details: { url: source } }),
            };
        }
        if (status < 200 || status > 299) {
            // An HTTP-date Retry-After is wall time, so it is measured against Date.now(), not the clock.
            const retryAfterMs = parseRetryAfter(retryAfter, Date.now());
            return {
                ok: false,
                retryable: isRetryableStatus(status),
                status,
                ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
                error: new PubmatchError('UPSTREAM_HTTP', `ingest: entrez ${request.utility} answered HTTP ${status} for ${source}: "${truncateForMessage(body)}"`, {
                    details: {
                        url: source,
                        status,
                        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
                    },
                }),
            };
        }
        try {
            return { ok: true, value: request.parse(body, source), body };
        }
        catch (error) {
            const wrapped = toPubmatchError(error);
            const retryable = wrapped.code === 'MALFORMED_XML' ||
                wrapped.code === 'MALFORMED_JSON' ||
                (wrapped.code === 'UPSTREAM_ERROR' && wrapped.details['transient'] === true);
            return { ok: false, retryable, status, error: wrapped };
        }
    };
    const readCache = async (request, key, source) => {
        const cache = options.cache;
        if (cache === undefined) {
            return undefined;
        }
        try {
            const hit = await cache.get(key);
            if (hit === undefined) {
                return undefined;
            }
            try {
                const value = request.parse(hit.body, source);
                hooks.onResponse?.({
                    utility: request.utility,
                    url: source,
                    bodyLength: hit.body.length,
                    fromCache: true,
                    attempts: 0,
                });
                return value;
            }
            catch {
                await cache.delete(key);
                return undefined;
            }
        }
        catch (error) {
            hooks.onCacheError?.(toPubmatchError(error, 'IO'));
            return undefined;
        }
    };
    return {
        async send(request) {
            const callerSignal = request.call?.signal;
            if (callerSignal?.aborted === true) {
                throw abortedError(callerSignal);
            }
            const endpoint = `${options.baseUrl}${request.utility}.fcgi`;
            const params = [...request.params, ...options.identity];
            const getUrlLength = endpoint.length + 1 + encodeParams(params).length;
            const method = request.forcePost === true ||
                countIds(params) > options.maxGetIds ||
                getUrlLength > options.maxGetUrlLength
                ? 'POST'
                : 'GET';
            const source = describeUrl(endpoint, params);
            const cacheMode = request.call?.cache ?? 'use';
            const cacheKey = request.cacheable && options.cache !== undefined && cacheMode !== 'bypass'
                ? responseCacheKey(method, endpoint, params)
                : undefined;
            if (cacheKey !== undefined && cacheMode === 'use') {
                const cached = await readCache(request, cacheKey, source);
                if (cached !== undefined) {
                    return cached;
                }
            }
            const timeoutMs = request.call?.timeoutMs ?? options.timeoutMs;
            for (let attempt = 1;; attempt += 1) {
                const slot = await limiter.acquire(callerSignal);
                hooks.onRequest?.({ utility: request.utility, method, url: source, attempt, slot });
                const outcome = await attemptOnce(request, method, endpoint, params, source, timeoutMs);
                if (outcome.ok) {
                    if (cacheKey !== undefined && options.cache !== undefined) {
                        await options.cache
                            .set(cacheKey, outcome.body, `${method} ${source}`)
                            .catch((error) => {
                            hooks.onCacheError?.(toPubmatchError(error, 'IO'));
                        });
                    }
                    hooks.onResponse?.({
                        utility: request.utility,
                        url: source,
                        bodyLength: outcome.body.length,
                        fromCache: false,
                        attempts: attempt,
                    });
                    return outcome.value;
                }
                const { error } = outcome;
                error.details['attempts'] = attempt;
                if (!outcome.retryable || attempt > retry.retries) {
                    throw error;
                }
                if (outcome.retryAfterMs !== undefined && outcome.retryAfterMs > retry.maxRetryAfterMs) {
                    throw error;
                }
                const delayMs = outcome.retryAfterMs ?? backoffDelay(attempt, retry);
                if (outcome.retryAfterMs !== undefined) {
                    limiter.deferUntil(clock.now() + outcome.retryAfterMs);
                }
                hooks.onRetry?.({
                    utility: request.utility,
                    url: source,
                    attempt,
                    delayMs,
                    error,
                    ...(outcome.status === undefined ? {} : { status: outcome.status }),
                    ...(outcome.retryAfterMs === undefined ? {} : { retryAfterMs: outcome.retryAfterMs }),
                });
                await clock.sleep(delayMs, callerSignal);
            }
        },
    };
}
function describeCause(error) {
    if (isPubmatchError(error)) {
        return error.message;
    }
    if (error instanceof Error) {
        const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
        return `${error.message}${cause}`;
    }
    return String(error);
}
