import { Option, type Command } from 'commander'
import {
  INPUT_FORMATS,
  defaultReaders,
  ingestFiles,
  ingestOutcome,
  openCorpus,
  type IngestEvent,
  type IngestSummary,
  type InputFormat,
} from '@pubmatch/ingest'
import { PubmatchError } from '@pubmatch/core'
import { createProgress, formatBytes, type Progress } from '../progress.ts'
import { DEFAULT_CORPUS } from '../paths.ts'
import { EXIT } from '../exit.ts'
import { ingestEntrezQuery, type EntrezCliOptions } from './ingest-entrez.ts'
import { nothingToIngest } from '../next-step.ts'

interface IngestOptions extends EntrezCliOptions {
  corpus: string
  format?: InputFormat
  force: boolean
  json: boolean
  quiet: boolean
  plain: boolean
  showErrors: string
}

/** Adds `pubmatch ingest`. */
export function registerIngestCommand(program: Command): void {
  program
    .command('ingest')
    .description(
      'read PubMed/MEDLINE XML (.xml, .xml.gz), PMC full texts (BioC JSON or XML, JATS .nxml), MeSH XML, MEDLINE text, NFCorpus .docs or JSONL files and directories, or an Entrez query, into a local corpus',
    )
    .argument('[paths...]', 'files or directories (walked recursively)')
    .option('-c, --corpus <dir>', 'corpus directory to write', DEFAULT_CORPUS)
    .addOption(new Option('-f, --format <format>', 'read every file as this format instead of detecting it').choices(INPUT_FORMATS))
    .option('--force', 're-read files even if they were ingested with the same content', false)
    .option('--entrez <query>', 'search PubMed through NCBI E-utilities and ingest the results')
    .option('--db <db>', 'Entrez database for --entrez', 'pubmed')
    .option('--max <n>', 'with --entrez: ingest at most this many records', parsePositiveInt)
    .option('--batch-size <n>', 'with --entrez: ids per efetch request (at most 200 is polite)', parsePositiveInt, 200)
    .option('--api-key <key>', 'NCBI API key (10 requests/s instead of 3); defaults to $NCBI_API_KEY')
    .option('--email <address>', 'contact address sent to NCBI; defaults to $NCBI_EMAIL')
    .option('--tool <name>', 'tool name sent to NCBI', 'pubmatch')
    .option('--no-cache', 'with --entrez: do not read or write the on-disk response cache')
    .option('--cache-dir <dir>', 'with --entrez: response cache directory (defaults to <corpus>/../entrez-cache)')
    .option('--cache-ttl <hours>', 'with --entrez: cached responses older than this are fetched again', parsePositiveFloat, 24 * 7)
    .option('--eutils-url <url>', 'E-utilities base URL (for mirrors and tests)')
    .option('--refresh', 'with --entrez: search again instead of resuming with the saved id list', false)
    .option('--show-errors <n>', 'print at most this many per-record errors', '20')
    .option('--json', 'print the summary as JSON on stdout', false)
    .option('--plain', 'plain progress lines even on a terminal', false)
    .option('-q, --quiet', 'no progress output', false)
    .addHelpText(
      'after',
      `
Examples:
  pubmatch ingest ../shared/data/pubmed-xml/medline16n0902.xml.gz
  pubmatch ingest ../shared/data/pmc/bioc-json --corpus ./corpus
  pubmatch ingest --entrez "asthma[mh] AND 2020[dp]" --max 1000

Re-running the same command is safe: files already ingested with the same content are
skipped, and an interrupted run resumes at the file (or Entrez batch) it was writing.

Exit status: 0 every input was read; 1 some records or files failed (the rest is stored; the
failures are listed and kept, see \`pubmatch corpus errors\`); 2 nothing usable was read
(every input failed, or held no articles); 64 usage error; 130 interrupted (run it again).`,
    )
    .action(async (paths: string[], options: IngestOptions) => {
      if (paths.length === 0 && !options.entrez) {
        throw nothingToIngest(options.corpus)
      }
      const progress = createProgress({ quiet: options.quiet, plain: options.plain, format: formatBytes })
      const summary = await runIngest(paths, options, progress)
      printSummary(summary, options)
      const store = await openCorpus(options.corpus, { readOnly: true })
      const limit = Number.parseInt(options.showErrors, 10) || 0
      if (summary.errors > 0 && limit > 0 && !options.json) {
        let shown = 0
        process.stderr.write(`\nPer-record errors (${summary.errors} in this run; all are kept in the corpus, see \`pubmatch corpus errors\`):\n`)
        for await (const error of store.errors()) {
          if (shown >= limit) {
            break
          }
          process.stderr.write(`  ${error.code}: ${error.message}\n`)
          shown++
        }
      }
      const outcome = ingestOutcome(summary)
      if (outcome === 'partial') {
        process.stderr.write(
          `ingest: partly done: ${summary.failedSources} file${summary.failedSources === 1 ? '' : 's'} failed, ${summary.errors} error${summary.errors === 1 ? '' : 's'} in all (exit status 1)\n`,
        )
        process.exitCode = EXIT.PARTIAL
      } else if (outcome === 'failed' || outcome === 'empty') {
        process.stderr.write(
          outcome === 'failed'
            ? `ingest: nothing usable was read: ${summary.errors} error${summary.errors === 1 ? '' : 's'} (exit status 2)\n`
            : `ingest: nothing to ingest: ${summary.skipped} file${summary.skipped === 1 ? '' : 's'} held no articles (exit status 2)\n`,
        )
        process.exitCode = EXIT.FAILED
      }
    })
}

