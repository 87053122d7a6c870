import { Option, type Command } from 'commander'
import { BUILTIN_ANALYZER_NAMES } from '@pubmatch/analysis'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { SETTINGS_FILE, fulltextDir, readIndexSettings, updateFulltext, updateIndex, type FieldSet, type UpdateIndexResult } from '@pubmatch/engine'
import { createProgress } from '../progress.ts'
import { DEFAULT_CORPUS, DEFAULT_INDEX } from '../paths.ts'
import { parsePositiveInt } from './ingest.ts'
import { runSolrIndex } from './solr.ts'
import { assertArticles, assertCorpus } from '../next-step.ts'

interface IndexOptions {
  /** `-c`; without it, the corpus an existing index follows, else the default corpus. */
  corpus?: string
  index: string
  fields?: FieldSet
  analyzer?: string
  mesh: boolean
  rebuild: boolean
  workers: string
  plain: boolean
  quiet: boolean
  json?: boolean
  fulltext?: boolean
  solr?: string
  collection?: string
  shards: number
  replicas: number
  batch: number
}

/** Adds `pubmatch index`. */
export function registerIndexCommand(program: Command): void {
  program
    .command('index')
    .description('build or update the inverted index of a corpus written by `pubmatch ingest`')
    .option('-c, --corpus <dir>', `corpus directory (default: the corpus the index follows, else ${DEFAULT_CORPUS})`)
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
    .option('--fulltext', 'also index the corpus’s PMC full texts by section (<index>/fulltext) for `search --fulltext`', false)
    .option('--solr <urls>', 'index into a SolrCloud collection instead: `local` (the cluster of `pubmatch solr up`) or Solr base URLs, comma-separated')
    .option('--collection <name>', 'with --solr: the collection (created when missing)')
    .option('--shards <n>', 'with --solr: shards of a new collection', parsePositiveInt, 1)
    .option('--replicas <n>', 'with --solr: replicas per shard of a new collection', parsePositiveInt, 1)
    .option('--batch <n>', 'with --solr: documents per update request', parsePositiveInt, 1000)
    .addHelpText(
      'after',
      `
The first run builds the index; later runs apply only what \`pubmatch ingest\` added or deleted
since (new PMID versions replace old ones, DeleteCitation removes documents).

With --solr the corpus goes into a SolrCloud collection (configset generated from the field set,
BM25F in Solr, global statistics across shards), committed once per corpus segment; an
interrupted run resumes after the last segment it committed:
  pubmatch solr up
  pubmatch index --solr local --collection pubmed --shards 2 --replicas 2`,
    )
    .action(async (flags: IndexOptions) => {
      const options = { ...flags, corpus: flags.corpus ?? (await followedCorpus(flags.index)) ?? DEFAULT_CORPUS }
      if (options.solr !== undefined) {
        const result = await runSolrIndex({ ...options, solr: options.solr })
        if (options.json) {
          const { errorList, ...summary } = result
          process.stdout.write(
            `${JSON.stringify({ collection: options.collection, ...summary, errorList: errorList.map(({ id, error }) => ({ id, code: error.code, message: error.message })) }, null, 2)}\n`,
          )
          return
        }
        process.stdout.write(
          `Solr collection ${options.collection}${result.created ? ' (created)' : ''}: ${result.added} added or replaced, ${result.deleted} deleted, ` +
            `${result.errorList.length} errors, ${result.segments} corpus segments committed` +
            `${result.resumedAfter === undefined ? '' : ` after ${result.resumedAfter}`} in ${result.seconds.toFixed(1)} s\n`,
        )
        return
      }
      const result = await runIndex(options)
      const fulltext = options.fulltext === true ? await updateFulltext({ index: options.index }) : undefined
      if (fulltext !== undefined && !options.json) {
        process.stdout.write(`Full texts ${fulltextDir(options.index)}: ${fulltext.articles} articles, ${fulltext.passages} passages in ${fulltext.seconds.toFixed(1)} s\n`)
      }
      if (options.json) {
        const { errorList, ...summary } = result
        process.stdout.write(
          `${JSON.stringify({ index: options.index, ...summary, errorList: errorList.map(({ id, error }) => ({ id, code: error.code, message: error.message })), ...(fulltext === undefined ? {} : { fulltext }) }, null, 2)}\n`,
        )
        return
      }
      process.stdout.write(
        `Index ${options.index}: ${result.docCount} documents (${result.added} added or replaced, ${result.deleted} deleted, ${result.errors} errors) in ${result.seconds.toFixed(1)} s\n`,
      )
    })
}

/**
 * The corpus an existing index follows (recorded when it was built), or `undefined` when there is
 * no index yet.
 * @param index - the index directory
 */
async function followedCorpus(index: string): Promise<string | undefined> {
  return existsSync(join(index, SETTINGS_FILE)) ? (await readIndexSettings(index)).corpus : undefined
}

/**
 * Builds (or incrementally updates) an index from a corpus, with a progress bar.
 * @param options - corpus and index directories, field set, analyzer, progress
 */
export async function runIndex(
  options: Pick<IndexOptions, 'index' | 'fields' | 'analyzer' | 'mesh' | 'rebuild' | 'workers' | 'plain' | 'quiet'> & { readonly corpus: string },
): Promise<UpdateIndexResult> {
  assertCorpus(options.corpus, options.index)
  if (options.rebuild || !existsSync(join(options.index, SETTINGS_FILE))) {
    await assertArticles(options.corpus, options.index)
  }
  const progress = createProgress({ plain: options.plain, quiet: options.quiet })
  let started = false
  const result = await updateIndex({
    corpus: options.corpus,
    index: options.index,
    ...(options.fields === undefined ? {} : { fields: options.fields }),
    ...(options.analyzer === undefined ? {} : { analyzer: options.analyzer }),
    meshEntryTerms: options.mesh,
    rebuild: options.rebuild,
    workers: Number.parseInt(options.workers, 10) || 0,
    onProgress: ({ done, total, phase }) => {
      if (!started) {
        progress.start(total, 'index')
        started = true
      }
      progress.update(done, phase)
    },
  })
  progress.stop()
  for (const { id, error } of result.errorList.slice(0, 20)) {
    process.stderr.write(`index: ${id}: ${error.code}: ${error.message}\n`)
  }
  return result
}
