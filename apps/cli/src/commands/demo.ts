import type { Command } from 'commander'
import { openCorpus } from '@pubmatch/ingest'
import { createProgress, formatBytes } from '../progress.ts'
import { DEFAULT_CORPUS, DEFAULT_INDEX } from '../paths.ts'
import { SAMPLE_CORPUS_DIR } from '@pubmatch/sample-data'
import { runIndex } from './index.ts'
import { runIngest } from './ingest.ts'
import { openSearch } from '@pubmatch/engine'
import { formatHits } from './search.ts'
import { commandLine, shortPath } from '../next-step.ts'

/** Queries the demo runs on the bundled sample: plain words, MeSH with explosion, filters. */
const DEMO_QUERIES = [
  { query: 'breast cancer', explain: false },
  { query: 'neoplasms[mh]', explain: false },
  { query: '"quality of life"[tiab] NOT review[pt]', explain: false },
  { query: 'asthma AND child*', explain: true },
]

/** Adds `pubmatch demo`: the main job on the bundled real sample corpus. */
export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('ingest and index the bundled real sample corpus (MEDLINE, PMC BioC and JATS full texts, MeSH), then search it')
    .option('-c, --corpus <dir>', 'corpus directory to write', DEFAULT_CORPUS)
    .option('-i, --index <dir>', 'index directory to write', DEFAULT_INDEX)
    .option('--plain', 'plain progress lines even on a terminal', false)
    .action(async (options: { corpus: string; index: string; plain: boolean }) => {
      const out = (text: string): void => {
        process.stdout.write(text)
      }
      out(`1. Ingesting the bundled sample corpus from ${SAMPLE_CORPUS_DIR}\n`)
      const summary = await runIngest(
        [SAMPLE_CORPUS_DIR],
        { corpus: options.corpus, force: false },
        createProgress({ plain: options.plain, format: formatBytes }),
      )
      const store = await openCorpus(options.corpus, { readOnly: true })
      const stats = store.stats()
      out(
        `   ${options.corpus}: ${stats.articles} articles (${stats.derived} derived from full texts without a PubMed record), ${stats.fullTexts} full texts, ${stats.mesh} MeSH records, ` +
          `${stats.deleted} deletions, ${stats.errors} per-record errors ` +
          `(this run: ${summary.added} added, ${summary.derived} derived, ${summary.unchanged} unchanged, ${summary.resumed} files already ingested)\n\n`,
      )
      out(`2. Indexing it into ${options.index}\n`)
      const indexed = await runIndex({
        corpus: options.corpus,
        index: options.index,
        mesh: true,
        rebuild: false,
        workers: '0',
        plain: options.plain,
        quiet: false,
      })
      out(`   ${indexed.docCount} documents (${indexed.added} added, ${indexed.deleted} deleted) in ${indexed.seconds.toFixed(1)} s\n\n`)
      out('3. Searching it (BM25F, PubMed query syntax, MeSH explosion from the sample vocabulary)\n')
      const engine = await openSearch({ index: options.index })
      for (const { query, explain } of DEMO_QUERIES) {
        const result = engine.search(query, { explain, limit: explain ? 1 : 3 })
        out(`\n$ pubmatch search ${JSON.stringify(query)}${explain ? ' --explain' : ''}\n`)
        out(`${result.total} matching documents\n`)
        out(formatHits(result.hits, explain))
      }
      const i = options.index === DEFAULT_INDEX ? [] : ['-i', shortPath(options.index)]
      const c = options.corpus === DEFAULT_CORPUS ? [] : ['-c', shortPath(options.corpus)]
      out(
        `\nNext: ${commandLine('serve', ...i)} serves this index with a search page at http://127.0.0.1:8080/;\n` +
          `      ${commandLine('search', ...i, 'your query', '--explain')}, ${commandLine('corpus', 'show', ...c, '17299597')} ` +
          `(a record derived from a bundled JATS full text), ${commandLine('--help')}\n`,
      )
    })
}
