import { writeFile } from 'node:fs/promises'
import type { Command } from 'commander'
import { PubmatchError, SECTION_TYPES } from '@pubmatch/core'
import { evaluatePav, openFulltextIndex, plotSectionModel, loadSectionModel, saveSectionModel, trainSectionModel, type LabelledFulltextQuery } from '@pubmatch/fulltext'
import { fulltextDir, readIndexSettings, readLabelledQueries, sectionModelFile } from '@pubmatch/engine'
import { shuffle } from '@pubmatch/eval'
import { openCorpus } from '@pubmatch/ingest'
import { DEFAULT_INDEX } from '../paths.ts'
import { parsePositiveInt } from './ingest.ts'
import { assertFulltextIndex, assertSectionModel } from '../next-step.ts'

/** Adds `pubmatch fulltext train|inspect|plot`. */
export function registerFulltextCommands(program: Command): void {
  const fulltext = program
    .command('fulltext')
    .description('full-text section scoring (Yeganova et al. 2021): train, inspect and plot the PAV functions of each section type')

  fulltext
    .command('train')
    .description('fit a PAV function per section type (P(relevant | section BM25)) from labelled queries over the full texts')
    .option('-i, --index <dir>', 'index directory (with a full-text index: `pubmatch index --fulltext`)', DEFAULT_INDEX)
    .option('--queries <file>', 'training queries: QID<TAB>text')
    .option('--qrels <file>', 'their judgements of full texts (PMIDs, or PMCIDs for texts without one)')
    .option('--known-item', 'train on known items: each full text’s title is a query whose one relevant document is that text (the titles of a seeded half)', false)
    .option('--seed <n>', 'with --known-item: the shuffle seed of the half', parsePositiveInt, 20260101)
    .option('-o, --out <file>', 'the model file (default: <index>/fulltext/sections.json, which search uses)')
    .option('--json', 'print the result as JSON', false)
    .action(async (options: { index: string; queries?: string; qrels?: string; knownItem: boolean; seed: number; out?: string; json: boolean }) => {
      await assertFulltextIndex(options.index)
      const index = await openFulltextIndex(fulltextDir(options.index))
      let queries: LabelledFulltextQuery[]
      let description: Record<string, string | number>
      if (options.knownItem) {
        const settings = await readIndexSettings(options.index)
        const store = await openCorpus(settings.corpus, { readOnly: true })
        const items: Array<{ id: string; text: string }> = []
        for await (const document of store.fullTexts()) {
          if ((document.title ?? '').trim() !== '') {
            items.push({ id: document.pmid ?? document.pmcid, text: document.title!.trim() })
          }
        }
        const half = shuffle(items, options.seed).slice(0, Math.floor(items.length / 2))
        queries = half.map((item) => ({ text: item.text, relevant: new Set([item.id]) }))
        description = { queries: `known items: titles of ${half.length} of ${items.length} full texts (seeded half, seed ${options.seed})`, labels: 'the article itself' }
      } else {
        if (options.queries === undefined || options.qrels === undefined) {
          throw new PubmatchError('INVALID_ARGUMENT', 'fulltext train: give --queries and --qrels, or --known-item')
        }
        const labelled = await readLabelledQueries(options.queries, options.qrels)
        queries = labelled.map((q) => ({ text: q.text, relevant: new Set([...q.judgements].filter(([, grade]) => grade > 0).map(([id]) => id)) }))
        description = { queries: options.queries, qrels: options.qrels }
      }
      const started = performance.now()
      const model = trainSectionModel(index, queries)
      const seconds = (performance.now() - started) / 1000
      const out = options.out ?? sectionModelFile(options.index)
      await saveSectionModel(out, model, { ...description, points: model.points, index: options.index })
      const summary = { out, queries: queries.length, points: model.points, sections: Object.keys(model.sections).length, prior: model.prior, seconds }
      process.stdout.write(
        options.json
          ? `${JSON.stringify(summary, null, 2)}\n`
          : `wrote ${out}: ${summary.sections} section types from ${model.points.toLocaleString('en-US')} points of ${queries.length} queries in ${seconds.toFixed(2)} s (prior ${model.prior.toExponential(3)})\n`,
      )
    })

  fulltext
    .command('inspect')
    .description('print a section model: per section type, its points and P(relevant) at some scores')
    .option('-i, --index <dir>', 'index directory', DEFAULT_INDEX)
    .option('--model <file>', 'a model file (default: the index’s)')
    .option('--json', 'print the model as JSON', false)
    .action(async (options: { index: string; model?: string; json: boolean }) => {
      if (options.model === undefined) {
        await assertSectionModel(options.index)
      }
      const model = await loadSectionModel(options.model ?? sectionModelFile(options.index))
      if (options.json) {
        process.stdout.write(`${JSON.stringify(model, null, 2)}\n`)
        return
      }
      const at = [0, 1, 2, 4, 8, 16]
      process.stdout.write(`${model.format}, trained ${model.trainedAt}; prior ${model.prior.toExponential(3)}\n${Object.entries(model.training).map(([k, v]) => `  ${k}: ${v}`).join('\n')}\n\n`)
      process.stdout.write(`${'section'.padEnd(10)} ${'points'.padStart(10)}  ${at.map((x) => `P(${x})`.padStart(9)).join(' ')}\n`)
      for (const type of SECTION_TYPES) {
        const f = model.sections[type]
        if (f !== undefined) {
          process.stdout.write(`${type.padEnd(10)} ${String(f.points).padStart(10)}  ${at.map((x) => evaluatePav(f, x).toFixed(5).padStart(9)).join(' ')}\n`)
        }
      }
    })

  fulltext
    .command('plot')
    .description('draw P(relevant | section BM25) of every section type as an SVG')
    .option('-i, --index <dir>', 'index directory', DEFAULT_INDEX)
    .option('--model <file>', 'a model file (default: the index’s)')
    .requiredOption('-o, --out <file>', 'the SVG file')
    .option('--max-score <n>', 'the highest score on the x axis', (v) => Number(v))
    .action(async (options: { index: string; model?: string; out: string; maxScore?: number }) => {
      if (options.model === undefined) {
        await assertSectionModel(options.index)
      }
      const model = await loadSectionModel(options.model ?? sectionModelFile(options.index))
      await writeFile(options.out, plotSectionModel(model, options.maxScore === undefined ? {} : { maxScore: options.maxScore }))
      process.stdout.write(`wrote ${options.out}\n`)
    })
}
