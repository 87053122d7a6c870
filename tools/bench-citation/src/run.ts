/**
 * The citation sensor measured on real PubMed records: every PubMed XML file of the shared data
 * set ingested and indexed as `pubmatch ingest` + `pubmatch index` do; citation queries generated
 * from each record (`generate.ts`) searched with the sensor and without it (share ranked first);
 * real topical queries (NCBI's 1,000 PubMed log queries, NFCorpus's 325 dev titles) searched with
 * and without it over the same index (share whose first page changes, each listed). Replaces its
 * section of RESULTS.md and writes the raw figures to results/citation.json.
 *
 * Usage: node dist/run.js
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
import { isPubmatchError, type Article } from '@pubmatch/core'
import { writeFileAtomic } from '@pubmatch/core/node'
import {
  openSearch,
  updateIndex,
  type CitationMatch,
  type EngineResult,
  type SearchEngine,
} from '@pubmatch/engine'
import { defaultReaders, ingestFiles, openCorpus, readQueries } from '@pubmatch/ingest'
import {
  CITATION_FORMS,
  citationQueries,
  type CitationForm,
  type CitationQuery,
} from './generate.ts'

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url))
const CACHE_DIR = join(PACKAGE_DIR, '.cache')
const RESULTS_FILE = join(PACKAGE_DIR, 'RESULTS.md')
const RAW_FILE = join(PACKAGE_DIR, 'results', 'citation.json')
/** The first page compared for topical queries. */
const PAGE = 20

