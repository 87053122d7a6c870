import { abortedError } from "../entrez/clock.js";
/** Lets pending promise continuations and immediate callbacks run. */
async function settle(rounds = 5) {
    for (let i = 0; i < rounds; i += 1) {
        await new Promise((resolve) => setImmediate(resolve));
    }
}
/**
 * Creates a {@link ManualClock} starting at `start` milliseconds.
 * @param start - the initial time. Defaults to `0`.
 */
export function createManualClock(start = 0) {
    let now = start;
    let sequence = 0;
    const timers = [];
    const fireNext = async (limit) => {
        await settle();
        timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
        const timer = timers[0];
        if (timer === undefined || timer.at > limit) {
            return false;
        }
        timers.shift();
        now = Math.max(now, timer.at);
        timer.fire();
        await settle();
        return true;
    };
    return {
        now: () => now,
        get pendingTimers() {
            return timers.length;
        },
        sleep(ms, signal) {
            return new Promise((resolve, reject) => {
                if (signal?.aborted === true) {
                    reject(abortedError(signal));
                    return;
                }
                const timer = {
                    at: now + Math.max(0, ms),
                    seq: (sequence += 1),
                    fire: () => {
                        signal?.removeEventListener('abort', onAbort);
                        resolve();
                    },
                };
                const onAbort = () => {
                    const index = timers.indexOf(timer);
                    if (index !== -1) {
                        timers.splice(index, 1);
                    }
                    reject(abortedError(signal));
                };
                signal?.addEventListener('abort', onAbort, { once: true });
                timers.push(timer);
            });
        },
        async advance(ms) {
            const target = now + ms;
            while (await fireNext(target)) {
                // keep firing due timers
            }
            now = Math.max(now, target);
            await settle();
        },
        async runAll(maxTimers = 10_000) {
            for (let i = 0; i < maxTimers; i += 1) {
                if (!(await fireNext(Number.POSITIVE_INFINITY))) {
                    return;
                }
            }
        },
    };
}
/**
 * Creates an {@link InstantClock}: tests of retries and rate limiting run without waiting,
 * and the waits asked for are recorded. Time never goes backwards.
 * @param start - the initial time. Defaults to `0`.
 */
export function createInstantClock(start = 0) {
    let now = start;
    const sleeps = [];
    return {
        now: () => now,
        sleeps,
        async sleep(ms, signal) {
            if (signal?.aborted === true) {
                throw abortedError(signal);
            }
            sleeps.push(ms);
            now += Math.max(0, ms);
            await new Promise((resolve) => setImmediate(resolve));
        },
    };
}
