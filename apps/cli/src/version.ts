import { readFileSync } from 'node:fs'

/** The version of the `@pubmatch/cli` package. */
export const CLI_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version
