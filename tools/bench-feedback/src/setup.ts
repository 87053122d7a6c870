/**
 * What every program of the benchmark shares: NFCorpus ingested and indexed as `pubmatch ingest`
 * + `pubmatch index` leave it (a corpus store, `updateIndex`, `openSearch`: test-collection fields,
 * `biomedical` analyzer, BM25F, match any, plain syntax), the labelled title queries, progress
 * lines, the machine's description and the results file with one section per program.
 */
import { readFile } from 'node:fs/promises'
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { listedOrder, replaceSection } from '@pubmatch/bench-kit'
import type { Qrels } from '@pubmatch/core'
import { writeFileAtomic } from '@pubmatch/core/node'
import { openSearch, updateIndex, type SearchEngine } from '@pubmatch/engine'
import { readQrels } from '@pubmatch/eval'
import { defaultReaders, ingestFiles, openCorpus, readQueries } from '@pubmatch/ingest'

/** The package directory (`tools/bench-feedback`). */
export const PACKAGE_DIR: string = fileURLToPath(new URL('..', import.meta.url))

/** Work files: corpus store, index, raw JSON figures (gitignored). */
export const CACHE_DIR: string = join(PACKAGE_DIR, '.cache')

/** Commit-worthy outputs (SVG, HTML, Markdown) and the gitignored `runs/`. */
export const RESULTS_DIR: string = join(PACKAGE_DIR, 'results')

/** Progress lines on stderr, with the time of day. */
export function log(line: string): void {
  process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`)
}

/** The shared data folder (see @pubmatch/bench-kit). */
export { sharedDataDir } from '@pubmatch/bench-kit'

/** The indexed collection. */
export interface Collection {
  /** The engine without a model: the first stage. */
  readonly engine: SearchEngine
  /** What ingest and index did. */
  readonly setup: string
}

/**
 * NFCorpus as `pubmatch ingest corpus.docs -c <cache>/corpus && pubmatch index -c <cache>/corpus -i
 * <cache>/index` leaves it (both steps incremental), opened with `openSearch`.
 * @param shared - the shared data folder
 */
export async function openNfcorpus(shared: string): Promise<Collection> {
  const corpusDir = join(CACHE_DIR, 'corpus')
  const indexDir = join(CACHE_DIR, 'index')
  const store = await openCorpus(corpusDir, { create: true })
  const ingested = await ingestFiles(store, [join(shared, 'nfcorpus/corpus.docs')], {
    readers: defaultReaders(),
  })
  await store.close()
  const indexed = await updateIndex({ corpus: corpusDir, index: indexDir })
  const engine = await openSearch({ index: indexDir })
  const setup =
    `ingest: ${ingested.added} added, ${ingested.unchanged} unchanged; index: ${indexed.built ? 'built' : 'updated'}, ${indexed.docCount} documents; ` +
    `first stage ${engine.firstStage.ranker}, ${engine.firstStage.analyzer}, match ${engine.firstStage.match}, syntax ${engine.firstStage.syntax}`
  log(setup)
  return { engine, setup }
}

/** A query with its judgements. */
export interface LabelledQuery {
  readonly id: string
  readonly text: string
}

/** Queries and judgements of one NFCorpus split. */
export interface Split {
  readonly name: 'train' | 'dev'
  readonly queries: readonly LabelledQuery[]
  readonly qrels: Qrels
}

/**
 * The title queries of a split with `s-3.qrel` (grades 2 and 1).
 * @param shared - the shared data folder
 * @param name - `train` or `dev`
 */
export async function readSplit(shared: string, name: 'train' | 'dev'): Promise<Split> {
  const queries = await readQueries(join(shared, `nfcorpus/${name}/q-titles.queries`))
  const qrels = await readQrels(join(shared, `nfcorpus/${name}/s-3.qrel`))
  return { name, queries, qrels }
}

/** The machine, for the report. */
export function machine(): string {
  const model = cpus()[0]?.model ?? 'unknown CPU'
  return `${availableParallelism()} cores (\`nproc\`), ${model}, ${(totalmem() / 1024 ** 3).toFixed(0)} GB RAM, Node ${process.version}`
}

/** The load average, 1/5/15 minutes. */
export function load(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ')
}

/** The results file. */
export const RESULTS_FILE: string = join(PACKAGE_DIR, 'RESULTS.md')

/** The heading block of RESULTS.md. */
export const RESULTS_HEADER = `# Relevance feedback on NFCorpus

Written by the programs of \`tools/bench-feedback\`; each replaces its own section. Commands, from
the repository root:

\`\`\`sh
pnpm build                                             # or: pnpm --filter @pubmatch/bench-feedback... build
pnpm --filter @pubmatch/bench-feedback bench           # the quick parts: latency, then simulated users
pnpm --filter @pubmatch/bench-feedback bench:prf       # PRF as a first-stage option: train grid, dev
pnpm --filter @pubmatch/bench-feedback bench:erf       # simulated users only
pnpm --filter @pubmatch/bench-feedback bench:latency   # feedback-round latency only
\`\`\`

Each section's "Program" line gives the exact command and options that wrote it.

NFCorpus is ingested and indexed as \`pubmatch ingest\` + \`pubmatch index\` do (\`ingestFiles\` into a
corpus store, \`updateIndex\`, \`openSearch\`): test-collection fields, \`biomedical\` analyzer
(Porter2 + PubMed stop words), BM25F (k1 1.2, b 0.75, title weight 5), match any, plain syntax,
3,394 documents. Queries: the title queries (\`q-titles.queries\`), judgements \`s-3.qrel\`
(grades 2 and 1). Measures: trec_eval semantics (\`-c\`; ties by document id descending),
\`@pubmatch/eval\`. Significance: paired two-sided randomisation test (\`compareRuns\`: 10,000
trials, seed 20080101), ▲/▼ at p ≤ 0.05, no correction for multiple comparisons.`

/**
 * Replaces one program's section of RESULTS.md, keeping the others.
 * @param name - the section's name (`prf`, `erf`, `latency`)
 * @param content - its Markdown
 */
export async function writeResultsSection(name: string, content: string): Promise<void> {
  const text = await readFile(RESULTS_FILE, 'utf8').catch(() => '')
  await writeFileAtomic(
    RESULTS_FILE,
    replaceSection(text, RESULTS_HEADER, name, content, listedOrder(['prf', 'erf', 'latency'])),
  )
}
