/**
 * Builds an index from a corpus, or brings it up to date: the first run builds it; later runs
 * apply only what was ingested or deleted since (new PMID versions replace old ones,
 * `DeleteCitation` removes documents); a rebuild builds beside the old index and swaps it in.
 * What an engine derives from the corpus and keeps beside the index (the forward store for the
 * second stage, the MeSH descriptors, the citation table) is brought up to date here too when the
 * index had it, so that a server reloading the new generation opens it without reading the
 * corpus; a new PubMed index gets its citation table at once.
 */
import { existsSync } from 'node:fs'
import { rename, rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { PubmatchError, type Article, type DeletedCitation } from '@pubmatch/core'
import { noArticlesError, openCorpus, type CorpusStore } from '@pubmatch/ingest'
import { buildIndex, defaultNumericDocValues, openIndex, type IndexConfig, type IndexProgress } from '@pubmatch/index'
import { CITATION_TABLE_FILE, CITATIONS_CACHE_FILE, corpusCitationMatcher, corpusMeshLookup, FORWARD_META_FILE, MESH_CACHE_FILE, openForwardStore } from './corpus-data.ts'
import { indexConfigFor, readIndexSettings, SETTINGS_FILE, writeIndexSettings, type FieldSet, type IndexSettings } from './settings.ts'

/** Options of {@link updateIndex}. */
export interface UpdateIndexOptions {
  /** The corpus directory (`pubmatch ingest -c`). */
  readonly corpus: string
  /** The index directory. */
  readonly index: string
  /** The field set. Defaults to the existing index's, else from the corpus (test-collection articles → `test-collection`). */
  readonly fields?: FieldSet
  /** The analyzer. Defaults to the existing index's, else `biomedical`. */
  readonly analyzer?: string
  /** Index MeSH entry terms with descriptor names. Defaults to `true`. */
  readonly meshEntryTerms?: boolean
  /** Build a new index from scratch and swap it in. Defaults to `false`. */
  readonly rebuild?: boolean
  /** Worker threads for segment builds (0: in this thread). Defaults to `0`. */
  readonly workers?: number
  /** Progress of a full build: documents added out of `total`. */
  readonly onProgress?: (progress: { readonly done: number; readonly total: number; readonly phase: string }) => void
}

/** What {@link updateIndex} did. */
export interface UpdateIndexResult {
  readonly docCount: number
  /** Documents added or replaced. */
  readonly added: number
  readonly deleted: number
  /** Articles that could not be indexed (they are listed in `errorList`). */
  readonly errors: number
  readonly errorList: ReadonlyArray<{ readonly id: string; readonly error: PubmatchError }>
  readonly seconds: number
  /** Whether a new index was built (first run or rebuild) rather than updated. */
  readonly built: boolean
}

/**
 * Builds or incrementally updates an index from a corpus.
 * @param options - see {@link UpdateIndexOptions}
 * @throws PubmatchError `SCHEMA_MISMATCH` when asked to change an existing index's field set or
 *   analyzer without `rebuild`, `INVALID_ARGUMENT` for an empty corpus or, without `rebuild`, a
 *   corpus other than the one the index follows (its changes would not apply to the index)
 */
export async function updateIndex(options: UpdateIndexOptions): Promise<UpdateIndexResult> {
  const started = performance.now()
  const store = await openCorpus(options.corpus, { readOnly: true })
  const existing = existsSync(join(options.index, SETTINGS_FILE)) && options.rebuild !== true
  const previous = existing ? await readIndexSettings(options.index) : undefined
  const fieldSet = options.fields ?? previous?.fieldSet ?? (await guessFieldSet(store))
  const settings: IndexSettings = {
    fieldSet,
    analyzer: options.analyzer ?? previous?.analyzer ?? 'biomedical',
    meshEntryTerms: options.meshEntryTerms ?? true,
    corpus: resolve(options.corpus),
    ...(store.lastSegment() === undefined ? {} : { corpusSegment: store.lastSegment() }),
    builtAt: new Date().toISOString(),
  }
  if (previous !== undefined && previous.corpus !== settings.corpus) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `${options.index} follows the corpus ${previous.corpus}, not ${settings.corpus}; update it from its own corpus, or rebuild it from this one`,
      { details: { file: options.index } },
    )
  }
  if (previous && (previous.fieldSet !== settings.fieldSet || previous.analyzer !== settings.analyzer)) {
    throw new PubmatchError(
      'SCHEMA_MISMATCH',
      `${options.index} was built with fields ${previous.fieldSet} and analyzer ${previous.analyzer}; rebuild it to change them`,
    )
  }
  const hadForward = existsSync(join(options.index, FORWARD_META_FILE))
  const hadMesh = existsSync(join(options.index, MESH_CACHE_FILE))
  const hadCitations = existsSync(join(options.index, CITATION_TABLE_FILE)) || existsSync(join(options.index, CITATIONS_CACHE_FILE))
  const config = await indexConfigFor(settings, store)
  if (existing) {
    await assertCurrentFields(options.index, config)
  }
  const target = existing ? options.index : `${options.index}.new-${process.pid}`
  await rm(target === options.index ? `${options.index}.unused` : target, { recursive: true, force: true })
  const total = existing ? undefined : store.stats().articles
  const onProgress = (progress: IndexProgress): void => {
    if (total !== undefined) {
      options.onProgress?.({ done: progress.docsAdded, total, phase: progress.phase })
    }
  }
  const input = existing ? changesSince(store, previous?.corpusSegment) : store.articles()
  const result = await buildIndex(input, target, config, {
    workers: options.workers ?? 0,
    onProgress,
    forceMergeTo: existing ? 0 : 1,
  })
  await writeIndexSettings(target, settings)
  if (!existing) {
    // swap the new index in: the old one (if any) is moved aside first, then removed
    const aside = `${options.index}.old-${process.pid}`
    if (existsSync(options.index)) {
      await rename(options.index, aside)
    }
    await rename(target, options.index)
    await rm(aside, { recursive: true, force: true })
  }
  if (hadForward && (!existing || result.docsAdded > 0 || result.docsDeleted > 0)) {
    await openForwardStore(options.index, await openIndex(options.index), settings)
  }
  if (hadMesh) {
    await corpusMeshLookup(settings, options.index)
  }
  // the citation sensor is on by default for PubMed indexes: a new one gets its table now, so that
  // the first open does not replay the corpus
  if (hadCitations || (!existing && fieldSet !== 'test-collection')) {
    await corpusCitationMatcher(settings, await openIndex(options.index), options.index)
  }
  return {
    docCount: result.docCount,
    added: result.docsAdded,
    deleted: result.docsDeleted,
    errors: result.errors.length,
    errorList: result.errors,
    seconds: (performance.now() - started) / 1000,
    built: !existing,
  }
}

