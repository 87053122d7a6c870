import { Command, CommanderError } from 'commander'
import { isPubmatchError, toPubmatchError } from '@pubmatch/core'
import { registerCorpusCommand } from './commands/corpus.ts'
import { registerDemoCommand } from './commands/demo.ts'
import { registerEvalCommand } from './commands/eval.ts'
import { registerIndexCommand } from './commands/index.ts'
import { registerIngestCommand } from './commands/ingest.ts'
import { registerSearchCommands } from './commands/search.ts'
import { registerTrainCommands } from './commands/train.ts'
import { registerClicksCommands } from './commands/clicks.ts'
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
  registerTrainCommands(program)
  registerClicksCommands(program)
  registerEvalCommand(program)
  return program
}

/**
 * Runs the CLI and returns the process exit code (0 ok, 1 failure, 2 usage error).
 * Errors print as `pubmatch: CODE: message` with no stack trace unless `PUBMATCH_DEBUG` is set.
 * @param argv - `process.argv`
 */
export async function runCli(argv: readonly string[]): Promise<number> {
  const program = createProgram()
  try {
    await program.parseAsync(argv)
    return typeof process.exitCode === 'number' ? process.exitCode : 0
  } catch (error) {
    if (error instanceof CommanderError) {
      // help and version exit with code 0; usage errors were already printed by commander
      return error.exitCode === 0 ? 0 : 2
    }
    const failure = isPubmatchError(error) ? error : toPubmatchError(error)
    process.stderr.write(`pubmatch: ${failure.code}: ${failure.message}\n`)
    if (process.env['PUBMATCH_DEBUG']) {
      process.stderr.write(`${(error as Error).stack ?? ''}\n`)
    }
    return 1
  }
}
