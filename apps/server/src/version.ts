import { packageVersion } from '@pubmatch/core/node'

/** The version of the `@pubmatch/server` package. */
export const SERVER_VERSION: string = packageVersion(new URL('../package.json', import.meta.url))
