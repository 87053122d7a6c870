import { existsSync } from 'node:fs'
import { rename } from 'node:fs/promises'
import { Option, type Command } from 'commander'
import { PubmatchError, type Query } from '@pubmatch/core'
import { createMeshVocabulary, openCorpus, readQueries } from '@pubmatch/ingest'
import { openIndex, type IndexReader } from '@pubmatch/index'
import {
  SCORER_NAMES,
  createSearcher,
  formatExplanation,
  type Candidate,
  type FirstStageRanker,
  type MatchMode,
  type QuerySyntax,
  type ScorerConfig,
  type ScorerName,
  type SearchMeshLookup,
  type SearchOptions,
} from '@pubmatch/bm25f'
import { writeRun } from '@pubmatch/eval'
import {
  MEMORY_SCHEMA_SUFFIX,
  createQueryMemory,
  createReranker,
  loadModel,
  loadModelMemory,
  withQueryMemory,
  type Reranker,
  type RerankedHit,
} from '@pubmatch/ltr'
import { featureExtractor, openForwardIndex, readUsage } from '../ltr-support.ts'
import { createProgress } from '../progress.ts'
import { DEFAULT_INDEX } from '../paths.ts'
import { readIndexSettings, type IndexSettings } from './index.ts'
import { parsePositiveInt } from './ingest.ts'

/** Ranking options shared by `search` and `run`. */
export interface RankingOptions {
  index: string
  ranker: ScorerName
  k1?: string
  b?: string
  weight: string[]
  match?: MatchMode
  syntax?: QuerySyntax
  year?: string
  pt: string[]
  la: string[]
  recover: boolean
  mesh: boolean
}

const collect = (value: string, previous: string[]): string[] => [...previous, value]

/**
 * Adds the first-stage ranking options shared by `search`, `run`, `train` and `features`.
 * @param command - the command
 */
export function addRankingOptions(command: Command): Command {
  return command
    .option('-i, --index <dir>', 'index directory', DEFAULT_INDEX)
    .addOption(new Option('-r, --ranker <name>', 'first-stage ranking function').choices([...SCORER_NAMES]).default('bm25f'))
    .option('--k1 <n>', 'BM25 k1 (defaults to 1.2)')
    .option('--b <n>', 'BM25 b (defaults to 0.75)')
    .option('--weight <field=w>', 'field weight, repeatable (defaults: title 5, mesh 5, others 1)', collect, [])
    .addOption(
      new Option('--match <mode>', 'all: every word must match (PubMed); any: ranked retrieval over any word (test collections)').choices([
        'all',
        'any',
      ]),
    )
    .addOption(new Option('--syntax <syntax>', 'pubmed: PubMed query syntax; plain: natural-language text').choices(['pubmed', 'plain']))
    .option('--year <from:to>', 'publication years, e.g. 2015:2020 or 2019')
    .option('--pt <type>', 'publication type filter, repeatable (e.g. Review)', collect, [])
    .option('--la <code>', 'language filter, repeatable (e.g. eng)', collect, [])
    .option('--recover', 'work around query syntax errors instead of failing (with warnings)', false)
    .option('--no-mesh', 'do not map [mh] terms through the corpus MeSH vocabulary')
}

/**
 * The searcher of an index with the CLI's defaults for its field set: PubMed semantics for PubMed
 * indexes, ranked retrieval over plain text for test collections.
 * @param options - index directory and ranking options
 */
export async function openSearcher(
  options: RankingOptions,
): Promise<{ reader: IndexReader; searcher: FirstStageRanker; settings: IndexSettings; defaults: SearchOptions }> {
  const settings = await readIndexSettings(options.index)
  const reader = await openIndex(options.index)
  const testCollection = settings.fieldSet === 'test-collection'
  const defaults: SearchOptions = {
    ranker: rankerConfig(options),
    match: options.match ?? (testCollection ? 'any' : 'all'),
    syntax: options.syntax ?? (testCollection ? 'plain' : 'pubmed'),
    filters: filters(options),
    parse: options.recover ? { recover: true } : {},
    mesh: options.mesh && !testCollection ? await meshLookup(settings) : undefined,
  }
  return { reader, searcher: createSearcher(reader, defaults), settings, defaults }
}

