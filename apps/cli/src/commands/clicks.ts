import { writeFileAtomic } from '@pubmatch/core/node'
import type { Command } from 'commander'
import { PubmatchError, type Qrels } from '@pubmatch/core'
import { formatQrels, readQrels } from '@pubmatch/eval'
import { readQueries } from '@pubmatch/ingest'
import {
  createLogStore,
  labelQueries,
  readBestMatchSample,
  simulateClicks,
  type ClickModel,
  type LabelledQuery,
} from '@pubmatch/ltr'
import { addRankingOptions, openEngine, type RankingFlags } from './search.ts'
import { parsePositiveInt } from './ingest.ts'
import { registerClicksSolrCommands } from './solr.ts'

function probabilities(text: string, what: string): number[] {
  const values = text.split(',').map(Number)
  if (values.length === 0 || values.some((p) => !Number.isFinite(p) || p < 0 || p > 1)) {
    throw new PubmatchError('INVALID_ARGUMENT', `clicks: ${what} takes probabilities in [0, 1] by grade, e.g. 0.05,0.5,0.9; got "${text}"`)
  }
  return values
}

async function writeLabelled(queries: readonly LabelledQuery[], queriesFile: string, qrelsFile: string): Promise<void> {
  const qrels: Qrels = new Map(queries.map((q) => [q.id, new Map(q.judgements)]))
  await writeFileAtomic(queriesFile, queries.map((q) => `${q.id}\t${q.text.replace(/\s+/g, ' ')}\n`).join(''))
  await writeFileAtomic(qrelsFile, formatQrels(qrels))
}

