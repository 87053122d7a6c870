import { existsSync } from 'node:fs'
import { readFile, rename, rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { Option, type Command } from 'commander'
import { PubmatchError, type Article, type DeletedCitation } from '@pubmatch/core'
import { writeFileAtomic } from '@pubmatch/core/node'
import { createMeshVocabulary, openCorpus, type CorpusStore } from '@pubmatch/ingest'
import { BUILTIN_ANALYZER_NAMES } from '@pubmatch/analysis'
import {
  buildIndex,
  defaultPubmedFields,
  testCollectionFields,
  type IndexConfig,
  type IndexProgress,
} from '@pubmatch/index'
import { createProgress } from '../progress.ts'
import { DEFAULT_CORPUS, DEFAULT_INDEX } from '../paths.ts'

/** Which field set an index was built with. */
export type FieldSet = 'pubmed' | 'test-collection'

/**
 * What the CLI remembers about an index (`pubmatch.json` beside the index files): how to
 * rebuild its configuration and how far into the corpus it has read.
 */
export interface IndexSettings {
  fieldSet: FieldSet
  analyzer: string
  /** MeSH entry terms were indexed with descriptor names. */
  meshEntryTerms: boolean
  corpus: string
  /** The last corpus segment applied (see `CorpusStore.changes`). */
  corpusSegment?: string
  builtAt: string
}

const SETTINGS_FILE = 'pubmatch.json'

/**
 * Reads an index's settings.
 * @param indexDir - the index directory
 */
export async function readIndexSettings(indexDir: string): Promise<IndexSettings> {
  try {
    return JSON.parse(await readFile(join(indexDir, SETTINGS_FILE), 'utf8')) as IndexSettings
  } catch (error) {
    throw new PubmatchError('NOT_FOUND', `index: no pubmatch index at ${indexDir}; run \`pubmatch index\` first`, {
      cause: error,
      details: { file: indexDir },
    })
  }
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
  let meshEntryTerms: ((key: string) => readonly string[]) | undefined
  if (settings.meshEntryTerms && store) {
    const descriptors = []
    for await (const entry of store.mesh()) {
      if (entry.type === 'descriptor') {
        descriptors.push(entry.record)
      }
    }
    if (descriptors.length > 0) {
      const vocabulary = createMeshVocabulary(descriptors)
      meshEntryTerms = (key) => (vocabulary.descriptor(key) ?? vocabulary.descriptorByName(key))?.entryTerms ?? []
    }
  }
  return { fields: defaultPubmedFields({ analyzer: settings.analyzer, meshEntryTerms }) }
}

interface IndexOptions {
  corpus: string
  index: string
  fields?: FieldSet
  analyzer?: string
  mesh: boolean
  rebuild: boolean
  workers: string
  plain: boolean
  quiet: boolean
  json?: boolean
}

/** Adds `pubmatch index`. */
export function registerIndexCommand(program: Command): void {
  program
    .command('index')
    .description('build or update the inverted index of a corpus written by `pubmatch ingest`')
    .option('-c, --corpus <dir>', 'corpus directory', DEFAULT_CORPUS)
    .option('-i, --index <dir>', 'index directory', DEFAULT_INDEX)
    .addOption(
      new Option('--fields <set>', 'field set: PubMed fields, or title+abstract for test collections (default: from the corpus)').choices([
        'pubmed',
        'test-collection',
      ]),
    )
    .addOption(
      new Option('--analyzer <name>', 'text analyzer (default: biomedical, the best measured on NFCorpus train)').choices([
        ...BUILTIN_ANALYZER_NAMES,
      ]),
    )
    .option('--no-mesh', 'do not index MeSH entry terms (synonyms) with descriptor names')
    .option('--rebuild', 'build a new index from scratch (then swap it in) instead of applying new corpus changes', false)
    .option('--workers <n>', 'worker threads for segment builds (0 = in this thread)', '0')
    .option('--plain', 'plain progress lines even on a terminal', false)
    .option('-q, --quiet', 'no progress output', false)
    .option('--json', 'print the result as JSON', false)
    .addHelpText(
      'after',
      `
The first run builds the index; later runs apply only what \`pubmatch ingest\` added or deleted
since (new PMID versions replace old ones, DeleteCitation removes documents).`,
    )
    .action(async (options: IndexOptions) => {
      const result = await runIndex(options)
      if (options.json) {
        process.stdout.write(`${JSON.stringify({ index: options.index, ...result }, null, 2)}\n`)
        return
      }
      process.stdout.write(
        `Index ${options.index}: ${result.docCount} documents (${result.added} added or replaced, ${result.deleted} deleted, ${result.errors} errors) in ${result.seconds.toFixed(1)} s\n`,
      )
    })
}

/**
 * Builds (or incrementally updates) an index from a corpus.
 * @param options - corpus and index directories, field set, analyzer, progress
 */
export async function runIndex(
  options: Pick<IndexOptions, 'corpus' | 'index' | 'fields' | 'analyzer' | 'mesh' | 'rebuild' | 'workers' | 'plain' | 'quiet'>,
): Promise<{ docCount: number; added: number; deleted: number; errors: number; seconds: number }> {
  const started = performance.now()
  const store = await openCorpus(options.corpus, { readOnly: true })
  const existing = existsSync(join(options.index, SETTINGS_FILE)) && !options.rebuild
  const previous = existing ? await readIndexSettings(options.index) : undefined
  const fieldSet = options.fields ?? previous?.fieldSet ?? (await guessFieldSet(store))
  const settings: IndexSettings = {
    fieldSet,
    analyzer: options.analyzer ?? previous?.analyzer ?? 'biomedical',
    meshEntryTerms: options.mesh,
    corpus: resolve(options.corpus),
    corpusSegment: store.lastSegment(),
    builtAt: new Date().toISOString(),
  }
  if (previous && (previous.fieldSet !== settings.fieldSet || previous.analyzer !== settings.analyzer)) {
    throw new PubmatchError(
      'SCHEMA_MISMATCH',
      `index: ${options.index} was built with fields ${previous.fieldSet} and analyzer ${previous.analyzer}; use --rebuild to change them`,
    )
  }
  const config = await indexConfigFor(settings, store)
  const target = existing ? options.index : `${options.index}.new-${process.pid}`
  await rm(target === options.index ? `${options.index}.unused` : target, { recursive: true, force: true })

  const total = existing ? undefined : store.stats().articles
  const progress = createProgress({ plain: options.plain, quiet: options.quiet })
  if (total !== undefined) {
    progress.start(total, 'index')
  }
  const phases = new Set<string>()
  const onProgress = (p: IndexProgress): void => {
    if (total !== undefined) {
      progress.update(p.docsAdded, p.phase)
    }
    if (p.phase !== 'adding' && !phases.has(p.phase)) {
      phases.add(p.phase)
    }
  }
  const input = existing ? changesSince(store, previous?.corpusSegment) : store.articles()
  const result = await buildIndex(input, target, config, {
    workers: Number.parseInt(options.workers, 10) || 0,
    onProgress,
    forceMergeTo: existing ? 0 : 1,
  })
  progress.stop()
  await writeFileAtomic(join(target, SETTINGS_FILE), `${JSON.stringify(settings, null, 2)}\n`)
  if (!existing) {
    // Swap the new index in: the old one (if any) is moved aside first, then removed.
    const aside = `${options.index}.old-${process.pid}`
    if (existsSync(options.index)) {
      await rename(options.index, aside)
    }
    await rename(target, options.index)
    await rm(aside, { recursive: true, force: true })
  }
  for (const { id, error } of result.errors.slice(0, 20)) {
    process.stderr.write(`index: ${id}: ${error.code}: ${error.message}\n`)
  }
  return {
    docCount: result.docCount,
    added: result.docsAdded,
    deleted: result.docsDeleted,
    errors: result.errors.length,
    seconds: (performance.now() - started) / 1000,
  }
}

async function* changesSince(
  store: CorpusStore,
  after: string | undefined,
): AsyncGenerator<Article | { deleted: DeletedCitation[] }> {
  for await (const change of store.changes(after)) {
    yield change.kind === 'article' ? change.article : { deleted: [{ id: change.id }] }
  }
}

async function guessFieldSet(store: CorpusStore): Promise<FieldSet> {
  for await (const article of store.articles()) {
    return article.source === 'test-collection' ? 'test-collection' : 'pubmed'
  }
  throw new PubmatchError('INVALID_ARGUMENT', `index: the corpus ${store.dir} holds no articles; run \`pubmatch ingest\` first`)
}
