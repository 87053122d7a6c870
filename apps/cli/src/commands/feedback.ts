import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createInterface } from 'node:readline/promises'
import { Option, type Command } from 'commander'
import { PubmatchError } from '@pubmatch/core'
import { writeRun } from '@pubmatch/eval'
import { openFeedbackSessions, type FeedbackSessions } from '@pubmatch/engine'
import { FEEDBACK_GRADES, type FeedbackGrade, type FeedbackSession, type FeedbackSettings, type Ranking } from '@pubmatch/feedback'
import { createEntrezClient, createResponseCache } from '@pubmatch/ingest'
import { DEFAULT_HOME, DEFAULT_INDEX } from '../paths.ts'
import { filtersOf, openEngine, type RankingFlags } from './search.ts'
import { parsePositiveInt } from './ingest.ts'

interface FeedbackFlags extends RankingFlags {
  sessions: string
  session?: string
  metasearch: boolean
  grades?: string
  rounds: number
  candidates: number
  ranking: Ranking
  idf: 'global' | 'local'
  prf: boolean
  json: boolean
  runs?: string
  queryId: string
  apiKey?: string
  email?: string
  eutilsUrl?: string
  cacheDir?: string
}

const GRADE_WORDS: Readonly<Record<string, FeedbackGrade>> = {
  '0': 'non-relevant',
  '1': 'relevant',
  '2': 'highly-relevant',
  n: 'non-relevant',
  r: 'relevant',
  h: 'highly-relevant',
  'non-relevant': 'non-relevant',
  relevant: 'relevant',
  'highly-relevant': 'highly-relevant',
}

/**
 * Reads a grades file: one `PMID<TAB or space>grade` per line, the grade `0`/`1`/`2`, `n`/`r`/`h` or
 * the words; `#` starts a comment. The simulated user of a scripted session.
 * @param file - the file
 */