function rankerConfig(options: RankingOptions): ScorerConfig {
  const params: Record<string, unknown> = {}
  const number = (text: string, what: string): number => {
    const value = Number(text)
    if (!Number.isFinite(value) || value < 0) {
      throw new PubmatchError('INVALID_ARGUMENT', `search: ${what} must be a non-negative number, got "${text}"`)
    }
    return value
  }
  if (options.k1 !== undefined) {
    params['k1'] = number(options.k1, '--k1')
  }
  if (options.b !== undefined) {
    params['b'] = number(options.b, '--b')
  }
  if (options.weight.length > 0) {
    params['fieldWeights'] = Object.fromEntries(
      options.weight.map((pair) => {
        const [field, value] = pair.split('=')
        if (!field || value === undefined) {
          throw new PubmatchError('INVALID_ARGUMENT', `search: --weight takes field=weight, got "${pair}"`)
        }
        return [field, number(value, `--weight ${field}`)]
      }),
    )
  }
  return { name: options.ranker, params }
}

function filters(options: RankingOptions): SearchOptions['filters'] {
  let years: [number, number] | undefined
  if (options.year !== undefined) {
    const match = /^(\d{4})(?::(\d{4}))?$/.exec(options.year)
    if (!match) {
      throw new PubmatchError('INVALID_ARGUMENT', `search: --year takes YYYY or YYYY:YYYY, got "${options.year}"`)
    }
    years = [Number(match[1]), Number(match[2] ?? match[1])]
  }
  return {
    ...(years ? { years } : {}),
    ...(options.pt.length > 0 ? { publicationTypes: options.pt } : {}),
    ...(options.la.length > 0 ? { languages: options.la } : {}),
  }
}

/** A MeSH lookup from the MeSH records of the index's corpus, when it has any. */
async function meshLookup(settings: IndexSettings): Promise<SearchMeshLookup | undefined> {
  if (!existsSync(settings.corpus)) {
    return undefined
  }
  const store = await openCorpus(settings.corpus, { readOnly: true })
  const descriptors = []
  for await (const entry of store.mesh()) {
    if (entry.type === 'descriptor') {
      descriptors.push(entry.record)
    }
  }
  if (descriptors.length === 0) {
    return undefined
  }
  const vocabulary = createMeshVocabulary(descriptors)
  return {
    descriptorsForTerm: (term) => vocabulary.lookupTerm(term),
    explode: (ui) => vocabulary.explode(ui),
    descriptorName: (ui) => vocabulary.descriptor(ui)?.name,
  }
}

interface SearchCliOptions extends RankingOptions, RerankCliOptions {
  limit: number
  depth: number
  explain: boolean
  json: boolean
}

/** The second-stage options of `search` and `run`. */
interface RerankCliOptions {
  rerank?: string
  usageLog?: string
}

function addRerankOptions(command: Command): Command {
  return command
    .option('--rerank <model>', 'rerank the first-stage candidates with a LambdaMART model (`pubmatch train`)')
    .option('--usage-log <dir>', 'with --rerank: a click log for past usage (F2–F3)')
}

/**
 * The reranker of a model directory over an open index, or `undefined` without `--rerank`.
 * @param options - the CLI options
 * @param opened - the open index
 */
async function openReranker(
  options: RankingOptions & RerankCliOptions,
  opened: { reader: IndexReader; settings: IndexSettings; defaults: SearchOptions },
): Promise<Reranker | undefined> {
  if (options.rerank === undefined) {
    if (options.usageLog !== undefined) {
      throw new PubmatchError('INVALID_ARGUMENT', 'search: --usage-log only matters with --rerank')
    }
    return undefined
  }
  const model = await loadModel(options.rerank)
  const forward = await openForwardIndex(options.index, opened.reader, opened.settings)
  const usage = options.usageLog === undefined ? undefined : (await readUsage(options.usageLog)).total
  let extractor = featureExtractor(opened.reader, forward, opened.defaults.syntax, usage)
  if (model.manifest.schema.version.endsWith(MEMORY_SCHEMA_SUFFIX)) {
    const k = Number(model.manifest.training['memoryK'] ?? 20)
    const memory = createQueryMemory({ queries: await loadModelMemory(options.rerank), analyzer: opened.reader.analyzer('title'), k })
    extractor = withQueryMemory(extractor, memory)
  }
  // checks that the model was trained on exactly these features
  return createReranker(extractor, model)
}

