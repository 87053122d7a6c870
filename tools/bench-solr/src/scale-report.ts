/**
 * Renders a scale run ({@link ScaleResults}) as the Markdown of `RESULTS-scale.md`. Pure: the
 * same results give the same text.
 */
import type { LatencySummary } from '@pubmatch/bench-kit'
import {
  GIB,
  PROJECTION_ASSUMPTIONS,
  PUBMED_ARTICLES,
  type ClusterProjection,
  type EmbeddedShardProjection,
} from './scale-projection.ts'
import type {
  EmbeddedBuild,
  EmbeddedServe,
  MemorySample,
  ScaleResults,
  SolrQueries,
} from './scale-results.ts'
import type { Parity } from './scale-stats.ts'

const MIB = 2 ** 20
const DASH = '–'

/**
 * tools/bench-search's projection (`tools/bench-search/RESULTS.md`, run 2026-11-22T02-51-35,
 * synthetic 100K and 1M, seed 1), cited as printed there, not re-measured.
 */
export const BENCH_SEARCH_CITED = {
  source:
    'tools/bench-search/RESULTS.md (run 2026-11-22T02-51-35; power law through synthetic 100K and 1M)',
  measured1M: {
    docsPerSecond: 693,
    bytesPerDoc: 615,
    rssAfterOpenMiB: 655,
    p50: 0.39,
    p95: 12.7,
    p99: 47.7,
  },
  singleIndex: { indexGiB: 19.2, ramGiB: 20.6, p50: 0.35, p95: 23, p99: 362 },
  plan: {
    shards: 12,
    docsPerShard: 3_000_000,
    replicas: 2,
    shardIndexGiB: 1.7,
    shardRamGiB: 1.8,
    p50: 1.4,
    p99: 90,
  },
} as const

/**
 * An integer with thousands separators (`1,000,000`).
 * @param value - the number
 */
export function formatInt(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : DASH
}

/**
 * Seconds: one decimal below 10, else whole seconds with separators.
 * @param seconds - the time
 */
export function formatSeconds(seconds: number): string {
  return Number.isFinite(seconds) && seconds < 10 ? seconds.toFixed(1) : formatInt(seconds)
}

/**
 * Milliseconds with precision that fits the size: `0.42`, `12.7`, `362`.
 * @param ms - the time
 */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) {
    return DASH
  }
  return ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : formatInt(ms)
}

/**
 * Bytes as MiB below 1 GiB, else GiB with one decimal.
 * @param bytes - the size
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) {
    return DASH
  }
  return bytes < GIB ? `${formatInt(bytes / MIB)} MiB` : `${(bytes / GIB).toFixed(1)} GiB`
}

function percentiles(summary: LatencySummary | undefined, withMean = true): string {
  if (summary === undefined) {
    return DASH
  }
  const main = `${formatMs(summary.p50)} / ${formatMs(summary.p95)} / ${formatMs(summary.p99)}`
  return withMean ? `${main} (mean ${formatMs(summary.mean)})` : main
}

function failures(failed: Readonly<Record<string, number>>): string {
  const entries = Object.entries(failed)
  return entries.length === 0
    ? 'none'
    : entries.map(([code, count]) => `${count} × ${code}`).join(', ')
}

function load(values: readonly number[]): string {
  return values.map((value) => value.toFixed(2)).join(' / ')
}

function jarChanged(results: ScaleResults): boolean {
  const module = results.solrModule
  return module?.atEnd !== undefined && module.atEnd.sha256 !== module.atStart.sha256
}

function header(results: ScaleResults): string[] {
  const { options, machine } = results
  return [
    '# SolrCloud against the embedded engine at scale (synthetic corpus)',
    '',
    `- **Command** (from the repository root, after \`pnpm exec turbo run build\`): \`${results.command}\``,
    `- **Run**: ${results.startedAt} → ${results.endedAt ?? '(did not finish)'}. Raw numbers: \`.cache/results/\` (JSON of the same run).`,
    `- **Machine**: ${machine.cores} × ${machine.cpu}, ${(machine.memoryBytes / GIB).toFixed(1)} GiB RAM, ${machine.os}, Node ${machine.node}, ${machine.java}.`,
    `- **Corpus**: ${formatInt(options.docs)} synthetic PubMed-like articles (tools/synth, seed ${options.seed}: the articles of tools/bench-search's synthetic corpora), PubMed field set (\`defaultPubmedFields()\`, \`biomedical\` analyzer; Solr: the generated \`pubmed\` configset).`,
    `- **Queries**: ${formatInt(options.queries)} real PubMed log queries of 1–5 terms (\`sampleQueries\`, seed 1, the draw of tools/bench-search's \`log-pubmed\` set) after ${formatInt(options.warmup)} disjoint warm-up queries; PubMed syntax (recovering from syntax errors), match all, top 500, one query at a time; ${options.passes} measured passes.`,
    ...(jarChanged(results)
      ? [
          '',
          `**The Solr module's jar was rebuilt during the run** (${results.solrModule?.atStart.sha256.slice(0, 12)} → ${results.solrModule?.atEnd?.sha256.slice(0, 12)}): the cluster JVM may have mixed classes of two builds; treat its figures with suspicion.`,
        ]
      : []),
    ...(results.errors.length === 0
      ? []
      : [
          '',
          `**Incomplete run**: ${results.errors.map((e) => `${e.phase}: ${e.message}`).join('; ')}`,
        ]),
    '',
  ]
}

/** The embedded index without its stored records (`.sto`): what Solr's index holds (it stores no text). */
function searchableBytes(build: EmbeddedBuild): number {
  return build.indexBytes - (build.fileBytes?.['sto'] ?? 0)
}

