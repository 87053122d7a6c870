/**
 * Where the first stage's tail goes: one corpus and one query cell of the benchmark, every query
 * timed over a few rounds, then the slowest 1 % (at least 4 queries) run again under V8's CPU
 * profiler; writes the profile, its flame graph (SVG) and a Markdown summary (the queries, their
 * medians and counters, the functions with the most time of their own) under `.cache/profiles/`.
 *
 *   node dist/profile.js [--corpus nfcorpus-x30] [--set nfcorpus-dev] [--match any] [--limit 1000]
 *                        [--rounds 3] [--repeat 50] [--log-queries 448] [--label before]
 *
 * The index is the benchmark's cached one (`.cache/indexes/<corpus>`, built when missing, as
 * `run.js` builds it). Not a latency measurement: the profiler slows every call it samples.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { createSearcher } from '@pubmatch/bm25f'
import { flameGraphSvg, flameTree, markdownTable, sharedDataDir, type CpuProfile, type FlameFrame } from '@pubmatch/bench-kit'
import { PubmatchError } from '@pubmatch/core'
import { buildIndex, openIndex } from '@pubmatch/index'
import { corpusArticles, corpusSpec, indexFields } from './corpora.ts'
import { loadQuerySet, searchOptions, type QuerySetName } from './query-sets.ts'

/** One query's times and counters. */
export interface QueryProfile {
  readonly id: string
  readonly text: string
  /** Median over the rounds, ms. */
  readonly medianMs: number
  readonly docsScored: number
  readonly postingsScored: number
  readonly windows: number
  readonly blocksSkipped: number
}

/**
 * The slowest queries: the top 1 % by median time (at least `min`), slowest first.
 * @param queries - every query's profile
 * @param min - the fewest to keep
 */
export function slowestPercent(queries: readonly QueryProfile[], min = 4): QueryProfile[] {
  const n = Math.min(queries.length, Math.max(min, Math.ceil(queries.length / 100)))
  return [...queries].sort((a, b) => b.medianMs - a.medianMs || (a.id < b.id ? -1 : 1)).slice(0, n)
}

/**
 * The functions with the most time of their own in a call tree, summed over every place they
 * appear, largest first.
 * @param root - the tree (`flameTree`)
 * @param top - how many
 */
