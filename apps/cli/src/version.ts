import { packageVersion } from '@pubmatch/core/node'

/** The version of the `@pubmatch/cli` package. */
export const CLI_VERSION: string = packageVersion(new URL('../package.json', import.meta.url))
