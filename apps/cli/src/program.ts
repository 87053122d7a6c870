import { Command, CommanderError } from 'commander'
import { EXIT, asPubmatchError, exitStatusOf } from './exit.ts'
import { registerCorpusCommand } from './commands/corpus.ts'
import { registerDemoCommand } from './commands/demo.ts'
import { registerEvalCommand } from './commands/eval.ts'
import { registerIndexCommand } from './commands/index.ts'
import { registerIngestCommand } from './commands/ingest.ts'
import { registerSearchCommands } from './commands/search.ts'
import { registerTrainCommands } from './commands/train.ts'
import { registerClicksCommands } from './commands/clicks.ts'
import { registerServeCommand } from './commands/serve.ts'
import { registerFeedbackCommand } from './commands/feedback.ts'
import { registerFulltextCommands } from './commands/fulltext.ts'
import { registerSolrCommands } from './commands/solr.ts'
import { registerTranslateCommand } from './commands/translate.ts'
import { registerScreenCommands } from './commands/screen.ts'
import { CLI_VERSION } from './version.ts'

/**
 * Builds the `pubmatch` command with every subcommand. Each subcommand has `--help`.
 */
export function createProgram(): Command {
  const program = new Command('pubmatch')
    .description('PubMed-style Best Match relevance search for the biomedical literature')
    .version(CLI_VERSION)
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ sortSubcommands: false, showGlobalOptions: true })
    .exitOverride()
  registerDemoCommand(program)
  registerIngestCommand(program)
  registerCorpusCommand(program)
  registerIndexCommand(program)
  registerSearchCommands(program)
  registerTranslateCommand(program)
  registerFeedbackCommand(program)
  registerScreenCommands(program)
  registerFulltextCommands(program)
  registerServeCommand(program)
  registerSolrCommands(program)
  registerTrainCommands(program)
  registerClicksCommands(program)
  registerEvalCommand(program)
  return program
}

/**
 * Runs the CLI and returns the process exit status (see `EXIT` in `exit.ts`: 0 done, 1 partly
 * done, 2 failed, 64 usage error, 130 interrupted). Errors print as `pubmatch: CODE: message`
 * with no stack trace unless `PUBMATCH_DEBUG` is set.
 * @param argv - `process.argv`
 */
export async function runCli(argv: readonly string[]): Promise<number> {
  const program = createProgram()
  try {
    await program.parseAsync(argv)
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.OK
  } catch (error) {
    if (error instanceof CommanderError) {
      // help and version exit with 0; commander has printed the usage error already
      return exitStatusOf(error)
    }
    printError(error)
    return exitStatusOf(error)
  }
}

function printError(error: unknown): void {
  const failure = asPubmatchError(error)
  process.stderr.write(`pubmatch: ${failure.code}: ${failure.message}\n`)
  if (process.env['PUBMATCH_DEBUG']) {
    process.stderr.write(`${(error as Error).stack ?? ''}\n`)
  }
}

/**
 * The last resort for an error thrown outside a command's own flow (an event handler, a stream):
 * it prints like any other failure, with no stack trace unless `PUBMATCH_DEBUG` is set, and
 * exits with status 2 (130 for an abort).
 * @param error - what was thrown
 */
export function reportUncaught(error: unknown): void {
  printError(error)
  process.exit(exitStatusOf(error) === EXIT.INTERRUPTED ? EXIT.INTERRUPTED : EXIT.FAILED)
}
