import { createHash } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '@pubmatch/core/node';
import { PubmatchError } from '@pubmatch/core';
import { systemClock } from "./clock.js";
import { sortParams, withoutApiKey } from "./params.js";
const ENTRY_VERSION = 1;
/**
 * The cache key of a request: SHA-256 over the method, the endpoint URL and the parameters
 * sorted by name, with `api_key` left out so that the same request made with another key
 * (or none) hits the same entry.
 * @param method - `GET` or `POST`
 * @param endpointUrl - the endpoint URL without query string
 * @param params - the request parameters
 */
export function responseCacheKey(method, endpointUrl, params) {
    const hash = createHash('sha256');
    hash.update(`${method.toUpperCase()}\n${endpointUrl}\n`);
    for (const [name, value] of sortParams(withoutApiKey(params))) {
        hash.update(`${name}=${value}\n`);
    }
    return hash.digest('hex');
}
/**
 * Creates a response cache in `dir` (created on first write). Entries live in
 * `dir/<first two hex digits>/<key>.json`.
 * @param dir - the cache directory
 * @param options - TTL and clock; see {@link ResponseCacheOptions}
 */
export function createResponseCache(dir, options = {}) {
    const ttlMs = options.ttlMs ?? 86_400_000;
    if (!(ttlMs >= 0)) {
        throw new PubmatchError('INVALID_ARGUMENT', `ingest: response cache TTL must be ≥ 0 ms, got ${ttlMs}`);
    }
    const clock = options.clock ?? systemClock;
    const pathOf = (key) => {
        if (!/^[0-9a-f]{16,}$/.test(key)) {
            throw new PubmatchError('INVALID_ARGUMENT', `ingest: response cache key must be lowercase hex, got "${key.slice(0, 80)}"`);
        }
        return join(dir, key.slice(0, 2), `${key}.json`);
    };
    return {
        dir,
        ttlMs,
        async get(key) {
            const path = pathOf(key);
            let text;
            try {
                text = await readFile(path, 'utf8');
            }
            catch (error) {
                if (isMissing(error)) {
                    return undefined;
                }
                throw new PubmatchError('IO', `ingest: cannot read response cache entry ${path}: ${error.message}`, {
                    cause: error,
                    details: { file: path },
                });
            }
            const entry = readEntry(text, key);
            if (entry === undefined || clock.now() - entry.storedAt > ttlMs) {
                await rm(path, { force: true }).catch(() => undefined);
                return undefined;
            }
            return entry;
        },
        async set(key, body, request) {
            const path = pathOf(key);
            const entry = { version: ENTRY_VERSION, key, request, storedAt: clock.now(), body };
            try {
                await mkdir(dirname(path), { recursive: true });
                await writeFileAtomic(path, JSON.stringify(entry));
            }
            catch (error) {
                throw new PubmatchError('IO', `ingest: cannot write response cache entry ${path}: ${error.message}`, {
                    cause: error,
                    details: { file: path },
                });
            }
        },
        async delete(key) {
            await rm(pathOf(key), { force: true });
        },
    };
}
function isMissing(error) {
    const code = error?.code;
    return code === 'ENOENT' || code === 'ENOTDIR';
}
function readEntry(text, key) {
    let value;
    try {
        value = JSON.parse(text);
    }
    catch {
        return undefined;
    }
    if (typeof value !== 'object' || value === null) {
        return undefined;
    }
    const entry = value;
    if (entry['version'] !== ENTRY_VERSION ||
        entry['key'] !== key ||
        typeof entry['body'] !== 'string' ||
        typeof entry['storedAt'] !== 'number' ||
        typeof entry['request'] !== 'string') {
        return undefined;
    }
    return { body: entry['body'], storedAt: entry['storedAt'], request: entry['request'] };
}
