/**
 * The Boolean search strategies of CLEF eHealth TAR 2017 (`shared/data/clef-tar/2017-TAR`): one
 * topic file per Cochrane review, its strategy in the `Query:` section, in Ovid MEDLINE or PubMed
 * syntax.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

/** One topic's strategy. */
export interface ClefStrategy {
  /** `testing/10`, `training/55`. */
  readonly id: string
  /** The Cochrane review, `CD007431`. */
  readonly review: string
  /** The lines of the `Query:` section. */
  readonly text: string
}

/**
 * The `Query:` section and the review id of one topic file's text.
 * @param id - the topic's name in messages
 * @param text - the topic file
 */
export function parseTopic(id: string, text: string): ClefStrategy {
  const start = text.indexOf('Query:')
  const end = text.indexOf('Pids:')
  const review = /^Topic:\s*(\S+)/m.exec(text)?.[1] ?? ''
  return {
    id,
    review,
    text:
      start === -1 ? '' : text.slice(start + 'Query:'.length, end === -1 ? undefined : end).trim(),
  }
}

/**
 * The 50 strategies of CLEF TAR 2017, testing then training, each by topic number.
 * @param dir - the `clef-tar` folder of the shared data
 */
export function readClefStrategies(dir: string): ClefStrategy[] {
  const strategies: ClefStrategy[] = []
  for (const [split, parts] of [
    ['testing', ['2017-TAR', 'testing', 'topics']],
    ['training', ['2017-TAR', 'training', 'topics_train']],
  ] as const) {
    const folder = join(dir, ...parts)
    for (const name of readdirSync(folder)
      .filter((file) => /^\d+$/.test(file))
      .sort((a, b) => Number(a) - Number(b))) {
      strategies.push(parseTopic(`${split}/${name}`, readFileSync(join(folder, name), 'utf8')))
    }
  }
  return strategies
}

/**
 * The search statements of a PubMed-syntax strategy document: lines with a tag, a quote, an
 * upper-case operator or a history reference; a line that starts with an operator continues the
 * previous one. Other lines are headings ("2a") or the authors' lower-case combinations of block
 * labels ("A. 1a and (2a or 3) and 2b not 5").
 * @param text - the strategy
 */
export function pubmedStatements(text: string): string[] {
  const joined: string[] = []
  for (const line of text.split('\n')) {
    const previous = joined.length - 1
    if (/^\s*(?:AND|OR|NOT)\s/.test(line) && previous >= 0) {
      joined[previous] = `${joined[previous] ?? ''} ${line}`
    } else {
      joined.push(line)
    }
  }
  return joined.filter((line) => /[[\]"\u201C\u201D#]|\b(?:AND|OR|NOT)\b/.test(line))
}