function log(line: string): void {
  process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`)
}

type Outcome =
  | { readonly hits: readonly string[]; readonly total: number; readonly citation?: CitationMatch }
  | { readonly error: string }

function searchOnce(engine: SearchEngine, text: string, citation: boolean): Outcome {
  try {
    const result: EngineResult = engine.search(text, { limit: PAGE, citation })
    return {
      hits: result.hits.map((hit) => hit.id),
      total: result.total,
      ...(result.citationMatch === undefined ? {} : { citation: result.citationMatch }),
    }
  } catch (error) {
    if (isPubmatchError(error)) {
      return { error: error.code }
    }
    throw error
  }
}

const pct = (n: number, of: number): string => (of === 0 ? '—' : `${((100 * n) / of).toFixed(1)} %`)

interface FormCount {
  queries: number
  firstWith: number
  firstWithout: number
  sensed: number
  wrong: number
  errors: number
}

async function main(): Promise<void> {
  const shared = sharedDataDir()
  const xmlDir = join(shared, 'pubmed-xml')
  const files = (await readdir(xmlDir)).filter((name) => /\.xml(\.gz)?$/.test(name)).sort()
  const corpusDir = join(CACHE_DIR, 'corpus')
  const indexDir = join(CACHE_DIR, 'index')
  const store = await openCorpus(corpusDir, { create: true })
  const ingested = await ingestFiles(
    store,
    files.map((name) => join(xmlDir, name)),
    { readers: defaultReaders() },
  )
  await store.close()
  const indexed = await updateIndex({ corpus: corpusDir, index: indexDir })
  const engine = await openSearch({ index: indexDir })
  log(
    `${files.length} files: ${ingested.added} added, ${ingested.unchanged} unchanged; ${indexed.docCount} documents indexed`,
  )

  // 1. citation queries generated from every record
  const reader = await openCorpus(corpusDir, { readOnly: true })
  const articles: Article[] = []
  for await (const article of reader.articles()) {
    if (article.derivedFrom === undefined && engine.document(article.id) !== undefined) {
      articles.push(article)
    }
  }
  articles.sort((a, b) => Number(a.id) - Number(b.id))
  const queries: CitationQuery[] = articles.flatMap(citationQueries)
  const byForm = new Map<CitationForm, FormCount>(
    CITATION_FORMS.map((form) => [
      form,
      { queries: 0, firstWith: 0, firstWithout: 0, sensed: 0, wrong: 0, errors: 0 },
    ]),
  )
  const missed: Array<{ form: string; text: string; id: string; first?: string; error?: string }> =
    []
  const wrong: Array<{ form: string; text: string; id: string; cited: string }> = []
  for (const query of queries) {
    const count = byForm.get(query.form)!
    count.queries += 1
    const sensed = searchOnce(engine, query.text, true)
    const plain = searchOnce(engine, query.text, false)
    if ('error' in plain && 'error' in sensed) {
      count.errors += 1
      missed.push({ form: query.form, text: query.text, id: query.id, error: sensed.error })
      continue
    }
    if (!('error' in plain) && plain.hits[0] === query.id) {
      count.firstWithout += 1
    }
    if (!('error' in sensed)) {
      if (sensed.citation !== undefined) {
        count.sensed += 1
        if (sensed.citation.id !== query.id) {
          count.wrong += 1
          wrong.push({
            form: query.form,
            text: query.text,
            id: query.id,
            cited: sensed.citation.id,
          })
        }
      }
      if (sensed.hits[0] === query.id) {
        count.firstWith += 1
      } else {
        missed.push({
          form: query.form,
          text: query.text,
          id: query.id,
          ...(sensed.hits[0] === undefined ? {} : { first: sensed.hits[0] }),
        })
      }
    }
  }
  log(`${queries.length} citation queries from ${articles.length} records`)

  // 2. real topical queries over the same index
  const topical: Array<{ set: string; id: string; text: string }> = []
  const logText = await readFile(join(shared, 'pubmed-best-match/data/queries/queries.txt'), 'utf8')
  for (const line of logText.split('\n')) {
    const bar = line.indexOf('|')
    if (bar > 0) {
      topical.push({ set: 'PubMed log', id: line.slice(0, bar), text: line.slice(bar + 1) })
    }
  }
  for (const q of await readQueries(join(shared, 'nfcorpus/dev/q-titles.queries'))) {
    topical.push({ set: 'NFCorpus dev titles', id: q.id, text: q.text })
  }
  const sets = new Map<
    string,
    { queries: number; errors: number; sensed: number; changed: number }
  >()
  const changed: Array<{
    set: string
    id: string
    text: string
    cited: string
    form: string
    matched: CitationMatch['matched']
    wasRank: number
  }> = []
  for (const query of topical) {
    const count = sets.get(query.set) ?? { queries: 0, errors: 0, sensed: 0, changed: 0 }
    sets.set(query.set, count)
    count.queries += 1
    const sensed = searchOnce(engine, query.text, true)
    const plain = searchOnce(engine, query.text, false)
    if ('error' in sensed || 'error' in plain) {
      count.errors += 1
      continue
    }
    if (sensed.citation !== undefined) {
      count.sensed += 1
    }
    const same = sensed.total === plain.total && sensed.hits.join(' ') === plain.hits.join(' ')
    if (!same) {
      count.changed += 1
      const cited = sensed.citation!
      changed.push({
        set: query.set,
        id: query.id,
        text: query.text,
        cited: cited.id,
        form: cited.form,
        matched: cited.matched,
        wasRank: plain.hits.indexOf(cited.id) + 1,
      })
    }
  }
  log(`${topical.length} topical queries`)

  const total = [...byForm.values()].reduce(
    (sum, c) => ({
      queries: sum.queries + c.queries,
      firstWith: sum.firstWith + c.firstWith,
      firstWithout: sum.firstWithout + c.firstWithout,
      sensed: sum.sensed + c.sensed,
      wrong: sum.wrong + c.wrong,
      errors: sum.errors + c.errors,
    }),
    { queries: 0, firstWith: 0, firstWithout: 0, sensed: 0, wrong: 0, errors: 0 },
  )
  const formRows = [...byForm].map(([form, c]) => [
    `\`${form}\``,
    String(c.queries),
    pct(c.firstWith, c.queries),
    pct(c.firstWithout, c.queries),
    pct(c.sensed, c.queries),
    String(c.wrong),
    String(c.errors),
  ])
  formRows.push([
    '**all**',
    String(total.queries),
    pct(total.firstWith, total.queries),
    pct(total.firstWithout, total.queries),
    pct(total.sensed, total.queries),
    String(total.wrong),
    String(total.errors),
  ])
  const topicalRows = [...sets].map(([set, c]) => [
    set,
    String(c.queries),
    String(c.errors),
    String(c.sensed),
    String(c.changed),
    pct(c.changed, c.queries - c.errors),
  ])
  const date = new Date().toISOString().slice(0, 10)
  const missedByForm = new Map<string, number>()
  const examples = missed.filter((m) => {
    const seen = missedByForm.get(m.form) ?? 0
    missedByForm.set(m.form, seen + 1)
    return seen < 3
  })
  const section = [
    `## Citation sensor (${date})`,
    '',
    `\`pnpm --filter @pubmatch/bench-citation bench\` on ${machineDescription()} (shared with other work: only counts are reported, no times).`,
    '',
    `Index: every PubMed XML file of \`shared/data/pubmed-xml\` (${files.length} files, ${indexed.docCount} documents), ingested and indexed as \`pubmatch ingest\` + \`pubmatch index\` do; default engine (BM25F, match all, PubMed syntax, no model).`,
    '',
    `### Citation queries: ${total.queries} generated from ${articles.length} records`,
    '',
    'Share of queries whose first result is the cited article, with the sensor and without it (the first stage alone), the share the sensor recognised, how many it matched to another article, and how many failed to parse (both ways).',
    '',
    markdownTable(
      [
        'form',
        'queries',
        'first with sensor',
        'first without',
        'recognised',
        'wrong article',
        'errors',
      ],
      formRows,
    ),
    '',
    `Not ranked first with the sensor: ${missed.length} (examples, at most three per form):`,
    '',
    markdownTable(
      ['form', 'query', 'cited', 'first result / error'],
      examples.map((m) => [
        `\`${m.form}\``,
        `\`${m.text.slice(0, 90)}\``,
        m.id,
        m.error ?? m.first ?? '—',
      ]),
    ),
    '',
    '### Topical queries: results changed by the sensor',
    '',
    `Each query searched with and without the sensor over the same index; "changed" means the first ${PAGE} results or the total differ.`,
    '',
    markdownTable(
      ['queries', 'n', 'errors (both ways)', 'recognised as citations', 'changed', 'share changed'],
      topicalRows,
    ),
    '',
    changed.length === 0
      ? 'No topical query changed.'
      : markdownTable(
          ['set', 'query', 'cited', 'form', 'matched', 'rank without sensor'],
          changed.map((c) => [
            c.set,
            `\`${c.text}\``,
            c.cited,
            c.form,
            Object.entries(c.matched)
              .map(([k, v]) => `${k}: ${v}`)
              .join('; '),
            c.wasRank === 0 ? 'not in top 20' : String(c.wasRank),
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
      'citation',
      section,
      listedOrder(['citation']),
    ),
  )
  await writeFileAtomic(
    RAW_FILE,
    `${JSON.stringify({ date, machine: machineDescription(), documents: indexed.docCount, byForm: Object.fromEntries(byForm), topical: Object.fromEntries(sets), wrong, missed, changed }, null, 1)}\n`,
  )
  process.stdout.write(`${section}\n`)
}

await main()
