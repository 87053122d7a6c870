import type { Command } from 'commander'
import { openCorpus } from '@pubmatch/ingest'
import { PubmatchError } from '@pubmatch/core'
import { DEFAULT_CORPUS } from '../paths.ts'
import { assertCorpus } from '../next-step.ts'

/** Adds `pubmatch corpus stats|show|errors|compact`. */
export function registerCorpusCommand(program: Command): void {
  const corpus = program.command('corpus').description('inspect or maintain a corpus written by `pubmatch ingest`')

  corpus
    .command('stats')
    .description('counts of articles, full texts, MeSH records, deletions, segments and errors')
    .option('-c, --corpus <dir>', 'corpus directory', DEFAULT_CORPUS)
    .option('--json', 'print JSON', false)
    .action(async (options: { corpus: string; json: boolean }) => {
      assertCorpus(options.corpus)
      const store = await openCorpus(options.corpus, { readOnly: true })
      const stats = store.stats()
      if (options.json) {
        process.stdout.write(`${JSON.stringify(stats, null, 2)}\n`)
        return
      }
      for (const [key, value] of Object.entries(stats)) {
        process.stdout.write(`${key.padEnd(10)} ${value}\n`)
      }
    })

  corpus
    .command('show')
    .description('print one article as JSON')
    .argument('<id>', 'PMID or document id')
    .option('-c, --corpus <dir>', 'corpus directory', DEFAULT_CORPUS)
    .action(async (id: string, options: { corpus: string }) => {
      assertCorpus(options.corpus)
      const store = await openCorpus(options.corpus, { readOnly: true })
      const article = await store.getArticle(id)
      if (!article) {
        throw new PubmatchError('NOT_FOUND', `corpus: no article ${id} in ${options.corpus}`)
      }
      process.stdout.write(`${JSON.stringify(article, null, 2)}\n`)
    })

  corpus
    .command('errors')
    .description('list the per-record errors kept from every ingest')
    .option('-c, --corpus <dir>', 'corpus directory', DEFAULT_CORPUS)
    .option('--json', 'one JSON object per line', false)
    .action(async (options: { corpus: string; json: boolean }) => {
      assertCorpus(options.corpus)
      const store = await openCorpus(options.corpus, { readOnly: true })
      for await (const error of store.errors()) {
        process.stdout.write(options.json ? `${JSON.stringify(error)}\n` : `${error.code}\t${error.message}\n`)
      }
    })

  corpus
    .command('compact')
    .description('rewrite all live records into one segment (drops replaced and deleted records)')
    .option('-c, --corpus <dir>', 'corpus directory', DEFAULT_CORPUS)
    .option('--json', 'print the result as JSON', false)
    .action(async (options: { corpus: string; json: boolean }) => {
      assertCorpus(options.corpus)
      const store = await openCorpus(options.corpus)
      try {
        const before = store.stats().segments
        await store.compact()
        const after = store.stats().segments
        process.stdout.write(
          options.json ? `${JSON.stringify({ segmentsBefore: before, segmentsAfter: after }, null, 2)}\n` : `compacted ${before} segments into ${after}\n`,
        )
      } finally {
        await store.close()
      }
    })
}
