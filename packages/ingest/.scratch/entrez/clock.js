import { PubmatchError } from '@pubmatch/core';
/** Wall time: `Date.now()` and `setTimeout`. */
export const systemClock = {
    now: () => Date.now(),
    sleep: (ms, signal) => new Promise((resolve, reject) => {
        if (signal?.aborted) {
            reject(abortedError(signal));
            return;
        }
        const onAbort = () => {
            clearTimeout(timer);
            reject(abortedError(signal));
        };
        const timer = setTimeout(() => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
        }, Math.max(0, ms));
        signal?.addEventListener('abort', onAbort, { once: true });
    }),
};
/**
 * The error for an operation its caller aborted.
 * @param signal - the signal that aborted; its `reason` becomes the cause
 */
export function abortedError(signal) {
    return new PubmatchError('ABORTED', 'ingest: entrez request aborted by the caller', {
        cause: signal?.reason,
    });
}
