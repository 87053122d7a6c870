import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { PubmatchError } from '../errors.ts'
import { parseJson, type JsonSource } from '../json/parse.ts'
import * as json from '../json/shapes.ts'
import type { JsonShape } from '../json/shapes.ts'


/** Options of {@link readJsonFile}: what a damaged file is called. */
export type JsonFileOptions = Omit<JsonSource, 'file'>

function readError(path: string, cause: unknown): PubmatchError {
  const missing = (cause as NodeJS.ErrnoException).code === 'ENOENT'
  return new PubmatchError(missing ? 'NOT_FOUND' : 'IO', missing ? `${path} does not exist` : `cannot read ${path}: ${(cause as Error).message}`, {
    cause,
    details: { file: path },
  })
}

/**
 * Reads a JSON file and checks it against the shape the code relies on.
 * @param path - the file
 * @param shape - its shape (see the `json` namespace of `@pubmatch/core`)
 * @param options - the error code of a damaged file. Defaults to `MALFORMED_JSON`.
 * @returns its value, typed
 * @throws PubmatchError `NOT_FOUND` when the file does not exist, `IO` when it cannot be read,
 *   `options.code` naming the file when it is empty, not JSON or of another shape
 */
export async function readJsonFile<T>(path: string, shape: JsonShape<T>, options: JsonFileOptions = {}): Promise<T> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (cause) {
    throw readError(path, cause)
  }
  return parseJson(text, shape, { ...options, file: path })
}

/**
 * {@link readJsonFile}, synchronously (for start-up code and scripts).
 * @param path - the file
 * @param shape - its shape
 * @param options - the error code of a damaged file. Defaults to `MALFORMED_JSON`.
 * @throws PubmatchError as {@link readJsonFile}
 */
export function readJsonFileSync<T>(path: string, shape: JsonShape<T>, options: JsonFileOptions = {}): T {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (cause) {
    throw readError(path, cause)
  }
  return parseJson(text, shape, { ...options, file: path })
}

const PACKAGE_JSON = json.object({ version: json.string })

/**
 * The `version` of a package's `package.json` (for `--version` and `/health`).
 * @param file - the `package.json`, as a path or a `file:` URL (`new URL('../package.json', import.meta.url)`)
 * @throws PubmatchError `NOT_FOUND`, `IO`, or `MALFORMED_JSON` naming the file when it has no string `version`
 */
export function packageVersion(file: string | URL): string {
  return readJsonFileSync(file instanceof URL ? fileURLToPath(file) : file, PACKAGE_JSON).version
}
