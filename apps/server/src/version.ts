import { readFileSync } from 'node:fs'

/** The version of the `@pubmatch/server` package. */
export const SERVER_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version
