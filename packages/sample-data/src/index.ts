/**
 * `@pubmatch/sample-data`: the bundled real sample corpus (`corpus/`, see its README.md): what
 * `pubmatch demo` ingests, and the data every package's tests run on when the larger real data
 * set is not beside the checkout.
 */
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The sample corpus folder (the same from `src/` and from `dist/`). */
export const SAMPLE_CORPUS_DIR: string = fileURLToPath(new URL('../corpus/', import.meta.url))

/**
 * A file or folder of the sample corpus.
 * @param parts - path segments inside it, e.g. `'pubmed', 'medsamp2006.xml'`
 */
export function samplePath(...parts: string[]): string {
  return join(SAMPLE_CORPUS_DIR, ...parts)
}
