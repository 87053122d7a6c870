import { PubmatchError } from '@pubmatch/core';
import { normaliseIds } from "./params.js";
/**
 * Plans the EFetch requests of a batched fetch: id lists are cut into consecutive chunks of
 * `batchSize`; history sets are paged with `retstart`/`retmax`.
 * @param source - ids or a history set
 * @param options - database, formats and batch size
 * @throws PubmatchError `INVALID_ARGUMENT` for a batch size below 1
 */
export function planBatches(source, options = {}) {
    const batchSize = options.batchSize ?? 200;
    if (!Number.isInteger(batchSize) || batchSize < 1) {
        throw new PubmatchError('INVALID_ARGUMENT', `ingest: efetch batch size must be a positive integer, got ${batchSize}`);
    }
    const common = {
        db: options.db ?? 'pubmed',
        ...(options.rettype === undefined ? {} : { rettype: options.rettype }),
        retmode: options.retmode ?? 'xml',
    };
    const batches = [];
    if ('ids' in source) {
        const ids = normaliseIds(source.ids);
        for (let start = 0; start < ids.length; start += batchSize) {
            const chunk = ids.slice(start, start + batchSize);
            batches.push({
                params: { ...common, ids: chunk },
                ids: chunk,
                retstart: start,
                retmax: chunk.length,
            });
        }
        return batches;
    }
    const history = { webEnv: source.webEnv, queryKey: source.queryKey };
    for (let start = source.retstart ?? 0; start < source.count; start += batchSize) {
        const retmax = Math.min(batchSize, source.count - start);
        batches.push({
            params: { ...common, history, retstart: start, retmax },
            retstart: start,
            retmax,
        });
    }
    return batches;
}
/**
 * Runs tasks with at most `concurrency` in flight and yields their results in task order.
 * When the consumer stops early, `onStop` is called so that in-flight work can be aborted;
 * their failures are then ignored.
 * @param tasks - the work, started lazily
 * @param concurrency - the most tasks in flight. Defaults to `1`.
 * @param onStop - called when the generator finishes or is abandoned
 */
export async function* runOrdered(tasks, concurrency = 1, onStop) {
    const width = Math.max(1, Math.floor(concurrency));
    const inFlight = [];
    let next = 0;
    const launch = () => {
        while (inFlight.length < width && next < tasks.length) {
            const task = tasks[next];
            next += 1;
            if (task !== undefined) {
                const promise = task();
                promise.catch(() => undefined);
                inFlight.push(promise);
            }
        }
    };
    try {
        launch();
        while (inFlight.length > 0) {
            const head = inFlight.shift();
            if (head === undefined) {
                break;
            }
            const value = await head;
            launch();
            yield value;
        }
    }
    finally {
        onStop?.();
    }
}
