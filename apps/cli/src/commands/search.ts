import { existsSync, statSync } from 'node:fs'
import { rename } from 'node:fs/promises'
import { basename } from 'node:path'
import { Option, type Command } from 'commander'
import { isPubmatchError, PubmatchError, type PubmatchErrorCode, type Query } from '@pubmatch/core'
import { readQueries } from '@pubmatch/ingest'
import { PUBMED_FIELDS, SCORER_NAMES, formatExplanation, parseYearRange, translateOvid, type MatchMode, type QuerySyntax, type ScorerName, type SearchFilters } from '@pubmatch/bm25f'
import { writeRun } from '@pubmatch/eval'
import { PUBMED_FILTERS } from '@pubmatch/index'
import {
  openFulltext,
  openSearch,
  openSolrEngine,
  openSolrSearch,
  type EngineHit,
  type EngineModel,
  type EngineResult,
  type EngineSearchOptions,
  type RankingOptions,
  type SearchEngine,
} from '@pubmatch/engine'
import { FULLTEXT_STRATEGIES, type FulltextStrategy } from '@pubmatch/fulltext'
import { EXIT } from '../exit.ts'
import { createProgress } from '../progress.ts'
import { DEFAULT_INDEX } from '../paths.ts'
import { assertFulltextIndex, assertIndex } from '../next-step.ts'
import { parseNonNegativeInt, parsePositiveInt } from './ingest.ts'
import { formatOvidNote } from './translate.ts'

/** The first-stage flags shared by `search`, `run`, `train`, `features` and `clicks simulate`. */
export interface RankingFlags {
  index: string
  ranker: ScorerName
  k1?: string
  b?: string
  weight: string[]
  match?: MatchMode
  /** `ovid` (search and run only): the query is an Ovid MEDLINE strategy, translated first. */
  syntax?: QuerySyntax | 'ovid'
  year?: string
  pt: string[]
  la: string[]
  /** Work around query syntax errors as PubMed does (the default). */
  recover: boolean
  /** Fail on a query syntax error instead (`--strict`). */
  strict?: boolean
  mesh: boolean
  termMapping?: boolean
  prf?: boolean
}

const collect = (value: string, previous: string[]): string[] => [...previous, value]

/**
 * Adds the first-stage ranking flags.
 * @param command - the command
 * @param ovid - whether `--syntax` also takes `ovid` (commands that translate their queries)
 */
export function addRankingOptions(command: Command, ovid = false): Command {
  return command
    .option('-i, --index <dir>', 'index directory', DEFAULT_INDEX)
    .addOption(new Option('-r, --ranker <name>', 'first-stage ranking function').choices([...SCORER_NAMES]).default('bm25f'))
    .option('--k1 <n>', 'BM25 k1 (defaults to 1.2)')
    .option('--b <n>', 'BM25 b (defaults to 0.75)')
    .option('--weight <field=w>', 'field weight, repeatable (defaults: title 5, mesh 5, others 1)', collect, [])
    .addOption(
      new Option('--match <mode>', 'all: every word must match (PubMed); any: ranked retrieval over any word (test collections)').choices(['all', 'any']),
    )
    .addOption(
      new Option(
        '--syntax <syntax>',
        `pubmed: PubMed query syntax; plain: natural-language text${ovid ? '; ovid: an Ovid MEDLINE strategy, translated to PubMed first (notes on stderr; "\\n" separates lines)' : ''}`,
      ).choices(ovid ? ['pubmed', 'plain', 'ovid'] : ['pubmed', 'plain']),
    )
    .option('--year <from:to>', 'publication years: YYYY, YYYY:YYYY, YYYY: (from) or :YYYY (until), e.g. 2019, 2015:2020, 2015:')
    .option('--pt <type>', 'publication type filter, repeatable (e.g. Review)', collect, [])
    .option('--la <code>', 'language filter, repeatable (e.g. eng)', collect, [])
    .option('--recover', 'work around a query syntax error as PubMed does, with a warning: an unclosed quote or "(" is closed, a stray ")", a dangling operator or an empty tag is dropped (the default)', true)
    .option('--strict', 'fail on a query syntax error instead of working around it', false)
    .option('--no-mesh', 'do not map [mh] terms through the corpus MeSH vocabulary')
    .option(
      '--term-mapping',
      "automatic term mapping (PubMed's ATM): untagged terms also search the MeSH descriptors they name (the corpus's vocabulary, exploded) and the journal they name; the translation is printed",
      false,
    )
    .option(
      '--prf',
      'pseudo relevance feedback in the first stage: its top 1,000 re-ranked by the query expanded from their top 10 (Rocchio; Niesink 2017)',
      false,
    )
}

