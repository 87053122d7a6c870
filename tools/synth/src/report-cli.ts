#!/usr/bin/env node
// Prints the README's fitted parameters and real-vs-synthetic table: `node dist/report-cli.js [articles] [seed]`.
import { abstractText } from '@pubmatch/core'
import { isGrowthTerm } from './fit/fit-vocabulary.ts'
import { createArticleGenerator } from './generate.ts'
import { loadCorpusModel } from './model.ts'
import { corpusStatistics, type CorpusStatistics } from './stats.ts'
import { tokenTerms } from './text.ts'

const size = Number(process.argv[2] ?? 10_000)
const seed = Number(process.argv[3] ?? 1)
const model = loadCorpusModel()
const generator = createArticleGenerator(model)
const articles = Array.from({ length: size }, (_, i) => generator.article(seed, i))

const fixed = (x: number, digits = 3): string => (Number.isFinite(x) ? x.toFixed(digits) : '–')

async function main(): Promise<void> {
  const real = model.reference
  const synthetic: CorpusStatistics = await corpusStatistics(articles, {
    zipfRanks: model.text.vocabulary.law.fitRanks,
  })
  const rows: [string, string, string][] = [
    ['articles', String(real.articles), String(synthetic.articles)],
    [
      'title tokens, mean (p10 / p50 / p90)',
      `${fixed(real.titleTokens.mean, 1)} (${real.titleTokens.p10} / ${real.titleTokens.p50} / ${real.titleTokens.p90})`,
      `${fixed(synthetic.titleTokens.mean, 1)} (${synthetic.titleTokens.p10} / ${synthetic.titleTokens.p50} / ${synthetic.titleTokens.p90})`,
    ],
    ['share with abstract', fixed(real.abstractShare), fixed(synthetic.abstractShare)],
    [
      'abstract tokens, mean (p10 / p50 / p90)',
      `${fixed(real.abstractTokens.mean, 1)} (${fixed(real.abstractTokens.p10, 0)} / ${fixed(real.abstractTokens.p50, 0)} / ${fixed(real.abstractTokens.p90, 0)})`,
      `${fixed(synthetic.abstractTokens.mean, 1)} (${fixed(synthetic.abstractTokens.p10, 0)} / ${fixed(synthetic.abstractTokens.p50, 0)} / ${fixed(synthetic.abstractTokens.p90, 0)})`,
    ],
    ['structured abstracts', fixed(real.structuredShare), fixed(synthetic.structuredShare)],
    [
      'authors, mean (p50 / p90)',
      `${fixed(real.authors.mean, 2)} (${real.authors.p50} / ${real.authors.p90})`,
      `${fixed(synthetic.authors.mean, 2)} (${synthetic.authors.p50} / ${synthetic.authors.p90})`,
    ],
    ['share with MeSH', fixed(real.meshShare), fixed(synthetic.meshShare)],
    [
      'MeSH headings (with MeSH), mean (p10 / p50 / p90)',
      `${fixed(real.meshHeadings.mean, 2)} (${real.meshHeadings.p10} / ${real.meshHeadings.p50} / ${real.meshHeadings.p90})`,
      `${fixed(synthetic.meshHeadings.mean, 2)} (${fixed(synthetic.meshHeadings.p10, 0)} / ${fixed(synthetic.meshHeadings.p50, 0)} / ${fixed(synthetic.meshHeadings.p90, 0)})`,
    ],
    [
      'qualifiers per heading',
      fixed(real.qualifiersPerHeading),
      fixed(synthetic.qualifiersPerHeading),
    ],
    ['major-topic headings', fixed(real.majorHeadingShare), fixed(synthetic.majorHeadingShare)],
    [
      'share with keywords; keywords (with), mean',
      `${fixed(real.keywordShare)}; ${fixed(real.keywords.mean, 2)}`,
      `${fixed(synthetic.keywordShare)}; ${fixed(synthetic.keywords.mean, 2)}`,
    ],
    [
      'English; DOI',
      `${fixed(real.englishShare)}; ${fixed(real.doiShare)}`,
      `${fixed(synthetic.englishShare)}; ${fixed(synthetic.doiShare)}`,
    ],
    [
      'function words in titles / abstracts',
      `${fixed(real.functionShare.title)} / ${fixed(real.functionShare.abstract)}`,
      `${fixed(synthetic.functionShare.title)} / ${fixed(synthetic.functionShare.abstract)}`,
    ],
    [
      'title content words found in the abstract',
      fixed(real.titleInAbstractShare),
      fixed(synthetic.titleInAbstractShare),
    ],
    [
      'abstract content tokens repeating an earlier one',
      fixed(real.repeatShare),
      fixed(synthetic.repeatShare),
    ],
    [
      `Zipf–Mandelbrot s (q) over the top ${real.zipf.ranks} ranks`,
      `${fixed(real.zipf.s)} (${fixed(real.zipf.q, 2)})`,
      `${fixed(synthetic.zipf.s)} (${fixed(synthetic.zipf.q, 2)})`,
    ],
    [
      'abstract tokens; distinct terms',
      `${real.abstractVocabulary.tokens}; ${real.abstractVocabulary.types}`,
      `${synthetic.abstractVocabulary.tokens}; ${synthetic.abstractVocabulary.types}`,
    ],
    [
      "Heaps' law k, β (over each corpus's own range)",
      `${fixed(real.heaps.k, 2)}, ${fixed(real.heaps.beta)}`,
      `${fixed(synthetic.heaps.k, 2)}, ${fixed(synthetic.heaps.beta)}`,
    ],
  ]
  // Vocabulary growth at equal sizes.
  const realPoints = new Map(model.text.vocabulary.heaps.points)
  const growth = new Map(model.text.vocabulary.heaps.growth?.points ?? [])
  const seen = new Set<string>()
  const seenContent = new Set<string>()
  let n = 0
  let nc = 0
  const at: string[] = []
  const atContent: string[] = []
  for (const a of articles) {
    for (const term of tokenTerms(abstractText(a))) {
      n++
      seen.add(term)
      if (n === 32_000 || n === 64_000 || n === 128_000) {
        at.push(`${n / 1000}k: ${realPoints.get(n)} vs ${seen.size}`)
      }
      if (isGrowthTerm(term)) {
        nc++
        seenContent.add(term)
        if (nc === 100_000 || nc === 200_000 || nc === 300_000 || nc === 460_000) {
          atContent.push(`${nc / 1000}k: ${growth.get(nc) ?? '–'} vs ${seenContent.size}`)
        }
      }
    }
  }
  rows.push(['distinct terms after n abstract tokens (real vs synthetic)', at.join('; '), ''])
  rows.push([
    'distinct content terms after n content tokens (NFCorpus vs synthetic)',
    atContent.join('; '),
    '',
  ])
  process.stdout.write(
    `| statistic | real sample | synthetic (${size} articles, seed ${seed}) |\n|---|---|---|\n`,
  )
  for (const [name, a, b] of rows) {
    process.stdout.write(`| ${name} | ${a} | ${b} |\n`)
  }
  const v = model.text.vocabulary
  process.stdout.write(
    `\nlaw: s = ${v.law.s}, q = ${v.law.q}, fit ranks ${v.law.fitRanks}, break ${v.law.breakRank}, tail ${v.law.tailExponent}; ` +
      `heaps k = ${v.heaps.k}, β = ${v.heaps.beta}; numeric tail ${v.numericTailShare}; ρ = ${v.repeatShare}, θ = ${v.titleFromAbstract}; ` +
      `title function share ${v.titleFunctionShare}; topics ${v.topics.count}, λ abstract ${v.topics.abstractShare}, title ${v.topics.titleShare}; ` +
      `real words ${v.words.length}; MeSH descriptors ${model.mesh.descriptors.length}, popularity s = ${model.mesh.popularity.s}, q = ${model.mesh.popularity.q}; ` +
      `journals ${model.metadata.journals.entries.length} real of ${model.metadata.journals.total}, s = ${model.metadata.journals.s}; queries ${model.queries.length}\n`,
  )
}

main().catch((error: unknown) => {
  process.stderr.write(
    `report: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  )
  process.exitCode = 1
})
