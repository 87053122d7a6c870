/**
 * Ovid MEDLINE → PubMed translation on the CLEF TAR 2017 strategies: how many translate, how many
 * parse as PubMed, what was approximated, and how the translated queries' fields compare with the
 * authors' own PubMed strategies. Writes the `ovid` section of RESULTS.md and the raw figures to
 * `.cache/ovid.json`.
 *
 *   pnpm --filter @pubmatch/bench-query bench
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  listedOrder,
  machineDescription,
  markdownTable,
  replaceSection,
  sharedDataDir,
} from '@pubmatch/bench-kit'
import { parseQuery, translateOvid, type OvidNoteKind, type QueryNode } from '@pubmatch/bm25f'
import { detectOvidSyntax } from '@pubmatch/bm25f/internal'
import { isPubmatchError } from '@pubmatch/core'
import { writeFileAtomic } from '@pubmatch/core/node'
import { openSearch, updateIndex } from '@pubmatch/engine'
import { defaultReaders, ingestFiles, openCorpus } from '@pubmatch/ingest'
import { SAMPLE_CORPUS_DIR } from '@pubmatch/sample-data'
import { pubmedStatements, readClefStrategies } from './clef.ts'
import { fieldShares, jaccard, termFieldPairs } from './pairs.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const dataDir = join(sharedDataDir(), 'clef-tar')
const strategies = readClefStrategies(dataDir)
const ovid = strategies.filter((strategy) => detectOvidSyntax(strategy.text) !== null)
const pubmed = strategies.filter((strategy) => detectOvidSyntax(strategy.text) === null)

/** A parse failure's cause: the problem of a `QUERY_SYNTAX` error, or the error code. */
const causeOf = (error: unknown): string =>
  isPubmatchError(error)
    ? typeof error.details['problem'] === 'string'
      ? error.details['problem']
      : error.code
    : `not a PubmatchError: ${String(error)}`

interface StrategyResult {
  id: string
  review: string
  lines: number
  lineProblems: string[]
  error?: string
  parses?: boolean
  roundTrips?: boolean
  parseFailure?: string
  lineParseFailures: string[]
  notes: Partial<Record<OvidNoteKind, number>>
  pairs: number
  queryChars: number
}

const started = process.cpuUsage()
const load = loadavg()
const results: StrategyResult[] = []
const translatedPairs: string[] = []
for (const strategy of ovid) {
  const result: StrategyResult = {
    id: strategy.id,
    review: strategy.review,
    lines: 0,
    lineProblems: [],
    lineParseFailures: [],
    notes: {},
    pairs: 0,
    queryChars: 0,
  }
  results.push(result)
  try {
    const translation = translateOvid(strategy.text, { source: strategy.id })
    result.lines = translation.lines.length
    result.lineProblems = translation.lines.flatMap((line) =>
      line.problem === undefined ? [] : [`line ${line.line}: ${line.problem}`],
    )
    for (const note of translation.notes) {
      result.notes[note.kind] = (result.notes[note.kind] ?? 0) + note.count
    }
    for (const line of translation.lines) {
      if (line.pubmed !== null) {
        try {
          parseQuery(line.pubmed)
        } catch (error) {
          result.lineParseFailures.push(`line ${line.line}: ${causeOf(error)}`)
        }
      }
    }
    result.queryChars = translation.query.length
    try {
      const node: QueryNode = parseQuery(translation.query)
      result.parses = true
      result.roundTrips = JSON.stringify(node) === JSON.stringify(translation.node)
      const pairs = termFieldPairs(node)
      result.pairs = pairs.size
      translatedPairs.push(...pairs)
    } catch (error) {
      result.parses = false
      result.parseFailure = causeOf(error)
    }
  } catch (error) {
    result.error = isPubmatchError(error) ? `${error.code}: ${error.message}` : String(error)
  }
}
const cpuMs = (process.cpuUsage(started).user + process.cpuUsage(started).system) / 1000

// The authors' PubMed strategies: every statement that parses (with recover), for the field mix.
const authorPairs: string[] = []
let authorStatements = 0
for (const strategy of pubmed) {
  const pairs = new Set<string>()
  for (const statement of pubmedStatements(strategy.text)) {
    authorStatements += 1
    termFieldPairs(parseQuery(statement, { recover: true })).forEach((pair) => pairs.add(pair))
  }
  authorPairs.push(...pairs)
}

// Topics with both an Ovid and a PubMed strategy (the same review): the closeness measure's input.
const reviewsBoth = ovid.filter((o) => pubmed.some((p) => p.review === o.review))
const closeness = reviewsBoth.map((o) => {
  const translated = termFieldPairs(translateOvid(o.text).node)
  const authors = new Set<string>()
  for (const p of pubmed.filter((s) => s.review === o.review)) {
    for (const statement of pubmedStatements(p.text)) {
      termFieldPairs(parseQuery(statement, { recover: true })).forEach((pair) => authors.add(pair))
    }
  }
  return { review: o.review, jaccard: jaccard(translated, authors) }
})