export function selfTimes(root: FlameFrame, top = 15): Array<{ name: string; place: string; us: number; share: number }> {
  const sums = new Map<string, { name: string; place: string; us: number }>()
  const walk = (frame: FlameFrame): void => {
    if (frame !== root) {
      const key = `${frame.name}\u0000${frame.place}`
      const entry = sums.get(key) ?? { name: frame.name, place: frame.place, us: 0 }
      entry.us += frame.self
      sums.set(key, entry)
    }
    frame.children.forEach(walk)
  }
  walk(root)
  return [...sums.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, top)
    .map((entry) => ({ ...entry, share: root.total === 0 ? 0 : entry.us / root.total }))
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

const main = async (): Promise<void> => {
  const { values } = parseArgs({
    options: {
      corpus: { type: 'string', default: 'nfcorpus-x30' },
      set: { type: 'string', default: 'nfcorpus-dev' },
      match: { type: 'string', default: 'any' },
      limit: { type: 'string', default: '1000' },
      rounds: { type: 'string', default: '3' },
      repeat: { type: 'string', default: '50' },
      'log-queries': { type: 'string', default: '448' },
      label: { type: 'string', default: 'profile' },
    },
  })
  const set = values.set as QuerySetName
  if (!['nfcorpus-dev', 'log-pubmed', 'log-bag'].includes(set)) {
    throw new PubmatchError('INVALID_ARGUMENT', `--set is nfcorpus-dev, log-pubmed or log-bag, got "${set}"`)
  }
  if (values.match !== 'any' && values.match !== 'all') {
    throw new PubmatchError('INVALID_ARGUMENT', `--match is any or all, got "${values.match}"`)
  }
  const numbers = Object.fromEntries(
    (['limit', 'rounds', 'repeat', 'log-queries'] as const).map((name) => {
      const value = Number(values[name])
      if (!Number.isInteger(value) || value < 1) {
        throw new PubmatchError('INVALID_ARGUMENT', `--${name} must be a whole number ≥ 1, got "${values[name]}"`)
      }
      return [name, value]
    }),
  ) as Record<'limit' | 'rounds' | 'repeat' | 'log-queries', number>
  const benchDir = fileURLToPath(new URL('..', import.meta.url))
  const spec = corpusSpec(values.corpus)
  const dir = join(benchDir, '.cache', 'indexes', spec.name)
  const say = (text: string): void => {
    process.stderr.write(`profile: ${text}\n`)
  }
  if (!existsSync(join(dir, 'INDEX.json'))) {
    say(`building ${spec.label} into ${dir}`)
    mkdirSync(dir, { recursive: true })
    const articles = await corpusArticles(spec, spec.source.kind === 'nfcorpus' ? sharedDataDir() : '')
    await buildIndex(articles, dir, { fields: indexFields(spec) }, { maxBufferedDocs: spec.maxBufferedDocs, forceMergeTo: 1 })
  }
  const reader = await openIndex(dir)
  const searcher = createSearcher(reader)
  const querySet = await loadQuerySet(set, sharedDataDir(), { measured: numbers['log-queries'], warmup: 50 })
  const options = searchOptions({ set, match: values.match, limit: numbers.limit, pruning: true }, spec.fields)
  for (const query of querySet.warmup) {
    try {
      searcher.search(query.text, options)
    } catch {
      // a query that fails is left out below too
    }
  }
  const times = new Map<string, number[]>()
  const counters = new Map<string, Omit<QueryProfile, 'medianMs'>>()
  for (let round = 0; round < numbers.rounds; round++) {
    for (const query of querySet.measured) {
      const t = performance.now()
      let result
      try {
        result = searcher.search(query.text, options)
      } catch {
        continue
      }
      const ms = performance.now() - t
      times.set(query.id, [...(times.get(query.id) ?? []), ms])
      const { docsScored, postingsScored, windows, blocksSkipped } = result.stats
      counters.set(query.id, { id: query.id, text: query.text, docsScored, postingsScored, windows, blocksSkipped })
    }
  }
  const profiles: QueryProfile[] = [...counters.values()].map((c) => ({ ...c, medianMs: median(times.get(c.id)!) }))
  const slow = slowestPercent(profiles)
  say(`${profiles.length} queries × ${numbers.rounds} rounds; profiling the slowest ${slow.length}, ${numbers.repeat} times each`)
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.setSamplingInterval', { interval: 100 })
  await session.post('Profiler.start')
  for (let i = 0; i < numbers.repeat; i++) {
    for (const query of slow) {
      searcher.search(query.text, options)
    }
  }
  const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: CpuProfile }
  session.disconnect()
  const out = join(benchDir, '.cache', 'profiles')
  mkdirSync(out, { recursive: true })
  const base = join(out, `${values.label}-${spec.name}-${set}-${values.match}-${numbers.limit}`)
  const title = `${spec.label}, ${set} ${values.match} ${numbers.limit}: the slowest ${slow.length} of ${profiles.length} queries × ${numbers.repeat} (${values.label})`
  writeFileSync(`${base}.cpuprofile`, JSON.stringify(profile))
  writeFileSync(`${base}.svg`, flameGraphSvg(profile, { title }))
  const tree = flameTree(profile)
  const report = `# ${title}

Command: \`node dist/profile.js ${process.argv.slice(2).join(' ')}\`, ${new Date().toISOString()}. Flame graph: \`${base}.svg\`.

${markdownTable(
  ['query', 'median ms', 'docs scored', 'postings scored', 'windows', 'blocks skipped'],
  slow.map((q) => [q.text.length > 70 ? `${q.text.slice(0, 69)}…` : q.text, q.medianMs.toFixed(2), String(q.docsScored), String(q.postingsScored), String(q.windows), String(q.blocksSkipped)]),
)}

Time of their own (sampled every 100 µs, ${(tree.total / 1000).toFixed(0)} ms in all):

${markdownTable(
  ['function', 'where', 'ms', 'share'],
  selfTimes(tree).map((f) => [f.name, f.place, (f.us / 1000).toFixed(1), `${(f.share * 100).toFixed(1)} %`]),
  2,
)}
`
  writeFileSync(`${base}.md`, report)
  process.stdout.write(report)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await main()
}