function rerankedAsCandidates(hits: readonly RerankedHit[]): Candidate[] {
  return hits.map((hit) => ({ id: hit.id, docNumber: hit.docNumber, score: hit.score, rank: hit.rank }))
}

/** Adds `pubmatch search` and `pubmatch run`. */
export function registerSearchCommands(program: Command): void {
  const searchCommand = addRankingOptions(
    program
      .command('search')
      .description('search an index: PubMed query syntax, BM25F top-k (the first stage of Best Match)')
      .argument('<query...>', 'the query, e.g. "asthma[mh] AND (child* OR adolescent) AND 2010:2015[dp]"'),
  )
    .option('-n, --limit <n>', 'results to print', parsePositiveInt, 20)
    .option('--depth <n>', 'candidates retrieved (Best Match reranks 500)', parsePositiveInt, 500)
    .option('--explain', 'print the score explanation of each result', false)
    .option('--json', 'print JSON', false)
  addRerankOptions(searchCommand)
    .addHelpText(
      'after',
      `
Examples:
  pubmatch search "asthma children"
  pubmatch search "\\"flame retardants\\"[tiab] NOT review[pt]" --explain -n 5
  pubmatch search "statin" --ranker bestmatch-s1 --year 2010:2016`,
    )
    .action(async (words: string[], options: SearchCliOptions) => {
      const text = words.join(' ')
      const opened = await openSearcher(options)
      const { reader, searcher } = opened
      const reranker = await openReranker(options, opened)
      const started = performance.now()
      const result = searcher.search(text, { limit: Math.max(options.depth, options.limit), explain: options.explain && !reranker })
      const reranked = reranker?.rerank(text, result, { explain: options.explain })
      const took = performance.now() - started
      const hits = (reranked === undefined ? result.hits : rerankedAsCandidates(reranked)).slice(0, options.limit)
      if (options.json) {
        process.stdout.write(
          `${JSON.stringify(
            {
              query: text,
              total: result.total,
              totalRelation: result.totalRelation,
              tookMs: took,
              warnings: result.warnings,
              reranked: reranked !== undefined,
              hits:
                reranked === undefined
                  ? hits.map((hit) => ({ ...hit, document: reader.stored(hit.docNumber) }))
                  : reranked.slice(0, options.limit).map((hit) => ({ ...hit, document: reader.stored(hit.docNumber) })),
            },
            null,
            2,
          )}\n`,
        )
        return
      }
      for (const warning of result.warnings) {
        process.stderr.write(`warning: ${warning.code}: ${warning.message}\n`)
      }
      process.stdout.write(
        `${result.totalRelation === 'eq' ? '' : '≥ '}${result.total} matching documents; top ${hits.length} of ${result.hits.length} candidates` +
          `${reranked === undefined ? '' : ', reranked by LambdaMART'} (${took.toFixed(1)} ms)\n\n`,
      )
      process.stdout.write(formatHits(reader, hits, options.explain))
      if (reranked !== undefined && options.explain) {
        for (const hit of reranked.slice(0, options.limit)) {
          const parts = hit.explain!.contributions.slice(0, 6).map((c) => `${c.feature}=${round(c.value)} ${c.contribution >= 0 ? '+' : ''}${c.contribution.toFixed(3)}`)
          process.stdout.write(
            `${String(hit.rank).padStart(3)}. ${hit.id}  ${hit.score.toFixed(4)} = bias ${hit.explain!.bias.toFixed(3)} + ${parts.join(', ')}${hit.explain!.contributions.length > 6 ? ', …' : ''}  (first stage #${hit.firstStageRank}, ${hit.firstStageScore.toFixed(3)})\n`,
          )
        }
      }
    })

  const runCommand = addRankingOptions(
    program
      .command('run')
      .description('run every query of a QID<TAB>text file and write a TREC run (for `pubmatch eval`)')
      .requiredOption('--queries <file>', 'queries, one per line: QID<TAB>text')
      .requiredOption('-o, --out <file>', 'the run file to write'),
  )
    .option('--limit <n>', 'documents per query', parsePositiveInt, 1000)
    .option('--tag <tag>', 'run tag (last column)', 'pubmatch')
    .option('--plain', 'plain progress lines even on a terminal', false)
    .option('-q, --quiet', 'no progress output', false)
    .option('--json', 'print the summary as JSON', false)
    .option('--depth <n>', 'with --rerank: first-stage candidates reranked (the rest follow in first-stage order)', parsePositiveInt, 500)
  addRerankOptions(runCommand)
    .addHelpText(
      'after',
      `
Ties are written in trec_eval's order (score, then document id descending), so the file is
evaluated exactly as ranked. Example (NFCorpus):
  pubmatch ingest ../shared/data/nfcorpus/corpus.docs -c nf/corpus
  pubmatch index -c nf/corpus -i nf/index
  pubmatch run -i nf/index --queries ../shared/data/nfcorpus/dev/q-titles.queries -o dev.run
  pubmatch eval dev.run ../shared/data/nfcorpus/dev/s-3.qrel`,
    )
    .action(async (options: RankingOptions & RerankCliOptions & { queries: string; out: string; limit: number; depth: number; tag: string; plain: boolean; quiet: boolean; json: boolean }) => {
      const queries: Query[] = await readQueries(options.queries)
      const opened = await openSearcher(options)
      const { searcher } = opened
      const reranker = await openReranker(options, opened)
      const run = { tag: options.tag, queries: new Map<string, Array<{ docId: string; score: number; rank: number }>>() }
      const progress = createProgress({ plain: options.plain, quiet: options.quiet })
      progress.start(queries.length, 'run')
      let warnings = 0
      for (const [i, query] of queries.entries()) {
        const result = searcher.search(query.text, { limit: options.limit, tieBreak: 'idDescending' })
        warnings += result.warnings.length
        run.queries.set(
          query.id,
          reranker === undefined
            ? result.hits.map((hit) => ({ docId: hit.id, score: hit.score, rank: hit.rank }))
            : rerankedRun(reranker, query.text, result, options.depth),
        )
        progress.update(i + 1)
      }
      progress.stop()
      // crash-safe: the run appears complete or not at all
      const tmp = `${options.out}.tmp-${process.pid}`
      await writeRun(run, tmp)
      await rename(tmp, options.out)
      process.stdout.write(
        options.json
          ? `${JSON.stringify({ out: options.out, queries: queries.length, warnings, reranked: reranker !== undefined }, null, 2)}\n`
          : `wrote ${options.out}: ${queries.length} queries, ${warnings} warnings\n`,
      )
    })
}

