import { PubmatchError } from '@pubmatch/core';
import { systemClock } from "./clock.js";
/**
 * NCBI's published budget: 10 requests per second with an API key, 3 without.
 * @param apiKey - the NCBI API key, if any
 */
export function defaultRequestsPerSecond(apiKey) {
    return apiKey === undefined || apiKey === '' ? 3 : 10;
}
/**
 * Creates a spacing limiter (a token bucket of capacity one): request `n` may start no
 * earlier than `interval` after request `n − 1`. A bucket with a larger burst would let
 * `2 × rate − 1` requests through in some one-second windows, which NCBI counts as a breach.
 * @param options - rate and clock; see {@link RateLimiterOptions}
 */
export function createRateLimiter(options = {}) {
    const requestsPerSecond = options.requestsPerSecond ?? 3;
    if (!(requestsPerSecond > 0) || !Number.isFinite(requestsPerSecond)) {
        throw new PubmatchError('INVALID_ARGUMENT', `ingest: entrez rate limit must be a positive number of requests per second, got ${requestsPerSecond}`);
    }
    const clock = options.clock ?? systemClock;
    const intervalMs = 1000 / requestsPerSecond;
    let next = Number.NEGATIVE_INFINITY;
    return {
        requestsPerSecond,
        intervalMs,
        async acquire(signal) {
            const now = clock.now();
            const slot = Math.max(now, next);
            // Rounded up to the microsecond so that float error never puts n + 1 slots in n intervals.
            next = Math.ceil((slot + intervalMs) * 1000) / 1000;
            if (slot > now) {
                await clock.sleep(slot - now, signal);
            }
            return slot;
        },
        deferUntil(time) {
            next = Math.max(next, time);
        },
    };
}