// Whether each final query runs in the embedded engine: the bundled sample corpus, ingested and
// indexed as `pubmatch demo` does (incremental, under .cache/). Its hits mean nothing here (the
// sample is not the reviews' literature); failures and warnings say what the engine cannot answer.
const corpusDir = join(root, '.cache', 'sample-corpus')
const indexDir = join(root, '.cache', 'sample-index')
const store = await openCorpus(corpusDir, { create: true })
await ingestFiles(store, [SAMPLE_CORPUS_DIR], { readers: defaultReaders() })
await store.close()
const indexed = await updateIndex({ corpus: corpusDir, index: indexDir })
const engine = await openSearch({ index: indexDir })
const runFailures = new Map<string, string[]>()
const runWarnings = new Map<string, string[]>()
let runsClean = 0
for (const strategy of ovid) {
  let query: string
  try {
    query = translateOvid(strategy.text).query
  } catch {
    continue
  }
  try {
    const found = engine.search(query, { limit: 10 })
    if (found.warnings.length === 0) {
      runsClean += 1
    }
    for (const code of new Set(found.warnings.map((warning) => warning.code))) {
      runWarnings.set(code, [...(runWarnings.get(code) ?? []), strategy.id])
    }
  } catch (error) {
    const cause = isPubmatchError(error)
      ? `${error.code}: ${error.message.split('\n')[0] ?? ''}`
      : String(error)
    runFailures.set(cause, [...(runFailures.get(cause) ?? []), strategy.id])
  }
}
const runsAtAll = ovid.length - [...runFailures.values()].reduce((sum, ids) => sum + ids.length, 0)

const translated = results.filter((r) => r.error === undefined)
const clean = translated.filter((r) => r.lineProblems.length === 0)
const parsing = translated.filter((r) => r.parses === true)
const roundTrips = translated.filter((r) => r.roundTrips === true)
const totalLines = results.reduce((sum, r) => sum + r.lines, 0)
const problemLines = results.reduce((sum, r) => sum + r.lineProblems.length, 0)
const lineParseFailures = results.flatMap((r) => r.lineParseFailures.map((f) => `${r.id} ${f}`))
const failuresByCause = new Map<string, string[]>()
for (const r of translated.filter((x) => x.parses === false)) {
  failuresByCause.set(r.parseFailure ?? '?', [
    ...(failuresByCause.get(r.parseFailure ?? '?') ?? []),
    r.id,
  ])
}
const pct = (part: number, whole: number): string =>
  `${part} / ${whole} (${whole === 0 ? '—' : ((100 * part) / whole).toFixed(1)} %)`

const noteKinds: OvidNoteKind[] = [
  'field',
  'default-field',
  'limited-truncation',
  'wildcard',
  'short-truncation',
  'adjacency',
  'subheading',
  'limit',
  'precedence',
  'dropped',
  'unused-lines',
]
const noteRows = noteKinds.map((kind) => {
  const affected = results.filter((r) => (r.notes[kind] ?? 0) > 0)
  return [
    kind,
    String(affected.length),
    String(affected.reduce((sum, r) => sum + (r.notes[kind] ?? 0), 0)),
  ]
})
const translatedShares = fieldShares(translatedPairs)
const authorShares = fieldShares(authorPairs)
const fields = [...new Set([...translatedShares.keys(), ...authorShares.keys()])].sort(
  (a, b) =>
    (translatedShares.get(b) ?? 0) +
    (authorShares.get(b) ?? 0) -
    (translatedShares.get(a) ?? 0) -
    (authorShares.get(a) ?? 0),
)
const share = (value: number | undefined): string =>
  value === undefined ? '—' : `${(100 * value).toFixed(1)} %`