/**
 * The engine's ranking options from the flags.
 * @param flags - the parsed flags
 */
export function rankingOf(flags: RankingFlags): RankingOptions {
  const params: Record<string, unknown> = {}
  const number = (text: string, what: string): number => {
    const value = Number(text)
    if (!Number.isFinite(value) || value < 0) {
      throw new PubmatchError('INVALID_ARGUMENT', `search: ${what} must be a non-negative number, got "${text}"`)
    }
    return value
  }
  if (flags.k1 !== undefined) {
    params['k1'] = number(flags.k1, '--k1')
  }
  if (flags.b !== undefined) {
    params['b'] = number(flags.b, '--b')
  }
  if (flags.weight.length > 0) {
    params['fieldWeights'] = Object.fromEntries(
      flags.weight.map((pair) => {
        const [field, value] = pair.split('=')
        if (!field || value === undefined) {
          throw new PubmatchError('INVALID_ARGUMENT', `search: --weight takes field=weight, got "${pair}"`)
        }
        return [field, number(value, `--weight ${field}`)]
      }),
    )
  }
  return {
    ranker: flags.ranker,
    params,
    ...(flags.match === undefined ? {} : { match: flags.match }),
    ...(flags.syntax === undefined ? {} : { syntax: flags.syntax === 'ovid' ? 'pubmed' : flags.syntax }),
    recover: flags.recover && flags.strict !== true,
    mesh: flags.mesh,
    ...(flags.termMapping === true ? { termMapping: true } : {}),
  }
}

/**
 * The filters from the flags.
 * @param flags - the parsed flags
 */
export function filtersOf(flags: Pick<RankingFlags, 'year' | 'pt' | 'la'>): SearchFilters | undefined {
  const filters: SearchFilters = {
    ...(flags.year === undefined ? {} : { years: parseYearRange(flags.year) }),
    ...(flags.pt.length > 0 ? { publicationTypes: flags.pt } : {}),
    ...(flags.la.length > 0 ? { languages: flags.la } : {}),
  }
  return Object.keys(filters).length === 0 ? undefined : filters
}

/**
 * Opens the engine of the flags (and a model).
 * @param flags - ranking flags, model and usage log
 * @param model - a model directory
 * @param usageLog - a click log for F2–F3
 */
export async function openEngine(flags: RankingFlags, model?: string, usageLog?: string, depth?: number): Promise<SearchEngine> {
  if (usageLog !== undefined && model === undefined) {
    throw new PubmatchError('INVALID_ARGUMENT', 'search: --usage-log only matters with --rerank')
  }
  assertIndex(flags.index)
  return openSearch({
    index: flags.index,
    ranking: rankingOf(flags),
    ...(model === undefined ? {} : { model }),
    ...(usageLog === undefined ? {} : { usageLog }),
    ...(depth === undefined ? {} : { depth }),
  })
}

/**
 * The engine of the flags: the local index, the local index with its first stage in Solr
 * (`--backend` and `-i`), or a Solr collection alone (`--backend` without `-i`).
 */
interface Searching {
  /** The local engine (none when the collection is searched alone). */
  readonly engine: SearchEngine | undefined
  readonly model: EngineModel | undefined
  search(text: string, options: EngineSearchOptions): Promise<EngineResult>
  run(text: string, limit: number, options: { prf?: boolean }): Promise<ReturnType<SearchEngine['run']>>
}

