import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Option, type Command } from 'commander'
import { abstractText, PubmatchError } from '@pubmatch/core'
import { writeFileAtomic } from '@pubmatch/core/node'
import { openSearch } from '@pubmatch/engine'
import { openCorpus } from '@pubmatch/ingest'
import {
  createScreeningProject,
  openScreeningProject,
  RANKERS,
  readCandidates,
  readScreeningReviewAt,
  recallCurveSvg,
  simulateScreening,
  simulationHtml,
  type DecisionInput,
  type RankerName,
  type SimulationResult,
} from '@pubmatch/screen'
import { EXIT } from '../exit.ts'
import { DEFAULT_CORPUS, DEFAULT_HOME, DEFAULT_INDEX } from '../paths.ts'

const DEFAULT_PROJECTS = join(DEFAULT_HOME, 'screen')

/**
 * Reads `ID=include`, `ID=exclude`, `ID=include:highly-relevant` (or `i`/`e`/`h` for short).
 * @param text - one decision argument
 */
function parseDecision(text: string): DecisionInput {
  const match = /^([^=]+)=(include|exclude|i|e|h)(?::(relevant|highly-relevant))?$/.exec(text.trim())
  if (match === null) {
    throw new PubmatchError('INVALID_ARGUMENT', `a decision is ID=include, ID=exclude or ID=include:highly-relevant (i, e, h for short), got "${text.slice(0, 80)}"`)
  }
  const [, id, word, grade] = match as unknown as [string, string, string, string | undefined]
  if (word === 'h') {
    return { id, decision: 'include', grade: 'highly-relevant' }
  }
  const decision = word === 'i' || word === 'include' ? 'include' : 'exclude'
  return { id, decision, ...(grade ? { grade: grade as 'relevant' | 'highly-relevant' } : {}) }
}

interface SimulateFlags {
  ranker: RankerName
  seeds: string
  out?: string
  bigrams: boolean
  json: boolean
}

function parseSeeds(text: string): number[] {
  const seeds = text.split(',').map((s) => Number(s.trim()))
  if (seeds.length === 0 || seeds.some((s) => !Number.isInteger(s) || s < 0)) {
    throw new PubmatchError('INVALID_ARGUMENT', `--seeds must be comma-separated non-negative integers, got "${text}"`)
  }
  return seeds
}