/**
 * Ingests files and/or an Entrez query into `options.corpus`, reporting progress.
 * @param paths - files and directories
 * @param options - parsed command options
 * @param progress - where progress goes
 */
export async function runIngest(
  paths: readonly string[],
  options: Pick<IngestOptions, 'corpus' | 'format' | 'force'> & Partial<EntrezCliOptions>,
  progress: Progress,
): Promise<IngestSummary> {
  const store = await openCorpus(options.corpus, { create: true })
  const controller = new AbortController()
  const onSigint = (): void => {
    controller.abort()
  }
  process.once('SIGINT', onSigint)
  try {
    let bytesBefore = 0
    let current = 0
    const summary = await ingestFiles(store, paths, {
      readers: defaultReaders(),
      format: options.format,
      force: options.force,
      signal: controller.signal,
      onEvent: (event: IngestEvent) => {
        switch (event.type) {
          case 'plan':
            if (event.files > 0) {
              progress.start(event.bytes, `ingest ${event.files} file${event.files === 1 ? '' : 's'}`)
            }
            break
          case 'source-start':
            current = event.bytes
            break
          case 'source-progress':
            progress.update(bytesBefore + Math.min(event.bytesRead, current), `${event.records} records`)
            break
          case 'source-done':
          case 'source-unchanged':
          case 'source-skipped':
          case 'source-failed':
            bytesBefore += current
            current = 0
            if (event.type === 'source-failed') {
              progress.log(`error: ${event.error.code}: ${event.error.message}`)
            }
            progress.update(bytesBefore)
            break
        }
      },
    })
    progress.stop()
    if (options.entrez) {
      const entrezSummary = await ingestEntrezQuery(store, options.entrez, options as EntrezCliOptions, progress)
      for (const key of Object.keys(summary) as Array<keyof IngestSummary>) {
        summary[key] += entrezSummary[key]
      }
    }
    return summary
  } finally {
    process.off('SIGINT', onSigint)
    progress.stop()
    await store.close()
  }
}

function printSummary(summary: IngestSummary, options: IngestOptions): void {
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ ...summary, outcome: ingestOutcome(summary) }, null, 2)}\n`)
    return
  }
  const rows: Array<[string, number]> = [
    ['articles added', summary.added],
    ['articles updated', summary.updated],
    ['articles unchanged', summary.unchanged],
    ['older versions ignored', summary.stale],
    ['articles deleted', summary.deleted],
    ['deletions of unknown ids', summary.deletedUnknown],
    ['full texts', summary.fullTexts],
    ['articles from full texts', summary.derived],
    ['MeSH records', summary.mesh],
    ['errors', summary.errors],
    ['sources read', summary.sources],
    ['sources already ingested', summary.resumed],
    ['files skipped (no articles)', summary.skipped],
    ['files that failed', summary.failedSources],
  ]
  const width = Math.max(...rows.map(([label]) => label.length))
  process.stdout.write(`Ingest summary (${options.corpus})\n`)
  for (const [label, value] of rows) {
    process.stdout.write(`  ${label.padEnd(width)}  ${value}\n`)
  }
}

/**
 * Parses a positive integer option.
 * @param value - the option text
 */
export function parsePositiveInt(value: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n <= 0) {
    throw new PubmatchError('INVALID_ARGUMENT', `expected a positive integer, got "${value}"`)
  }
  return n
}

/**
 * Parses a non-negative integer option.
 * @param value - the option text
 */
export function parseNonNegativeInt(value: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0 || value.trim() === '') {
    throw new PubmatchError('INVALID_ARGUMENT', `expected a non-negative integer, got "${value}"`)
  }
  return n
}

/**
 * Parses a positive number option.
 * @param value - the option text
 */
export function parsePositiveFloat(value: string): number {
  const n = Number(value)
  if (!Number.isFinite(n) || n <= 0) {
    throw new PubmatchError('INVALID_ARGUMENT', `expected a positive number, got "${value}"`)
  }
  return n
}