async function openSearching(
  flags: RankingFlags & { backend?: string },
  indexGiven: boolean,
  model?: string,
  usageLog?: string,
  depth?: number,
): Promise<Searching> {
  if (flags.backend === undefined) {
    const engine = await openEngine(flags, model, usageLog, depth)
    return {
      engine,
      model: engine.model,
      search: (text, options) => Promise.resolve(engine.search(text, options)),
      run: (text, limit, options) => Promise.resolve(engine.run(text, limit, options)),
    }
  }
  if (usageLog !== undefined && model === undefined) {
    throw new PubmatchError('INVALID_ARGUMENT', 'search: --usage-log only matters with --rerank')
  }
  if (!indexGiven) {
    // no local index: records, snippets, facets and explanations come from the collection, and
    // --rerank names a model deployed in it (the second stage runs on the shards)
    if (usageLog !== undefined) {
      throw new PubmatchError('INVALID_ARGUMENT', 'search: --usage-log feeds F2–F3 from a local index; a collection searched alone (--backend without -i) takes none')
    }
    if (model !== undefined) {
      refuseModelFolder(model, flags.backend, '--rerank')
    }
    const solrOnly = await openSolrEngine({
      backend: flags.backend,
      ranking: rankingOf(flags),
      ...(model === undefined ? {} : { model }),
      ...(depth === undefined ? {} : { depth }),
    })
    return { engine: undefined, model: solrOnly.model, search: (text, options) => solrOnly.search(text, options), run: (text, limit, options) => solrOnly.run(text, limit, options) }
  }
  assertIndex(flags.index)
  const solr = await openSolrSearch({
    backend: flags.backend,
    index: flags.index,
    ranking: rankingOf(flags),
    ...(model === undefined ? {} : { model }),
    ...(usageLog === undefined ? {} : { usageLog }),
    ...(depth === undefined ? {} : { depth }),
  })
  return {
    engine: solr.engine,
    model: solr.engine.model,
    search: (text, options) => solr.search(text, options),
    run: (text, limit, options) => solr.run(text, limit, options),
  }
}

/**
 * Refuses a model folder where a collection searched alone needs a deployed model's name, saying
 * how to deploy it.
 * @param model - what the flag holds
 * @param backend - the `solr://` address
 * @param flag - the flag's name, for the message
 */
export function refuseModelFolder(model: string, backend: string, flag: string): void {
  if (!existsSync(model) || !statSync(model).isDirectory()) {
    return
  }
  const match = /^solr:\/\/([^/]+)\/(?:solr\/)?([^/?]+)/.exec(backend)
  const urls = match === null ? 'URLS' : match[1]!.split(',').map((host) => `http://${host}/solr`).join(',')
  const collection = match?.[2] ?? 'COLLECTION'
  throw new PubmatchError(
    'INVALID_ARGUMENT',
    `${flag} ${model} is a folder, but a collection searched alone (--backend without -i) reranks with a model deployed in it: deploy the folder with \`pubmatch model deploy-solr ${model} --solr ${urls} --collection ${collection} --name ${basename(model)}\`, then give ${flag} ${basename(model)} (or search with -i INDEX to rerank with the folder here)`,
  )
}

interface SearchFlags extends RankingFlags {
  backend?: string
  fulltext?: FulltextStrategy
  limit: number
  offset: number
  depth?: number
  sort: 'relevance' | 'date'
  explain: boolean
  json: boolean
  rerank?: string
  usageLog?: string
  facets: boolean
  citation: boolean
}

function addRerankOptions(command: Command): Command {
  return command
    .option(
      '--rerank <model>',
      'rerank the first-stage candidates with a LambdaMART model: a folder (`pubmatch train`), or with --backend and no -i the name of a model deployed in the collection (`pubmatch model deploy-solr`), run on the shards',
    )
    .option('--usage-log <dir>', 'with --rerank: a click log for past usage (F2–F3)')
    .option('--depth <n>', 'with --rerank: first-stage candidates reranked (default: the model’s training depth)', parsePositiveInt)
    .option(
      '--backend <solr://host:port/solr/collection>',
      'search a SolrCloud collection (`pubmatch index --solr`): alone (records, snippets, explanations from the collection; --rerank NAME: a model deployed in it, both stages on the shards), or with -i INDEX for its first stage only (the features, the model and the records from the local index built from the same corpus)',
    )
}

/**
 * With `--syntax ovid`: the strategy (lines separated by newlines or the two characters `\n`)
 * translated to one PubMed query; each line problem and note goes to `log`.
 * @param text - the Ovid strategy
 * @param source - the query's name in messages
 * @param log - receives one line per problem and note
 */