function fileKinds(bytes: Readonly<Record<string, number>> | undefined): string {
  return Object.entries(bytes ?? {})
    .sort((a, b) => b[1] - a[1])
    .map(([kind, size]) => `${kind} ${formatBytes(size)}`)
    .join(', ')
}

function embeddedRow(results: ScaleResults): string {
  const build = results.embeddedBuild
  const serve = results.embeddedServe
  const docsPerSecond =
    build === undefined
      ? DASH
      : `${formatInt(build.docsPerSecond)} (${formatInt(build.docsPerCpuSecond)}/CPU-s)`
  const size =
    build === undefined
      ? DASH
      : `${formatBytes(build.indexBytes)} (${formatInt(build.indexBytes / build.docs)} B/doc; ${formatInt(searchableBytes(build) / build.docs)} without stored records)`
  const rss =
    serve === undefined && build === undefined
      ? DASH
      : `${serve === undefined ? DASH : `${formatInt(serve.rssAfterOpenMiB)} MiB serving (after open)`}; build peak ${build === undefined ? DASH : formatInt(build.peakRssMiB)} MiB`
  return `| pubmatch embedded | ${formatInt(build?.docs ?? serve?.docs ?? Number.NaN)} | 1 × 1 | ${docsPerSecond} | ${size} | ${percentiles(serve?.queries.latency.firstPass)} | ${DASH} | ${rss} |`
}

function memoryText(memory: MemorySample | undefined, heap: string): string {
  if (memory === undefined) {
    return DASH
  }
  return `JVM ${formatInt(memory.jvmRssMiB)} MiB (peak ${formatInt(memory.jvmPeakRssMiB)}; -Xmx${heap}); Node client ${formatInt(memory.nodeRssMiB)} MiB`
}

function solrRow(results: ScaleResults): string {
  const indexing = results.solrIndexing
  const size = results.solrSize
  const queries = results.solrQueries
  const docsPerSecond =
    indexing === undefined
      ? DASH
      : `${formatInt(indexing.docsPerSecond)} (${formatInt(indexing.docsPerJvmCpuSecond)}/JVM CPU-s)`
  const sizeText =
    size === undefined
      ? DASH
      : `${formatBytes(size.indexBytes)} in 4 replicas; one copy ${formatBytes(size.copyBytes)} (${formatInt(size.copyBytes / results.options.docs)} B/doc)`
  const memory = results.solrMemory?.afterQueries ?? results.solrMemory?.afterIndexing
  return `| SolrCloud (local, 2 nodes) | ${formatInt(indexing?.docs ?? Number.NaN)} | 2 × 2 | ${docsPerSecond} | ${sizeText} | ${percentiles(queries?.latency.firstPass)} | ${qtimeP50P99(queries?.qtime.firstPass)} | ${memoryText(memory, results.solrHeap)} |`
}

