import type { Command } from 'commander'
import { openCorpus } from '@pubmatch/ingest'
import { articleYear } from '@pubmatch/core'
import { createProgress, formatBytes } from '../progress.ts'
import { DEFAULT_CORPUS, SAMPLE_CORPUS_DIR } from '../paths.ts'
import { runIngest } from './ingest.ts'

/** Adds `pubmatch demo`: the main job on the bundled real sample corpus. */
export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('ingest the bundled real sample corpus (MEDLINE, PMC BioC, MeSH) and show what it holds')
    .option('-c, --corpus <dir>', 'corpus directory to write', DEFAULT_CORPUS)
    .option('--plain', 'plain progress lines even on a terminal', false)
    .action(async (options: { corpus: string; plain: boolean }) => {
      const progress = createProgress({ plain: options.plain, format: formatBytes })
      process.stdout.write(`Ingesting the bundled sample corpus from ${SAMPLE_CORPUS_DIR}\n`)
      const summary = await runIngest([SAMPLE_CORPUS_DIR], { corpus: options.corpus, force: false }, progress)
      const store = await openCorpus(options.corpus, { readOnly: true })
      const stats = store.stats()
      process.stdout.write(
        `\nCorpus ${options.corpus}: ${stats.articles} articles, ${stats.fullTexts} full texts, ${stats.mesh} MeSH records, ` +
          `${stats.deleted} deletions, ${stats.errors} per-record errors ` +
          `(this run: ${summary.added} added, ${summary.updated} updated, ${summary.unchanged} unchanged, ${summary.resumed} files already ingested)\n\nA few articles:\n`,
      )
      let shown = 0
      for await (const article of store.articles()) {
        if (shown++ >= 5) {
          break
        }
        const year = articleYear(article) ?? '—'
        const mesh = article.mesh.slice(0, 3).map((m) => m.descriptorName).join('; ')
        process.stdout.write(`  PMID ${article.id} (${year}) ${article.title.slice(0, 100)}\n    MeSH: ${mesh || '—'}\n`)
      }
      process.stdout.write(`\nNext: \`pubmatch corpus show <PMID> --corpus ${options.corpus}\`\n`)
    })
}
