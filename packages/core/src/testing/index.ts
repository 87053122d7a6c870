/**
 * `@pubmatch/core/testing`: what the packages' tests share (Node only). Not for applications.
 */
export { REAL_DATA_TAG, sharedDataDir, sharedDataPath } from './shared-data.ts'