/**
 * An index built by an earlier pubmatch, before some of today's fields or doc values existed,
 * cannot take today's documents: say so, and how to get the new fields. (Searching it as it is
 * still works: a tag it has no data for matches nothing, with a warning.)
 */
async function assertCurrentFields(dir: string, config: IndexConfig): Promise<void> {
  const schema = (await openIndex(dir)).schema
  const fields = schema.fields.map((field) => field.name)
  const numeric = schema.numericDocValues
  const wanted = config.fields.map((field) => field.name)
  const wantedNumeric = (config.numericDocValues ?? defaultNumericDocValues()).map((n) => n.name)
  const missing = [
    ...wanted.filter((name) => !fields.includes(name)),
    ...wantedNumeric.filter((name) => !numeric.includes(name)),
  ]
  if (missing.length > 0) {
    throw new PubmatchError(
      'SCHEMA_MISMATCH',
      `${dir} was built before this version of pubmatch indexed ${missing.join(', ')}; rebuild it (\`pubmatch index --rebuild\`) to update it and to search those fields (until then it can be searched as it is: their tags match nothing, with a warning)`,
      { details: { file: dir, missing } },
    )
  }
}

async function* changesSince(store: CorpusStore, after: string | undefined): AsyncGenerator<Article | { deleted: DeletedCitation[] }> {
  for await (const change of store.changes(after)) {
    yield change.kind === 'article' ? change.article : { deleted: [{ id: change.id }] }
  }
}

async function guessFieldSet(store: CorpusStore): Promise<FieldSet> {
  for await (const article of store.articles()) {
    return article.source === 'test-collection' ? 'test-collection' : 'pubmed'
  }
  throw noArticlesError(store)
}
