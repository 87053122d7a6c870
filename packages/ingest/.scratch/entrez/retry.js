/**
 * Fills in the defaults of {@link RetryOptions}.
 * @param options - the caller's choices
 */
export function resolveRetryOptions(options = {}) {
    return {
        retries: options.retries ?? 4,
        baseDelayMs: options.baseDelayMs ?? 1000,
        maxDelayMs: options.maxDelayMs ?? 30_000,
        jitter: Math.min(1, Math.max(0, options.jitter ?? 0.5)),
        maxRetryAfterMs: options.maxRetryAfterMs ?? 120_000,
        random: options.random ?? Math.random,
    };
}
/**
 * The wait before retry number `retry` (1-based): exponential backoff with jitter,
 * `d = min(maxDelayMs, baseDelayMs · 2^(retry−1))`, then `d · (1 − jitter + jitter · random())`.
 * @param retry - which retry this is, starting at 1
 * @param options - resolved retry options (their `random` supplies the jitter)
 */
export function backoffDelay(retry, options) {
    const exponential = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, retry - 1));
    return exponential * (1 - options.jitter + options.jitter * options.random());
}
/**
 * Reads an HTTP `Retry-After` header, which is either delay-seconds (`"120"`) or an
 * HTTP-date (`"Wed, 21 Oct 2015 07:28:00 GMT"`).
 * @param value - the header value, or `null`/`undefined` when absent
 * @param nowMs - the current time in Unix milliseconds, to turn a date into a delay
 * @returns the delay in milliseconds (never negative), or `undefined` when absent or unreadable
 */
export function parseRetryAfter(value, nowMs) {
    if (value === null || value === undefined) {
        return undefined;
    }
    const trimmed = value.trim();
    if (/^\d+$/.test(trimmed)) {
        return Number(trimmed) * 1000;
    }
    if (!/[a-z]/i.test(trimmed)) {
        return undefined;
    }
    const date = Date.parse(trimmed);
    return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
/**
 * Whether an HTTP status is worth retrying: 429 (rate limited), 408 (request timeout) and
 * every 5xx. Other 4xx statuses mean the request itself is wrong.
 * @param status - the HTTP status code
 */
export function isRetryableStatus(status) {
    return status === 429 || status === 408 || (status >= 500 && status <= 599);
}
