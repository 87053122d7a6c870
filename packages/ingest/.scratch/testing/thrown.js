import { isPubmatchError } from '@pubmatch/core';
/**
 * Calls `fn` and returns the {@link PubmatchError} it throws (for tests that look at the
 * error's code, details and message). Anything else thrown is rethrown.
 * @param fn - the call expected to fail
 * @throws Error when `fn` returns normally
 */
export function thrownPubmatchError(fn) {
    try {
        fn();
    }
    catch (error) {
        if (isPubmatchError(error)) {
            return error;
        }
        throw error;
    }
    throw new Error('expected a PubmatchError');
}
