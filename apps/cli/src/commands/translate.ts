import { readFile } from 'node:fs/promises'
import { Option, type Command } from 'commander'
import { translateOvid, type OvidNote, type OvidTranslation } from '@pubmatch/bm25f'
import { PubmatchError } from '@pubmatch/core'
import { EXIT } from '../exit.ts'

/** Reads a file, or standard input for `-`. */
async function readInput(file: string): Promise<string> {
  if (file !== '-') {
    return readFile(file, 'utf8')
  }
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * One note as a line for people: `line 3: adjacency "adj3": …` (with the count when it covers
 * several constructs).
 * @param note - a translation note
 */
export function formatOvidNote(note: OvidNote): string {
  const more = note.count > 1 ? ` (and ${note.count - 1} more)` : ''
  return `line ${note.line}: ${note.kind} ${JSON.stringify(note.construct)}${more}: ${note.message}`
}

/** The translation for people: each line, the final query, the notes. */
function formatTranslation(result: OvidTranslation): string {
  const width = String(result.lines.length).length
  const out: string[] = ['Ovid line → PubMed', '']
  for (const line of result.lines) {
    out.push(`${String(line.line).padStart(width)}  ${line.ovid}`)
    out.push(`${' '.repeat(width)}  ${line.pubmed ?? `problem: ${line.problem ?? ''}`}`)
  }
  out.push('', `Final query (line ${result.finalLine}, line references resolved):`, result.query, '')
  out.push(result.notes.length === 0 ? 'No approximations: every construct has an exact PubMed equivalent.' : `Notes (${result.notes.length}):`)
  for (const note of result.notes) {
    out.push(`  ${formatOvidNote(note)}`)
  }
  return `${out.join('\n')}\n`
}

/** Adds `pubmatch translate`. */
export function registerTranslateCommand(program: Command): void {
  program
    .command('translate')
    .description('translate an Ovid MEDLINE search strategy into PubMed queries: line by line, the final query, and every approximation')
    .argument('<file>', 'the strategy, one search line per line (`-` reads standard input)')
    .addOption(new Option('--from <syntax>', 'the syntax of the strategy').choices(['ovid']).default('ovid'))
    .option('--line <n>', 'the line to translate as the final query (default: the last line)')
    .option('--json', 'print JSON: lines, finalLine, query, notes', false)
    .addHelpText(
      'after',
      `
Lines that cannot be translated are reported with their problem and the others go on (exit
status 1); a final line that cannot be translated fails the command (status 64).
Examples:
  pubmatch translate --from ovid strategy.txt
  printf 'exp Glaucoma/\\nglaucoma$.tw.\\n1 or 2\\n' | pubmatch translate --from ovid - --json`,
    )
    .action(async (file: string, options: { from: 'ovid'; line?: string; json: boolean }) => {
      let finalLine: number | undefined
      if (options.line !== undefined) {
        finalLine = Number(options.line)
        if (!Number.isSafeInteger(finalLine) || finalLine < 1) {
          throw new PubmatchError('INVALID_ARGUMENT', `translate: --line takes a line number, got "${options.line}"`)
        }
      }
      const text = await readInput(file)
      const result = translateOvid(text, { source: file === '-' ? 'standard input' : file, ...(finalLine === undefined ? {} : { finalLine }) })
      if (options.json) {
        const { node: _node, ...rest } = result
        process.stdout.write(`${JSON.stringify(rest, null, 2)}\n`)
      } else {
        process.stdout.write(formatTranslation(result))
      }
      if (result.lines.some((line) => line.problem !== undefined)) {
        process.exitCode = EXIT.PARTIAL
      }
    })
}