const date = new Date().toISOString().slice(0, 16).replace('T', ' ')
const section = `## Ovid MEDLINE → PubMed translation (CLEF TAR 2017)

Program: \`src/run.ts\` (\`pnpm --filter @pubmatch/bench-query bench\`). Data: \`shared/data/clef-tar/2017-TAR\`,
${strategies.length} topics: ${ovid.length} strategies in Ovid MEDLINE syntax (told apart by \`detectOvidSyntax\`), ${pubmed.length} in PubMed syntax.
Machine: ${machineDescription()}, shared with other jobs. Date: ${date} UTC; load average ${load.map((x) => x.toFixed(2)).join(' / ')}.
Translating the ${ovid.length} strategies and parsing the results took ${cpuMs.toFixed(0)} ms of CPU (noisy; not a benchmark of speed).

| measure | value |
| --- | ---: |
| strategies translated without a hard error (\`translateOvid\` returns) | ${pct(translated.length, ovid.length)} |
| … with no line problem | ${pct(clean.length, ovid.length)} |
| search lines / lines with a problem | ${totalLines} / ${problemLines} |
| final queries that parse with \`parseQuery\` (strict) | ${pct(parsing.length, ovid.length)} |
| … whose parse equals the translator's tree | ${pct(roundTrips.length, ovid.length)} |
| per-line queries (\`#N\` for earlier lines) that parse strictly | ${pct(totalLines - problemLines - lineParseFailures.length, totalLines - problemLines)} |
| distinct (field, term) pairs per final query: median / max | ${median(translated.map((r) => r.pairs))} / ${Math.max(0, ...translated.map((r) => r.pairs))} |
| topics whose review has both an Ovid and a PubMed strategy | ${reviewsBoth.length} |

${failuresByCause.size === 0 ? 'Parse failures of final queries: none.' : `Parse failures of final queries, by cause: ${[...failuresByCause].map(([cause, ids]) => `${cause}: ${ids.join(', ')}`).join('; ')}.`}
${lineParseFailures.length === 0 ? 'Parse failures of per-line queries: none.' : `Parse failures of per-line queries: ${lineParseFailures.join('; ')}.`}
${problemLines === 0 ? 'Line problems: none.' : `Line problems: ${results.flatMap((r) => r.lineProblems.map((p) => `${r.id} ${p}`)).join('; ')}.`}
${
  results.some((r) => r.error !== undefined)
    ? `Hard errors: ${results
        .filter((r) => r.error !== undefined)
        .map((r) => `${r.id}: ${r.error ?? ''}`)
        .join('; ')}.`
    : 'Hard errors: none.'
}

Run in the embedded engine (\`openSearch\`, \`engine.search(query, { limit: 10 })\`) on the bundled sample corpus
(${indexed.docCount} documents, ingested and indexed as \`pubmatch demo\` does; the hits mean nothing, the
sample is not the reviews' literature): ${pct(runsAtAll, ovid.length)} run, ${runsClean} of them without a warning.
${runFailures.size === 0 ? 'Failures: none.' : `Failures, by cause: ${[...runFailures].map(([cause, ids]) => `${cause} (${ids.length}: ${ids.join(', ')})`).join('; ')}.`}
${runWarnings.size === 0 ? 'Warnings: none.' : `Warnings, by code: ${[...runWarnings].map(([code, ids]) => `${code} (${ids.length}: ${ids.join(', ')})`).join('; ')}.`}

Approximations (notes of \`translateOvid\`): strategies with at least one note of the kind, and the constructs it covers.

${markdownTable(['note kind', 'strategies', 'constructs'], noteRows)}

Closeness to the authors' PubMed version: the measure is the Jaccard similarity of the normalised
(field, term) pairs of the two final queries (\`src/pairs.ts\`: lower case, hyphens as spaces,
\`[mh:noexp]\` as \`mh\`, proximity words sorted). ${
  closeness.length === 0
    ? `It has no input here: no review of CLEF TAR 2017 has its strategy in both syntaxes (each topic holds one strategy, ${ovid.length} Ovid and ${pubmed.length} PubMed, all for different reviews), so the closeness of a translation to an authors' PubMed version is not measured.`
    : `Per review: ${closeness.map((c) => `${c.review} ${c.jaccard.toFixed(3)}`).join(', ')}.`
} What it could claim: the share of the authors' terms and fields that the translation reproduces
word for word; what it cannot: retrieval equivalence (a [tw] term and a [tiab] term may retrieve
nearly the same set, two spellings of one heading the same set, and an exact match of pairs says
nothing of how the Boolean structure combines them).

What can be compared is the mix of fields: the share of each field among the distinct (field, term)
pairs of the ${translated.length} translated Ovid strategies, and among those of the ${pubmed.length} authors' PubMed strategies
(${authorStatements} search statements, parsed with \`recover\`). Different reviews, so this says how PubMed-like the
translations' field use is, not whether any translation is right.

${markdownTable(
  [
    'field',
    `translated Ovid (${translatedPairs.length} pairs)`,
    `authors' PubMed (${authorPairs.length} pairs)`,
  ],
  fields.map((field) => [
    field,
    share(translatedShares.get(field)),
    share(authorShares.get(field)),
  ]),
)}
`

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  if (sorted.length === 0) {
    return 0
  }
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? 0)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2
}

const header = `# Query syntax on real expert strategies

Written by the programs of \`tools/bench-query\`; each replaces its own section. Command, from the
repository root:

\`\`\`sh
pnpm build                                   # or: pnpm --filter @pubmatch/bench-query... build
pnpm --filter @pubmatch/bench-query bench    # the Ovid → PubMed translation figures
\`\`\`

Raw figures (one record per strategy) are in \`.cache/ovid.json\`.`
const resultsFile = join(root, 'RESULTS.md')
const previous = existsSync(resultsFile) ? readFileSync(resultsFile, 'utf8') : ''
await writeFileAtomic(
  resultsFile,
  replaceSection(previous, header, 'ovid', section, listedOrder(['ovid'])),
)
mkdirSync(join(root, '.cache'), { recursive: true })
await writeFileAtomic(
  join(root, '.cache', 'ovid.json'),
  `${JSON.stringify({ date, results, closeness, translatedShares: Object.fromEntries(translatedShares), authorShares: Object.fromEntries(authorShares) }, null, 2)}\n`,
)
process.stdout.write(section)