function qtimeP50P99(summary: LatencySummary | undefined): string {
  return summary === undefined ? DASH : `${formatMs(summary.p50)} / ${formatMs(summary.p99)}`
}

function keyTable(results: ScaleResults): string[] {
  const embeddedRepeat = results.embeddedServe?.queries.latency.repeat
  const solrRepeat = results.solrQueries?.latency.repeat
  return [
    '## Key figures',
    '',
    '| engine | docs | shards × replicas | index docs/s | index size | query p50 / p95 / p99 ms (pass 1) | Solr QTime p50 / p99 ms | RSS |',
    '| --- | ---: | :---: | ---: | ---: | ---: | ---: | --- |',
    embeddedRow(results),
    solrRow(results),
    '',
    `Pass 1 is every measured query for the first time after the warm-up. ${results.options.passes === 2 ? 'Pass 2 repeats' : `Passes 2–${results.options.passes} repeat`} them: pubmatch ${percentiles(embeddedRepeat)} ms; Solr ${percentiles(solrRepeat)} ms, QTime p50 / p99 ${qtimeP50P99(results.solrQueries?.qtime.repeat)} ms (Solr's query-result and filter caches answer repeats; pubmatch caches only n(t)).`,
    '',
    'Index docs/s: pubmatch = documents / (build wall time − time generating the articles inside the build loop), `forceMergeTo: 1` included; Solr = documents / wall time from the first update request to the end of the final `commit=true`, the documents generated and serialized into a batches file before the clock starts (reading it is included). Every Solr document is indexed twice (2 replicas) on the same 2 cores.',
    '',
  ]
}

function phaseTable(results: ScaleResults): string[] {
  return [
    '## Phases and load',
    '',
    '| phase | wall s | load before (1 / 5 / 15 min) | load after |',
    '| --- | ---: | --- | --- |',
    ...results.phases.map(
      (phase) =>
        `| ${phase.phase} | ${formatSeconds(phase.seconds)} | ${load(phase.before)} | ${load(phase.after)} |`,
    ),
    '',
  ]
}

function embeddedDetails(results: ScaleResults): string[] {
  const build = results.embeddedBuild
  const serve: EmbeddedServe | undefined = results.embeddedServe
  const lines = ['## Details', '', '### pubmatch embedded', '']
  if (build !== undefined) {
    lines.push(
      `- Build: ${formatSeconds(build.seconds)} s wall, of which ${formatSeconds(build.inputSeconds)} s generating articles (subtracted), ${formatSeconds(build.tailSeconds)} s after the last article (flush, force-merge to ${build.segments} segment, commit); ${formatSeconds(build.cpuSeconds)} CPU-s; ${build.workers} segment-build workers (\`buildIndex\` default, as tools/bench-search); \`maxBufferedDocs\` 25,000; ${build.errors} errors.`,
      `- Index files: ${fileKinds(build.fileBytes)}. \`sto\` holds the stored records (ids, titles, abstracts … for hits, highlights and snippets); Solr's schema stores no text (\`stored="false"\` except id, year, pubdate), so the comparable size is the index without it: ${formatBytes(searchableBytes(build))} (${formatInt(searchableBytes(build) / build.docs)} B/doc).`,
    )
  }
  if (serve !== undefined) {
    const q = serve.queries
    lines.push(
      `- Serving: \`openIndex\` ${formatInt(serve.openMs)} ms; RSS ${formatInt(serve.rssAfterOpenMiB)} MiB after open, ${formatInt(serve.rssAfterQueriesMiB)} MiB after the queries (peak ${formatInt(serve.peakRssMiB)} MiB).`,
      `- Queries: \`createSearcher(reader, { match: 'all' })\`, \`search(q, { limit: 500, exactTotal: true, parse: { recover: true } })\`; failed: ${failures(q.failed)}; ${q.emptyQueries} of ${Object.keys(q.totals).length} answered queries match nothing.`,
    )
  }
  lines.push('')
  return lines
}