async function readGrades(file: string): Promise<Map<string, FeedbackGrade>> {
  const grades = new Map<string, FeedbackGrade>()
  for (const [i, raw] of (await readFile(file, 'utf8')).split('\n').entries()) {
    const line = raw.replace(/#.*/, '').trim()
    if (line === '') {
      continue
    }
    const [id, word] = line.split(/\s+/)
    const grade = word === undefined ? undefined : GRADE_WORDS[word.toLowerCase()]
    if (id === undefined || grade === undefined) {
      throw new PubmatchError('INVALID_ARGUMENT', `feedback: ${file}:${i + 1}: expected "PMID grade" with grade 0/1/2, n/r/h or ${FEEDBACK_GRADES.join('/')}, got "${line.slice(0, 80)}"`)
    }
    grades.set(id, grade)
  }
  return grades
}

/** Adds `pubmatch feedback`. */
export function registerFeedbackCommand(program: Command): void {
  program
    .command('feedback')
    .description('a relevance feedback session: the best 10 documents, your grades, the next 10 re-ranked by them, … (Rocchio; Niesink 2017)')
    .argument('[query...]', 'the query (not needed with --session)')
    .option('-i, --index <dir>', 'index directory', DEFAULT_INDEX)
    .option('--sessions <dir>', 'the session log (sessions survive restarts and can be continued)', join(DEFAULT_HOME, 'feedback-sessions'))
    .option('--session <id>', 'continue a logged session')
    .option('--metasearch', 'search PubMed through Entrez instead of the local index (nothing is stored but the response cache)', false)
    .option('--grades <file>', 'grade from a file (PMID grade per line; 0/1/2 or n/r/h) instead of asking: a scripted or simulated user')
    .option('--rounds <n>', 'rounds of 10 to run (interactive: until you stop)', parsePositiveInt, 5)
    .option('--candidates <n>', 'local mode: first-stage candidates the session re-ranks', parsePositiveInt, 3000)
    .addOption(new Option('--ranking <name>', 'tfidf, bm25, or their fusion with the first stage').choices(['tfidf', 'bm25', 'borda', 'maxnorm']).default('borda'))
    .addOption(new Option('--idf <source>', 'IDF from the whole index or from the candidates').choices(['global', 'local']).default('global'))
    .option('--no-prf', 'no pseudo relevance feedback before the first round')
    .option('--json', 'print every round as JSON lines (scripts)', false)
    .option('--runs <prefix>', 'write the ranking of every candidate before the first round and after each as TREC runs <prefix>.round<N>.run (for pubmatch eval --trend)')
    .option('--query-id <id>', 'with --runs: the query id in the run files', '1')
    .option('--api-key <key>', 'with --metasearch: NCBI API key; defaults to $NCBI_API_KEY')
    .option('--email <address>', 'with --metasearch: contact address sent to NCBI; defaults to $NCBI_EMAIL')
    .option('--eutils-url <url>', 'with --metasearch: E-utilities base URL (mirrors, tests)')
    .option('--cache-dir <dir>', 'with --metasearch: response cache', join(DEFAULT_HOME, 'entrez-cache'))
    // the first-stage flags of `search` that matter here
    .option('--year <from:to>', 'publication years: YYYY, YYYY:YYYY, YYYY: (from) or :YYYY (until), e.g. 2019, 2015:2020, 2015:')
    .option('--pt <type>', 'publication type filter, repeatable', (v: string, p: string[]) => [...p, v], [])
    .option('--la <code>', 'language filter, repeatable', (v: string, p: string[]) => [...p, v], [])
    .addHelpText(
      'after',
      `
Grades: n (non-relevant), r (relevant), h (highly relevant), Enter to skip, q to stop.

Examples:
  pubmatch feedback "statins muscle pain"                    # interactive, local index
  pubmatch feedback "vitamin d" -i nf/index --grades user.grades --rounds 3 --json
  pubmatch feedback "vitamin d" -i nf/index --grades user.grades --runs vitd --query-id PLAIN-2
  pubmatch eval vitd.round0.run vitd.round1.run vitd.round2.run qrels --html vitd.html --trend
  pubmatch feedback --session Xyz123AbcDef456Ghi                # continue a logged session
  pubmatch feedback "statin myopathy" --metasearch            # PubMed through Entrez (network)`,
    )
    .action(async (words: string[], flags: FeedbackFlags) => {
      const engine = await openEngine({ ...flags, ranker: 'bm25f', weight: [], recover: false, mesh: true })
      const entrez =
        flags.metasearch || flags.session !== undefined
          ? createEntrezClient({
              apiKey: flags.apiKey ?? process.env['NCBI_API_KEY'],
              email: flags.email ?? process.env['NCBI_EMAIL'],
              baseUrl: flags.eutilsUrl,
              cache: createResponseCache(flags.cacheDir ?? join(DEFAULT_HOME, 'entrez-cache'), { ttlMs: 30 * 24 * 3_600_000 }),
            })
          : undefined
      const sessions = openFeedbackSessions({ dir: flags.sessions, engine: () => engine, ...(entrez === undefined ? {} : { entrez }) })
      try {
        await runSession(sessions, words.join(' '), flags)
      } finally {
        await sessions.close()
      }
    })
}

async function runSession(sessions: FeedbackSessions, query: string, flags: FeedbackFlags): Promise<void> {
  const say = (text: string): void => {
    process.stderr.write(`${text}\n`)
  }
  const settings: FeedbackSettings = { ranking: flags.ranking, idf: flags.idf, prf: flags.prf }
  // inputs are checked before anything is logged
  const grades = flags.grades === undefined ? undefined : await readGrades(flags.grades)
  const interactive = grades === undefined
  if (interactive && !process.stdin.isTTY) {
    throw new PubmatchError('INVALID_ARGUMENT', 'feedback: not on a terminal: give --grades FILE for a scripted session')
  }
  let id = flags.session
  if (id === undefined) {
    if (query.trim() === '') {
      throw new PubmatchError('INVALID_ARGUMENT', 'feedback: give a query, or --session ID to continue one')
    }
    if (flags.metasearch) {
      const started = await sessions.startMetasearch(query, { settings, onProgress: (message) => say(`metasearch: ${message}`) })
      id = started.id
      const m = started.metasearch
      say(`metasearch: "${m.remoteQuery}" matched ${m.stats.matched}; kept ${m.stats.kept}` + (m.expandedQuery === undefined ? '' : `; expanded with ${m.expansionWords.join(', ')}: +${m.stats.added}`))
    } else {
      const filters = filtersOf(flags)
      const started = await sessions.startLocal(query, { candidates: flags.candidates, settings, ...(filters === undefined ? {} : { filters }) })
      id = started.id
      say(`feedback: ${started.total} matching documents; re-ranking the best ${Math.min(flags.candidates, started.total)}`)
    }
    say(`feedback: session ${id} (continue it with --session ${id})`)
  }
  const terminal = interactive ? createInterface({ input: process.stdin, output: process.stderr }) : undefined
  const saveRun = async (current: FeedbackSession): Promise<void> => {
    if (flags.runs === undefined) {
      return
    }
    const round = current.rounds.length
    const file = `${flags.runs}.round${round}.run`
    const ranking = current.ranking().map((entry) => ({ docId: entry.id, score: entry.score }))
    await writeRun({ tag: `feedback-round${round}`, queries: new Map([[flags.queryId, ranking]]) }, file)
    say(`feedback: wrote ${file}`)
  }
  try {
    let session: FeedbackSession = await sessions.manager.get(id)
    await saveRun(session)
    for (let round = 0; round < flags.rounds || interactive; round++) {
      const shown = session.next()
      if (shown.length === 0) {
        say('feedback: every candidate has been shown')
        break
      }
      const given = new Map<string, FeedbackGrade>()
      if (!flags.json) {
        process.stdout.write(`\nRound ${session.rounds.length + 1}\n`)
      }
      let stop = false
      for (const doc of shown) {
        const stored = sessions.document(id, doc.id)
        if (!flags.json) {
          process.stdout.write(`${String(doc.rank).padStart(3)}. ${doc.id}  ${stored?.title ?? ''}\n     ${stored?.journal ?? ''}${stored?.year ? ` ${stored.year}` : ''}\n`)
        }
        if (terminal !== undefined) {
          const answer = (await terminal.question('     grade [n/r/h, Enter skip, q stop]: ')).trim().toLowerCase()
          if (answer === 'q') {
            stop = true
            break
          }
          if (answer !== '') {
            const grade = GRADE_WORDS[answer]
            if (grade === undefined) {
              say('     (not a grade: skipped)')
            } else {
              given.set(doc.id, grade)
            }
          }
        } else {
          // a simulated user: unjudged documents are non-relevant
          given.set(doc.id, grades!.get(doc.id) ?? 'non-relevant')
        }
      }
      if (stop) {
        break
      }
      session = await sessions.manager.grade(id, { shown: shown.map((d) => d.id), grades: given })
      await saveRun(session)
      if (flags.json) {
        process.stdout.write(
          `${JSON.stringify({ session: id, round: session.rounds.length, shown: shown.map((d) => ({ id: d.id, grade: given.get(d.id) ?? null })), terms: [...session.vector].sort((a, b) => b[1] - a[1]).slice(0, 10) })}\n`,
        )
      } else {
        const top = [...session.vector].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([term, w]) => `${term} ${w.toFixed(2)}`)
        process.stdout.write(`     → query now: ${top.join(', ')}\n`)
      }
    }
  } finally {
    terminal?.close()
  }
}