function fromOvid(text: string, source: string, log: (line: string) => void): string {
  const result = translateOvid(text.replaceAll('\\n', '\n'), { source })
  for (const line of result.lines) {
    if (line.problem !== undefined) {
      log(`${source}: line ${line.line} left out: ${line.problem}`)
    }
  }
  for (const note of result.notes) {
    log(`${source}: note: ${formatOvidNote(note)}`)
  }
  return result.query
}

/** Adds `pubmatch search` and `pubmatch run`. */
export function registerSearchCommands(program: Command): void {
  registerSearchCommand(program)
  registerRunCommand(program)
}

/** Adds `pubmatch search`. */
function registerSearchCommand(program: Command): void {
  const searchCommand = addRankingOptions(
    program
      .command('search')
      .description('search an index: PubMed query syntax, BM25F top-k (the first stage of Best Match), LambdaMART with --rerank')
      .argument('<query...>', 'the query, e.g. "asthma[mh] AND (child* OR adolescent) AND 2010:2015[dp]"'),
    true,
  )
    .option('-n, --limit <n>', 'results to print', parsePositiveInt, 20)
    .option('--offset <n>', 'results to skip (paging)', parseNonNegativeInt, 0)
    .addOption(new Option('--sort <order>', 'relevance, or date (newest first)').choices(['relevance', 'date']).default('relevance'))
    .option('--explain', 'print the score explanation of each result (both stages with --rerank)', false)
    .addOption(
      new Option(
        '--fulltext <strategy>',
        'search the PMC full texts by section instead (`pubmatch index --fulltext`): Sum/Max LogOdds over PAV-calibrated sections, or BM25 on abstract+body merged or the abstract alone',
      ).choices([...FULLTEXT_STRATEGIES]),
    )
    .option('--facets', 'also count the years, publication types and languages of every matching document', false)
    .option('--no-citation', 'do not put the article a citation query names (journal year;volume:page, author year journal, a title) first')
    .option('--json', 'print JSON', false)
  addRerankOptions(searchCommand)
    .addHelpText(
      'after',
      `
Examples:
  pubmatch search "asthma children"
  pubmatch search "\\"flame retardants\\"[tiab] NOT review[pt]" --explain -n 5
  pubmatch search "statin" --ranker bestmatch-s1 --year 2010:2016
  pubmatch search "smith j[au] AND 12[vi] AND 123[pg]"
  pubmatch search "\\"hip pain\\"[tiab:~2] AND humans[filter] AND \\"last 5 years\\"[dp]"

${fieldTagHelp()}`,
    )
    .action(async (words: string[], flags: SearchFlags, command: Command) => {
      const typed = words.join(' ')
      const text = flags.syntax === 'ovid' ? fromOvid(typed, 'query', (line) => process.stderr.write(`${line}\n`)) : typed
      if (flags.syntax === 'ovid') {
        process.stderr.write(`PubMed query: ${text}\n`)
      }
      if (flags.fulltext !== undefined && flags.backend !== undefined) {
        throw new PubmatchError('INVALID_ARGUMENT', 'search: --fulltext searches the local full-text index; it does not take --backend')
      }
      const searching = await openSearching(flags, command.getOptionValueSource('index') !== 'default', flags.rerank, flags.usageLog, flags.depth)
      const engine = searching.engine
      if (flags.fulltext !== undefined && engine !== undefined) {
        await assertFulltextIndex(flags.index)
        await printFulltextSearch(engine, text, { ...flags, fulltext: flags.fulltext })
        return
      }
      const filters = filtersOf(flags)
      let result: EngineResult
      try {
        result = await searching.search(text, {
          offset: flags.offset,
          limit: flags.limit,
          sort: flags.sort,
          explain: flags.explain,
          prf: flags.prf === true,
          facets: flags.facets,
          citation: flags.citation,
          ...(filters === undefined ? {} : { filters }),
        })
      } catch (error) {
        // Ovid text refused as PubMed: say how to search it
        if (isPubmatchError(error, 'QUERY_SYNTAX') && error.details['problem'] === 'OVID_SYNTAX') {
          throw new PubmatchError('QUERY_SYNTAX', `${error.message}\nSearch it as Ovid with --syntax ovid; \`pubmatch translate --from ovid FILE\` prints its PubMed translation.`, {
            cause: error,
            details: error.details,
          })
        }
        throw error
      }
      printSearchResult(result, flags)
    })
}

