import { PubmatchError } from '@pubmatch/core';
import { systemClock } from "./clock.js";
import { checkEFetchBody } from "./check-efetch.js";
import { planBatches, runOrdered, } from "./fetch-batches.js";
import { toParams } from "./params.js";
import { parseEInfo } from "./parse-einfo.js";
import { parseELink } from "./parse-elink.js";
import { parseEPost } from "./parse-epost.js";
import { parseESearch } from "./parse-esearch.js";
import { parseESpell } from "./parse-espell.js";
import { parseESummary } from "./parse-esummary.js";
import { createRateLimiter, defaultRequestsPerSecond } from "./rate-limiter.js";
import { efetchParams, einfoParams, elinkParams, epostParams, esearchParams, espellParams, esummaryParams, } from "./request-params.js";
import { resolveRetryOptions } from "./retry.js";
import { searchAllIds } from "./search-all.js";
import { createTransport } from "./transport.js";
/** The default E-utilities base URL. */
export const DEFAULT_EUTILS_BASE_URL = 'https://eutils.ncbi.nlm.nih.gov/entrez/eutils/';
function positive(value, name) {
    if (!(value > 0)) {
        throw new PubmatchError('INVALID_ARGUMENT', `ingest: entrez ${name} must be > 0, got ${value}`);
    }
    return value;
}
/**
 * Creates an E-utilities client: one rate limiter shared by all its requests, retries with
 * exponential backoff and jitter on 429/5xx/network errors/malformed bodies (honouring
 * `Retry-After`), per-attempt timeouts, POST for long id lists, and an optional persistent
 * response cache.
 * @param options - see {@link EntrezClientOptions}
 */
export function createEntrezClient(options = {}) {
    const clock = options.clock ?? systemClock;
    const rateLimiter = options.rateLimiter ??
        createRateLimiter({ requestsPerSecond: defaultRequestsPerSecond(options.apiKey), clock });
    const baseUrl = (options.baseUrl ?? DEFAULT_EUTILS_BASE_URL).replace(/\/*$/, '/');
    const retmode = options.retmode ?? 'xml';
    const transport = createTransport({
        baseUrl,
        fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
        limiter: rateLimiter,
        clock,
        timeoutMs: positive(options.timeoutMs ?? 30_000, 'timeoutMs'),
        retry: resolveRetryOptions(options.retry),
        cache: options.cache,
        identity: toParams({
            tool: options.tool ?? 'pubmatch',
            email: options.email,
            api_key: options.apiKey === '' ? undefined : options.apiKey,
        }),
        maxGetIds: positive(options.maxGetIds ?? 200, 'maxGetIds'),
        maxGetUrlLength: positive(options.maxGetUrlLength ?? 2000, 'maxGetUrlLength'),
        hooks: {
            ...(options.onRequest === undefined ? {} : { onRequest: options.onRequest }),
            ...(options.onRetry === undefined ? {} : { onRetry: options.onRetry }),
            ...(options.onResponse === undefined ? {} : { onResponse: options.onResponse }),
            ...(options.onCacheError === undefined ? {} : { onCacheError: options.onCacheError }),
        },
    });
    const efetch = async (params, call) => {
        const mode = params.retmode ?? 'xml';
        return await transport.send({
            utility: 'efetch',
            params: efetchParams(params),
            parse: (body, source) => {
                checkEFetchBody(body, mode, source);
                return body;
            },
            cacheable: true,
            ...(call === undefined ? {} : { call }),
        });
    };
    const esearch = async (params, call) => {
        const format = params.retmode ?? retmode;
        return await transport.send({
            utility: 'esearch',
            params: esearchParams(params, format),
            parse: (body, source) => parseESearch(body, format, source),
            // A history-server answer names server-side state that expires; never replay it.
            cacheable: params.usehistory !== true,
            ...(call === undefined ? {} : { call }),
        });
    };
    return {
        rateLimiter,
        esearch,
        async esummary(params, call) {
            const format = params.retmode ?? retmode;
            return await transport.send({
                utility: 'esummary',
                params: esummaryParams(params, format),
                parse: (body, source) => parseESummary(body, format, source),
                cacheable: true,
                ...(call === undefined ? {} : { call }),
            });
        },
        async elink(params, call) {
            const format = params.retmode ?? retmode;
            return await transport.send({
                utility: 'elink',
                params: elinkParams(params, format),
                parse: (body, source) => parseELink(body, format, source),
                cacheable: params.cmd !== 'neighbor_history',
                ...(call === undefined ? {} : { call }),
            });
        },
        async espell(params, call) {
            return await transport.send({
                utility: 'espell',
                params: espellParams(params),
                parse: (body, source) => parseESpell(body, source),
                cacheable: true,
                ...(call === undefined ? {} : { call }),
            });
        },
        async einfo(params = {}, call) {
            const format = params.retmode ?? retmode;
            return await transport.send({
                utility: 'einfo',
                params: einfoParams(params, format),
                parse: (body, source) => parseEInfo(body, format, source),
                cacheable: true,
                ...(call === undefined ? {} : { call }),
            });
        },
        async epost(params, call) {
            return await transport.send({
                utility: 'epost',
                params: epostParams(params),
                parse: (body, source) => parseEPost(body, source),
                cacheable: false,
                forcePost: true,
                ...(call === undefined ? {} : { call }),
            });
        },
        efetch,
        async *fetchBatches(source, batchOptions = {}) {
            const batches = planBatches(source, batchOptions);
            const stop = new AbortController();
            const signal = batchOptions.signal === undefined
                ? stop.signal
                : AbortSignal.any([batchOptions.signal, stop.signal]);
            const call = {
                signal,
                ...(batchOptions.cache === undefined ? {} : { cache: batchOptions.cache }),
                ...(batchOptions.timeoutMs === undefined ? {} : { timeoutMs: batchOptions.timeoutMs }),
            };
            const tasks = batches.map((batch) => async () => {
                const body = await efetch(batch.params, call);
                return {
                    ...(batch.ids === undefined ? {} : { ids: batch.ids }),
                    retstart: batch.retstart,
                    retmax: batch.retmax,
                    body,
                };
            });
            yield* runOrdered(tasks, batchOptions.concurrency ?? 1, () => stop.abort());
        },
        async searchAll(params, call) {
            return await searchAllIds(esearch, params, call);
        },
    };
}