/** Adds `pubmatch clicks simulate|labels|sample`. */
export function registerClicksCommands(program: Command): void {
  const clicks = program
    .command('clicks')
    .description('search logs: simulate clicks over a judged collection, turn a log into training labels')

  addRankingOptions(
    clicks
      .command('simulate')
      .description('simulate search sessions with a click model over judged queries and append them to a log')
      .requiredOption('--queries <file>', 'queries: QID<TAB>text')
      .requiredOption('--qrels <file>', 'their judgements (the simulated users’ notion of relevance)')
      .requiredOption('--log <dir>', 'the log directory to append to'),
  )
    .option('--model <name>', 'pbm (position-based) or cascade', 'pbm')
    .option('--eta <n>', 'pbm: examination probability 1/rank^eta', '1')
    .option('--click <p,p,…>', 'click probability of an examined result, by grade', '0.05,0.5,0.9')
    .option('--fulltext <p,p,…>', 'full-text request probability after a click, by grade', '0.05,0.2,0.4')
    .option('--sessions <n>', 'sessions per query', parsePositiveInt, 10)
    .option('--page <n>', 'results shown per search', parsePositiveInt, 20)
    .option('--seed <n>', 'seed', parsePositiveInt, 1)
    .option('--json', 'print the statistics as JSON', false)
    .addHelpText(
      'after',
      `
Example (NFCorpus train, then labels and a model from the log):
  pubmatch clicks simulate -i nf/index --queries ../shared/data/nfcorpus/train/q-titles.queries \\
    --qrels ../shared/data/nfcorpus/train/s-3.qrel --log nf/clicks
  pubmatch clicks labels --log nf/clicks --queries-out nf/clicks.queries --qrels-out nf/clicks.qrel
  pubmatch train -i nf/index --queries nf/clicks.queries --qrels nf/clicks.qrel -o nf/model-clicks`,
    )
    .action(async (options: RankingFlags & { queries: string; qrels: string; log: string; model: string; eta: string; click: string; fulltext: string; sessions: number; page: number; seed: number; json: boolean }) => {
      let model: ClickModel
      if (options.model === 'pbm') {
        model = { kind: 'pbm', eta: Number(options.eta) }
      } else if (options.model === 'cascade') {
        model = { kind: 'cascade' }
      } else {
        throw new PubmatchError('INVALID_ARGUMENT', `clicks: --model is pbm or cascade, got "${options.model}"`)
      }
      const engine = await openEngine(options)
      const store = createLogStore(options.log)
      const stats = await simulateClicks({
        queries: await readQueries(options.queries),
        qrels: await readQrels(options.qrels),
        search: (text) => {
          const result = engine.firstStageSearch(text, { limit: options.page })
          return { ids: result.hits.map((hit) => hit.id), total: result.total }
        },
        sink: store,
        seed: options.seed,
        model,
        clickProbability: probabilities(options.click, '--click'),
        fullTextProbability: probabilities(options.fulltext, '--fulltext'),
        sessionsPerQuery: options.sessions,
        pageSize: options.page,
      })
      await store.close()
      if (options.json) {
        process.stdout.write(`${JSON.stringify({ log: options.log, ...stats }, null, 2)}\n`)
        return
      }
      process.stdout.write(
        `appended to ${options.log}: ${stats.sessions} sessions over ${stats.queries} queries, ${stats.abstractClicks} abstract clicks, ${stats.fullTextRequests} full-text requests\n` +
          `clicks by rank: ${stats.clicksByRank.slice(0, 10).join(' ')}${stats.clicksByRank.length > 10 ? ' …' : ''}\n`,
      )
    })

  clicks
    .command('labels')
    .description('turn a search log into graded training queries (Fiorini et al. 2018, S3): filters, merging, NCBI or Yeganova labels')
    .requiredOption('--log <dir>', 'the log directory')
    .requiredOption('--queries-out <file>', 'the labelled queries to write (QID<TAB>text)')
    .requiredOption('--qrels-out <file>', 'their labels as TREC qrels')
    .option('--labelling <scheme>', 'ncbi (grades 12…1 by click rank) or yeganova (clicked vs skipped)', 'ncbi')
    .option('--min-results <n>', 'drop searches with fewer results', parsePositiveInt, 20)
    .option('--min-occurrences <n>', 'drop queries searched fewer times', parsePositiveInt, 3)
    .option('--min-clicked <n>', 'drop queries with fewer clicked documents', parsePositiveInt, 20)
    .option('--json', 'print the statistics as JSON', false)
    .action(async (options: { log: string; queriesOut: string; qrelsOut: string; labelling: string; minResults: number; minOccurrences: number; minClicked: number; json: boolean }) => {
      if (options.labelling !== 'ncbi' && options.labelling !== 'yeganova') {
        throw new PubmatchError('INVALID_ARGUMENT', `clicks: --labelling is ncbi or yeganova, got "${options.labelling}"`)
      }
      const { events, problems } = await createLogStore(options.log).readAll()
      for (const problem of problems.slice(0, 20)) {
        process.stderr.write(`warning: ${problem.file}:${problem.line}: ${problem.error.message}\n`)
      }
      const { queries, stats } = labelQueries(events, {
        labelling: options.labelling,
        minResults: options.minResults,
        minOccurrences: options.minOccurrences,
        minClickedDocuments: options.minClicked,
      })
      await writeLabelled(queries, options.queriesOut, options.qrelsOut)
      if (options.json) {
        process.stdout.write(`${JSON.stringify({ ...stats, badLines: problems.length, labelling: options.labelling, queriesOut: options.queriesOut, qrelsOut: options.qrelsOut }, null, 2)}\n`)
        return
      }
      process.stdout.write(
        `${stats.searches} searches, ${stats.actions} actions, ${problems.length} bad lines skipped\n` +
          `searches dropped: ${JSON.stringify(stats.droppedSearches)}\n` +
          `actions dropped: ${JSON.stringify(stats.droppedActions)}\n` +
          `${stats.queries} distinct queries; dropped: ${JSON.stringify(stats.droppedQueries)}\n` +
          `wrote ${stats.kept} labelled queries (${options.labelling}) to ${options.queriesOut} and ${options.qrelsOut}\n`,
      )
    })

  clicks
    .command('sample')
    .description("read NCBI's Best Match research sample (real log queries, gold lists, candidates): query classes, eligibility, NCBI grades")
    .argument('<dir>', 'the sample folder (with data/queries, data/gold_standard, data/results)')
    .option('--queries-out <file>', 'write the eligible simple queries (QID<TAB>text)')
    .option('--qrels-out <file>', 'write their NCBI grades (0–12) as TREC qrels')
    .option('--json', 'print the statistics as JSON', false)
    .action(async (dir: string, options: { queriesOut?: string; qrelsOut?: string; json: boolean }) => {
      const sample = await readBestMatchSample(dir)
      const s = sample.stats
      if (options.json) {
        let written: number | undefined
        if (options.queriesOut !== undefined && options.qrelsOut !== undefined) {
          const keep = new Set(sample.queries.filter((q) => q.simple && q.eligible).map((q) => q.id))
          const labelled = sample.labelled.filter((q) => keep.has(q.id))
          await writeLabelled(labelled, options.queriesOut, options.qrelsOut)
          written = labelled.length
        }
        process.stdout.write(`${JSON.stringify({ ...s, ...(written === undefined ? {} : { written }) }, null, 2)}\n`)
        return
      }
      process.stdout.write(
        `${s.queries} queries: ${s.simple} simple; ${s.withGold} with a gold list, ${s.withResults} with candidates; ` +
          `${s.eligible} eligible (≥ 5 of the top-10 gold in the top 500), ${s.simpleEligible} of them simple\n`,
      )
      if (options.queriesOut !== undefined && options.qrelsOut !== undefined) {
        const keep = new Set(sample.queries.filter((q) => q.simple && q.eligible).map((q) => q.id))
        const labelled = sample.labelled.filter((q) => keep.has(q.id))
        await writeLabelled(labelled, options.queriesOut, options.qrelsOut)
        process.stdout.write(`wrote ${labelled.length} queries to ${options.queriesOut} and ${options.qrelsOut}\n`)
      }
    })
  registerClicksSolrCommands(clicks)
}