function solrQueryLines(queries: SolrQueries): string[] {
  const single = queries.singleShard
  return [
    `- Queries: \`createSolrFirstStage({ client, collection: 'synth', fields: solrFields('pubmed'), analyzer: getAnalyzer('biomedical'), match: 'all', recover: true }).search(q, { limit: 500 })\` (no MeSH lookup); failed: ${failures(queries.failed)}; ${queries.notSent} answered without a request (nothing searchable after translation; not in QTime); ${queries.emptyQueries} of ${Object.keys(queries.totals).length} answered queries match nothing.`,
    `- Solr QTime pass 1 p50 / p95 / p99: ${percentiles(queries.qtime.firstPass)} ms (whole milliseconds); the rest of the client's wall time is HTTP, JSON (500 ids and scores) and the translation.`,
    single === undefined
      ? '- One shard alone: not measured.'
      : `- One shard alone (\`distrib=false\` on each shard leader, both pooled, after a collection reload emptied the caches): QTime ${percentiles(single.qtime)} ms; wall ${percentiles(single.wall)} ms.`,
  ]
}

function solrDetails(results: ScaleResults): string[] {
  const lines = ['### SolrCloud', '']
  const indexing = results.solrIndexing
  const size = results.solrSize
  if (indexing !== undefined) {
    lines.push(
      `- Indexing: batches of ${indexing.batchSize} (\`createDocumentMapper('pubmed').toSolr\`), ${indexing.concurrency} update requests in flight, round-robin over both nodes; ${formatSeconds(indexing.seconds)} s wall including the final commit (${formatSeconds(indexing.commitSeconds)} s); JVM ${formatSeconds(indexing.jvmCpuSeconds)} CPU-s, Node client ${formatSeconds(indexing.clientCpuSeconds)} CPU-s; \`*:*\` numFound ${formatInt(indexing.numFound)}. Batches file: ${indexing.prepReused ? 'reused from an earlier run' : `${formatSeconds(indexing.prepSeconds)} s to generate and write`} (not timed).`,
    )
  }
  if (size !== undefined) {
    lines.push(
      `- Before the sizes and the queries, ${formatSeconds(results.solrSettleSeconds ?? Number.NaN)} s waiting for the cluster JVM to go idle (< 0.1 core over 5 s, at most 120 s: background merges after the commit).`,
      `- Disk: cluster directory ${formatBytes(size.diskBytes)} (\`du\`), of which index directories ${formatBytes(size.indexDirBytes)} and update logs (tlog) ${formatBytes(size.tlogBytes)}.`,
      '',
      '| core | shard | leader | docs | index size | segments |',
      '| --- | --- | :---: | ---: | ---: | ---: |',
      ...size.cores.map(
        (core) =>
          `| ${core.core} | ${core.shard} | ${core.leader ? 'yes' : ''} | ${formatInt(core.numDocs)} | ${formatBytes(core.sizeInBytes)} | ${core.segmentCount} |`,
      ),
      '',
    )
  }
  const memory = results.solrMemory
  if (memory !== undefined) {
    for (const [label, sample] of [
      ['after indexing', memory.afterIndexing],
      ['after the queries', memory.afterQueries],
    ] as const) {
      if (sample !== undefined) {
        lines.push(
          `- Memory ${label}: JVM RSS ${formatInt(sample.jvmRssMiB)} MiB (anonymous ${formatInt(sample.jvmRssAnonMiB)}, file-backed ${formatInt(sample.jvmRssFileMiB)}; peak ${formatInt(sample.jvmPeakRssMiB)}), -Xmx${results.solrHeap}; Node client ${formatInt(sample.nodeRssMiB)} MiB (peak ${formatInt(sample.nodePeakRssMiB)}).`,
        )
      }
    }
  }
  if (results.solrQueries !== undefined) {
    lines.push(...solrQueryLines(results.solrQueries))
  }
  lines.push(...solrRunLines(results))
  lines.push('')
  return lines
}

function solrRunLines(results: ScaleResults): string[] {
  const lines: string[] = []
  const module = results.solrModule
  if (module !== undefined) {
    lines.push(
      `- Solr module: \`${module.atStart.path.replace(/^.*\/packages\//, 'packages/')}\` sha256 ${module.atStart.sha256.slice(0, 12)}…, built ${module.atStart.modified}; ${module.atEnd === undefined ? 'not checked at the end' : jarChanged(results) ? `**rebuilt during the run** (now ${module.atEnd.sha256.slice(0, 12)}…, ${module.atEnd.modified})` : 'unchanged at the end of the run'}.`,
    )
  }
  const log = results.solrLog
  if (log !== undefined) {
    lines.push(
      `- \`solr.log\` (WARN and above): ${log.errors} errors, ${log.warnings} warnings${log.top.length === 0 ? '.' : '; most frequent:'}`,
      ...log.top.map((entry) => `  - ${entry.count} × \`${entry.kind.replace(/`/g, "'")}\``),
    )
  }
  return lines
}