/** Prints a full-text search's page: JSON, or one line per article. */
async function printFulltextSearch(
  engine: SearchEngine,
  text: string,
  flags: { readonly fulltext: FulltextStrategy; readonly offset: number; readonly limit: number; readonly json: boolean },
): Promise<void> {
  const started = performance.now()
  const fulltext = await openFulltext(engine)
  const found = fulltext.search(text, flags.fulltext, { offset: flags.offset, limit: flags.limit })
  const tookMs = performance.now() - started
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ query: text, strategy: flags.fulltext, total: found.total, tookMs, hits: found.hits }, null, 2)}\n`)
    return
  }
  process.stdout.write(`${found.total} full texts hold a query word; ${found.hits.length} shown, ranked by ${flags.fulltext} (${tookMs.toFixed(1)} ms)\n\n`)
  for (const hit of found.hits) {
    process.stdout.write(`${String(hit.rank).padStart(3)}. ${hit.id}  ${hit.score.toFixed(4)}  ${hit.document.title}\n`)
  }
}

/**
 * The field tags PubMed's help documents, as the search help lists them: short tag and long
 * name (any spelling PubMed accepts works, in any case), wrapped to the terminal's 100 columns.
 */
function fieldTagHelp(): string {
  const entries = PUBMED_FIELDS.map((info) => `[${info.tag}] ${info.name}`)
  const lines: string[] = []
  let line = ' '
  for (const entry of entries) {
    if (line.length + entry.length + 2 > 100) {
      lines.push(line.trimEnd())
      line = ' '
    }
    line += ` ${entry},`
  }
  lines.push(line.replace(/,$/, ''))
  return `Field tags (short or long form, any case; [tag:noexp] on MeSH tags, "a b"[ti|tiab|ad:~N]
proximity; a tag the index has no data for matches nothing, with a warning):
${lines.join('\n')}
[filter]/[sb] values: ${PUBMED_FILTERS.map((filter) => filter.value).join(', ')}`
}

/** Prints a result page: JSON, or warnings and notes on standard error and the hits for people. */
function printSearchResult(result: EngineResult, flags: { readonly json: boolean; readonly explain: boolean; readonly sort: string }): void {
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
    return
  }
  for (const warning of result.warnings) {
    process.stderr.write(`warning: ${warning.code}: ${warning.message}\n`)
  }
  if (result.prf !== undefined) {
    process.stderr.write(
      `note: pseudo relevance feedback: ${result.prf.terms
        .slice(0, 10)
        .map(([t, w]) => `${t} ${w.toFixed(2)}`)
        .join(', ')}\n`,
    )
  }
  if (result.fallback !== undefined) {
    const f = result.fallback
    process.stderr.write(
      `note: the model left this query in first-stage order: ${f.feature} = ${f.value} is outside its training range [${f.range[0]}, ${f.range[1]}]\n`,
    )
  }
  if (result.translation !== undefined) {
    const mapped = result.translation.mappings.map((m) => `${m.text} → ${m.to.join(', ')}${m.kind === 'journal' ? ' [ta]' : ' [mh]'}`)
    process.stderr.write(`note: search details: ${result.translation.query}${mapped.length === 0 ? '' : ` (mapped: ${mapped.join('; ')})`}\n`)
  }
  if (result.citationMatch !== undefined) {
    const c = result.citationMatch
    const parts = Object.entries(c.matched)
      .map(([part, value]) => `${part} ${JSON.stringify(value)}`)
      .join(', ')
    process.stderr.write(`note: citation sensor: the query cites ${c.id} (${c.form}: ${parts}); it is shown first\n`)
  }
  process.stdout.write(
    `${result.totalRelation === 'eq' ? '' : '≥ '}${result.total} matching documents; ${result.hits.length} shown from ${result.offset + 1}` +
      `${result.reranked ? ', reranked by LambdaMART' : ''}${flags.sort === 'date' ? ', newest first' : ''} (${result.tookMs.toFixed(1)} ms)\n\n`,
  )
  process.stdout.write(formatHits(result.hits, flags.explain))
  if (result.facets !== undefined) {
    const line = (name: string, counts: ReadonlyArray<{ value: string; count: number }>): string =>
      `${name}: ${counts.length === 0 ? '—' : counts.map((c) => `${c.value} (${c.count})`).join(', ')}\n`
    process.stdout.write(
      `\n${line('years', result.facets.years)}${line('publication types', result.facets.publicationTypes)}${line('languages', result.facets.languages)}`,
    )
  }
}

/**
 * Errors that belong to one query of a batch (its text, or its time): `run` reports the query and
 * goes on. Any other error (the index, the backend, a file) stops the batch.
 */
const QUERY_ERROR_CODES: ReadonlySet<string> = new Set(['QUERY_SYNTAX', 'UNKNOWN_FIELD', 'INVALID_ARGUMENT', 'TIMEOUT'])

/** Adds `pubmatch run`. */
function registerRunCommand(program: Command): void {
  const runCommand = addRankingOptions(
    program
      .command('run')
      .description('run every query of a QID<TAB>text file and write a TREC run (for `pubmatch eval`)')
      .requiredOption('--queries <file>', 'queries, one per line: QID<TAB>text')
      .requiredOption('-o, --out <file>', 'the run file to write'),
    true,
  )
    .option('--limit <n>', 'documents per query', parsePositiveInt, 1000)
    .option('--tag <tag>', 'run tag (last column)', 'pubmatch')
    .option('--plain', 'plain progress lines even on a terminal', false)
    .option('-q, --quiet', 'no progress output', false)
    .option('--json', 'print the summary as JSON', false)
  addRerankOptions(runCommand)
    .addHelpText(
      'after',
      `
