/**
 * Automatic term mapping (`ranking: { termMapping: true }`) measured: NFCorpus dev nDCG@10 with
 * and without it (the corpus with the shared MeSH descriptors ingested beside it, the only MeSH
 * vocabulary the data set has), and how many of NCBI's 1,000 real PubMed log queries it maps and
 * changes over the shared PubMed XML files indexed with the same descriptors. Replaces its section of RESULTS.md and writes the
 * raw figures to results/atm.json.
 *
 * Usage: node dist/atm.js
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  listedOrder,
  machineDescription,
  markdownTable,
  replaceSection,
  sharedDataDir,
} from '@pubmatch/bench-kit'
import { isPubmatchError, type Run } from '@pubmatch/core'
import { writeFileAtomic } from '@pubmatch/core/node'
import { openSearch, updateIndex, type SearchEngine, type TermMapping } from '@pubmatch/engine'
import { compareRuns, evaluate, formatPValue, readQrels } from '@pubmatch/eval'
import { defaultReaders, ingestFiles, openCorpus, readQueries } from '@pubmatch/ingest'

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url))
const CACHE_DIR = join(PACKAGE_DIR, '.cache')
const RESULTS_FILE = join(PACKAGE_DIR, 'RESULTS.md')
const RAW_FILE = join(PACKAGE_DIR, 'results', 'atm.json')
const PAGE = 20

function log(line: string): void {
  process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`)
}

function runOf(
  engine: SearchEngine,
  queries: ReadonlyArray<{ id: string; text: string }>,
  tag: string,
): Run {
  const run: Run = { tag, queries: new Map() }
  for (const query of queries) {
    const ranked = engine.run(query.text, 1000)
    run.queries.set(
      query.id,
      ranked.hits.map((hit) => ({ docId: hit.id, score: hit.score, rank: hit.rank })),
    )
  }
  return run
}

async function main(): Promise<void> {
  const shared = sharedDataDir()
  const date = new Date().toISOString().slice(0, 10)

  // 1. NFCorpus dev, with the shared MeSH descriptors in its corpus
  const corpusDir = join(CACHE_DIR, 'nfcorpus-corpus')
  const indexDir = join(CACHE_DIR, 'nfcorpus-index')
  const meshFiles = ['desc-samples.xml', 'desc2014-head.xml'].map((name) =>
    join(shared, 'mesh', name),
  )
  const store = await openCorpus(corpusDir, { create: true })
  await ingestFiles(store, [join(shared, 'nfcorpus/corpus.docs'), ...meshFiles], {
    readers: defaultReaders(),
  })
  await store.close()
  await updateIndex({ corpus: corpusDir, index: indexDir })
  const plain = await openSearch({ index: indexDir })
  const mapped = await openSearch({ index: indexDir, ranking: { termMapping: true } })
  const queries = await readQueries(join(shared, 'nfcorpus/dev/q-titles.queries'))
  const qrels = await readQrels(join(shared, 'nfcorpus/dev/s-3.qrel'))
  const nfMappings: Array<{
    id: string
    text: string
    translation: string
    mappings: readonly TermMapping[]
  }> = []
  for (const query of queries) {
    const translation = mapped.search(query.text, { limit: 1 }).translation
    if (translation !== undefined && translation.mappings.length > 0) {
      nfMappings.push({
        id: query.id,
        text: query.text,
        translation: translation.query,
        mappings: translation.mappings,
      })
    }
  }
  const measures = ['ndcg_cut.10']
  const without = evaluate(runOf(plain, queries, 'without'), qrels, { measures })
  const withAtm = evaluate(runOf(mapped, queries, 'with'), qrels, { measures })
  const comparison = compareRuns(
    new Map([
      ['without', without],
      ['with', withAtm],
    ]),
    { measures: ['ndcg_cut_10'] },
  )
  const cell = comparison.rows
    .find((row) => row.run === 'with')
    ?.cells.find((c) => c.measure === 'ndcg_cut_10')
  const base = without.mean['ndcg_cut_10'] ?? Number.NaN
  const atm = withAtm.mean['ndcg_cut_10'] ?? Number.NaN
  const mappedIds = new Set(nfMappings.map((m) => m.id))
  const meanOver = (result: typeof without, ids: ReadonlySet<string>): number => {
    const values = [...ids].map((id) => result.perQuery.get(id)?.['ndcg_cut_10'] ?? 0)
    return values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length
  }
  log(
    `NFCorpus dev: ${queries.length} queries, ${nfMappings.length} mapped; nDCG@10 ${base.toFixed(4)} → ${atm.toFixed(4)}`,
  )

  // 2. the real PubMed log queries over the PubMed XML index of run.ts
  const xmlDir = join(shared, 'pubmed-xml')
  const xmlFiles = (await readdir(xmlDir)).filter((name) => /\.xml(\.gz)?$/.test(name)).sort()
  const pubmedCorpus = join(CACHE_DIR, 'atm-pubmed-corpus')
  const pubmedIndex = join(CACHE_DIR, 'atm-pubmed-index')
  const pubmedStore = await openCorpus(pubmedCorpus, { create: true })
  await ingestFiles(pubmedStore, [...xmlFiles.map((name) => join(xmlDir, name)), ...meshFiles], {
    readers: defaultReaders(),
  })
  await pubmedStore.close()
  const pubmedIndexed = await updateIndex({ corpus: pubmedCorpus, index: pubmedIndex })
  const pubmedPlain = await openSearch({ index: pubmedIndex })
  const pubmedMapped = await openSearch({ index: pubmedIndex, ranking: { termMapping: true } })
  const logText = await readFile(join(shared, 'pubmed-best-match/data/queries/queries.txt'), 'utf8')
  let logQueries = 0
  let logErrors = 0
  let logMapped = 0
  let logChanged = 0
  const logExamples: Array<{ text: string; translation: string; before: number; after: number }> =
    []
  for (const line of logText.split('\n')) {
    const bar = line.indexOf('|')
    if (bar <= 0) {
      continue
    }
    const text = line.slice(bar + 1)
    logQueries += 1
    try {
      const a = pubmedPlain.search(text, { limit: PAGE, citation: false })
      const b = pubmedMapped.search(text, { limit: PAGE, citation: false })
      if (b.translation !== undefined && b.translation.mappings.length > 0) {
        logMapped += 1
        const same =
          a.total === b.total &&
          a.hits.map((h) => h.id).join(' ') === b.hits.map((h) => h.id).join(' ')
        if (!same) {
          logChanged += 1
          logExamples.push({
            text,
            translation: b.translation.query,
            before: a.total,
            after: b.total,
          })
        }
      }
    } catch (error) {
      if (!isPubmatchError(error)) {
        throw error
      }
      logErrors += 1
    }
  }
  log(`PubMed log: ${logQueries} queries, ${logMapped} mapped, ${logChanged} changed`)

  const section = [
    `## Automatic term mapping (${date})`,
    '',
    `\`pnpm --filter @pubmatch/bench-citation bench:atm\` on ${machineDescription()} (shared with other work; no times).`,
    '',
    `The MeSH vocabulary is what the shared data set has: ${meshFiles.map((f) => `\`mesh/${f.split('/').pop()!}\``).join(' and ')} (106 descriptors of MeSH's ~30,000), ingested into each corpus.`,
    '',
    '### NFCorpus dev (325 title queries, `s-3.qrel`), first stage (BM25F, plain text, match any)',
    '',
    'NFCorpus documents have no MeSH headings, so a mapped run of words adds only the descriptor’s own words (no `[mh]` field to search).',
    '',
    markdownTable(
      ['run', 'nDCG@10', 'over the mapped queries', 'Δ', `p (${comparison.test})`, 'wins / losses'],
      [
        [
          'without term mapping',
          base.toFixed(4),
          meanOver(without, mappedIds).toFixed(4),
          '',
          '',
          '',
        ],
        [
          'with term mapping',
          atm.toFixed(4),
          meanOver(withAtm, mappedIds).toFixed(4),
          (atm - base).toFixed(4),
          cell?.pValue === undefined ? '—' : formatPValue(cell.pValue),
          cell === undefined ? '—' : `${cell.wins} / ${cell.losses}`,
        ],
      ],
    ),
    '',
    `Queries with a mapped run: ${nfMappings.length} of ${queries.length}.`,
    '',
    nfMappings.length === 0
      ? ''
      : markdownTable(
          ['query', 'translation'],
          nfMappings.map((m) => [`\`${m.text}\``, `\`${m.translation}\``]),
        ),
    '',
    `### NCBI’s real PubMed log queries over the PubMed XML files with the same MeSH descriptors (${pubmedIndexed.docCount} citations, match all, PubMed syntax)`,
    '',
    markdownTable(
      ['queries', 'errors (both ways)', 'with a mapped run', 'first 20 or total changed'],
      [[String(logQueries), String(logErrors), String(logMapped), String(logChanged)]],
    ),
    '',
    logExamples.length === 0
      ? ''
      : markdownTable(
          ['query', 'translation', 'total before', 'after'],
          logExamples
            .slice(0, 15)
            .map((e) => [
              `\`${e.text}\``,
              `\`${e.translation}\``,
              String(e.before),
              String(e.after),
            ]),
        ),
    '',
  ].join('\n')
  let previous = ''
  try {
    previous = await readFile(RESULTS_FILE, 'utf8')
  } catch {
    // a first run
  }
  await writeFileAtomic(
    RESULTS_FILE,
    replaceSection(
      previous,
      '# bench-citation results\n\nWritten by `pnpm --filter @pubmatch/bench-citation bench` (see README.md).',
      'atm',
      section,
      listedOrder(['citation', 'atm']),
    ),
  )
  await writeFileAtomic(
    RAW_FILE,
    `${JSON.stringify({ date, machine: machineDescription(), nfcorpus: { queries: queries.length, ndcg10: { without: base, with: atm }, pValue: cell?.pValue, mapped: nfMappings }, log: { queries: logQueries, errors: logErrors, mapped: logMapped, changed: logChanged, examples: logExamples } }, null, 1)}\n`,
  )
  process.stdout.write(`${section}\n`)
}

await main()