/**
 * The parity section.
 * @param parity - the comparison, or undefined when either side is missing
 */
export function renderParity(parity: Parity | undefined): string[] {
  const lines = ['## Match parity (embedded `total` against Solr `numFound`)', '']
  if (parity === undefined) {
    return [...lines, 'Not measured (one of the engines did not answer).', '']
  }
  lines.push(
    `Over the ${parity.compared} measured queries both engines answered: **${parity.exact} agree exactly** (${parity.bothZero} of them match nothing on both). Of the ${parity.nonZero} queries that match something on either engine, ${parity.exactNonZero} agree exactly and ${parity.withinOnePercent} more are within 1 %; ${parity.onlyEmbedded} match only on pubmatch, ${parity.onlySolr} only on Solr. Matches summed: pubmatch ${formatInt(parity.embeddedMatches)}, Solr ${formatInt(parity.solrMatches)}.`,
  )
  if (parity.largest !== undefined) {
    lines.push(
      '',
      `Largest difference: ${formatInt(parity.largest.difference)} (\`${parity.largest.text.replace(/`/g, "'")}\`, ${parity.largest.id}: pubmatch ${formatInt(parity.largest.embedded)}, Solr ${formatInt(parity.largest.solr)}).`,
      '',
      '| query | pubmatch | Solr |',
      '| --- | ---: | ---: |',
      ...parity.worst.map(
        (pair) =>
          `| \`${pair.text.replace(/[`|]/g, "'")}\` | ${formatInt(pair.embedded)} | ${formatInt(pair.solr)} |`,
      ),
    )
  }
  lines.push(
    '',
    "The engines analyse differently: Solr's chain (WordDelimiterGraph, ASCII folding, stop words, Snowball English) approximates pubmatch's `biomedical` analyzer (its tokenizer, compound joining, Porter2), so a word can split or stem differently and change which documents match. One cause, checked by hand on 2026-11-26 (20k run): decimal numbers — pubmatch keeps `4.031` as one token, WordDelimiterGraph splits it into `4` and `031`, so `Peroxiredoxin 4` matches more documents on Solr (11 against 6 at 20k).",
    '',
  )
  return lines
}

function projectionRows(
  solr: ClusterProjection,
  embedded: EmbeddedShardProjection | undefined,
): string[] {
  const cited = BENCH_SEARCH_CITED
  const e = embedded
  const row = (label: string, a: string, b: string, c: string): string =>
    `| ${label} | ${a} | ${b} | ${c} |`
  return [
    '| for PubMed, 36M articles | SolrCloud (this run, linear rule) | pubmatch embedded (this run, same rule) | pubmatch embedded (tools/bench-search, cited) |',
    '| --- | ---: | ---: | ---: |',
    row(
      'shards × replicas',
      `${solr.shards} × ${solr.replicas}`,
      `${solr.shards} × ${solr.replicas}`,
      `${cited.plan.shards} × ${cited.plan.replicas}`,
    ),
    row(
      'articles per shard',
      formatInt(solr.docsPerShard),
      formatInt(solr.docsPerShard),
      formatInt(cited.plan.docsPerShard),
    ),
    row(
      'stretch of the measured per-shard figures',
      `× ${solr.scale.toFixed(2)} (from ${formatInt(solr.measuredDocsPerShard)}/shard)`,
      e === undefined
        ? DASH
        : `× ${e.scale.toFixed(2)} (from one index of ${formatInt(e.input.measuredDocs)})`,
      '× 3 (from 1M; power law)',
    ),
    row(
      'index per shard (one replica)',
      formatBytes(solr.shardIndexBytes),
      e === undefined ? DASH : formatBytes(e.shardIndexBytes),
      `${cited.plan.shardIndexGiB} GiB`,
    ),
    row(
      'index, all replicas',
      formatBytes(solr.totalIndexBytes),
      e === undefined ? DASH : formatBytes(e.shardIndexBytes * solr.shards * solr.replicas),
      `${(cited.plan.shardIndexGiB * cited.plan.shards * cited.plan.replicas).toFixed(1)} GiB`,
    ),
    row(
      'RAM per node (one replica each)',
      `${formatBytes(solr.ramPerNodeBytes)} (index + ${solr.input.heapGiB} GiB heap)`,
      e === undefined ? DASH : `${formatBytes(e.ramPerShardBytes)} (index + runtime)`,
      `${cited.plan.shardRamGiB} GiB`,
    ),
    row(
      'nodes (one replica per node)',
      formatInt(solr.nodes),
      formatInt(solr.nodes),
      `${cited.plan.shards * cited.plan.replicas} shard copies (2 × 64 GiB/16-core machines)`,
    ),
    row(
      'match all, top 500: p50 ms',
      `${formatMs(solr.p50)} (shard ${formatMs(solr.shardP50)} + fan-out ${formatMs(solr.fanOutP50)})`,
      e === undefined ? DASH : `${formatMs(e.p50)} (+1 ms coordinator)`,
      formatMs(cited.plan.p50),
    ),
    row(
      'match all, top 500: p99 ms',
      `${formatMs(solr.p99)} (shard ${formatMs(solr.shardP99)} + fan-out ${formatMs(solr.fanOutP99)})`,
      e === undefined ? DASH : `${formatMs(e.p99)} (+1 ms coordinator)`,
      formatMs(cited.plan.p99),
    ),
    row(
      'indexing 36M at this run’s rate',
      `${solr.indexHoursMeasuredRate.toFixed(1)} h (2 cores)`,
      DASH,
      DASH,
    ),
  ]
}