A query with a syntax error PubMed works around (an unclosed quote or parenthesis, a tag with
no term) runs as PubMed runs it, with a QUERY_SYNTAX warning on stderr (--strict: it fails).
A query that cannot run (a search-history reference #N, a timeout, a syntax error with
--strict) is reported on stderr (QID, error code, message), left out of the run, and the batch
goes on; the summary counts the
failed queries (\`--json\`: \`failed\` and \`failures\`) and the exit status is 1. When every
query fails, no run is written (status 2 or 64). A failing index or backend stops the batch.
Ties are written in trec_eval's order (score, then document id descending), so the file is
evaluated exactly as ranked. With --rerank, the top candidates are reordered by the model and
the rest follow in first-stage order. Example (NFCorpus):
  pubmatch ingest ../shared/data/nfcorpus/corpus.docs -c nf/corpus
  pubmatch index -c nf/corpus -i nf/index
  pubmatch run -i nf/index --queries ../shared/data/nfcorpus/dev/q-titles.queries -o dev.run
  pubmatch eval dev.run ../shared/data/nfcorpus/dev/s-3.qrel`,
    )
    .action(
      async (
        flags: RankingFlags & {
          backend?: string
          queries: string
          out: string
          limit: number
          depth?: number
          tag: string
          plain: boolean
          quiet: boolean
          json: boolean
          rerank?: string
          usageLog?: string
        },
        command: Command,
      ) => {
        const queries: Query[] = await readQueries(flags.queries)
        const searching = await openSearching(flags, command.getOptionValueSource('index') !== 'default', flags.rerank, flags.usageLog, flags.depth)
        const model = searching.model
        const run = { tag: flags.tag, queries: new Map<string, Array<{ docId: string; score: number; rank: number }>>() }
        const progress = createProgress({ plain: flags.plain, quiet: flags.quiet })
        progress.start(queries.length, 'run')
        let fallbacks = 0
        let warnings = 0
        const failures: Array<{ id: string; code: PubmatchErrorCode; message: string }> = []
        for (const [i, query] of queries.entries()) {
          let ranking
          try {
            const text =
              flags.syntax === 'ovid'
                ? fromOvid(query.text, `query ${query.id}`, (line) => (flags.quiet ? process.stderr.write(`${line}\n`) : progress.log(line)))
                : query.text
            ranking = await searching.run(text, flags.limit, { prf: flags.prf === true })
          } catch (error) {
            // a query that cannot run is reported and skipped; a failing index or backend stops the batch
            if (!isPubmatchError(error) || !QUERY_ERROR_CODES.has(error.code)) {
              throw error
            }
            failures.push({ id: query.id, code: error.code, message: error.message })
            // a failure is said even with --quiet (which silences progress only)
            const line = `query ${query.id}: ${error.code}: ${error.message}`
            if (flags.quiet) {
              process.stderr.write(`${line}\n`)
            } else {
              progress.log(line)
            }
            progress.update(i + 1)
            continue
          }
          warnings += ranking.warnings.length
          // what PubMed would put in search details: the query as typed could not be read as written
          for (const warning of ranking.warnings) {
            if (warning.code === 'QUERY_SYNTAX') {
              const line = `query ${query.id}: warning: ${warning.code}: ${warning.message}`
              if (flags.quiet) {
                process.stderr.write(`${line}\n`)
              } else {
                progress.log(line)
              }
            }
          }
          run.queries.set(
            query.id,
            ranking.hits.map((hit) => ({ docId: hit.id, score: hit.score, rank: hit.rank })),
          )
          if (ranking.fallback !== undefined) {
            fallbacks++
          }
          progress.update(i + 1)
        }
        progress.stop()
        if (queries.length > 0 && failures.length === queries.length) {
          throw new PubmatchError(failures[0]!.code, `run: every one of the ${queries.length} queries failed (the first, ${failures[0]!.id}: ${failures[0]!.code}: ${failures[0]!.message}); no run written`, {
            details: { failures: failures.slice(0, 20) },
          })
        }
        // crash-safe: the run appears complete or not at all
        const tmp = `${flags.out}.tmp-${process.pid}`
        await writeRun(run, tmp)
        await rename(tmp, flags.out)
        const summary = {
          out: flags.out,
          queries: queries.length,
          warnings,
          reranked: model !== undefined,
          ...(model === undefined ? {} : { firstStageOrder: fallbacks }),
          ...(failures.length === 0 ? {} : { failed: failures.length, failures }),
        }
        process.stdout.write(
          flags.json
            ? `${JSON.stringify(summary, null, 2)}\n`
            : `wrote ${flags.out}: ${queries.length - failures.length} queries` +
                (failures.length === 0 ? '' : ` (${failures.length} of ${queries.length} failed and are not in the run: see above)`) +
                `, ${warnings} warnings` +
                (model === undefined ? '' : `, ${fallbacks} left in first-stage order (outside the model's training range)`) +
                '\n',
        )
        if (failures.length > 0) {
          process.exitCode = EXIT.PARTIAL
        }
      },
    )
}

