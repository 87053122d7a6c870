import { writeFile } from 'node:fs/promises'
import { basename } from 'node:path'
import { Option, type Command } from 'commander'
import {
  compareRuns,
  evaluate,
  formatTable,
  formatTrecEval,
  readQrels,
  readRun,
  renderHtmlReport,
  type EvaluationResult,
} from '@pubmatch/eval'
import { PubmatchError } from '@pubmatch/core'

/** The measures `pubmatch eval` reports unless told otherwise (those of BENCHMARKS.md's tables). */
export const DEFAULT_MEASURES: readonly string[] = ['ndcg_cut.10,20', 'P.10', 'recall.100,1000', 'map', 'recip_rank']

interface EvalOptions {
  measures: string
  level: string
  html?: string
  trecEval: boolean
  perQuery: boolean
  test: 't-test' | 'randomisation'
  metric?: string
  title?: string
  trend: boolean
  json: boolean
}

/** Adds `pubmatch eval RUN… QRELS`. */
export function registerEvalCommand(program: Command): void {
  program
    .command('eval')
    .description('evaluate TREC runs against qrels exactly as trec_eval -c does; several runs are compared with paired significance tests')
    .argument('<files...>', 'one or more run files, then the qrels file (TREC formats; .gz allowed)')
    .option('-m, --measures <list>', 'trec_eval measure names, comma- or space-separated groups', DEFAULT_MEASURES.join(' '))
    .option('-l, --level <n>', 'relevance level: grade ≥ n is relevant (trec_eval -l)', '1')
    .addOption(new Option('--test <test>', 'significance test against the first run').choices(['t-test', 'randomisation']).default('randomisation'))
    .option('--html <file>', 'also write a self-contained HTML report with per-query plots')
    .option('--metric <name>', 'measure plotted per query in the HTML report (e.g. ndcg_cut_10)')
    .option('--title <text>', 'title of the HTML report')
    .option('--trend', 'in the HTML report, also plot each measure by run in the order given (e.g. feedback rounds)', false)
    .option('--trec-eval', 'print exactly what trec_eval -c -q would print (one run)', false)
    .option('-q, --per-query', 'with --trec-eval: per-query lines too; with --json: per-query values too', false)
    .option('--json', 'print the means (and the comparison of several runs) as JSON', false)
    .addHelpText(
      'after',
      `
Examples:
  pubmatch eval dev.run ../shared/data/nfcorpus/dev/s-3.qrel
  pubmatch eval bm25.run bm25f.run s-3.qrel --html report.html   # compare, with significance
  pubmatch eval r0.run r1.run r2.run s-3.qrel --html rounds.html --trend   # nDCG by feedback round`,
    )
    .action(async (files: string[], options: EvalOptions) => {
      if (files.length < 2) {
        throw new PubmatchError('INVALID_ARGUMENT', 'eval: give at least one run file and then the qrels file')
      }
      const qrelsPath = files.at(-1)!
      const runPaths = files.slice(0, -1)
      const measures = options.measures.split(/[\s]+/).filter(Boolean)
      const relevanceLevel = Number.parseInt(options.level, 10)
      const qrels = await readQrels(qrelsPath)
      const results = new Map<string, EvaluationResult>()
      for (const path of runPaths) {
        const run = await readRun(path)
        let name = basename(path).replace(/\.gz$/, '')
        while (results.has(name)) {
          name = `${name}'`
        }
        results.set(name, evaluate(run, qrels, { measures, relevanceLevel }))
      }
      if (options.trecEval) {
        for (const result of results.values()) {
          process.stdout.write(formatTrecEval(result, { perQuery: options.perQuery }))
        }
        return
      }
      const comparison = compareRuns(results, { test: options.test })
      if (options.json) {
        process.stdout.write(
          `${JSON.stringify(
            {
              qrels: qrelsPath,
              relevanceLevel,
              runs: [...results].map(([name, result]) => ({
                name,
                mean: result.mean,
                ...(options.perQuery ? { perQuery: Object.fromEntries(result.perQuery) } : {}),
              })),
              comparison,
            },
            null,
            2,
          )}\n`,
        )
      } else {
        process.stdout.write(`${formatTable(comparison)}\n`)
      }
      if (options.html) {
        await writeFile(
          options.html,
          renderHtmlReport({
            runs: results,
            comparison,
            metric: options.metric,
            title: options.title ?? `pubmatch eval: ${[...results.keys()].join(' vs ')}`,
            description: `Qrels ${qrelsPath}; relevance level ${relevanceLevel}; ${options.test} test against ${[...results.keys()][0]}.`,
            generated: new Date().toISOString(),
            trend: options.trend,
          }),
        )
        process.stderr.write(`wrote ${options.html}\n`)
      }
    })
}