/**
 * The projection section.
 * @param results - the run
 */
export function renderProjection(results: ScaleResults): string[] {
  const projection = results.projection
  const lines = [`## Projection to PubMed (${formatInt(PUBMED_ARTICLES)} articles)`, '']
  if (projection === undefined) {
    return [...lines, 'Not computed (the SolrCloud phases did not complete).', '']
  }
  const solr = projection.solr
  lines.push(
    `Shards so that each holds at most the measured ${formatInt(solr.measuredDocsPerShard)} articles per shard × ${solr.input.shardFactor} (\`--shard-factor\`): ${solr.shards} shards of ${formatInt(solr.docsPerShard)}; 2 replicas; projected p·· = one shard's measured QTime × ${solr.scale.toFixed(2)} + the measured fan-out (distributed wall − one shard's QTime at the same percentile: p50 ${formatMs(solr.input.distributedP50)} − ${formatMs(solr.input.shardQtimeP50)}, p99 ${formatMs(solr.input.distributedP99)} − ${formatMs(solr.input.shardQtimeP99)} ms).`,
    '',
    ...projectionRows(solr, projection.embedded),
    '',
    `tools/bench-search's own single-index projection for 36M (cited): index ${BENCH_SEARCH_CITED.singleIndex.indexGiB} GiB, serving RAM ${BENCH_SEARCH_CITED.singleIndex.ramGiB} GiB, match all p50 / p95 / p99 ${BENCH_SEARCH_CITED.singleIndex.p50} / ${BENCH_SEARCH_CITED.singleIndex.p95} / ${BENCH_SEARCH_CITED.singleIndex.p99} ms; its measured synthetic 1M point: ${BENCH_SEARCH_CITED.measured1M.docsPerSecond} docs/s wall (at load 10 → 7), ${BENCH_SEARCH_CITED.measured1M.bytesPerDoc} B/doc, ${BENCH_SEARCH_CITED.measured1M.rssAfterOpenMiB} MiB RSS, p50 / p95 / p99 ${BENCH_SEARCH_CITED.measured1M.p50} / ${BENCH_SEARCH_CITED.measured1M.p95} / ${BENCH_SEARCH_CITED.measured1M.p99} ms. Source: ${BENCH_SEARCH_CITED.source}.`,
    '',
    'Assumptions:',
    '',
    ...PROJECTION_ASSUMPTIONS.map((assumption, i) => `${i + 1}. ${assumption}`),
    '',
  )
  return lines
}

/**
 * The whole report.
 * @param results - the run
 */
export function renderScaleReport(results: ScaleResults): string {
  return [
    ...header(results),
    ...keyTable(results),
    ...renderParity(results.parity),
    ...renderProjection(results),
    ...phaseTable(results),
    ...embeddedDetails(results),
    ...solrDetails(results),
  ].join('\n')
}