/**
 * Formats hits for people: rank, id, score, title, then authors, journal, year, types (and a note
 * on a record derived from a PMC full text), and with
 * `explain` the first stage's tree and the model's largest feature contributions.
 * @param hits - the hits
 * @param explain - print each hit's explanations
 */
export function formatHits(hits: readonly EngineHit[], explain: boolean): string {
  let out = ''
  for (const hit of hits) {
    const doc = hit.document
    const more = doc.authorCount > doc.authors.length ? ', et al' : ''
    const authors = doc.authors.length > 0 ? `${doc.authors.join(', ')}${more}. ` : ''
    const types = doc.pubTypes.length > 0 ? ` [${doc.pubTypes.slice(0, 2).join('; ')}]` : ''
    out += `${String(hit.rank).padStart(3)}. ${hit.id}  ${hit.score.toFixed(4)}  ${doc.title}\n`
    const derived = doc.derivedFrom === undefined ? '' : ` (no PubMed record: from the PMC full text, ${doc.derivedFrom === 'jats' ? 'JATS' : 'BioC'})`
    out += `     ${authors}${[doc.journal, doc.year].filter((part) => part !== undefined && part !== '').join(' ')}${types}${derived}\n`
    if (explain && hit.secondStage?.explain !== undefined) {
      const e = hit.secondStage.explain
      const parts = e.contributions.slice(0, 6).map((c) => `${c.feature}=${round(c.value)} ${c.contribution >= 0 ? '+' : ''}${c.contribution.toFixed(3)}`)
      out += `      model ${hit.secondStage.score.toFixed(4)} = bias ${e.bias.toFixed(3)} + ${parts.join(', ')}${e.contributions.length > 6 ? ', …' : ''}\n`
      out += `      first stage #${hit.firstStage.rank}, ${hit.firstStage.score.toFixed(3)}\n`
    }
    if (explain && hit.firstStage.explain !== undefined) {
      out += `${indent(formatExplanation(hit.firstStage.explain), 6)}\n`
    }
  }
  return out
}

function round(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toPrecision(3)
}

function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces)
  return text
    .split('\n')
    .map((line) => pad + line)
    .join('\n')
}
