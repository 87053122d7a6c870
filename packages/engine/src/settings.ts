/**
 * What pubmatch remembers about an index (`pubmatch.json` beside the index files): which corpus it
 * follows and how far into it, and how to rebuild its configuration.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { json, parseJson, PubmatchError, type JsonShape } from '@pubmatch/core'
import { writeFileAtomic } from '@pubmatch/core/node'
import type { CorpusStore } from '@pubmatch/ingest'
import { meshEntryTermLookup } from '@pubmatch/ingest/internal'
import { defaultPubmedFields, testCollectionFields, type IndexConfig } from '@pubmatch/index'

/** Which field set an index was built with. */
export type FieldSet = 'pubmed' | 'test-collection'

/** The field sets, for option parsers. */
export const FIELD_SETS: readonly FieldSet[] = ['pubmed', 'test-collection']

/** The contents of `pubmatch.json`. */
export interface IndexSettings {
  readonly fieldSet: FieldSet
  /** The analyzer of the text fields. */
  readonly analyzer: string
  /** MeSH entry terms were indexed with descriptor names. */
  readonly meshEntryTerms: boolean
  /** The corpus directory the index follows (absolute). */
  readonly corpus: string
  /** The last corpus segment applied (see `CorpusStore.changes`). */
  readonly corpusSegment?: string
  /** When the index was last built or updated (ISO 8601). */
  readonly builtAt: string
}

const SETTINGS: JsonShape<IndexSettings> = json.object({
  fieldSet: json.literal(...FIELD_SETS),
  analyzer: json.string,
  meshEntryTerms: json.boolean,
  corpus: json.string,
  corpusSegment: json.optional(json.string),
  builtAt: json.string,
})

/** The settings file in an index directory. */
export const SETTINGS_FILE = 'pubmatch.json'

/**
 * Reads an index's settings.
 * @param indexDir - the index directory
 * @throws PubmatchError `NOT_FOUND` when the directory holds no pubmatch index, `INDEX_CORRUPTED`
 *   when its settings file is not JSON or not of the settings' shape
 */
export async function readIndexSettings(indexDir: string): Promise<IndexSettings> {
  let text: string
  try {
    text = await readFile(join(indexDir, SETTINGS_FILE), 'utf8')
  } catch (error) {
    throw new PubmatchError('NOT_FOUND', `no pubmatch index at ${indexDir} (no ${SETTINGS_FILE}); build one from a corpus with \`pubmatch index -c CORPUS -i ${indexDir}\``, {
      cause: error,
      details: { file: indexDir },
    })
  }
  return parseJson(text, SETTINGS, { file: join(indexDir, SETTINGS_FILE), code: 'INDEX_CORRUPTED' })
}

/**
 * Writes an index's settings crash-safely.
 * @param indexDir - the index directory
 * @param settings - the settings
 */
export async function writeIndexSettings(indexDir: string, settings: IndexSettings): Promise<void> {
  await writeFileAtomic(join(indexDir, SETTINGS_FILE), `${JSON.stringify(settings, null, 2)}\n`)
}

/**
 * The index configuration for settings, with the corpus's MeSH vocabulary for entry terms.
 * @param settings - the index settings
 * @param store - the corpus (for MeSH records)
 */
export async function indexConfigFor(settings: IndexSettings, store?: CorpusStore): Promise<IndexConfig> {
  if (settings.fieldSet === 'test-collection') {
    return { fields: testCollectionFields({ analyzer: settings.analyzer }) }
  }
  const meshEntryTerms = settings.meshEntryTerms && store ? await meshEntryTermLookup(store.mesh()) : undefined
  return { fields: defaultPubmedFields({ analyzer: settings.analyzer, meshEntryTerms }) }
}