/** Adds `pubmatch screen …` (systematic-review screening). */
export function registerScreenCommands(program: Command): void {
  const screen = program.command('screen').description('screening for systematic reviews: rank a review\'s candidates, learning from include/exclude decisions')
  const projectDir = (name: string, flags: { projects: string }): string => join(flags.projects, name)
  screen
    .command('create')
    .description('a new screening project from candidate files (RIS, CSV, PubMed XML, MEDLINE text)')
    .argument('<name>', 'the project name (letters, digits, ".", "_", "-")')
    .argument('[files...]', 'candidate files: .ris, .csv, .xml/.xml.gz (PubMed), .txt/.nbib (MEDLINE)')
    .option('--query <query>', 'also take the candidates from a search of a local index (PubMed query syntax), their records from its corpus')
    .option('-i, --index <dir>', 'with --query: the index', DEFAULT_INDEX)
    .option('-c, --corpus <dir>', 'with --query: the corpus store the index was built from', DEFAULT_CORPUS)
    .option('--max <n>', 'with --query: at most this many candidates', '5000')
    .option('--question <text>', 'the review question: the ranking before any decision (defaults to --query)')
    .addOption(new Option('--ranker <name>', 'the model that learns from the decisions').choices(RANKERS).default('logistic'))
    .option('--projects <dir>', 'where projects live', DEFAULT_PROJECTS)
    .action(async (name: string, files: string[], flags: { query?: string; index: string; corpus: string; max: string; question?: string; ranker: RankerName; projects: string }) => {
      if (files.length === 0 && flags.query === undefined) {
        throw new PubmatchError('INVALID_ARGUMENT', 'screen create: give candidate files, or --query to search an index')
      }
      const read = await readCandidates(files)
      const articles = [...read.articles]
      let missing = 0
      if (flags.query !== undefined) {
        const max = Number(flags.max)
        if (!Number.isInteger(max) || max < 1) {
          throw new PubmatchError('INVALID_ARGUMENT', `--max must be a positive integer, got "${flags.max}"`)
        }
        const engine = await openSearch({ index: flags.index })
        const corpus = await openCorpus(flags.corpus, { readOnly: true })
        try {
          const seen = new Set(articles.map((a) => a.id))
          for (const hit of engine.run(flags.query, max).hits) {
            const article = seen.has(hit.id) ? undefined : await corpus.getArticle(hit.id)
            if (article !== undefined) {
              articles.push(article)
              seen.add(hit.id)
            } else if (!seen.has(hit.id)) {
              missing++
              process.stderr.write(`skipped: ${hit.id} is in the index but not in the corpus ${flags.corpus}\n`)
            }
          }
        } finally {
          await corpus.close()
        }
      }
      for (const error of read.errors) {
        process.stderr.write(`skipped: ${error.message}\n`)
      }
      const question = flags.question ?? flags.query
      const project = await createScreeningProject(projectDir(name, flags), { name, articles, ranker: flags.ranker, ...(question ? { question } : {}) })
      process.stdout.write(`created ${name} in ${project.dir}: ${articles.length} candidates (${read.duplicates} duplicates dropped, ${read.errors.length + missing} records skipped)\n`)
      process.exitCode = read.errors.length + missing > 0 ? EXIT.PARTIAL : EXIT.OK
    })
  screen
    .command('next')
    .description('retrain on every decision so far and show the undecided records most likely to be included')
    .argument('<name>', 'the project')
    .option('-n, --count <n>', 'how many', '10')
    .option('--projects <dir>', 'where projects live', DEFAULT_PROJECTS)
    .option('--json', 'print JSON', false)
    .action(async (name: string, flags: { count: string; projects: string; json: boolean }) => {
      const count = Number(flags.count)
      if (!Number.isInteger(count) || count < 1) {
        throw new PubmatchError('INVALID_ARGUMENT', `--count must be a positive integer, got "${flags.count}"`)
      }
      const project = await openScreeningProject(projectDir(name, flags))
      const next = project.next(count)
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(next.map((r) => ({ id: r.article.id, rank: r.rank, score: r.score, title: r.article.title, abstract: abstractText(r.article) })))}\n`)
      } else {
        for (const r of next) {
          process.stdout.write(`${String(r.rank).padStart(3)}. ${r.article.id}  ${r.article.title}\n`)
        }
        process.stdout.write(`decide with: pubmatch screen decide ${name} ID=include|exclude …\n`)
      }
    })
  screen
    .command('decide')
    .description('record decisions (logged and fsynced before the command returns)')
    .argument('<name>', 'the project')
    .argument('<decisions...>', 'ID=include, ID=exclude, ID=include:highly-relevant (i, e, h for short)')
    .option('--note <text>', 'a note kept with these decisions')
    .option('--projects <dir>', 'where projects live', DEFAULT_PROJECTS)
    .action(async (name: string, decisions: string[], flags: { note?: string; projects: string }) => {
      const project = await openScreeningProject(projectDir(name, flags))
      await project.decide(decisions.map(parseDecision).map((d) => ({ ...d, ...(flags.note ? { note: flags.note } : {}) })))
      await project.close()
      const status = project.status()
      process.stdout.write(`${status.screened} of ${status.candidates} screened, ${status.included} included\n`)
    })
  screen
    .command('status')
    .description('decisions so far and the stopping aid (the knee method and a recall estimate: heuristics, not guarantees)')
    .argument('<name>', 'the project')
    .option('--projects <dir>', 'where projects live', DEFAULT_PROJECTS)
    .option('--json', 'print JSON', false)
    .action(async (name: string, flags: { projects: string; json: boolean }) => {
      const project = await openScreeningProject(projectDir(name, flags))
      const status = project.status()
      for (const problem of project.problems) {
        process.stderr.write(`decision log: ${problem.error.message}\n`)
      }
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(status)}\n`)
      } else {
        process.stdout.write(`${status.name}: ${status.screened} of ${status.candidates} screened, ${status.included} included, ${status.excluded} excluded\n${status.advice}\n`)
      }
    })
  screen
    .command('export')
    .description('the included, excluded or all decided records as RIS or CSV, with each decision\'s history')
    .argument('<name>', 'the project')
    .addOption(new Option('--format <format>', 'file format').choices(['ris', 'csv']).default('ris'))
    .addOption(new Option('--which <set>', 'which records').choices(['included', 'excluded', 'decided']).default('included'))
    .option('-o, --output <file>', 'write here (crash-safe) instead of standard output')
    .option('--projects <dir>', 'where projects live', DEFAULT_PROJECTS)
    .action(async (name: string, flags: { format: 'ris' | 'csv'; which: 'included' | 'excluded' | 'decided'; output?: string; projects: string }) => {
      const project = await openScreeningProject(projectDir(name, flags))
      const text = project.exportRecords(flags.format, flags.which)
      if (flags.output === undefined) {
        process.stdout.write(text)
      } else {
        await writeFileAtomic(flags.output, text)
      }
    })
  screen
    .command('simulate')
    .description('replay a labelled review (a SYNERGY folder or a Cohen 2006 CSV): priors of one included and one excluded record per seed, then one decision at a time; prints WSS@95, recall at 10 %/25 %, records to 95 %/100 % recall and the average time to discovery')
    .argument('<review>', 'the review: a SYNERGY review folder (labels.csv, works_*.zip) or a Cohen 2006 CSV file')
    .addOption(new Option('--ranker <name>', 'the model that learns from the decisions').choices(RANKERS).default('logistic'))
    .option('--seeds <list>', 'comma-separated seeds of the prior draw (one simulation each)', '0')
    .option('--no-bigrams', 'logistic model: words and MeSH only, no word bigrams')
    .option('--out <dir>', 'write recall-curve.svg, report.html and the screening orders (simulations.json) here')
    .option('--json', 'print the results as JSON', false)
    .action(async (reviewPath: string, flags: SimulateFlags) => {
      const seeds = parseSeeds(flags.seeds)
      const dataset = await readScreeningReviewAt(reviewPath)
      for (const error of dataset.errors) {
        process.stderr.write(`skipped: ${error.message}\n`)
      }
      const results: SimulationResult[] = seeds.map((seed) => simulateScreening(dataset, { seed, ranker: flags.ranker, features: { bigrams: flags.bigrams } }))
      if (flags.out !== undefined) {
        await mkdir(flags.out, { recursive: true })
        const title = `${dataset.name}: ${flags.ranker}`
        await writeFile(join(flags.out, 'recall-curve.svg'), recallCurveSvg(results.map((r) => ({ name: `seed ${r.seed}`, labels: r.labels, total: r.metrics.records })), title))
        await writeFile(join(flags.out, 'report.html'), simulationHtml(results, title))
        await writeFile(join(flags.out, 'simulations.json'), `${JSON.stringify(results.map(({ retrainMs: _, ...r }) => r))}\n`)
      }
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(results.map(({ retrainMs, order: _, labels: __, ...r }) => ({ ...r, msPerDecision: retrainMs.reduce((a, b) => a + b, 0) / Math.max(1, retrainMs.length) })))}\n`)
      } else {
        process.stdout.write(`${dataset.name}: ${dataset.records.length} records, ${dataset.records.filter((r) => r.label === 1).length} included; ranker ${flags.ranker}\n`)
        process.stdout.write('seed  priors        WSS@95  R@10%  R@25%  to95%  to100%  ATD\n')
        for (const r of results) {
          const m = r.metrics
          process.stdout.write(
            `${String(r.seed).padEnd(6)}${r.priors.join(',').padEnd(14)}${m.wss95.toFixed(3).padStart(6)}  ${m.recallAt10.toFixed(3)}  ${m.recallAt25.toFixed(3)}  ${String(m.toRecall95).padStart(5)}  ${String(m.toRecall100).padStart(6)}  ${m.atd.toFixed(1)}\n`,
          )
        }
      }
      process.exitCode = dataset.errors.length > 0 ? EXIT.PARTIAL : EXIT.OK
    })
}