/**
 * A reranked run: the top `depth` candidates in model order, then the rest in first-stage order,
 * with scores that keep that order (each later score below every reranked one).
 */
function rerankedRun(
  reranker: Reranker,
  text: string,
  result: ReturnType<FirstStageRanker['search']>,
  depth: number,
): Array<{ docId: string; score: number; rank: number }> {
  const head = reranker.rerank(text, { ...result, hits: result.hits.slice(0, depth) })
  const out = head.map((hit) => ({ docId: hit.id, score: hit.score, rank: hit.rank }))
  const floor = head.length > 0 ? head[head.length - 1]!.score : 0
  for (const hit of result.hits.slice(depth)) {
    // strictly decreasing below the reranked block, in first-stage order
    out.push({ docId: hit.id, score: floor - 1 - (hit.rank - depth) / (result.hits.length + 1), rank: hit.rank })
  }
  return out
}

function round(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toPrecision(3)
}

/**
 * Formats hits for people: rank, id, score, title, then authors, journal, year, types, and
 * the explanation tree when asked.
 * @param reader - the index the hits come from
 * @param hits - the hits
 * @param explain - print each hit's explanation
 */
export function formatHits(reader: IndexReader, hits: readonly Candidate[], explain: boolean): string {
  let out = ''
  for (const hit of hits) {
    const doc = reader.stored(hit.docNumber)
    const more = doc.authorCount > doc.authors.length ? ', et al' : ''
    const authors = doc.authors.length > 0 ? `${doc.authors.join(', ')}${more}. ` : ''
    const types = doc.pubTypes.length > 0 ? ` [${doc.pubTypes.slice(0, 2).join('; ')}]` : ''
    out += `${String(hit.rank).padStart(3)}. ${hit.id}  ${hit.score.toFixed(4)}  ${doc.title}\n`
    out += `     ${authors}${doc.journal ?? ''}${doc.year ? ` ${doc.year}` : ''}${types}\n`
    if (explain && hit.explain) {
      out += `${indent(formatExplanation(hit.explain), 6)}\n`
    }
  }
  return out
}

function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces)
  return text
    .split('\n')
    .map((line) => pad + line)
    .join('\n')
}
