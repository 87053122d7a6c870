/**
 * Renders a rerank run ({@link RerankResults}) as the Markdown of `RESULTS-rerank.md`. Pure: the
 * same results give the same text.
 */
import type { SampleSummary } from '@pubmatch/bench-kit'
import { markdownTable } from '@pubmatch/bench-kit'
import type { LoadSummary } from './rerank-load.ts'
import type { JvmSample, RerankResults } from './rerank-results.ts'
import {
  GIB,
  PROJECTION_ASSUMPTIONS,
  PUBMED_ARTICLES,
  SECOND_STAGE_ASSUMPTIONS,
} from './scale-projection.ts'
import { formatBytes, formatInt, formatMs, formatSeconds } from './scale-report.ts'

const DASH = '–'

/**
 * A ratio `a / b` as `3.2×`, or a dash when either is unknown.
 * @param a - numerator
 * @param b - denominator
 */
export function formatRatio(a: number | undefined, b: number | undefined): string {
  if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b === 0) {
    return DASH
  }
  const r = a / b
  return `${r < 10 ? r.toFixed(2) : r.toFixed(1)}×`
}

const pct = (fraction: number | undefined): string =>
  fraction === undefined || !Number.isFinite(fraction) ? DASH : `${(fraction * 100).toFixed(0)} %`

const mib = (value: number | undefined): string =>
  value === undefined || !Number.isFinite(value) ? DASH : `${formatInt(value)} MiB`

const triple = (s: SampleSummary | undefined): string =>
  s === undefined || s.count === 0
    ? DASH
    : `${formatMs(s.p50)} / ${formatMs(s.p95)} / ${formatMs(s.p99)}`

const failedOf = (s: LoadSummary | undefined): string =>
  s === undefined
    ? DASH
    : s.failed === 0
      ? '0'
      : `**${s.failed}** (${Object.entries(s.failures)
          .map(([code, n]) => `${code} ${n}`)
          .join(', ')})`

function header(results: RerankResults): string[] {
  const { options, machine } = results
  const load = results.phases
    .map((p) => p.before[0]!)
    .concat(results.phases.map((p) => p.after[0]!))
  const first = results.phases[0]
  const last = results.phases.at(-1)
  return [
    '# The two-stage search in SolrCloud against the embedded engine',
    '',
    `Command: \`${results.command}\``,
    '',
    `Run: ${results.startedAt} – ${results.endedAt ?? '(unfinished)'}; machine: ${machine.cpu}, ${machine.cores} cores, ${formatBytes(machine.memoryBytes)} RAM, Node ${machine.node}, ${machine.java}, ${machine.os}. ` +
      `1-minute load average ${first?.before[0] ?? DASH} before the first phase, ${last?.after[0] ?? DASH} after the last (range ${load.length === 0 ? DASH : `${Math.min(...load)}–${Math.max(...load)}`}; every phase's below).`,
    '',
    ...(options.note === undefined ? [] : [`**Note:** ${options.note}`, '']),
    `Corpus: ${formatInt(results.setup?.docCount ?? options.docs)} synthetic articles (tools/synth, seed ${options.seed}), the same corpus store indexed by both engines. ` +
      `${options.quick ? '**A smoke run (`--quick`), not a result.** ' : ''}` +
      `Queries: ${options.queries} real PubMed log queries of 1–5 terms (tools/synth \`sampleQueries\`, seed 1, as scale.ts), after ${options.warmup} disjoint warm-up queries; PubMed syntax, **match any** (ranked OR retrieval, as tools/bench-server serves the synthetic corpus, so that searches reach the model at full depth). ` +
      `A reranked search: the first stage's top ${options.depth} with an exact total, reordered by the model, a page of ${options.rows}.`,
    '',
    ...(results.errors.length === 0
      ? []
      : ['**Errors:**', '', ...results.errors.map((e) => `- ${e.phase}: ${e.message}`), '']),
    ...(results.solr !== undefined && results.solr.errors.length > 0
      ? [
          '**Errors in the Solr serving process:**',
          '',
          ...results.solr.errors.map((e) => `- ${e}`),
          '',
        ]
      : []),
  ]
}

function models(results: RerankResults): string[] {
  const setup = results.setup
  if (setup === undefined) {
    return []
  }
  return [
    '## Models',
    '',
    'Two Best Match models (the 179 features, LambdaMART), trained as tools/bench-server trains its latency models: `trainModel` on the embedded index’s own first stage (match any, depth ' +
      `${results.options.depth}) for the training set and manifest, then retrained with \`trainRanker\` to ${results.options.trees} trees without early stopping (learning rate 0.01). ` +
      'Labels are a rule, **title-term coverage** of each training query’s first-stage top 500 (2 = the title holds every query term, 1 = at least half, else 0), over log queries disjoint from the measured ones (A: even positions, seed 1; B: odd, seed 2). They measure the cost of 500 trees over the 179 features, not ranking quality.',
    '',
    markdownTable(
      ['model', 'training queries', 'rows', 'trees', 'model.txt', 'trained in', 'labels 0 / 1 / 2'],
      setup.models.map((m) => [
        m.name,
        formatInt(m.queries),
        formatInt(m.trainRows),
        formatInt(m.trees),
        formatBytes(m.modelBytes),
        m.reused ? 'cached' : `${formatSeconds(m.seconds)} s`,
        `${formatInt(m.grades['0'] ?? 0)} / ${formatInt(m.grades['1'] ?? 0)} / ${formatInt(m.grades['2'] ?? 0)}`,
      ]),
    ),
    '',
  ]
}

function latency(results: RerankResults): string[] {
  const { embedded, solr } = results
  if (embedded === undefined && solr === undefined) {
    return []
  }
  const rows: string[][] = []
  const row = (label: string, e: LoadSummary | undefined, s: LoadSummary | undefined): void => {
    rows.push([
      label,
      triple(e?.latency),
      triple(s?.latency),
      formatRatio(s?.latency.p50, e?.latency.p50),
      formatRatio(s?.latency.p99, e?.latency.p99),
      `${failedOf(e)} / ${failedOf(s)}`,
      `${e === undefined ? DASH : formatInt(e.reranked)} / ${s === undefined ? DASH : formatInt(s.reranked)}`,
    ])
  }
  row('reranked, one client', embedded?.serial, solr?.serial)
  for (const rate of results.options.rates) {
    row(
      `reranked, paced ${rate} req/s`,
      embedded?.paced.find((p) => p.rate === rate)?.summary,
      solr?.paced.find((p) => p.rate === rate)?.summary,
    )
  }
  row(
    'first stage alone (top 500, exact total), one client',
    embedded?.firstStage,
    solr?.firstStage,
  )
  const out = [
    '## Latency',
    '',
    'Client wall time per search, ms, nearest-rank p50 / p95 / p99. For Solr a reranked search is both requests from the serving process, (a) the first stage and (b) the rerank on the shards; paced runs are open loop (request i is due at i / rate s, its time counts from then, so a wait behind a slow request counts). The embedded engine answers in its own thread: at a paced rate a search waits for the one before it. Every Solr request bypasses Solr’s result caches (`cache=false` on the main query and on the candidates’ `{!terms}` filter; the embedded engine has none), so the paced runs’ repeated queries are computed again. Run order: one client (each query for the first time after the warm-up), the first stage alone, then the paced rates.',
    '',
    markdownTable(
      [
        'load',
        'embedded p50 / p95 / p99',
        'Solr p50 / p95 / p99',
        'Solr / embedded p50',
        'p99',
        'failed (emb. / Solr)',
        'reranked (emb. / Solr)',
      ],
      rows,
    ),
    '',
  ]
  if (solr !== undefined) {
    const split: string[][] = [
      ['one client', solr.serial],
      ...solr.paced.map((p) => [`paced ${p.rate} req/s`, p.summary] as const),
    ].map(([label, s]) => {
      const summary = s as LoadSummary
      return [
        label as string,
        triple(summary.a),
        triple(summary.b),
        pct(summary.shareA),
        pct(summary.shareA === undefined ? undefined : 1 - summary.shareA),
      ]
    })
    out.push(
      'Where Solr’s time goes (searches with both requests; ms, p50 / p95 / p99; share of the summed time):',
      '',
      markdownTable(
        ['load', '(a) first stage', '(b) rerank on the shards', 'share (a)', 'share (b)'],
        split,
      ),
      '',
      `Solr’s own QTime at one client: (a) ${triple(solr.qtime.a)}, (b) ${triple(solr.qtime.b)} ms. On one shard alone (\`distrib=false\`, ${formatInt(solr.shard.candidates)} of the candidates on that shard on average): (a) ${triple(solr.shard.a)}, (b) ${triple(solr.shard.b)} ms (QTime).`,
      '',
    )
  }
  if (results.agreement !== undefined) {
    const a = results.agreement
    out.push(
      `Top ${results.options.rows} of Solr against the embedded engine, first ${a.queries} accepted queries: ${a.sameOrder} the same ids in the same order, ${a.sameSet} the same set, mean overlap ${pct(a.meanOverlap)} (not a parity test: Solr’s first-stage scores differ slightly from the embedded ones — Lucene keeps a field’s length in one byte — so F143, the candidates near rank 500 and near ties differ, and Solr merges shards by 32-bit float scores; given the same candidates and scores the 179 features are bit-identical, packages/engine/test/solr-rerank.test.ts).`,
      '',
    )
  }
  return out
}

function jvmRow(label: string, sample: JvmSample | undefined): string[] {
  return [
    label,
    mib(sample?.memory.jvmRssMiB),
    mib(sample?.memory.jvmPeakRssMiB),
    sample?.heap === undefined
      ? DASH
      : `${mib(sample.heap.before.usedMiB)} of ${mib(sample.heap.before.totalMiB)}`,
    sample?.heap === undefined
      ? DASH
      : `${mib(sample.heap.afterGc.usedMiB)} of ${mib(sample.heap.afterGc.totalMiB)}`,
  ]
}

function memory(results: RerankResults): string[] {
  const { embedded, solr, jvm } = results
  const out = ['## Memory', '']
  out.push(
    markdownTable(
      [
        'serving process',
        'RSS after open / start',
        'RSS after the queries',
        'peak RSS',
        'what it holds',
      ],
      [
        [
          'embedded reranked engine',
          mib(embedded?.rssAfterOpenMiB),
          mib(embedded?.rssAfterQueriesMiB),
          mib(embedded?.peakRssMiB),
          'index, stored records, forward store, model',
        ],
        [
          'Solr client (`createSolrFirstStage` + `createSolrReranker`)',
          mib(solr?.rssStartMiB),
          mib(solr?.rssAfterLatencyMiB),
          mib(solr?.peakRssMiB),
          'no index, corpus or forward store; the analyzer and HTTP',
        ],
      ],
    ),
    '',
    `Embedded / Solr client RSS after the queries: ${formatRatio(embedded?.rssAfterQueriesMiB, solr?.rssAfterLatencyMiB)}. The Solr client’s RSS at the end of the run (after the fault and swap phases, which also deployed model B from this process): ${mib(solr?.rssEndMiB)}. Embedded: \`openSearch\` with the model (index, forward store, model) took ${formatMs(embedded?.openMs ?? Number.NaN)} ms.`,
    '',
    'The cluster JVM (both Solr nodes and ZooKeeper in one JVM, `-Xmx' +
      results.solrHeap +
      '`; VmRSS from /proc, heap from `jcmd GC.heap_info` before and after `jcmd GC.run`):',
    '',
    markdownTable(
      ['when', 'JVM RSS', 'JVM peak RSS', 'heap used of committed', 'after a full GC (live)'],
      [
        jvmRow('after indexing and the deploy of model A', jvm?.before),
        jvmRow('after the serving process', jvm?.after),
      ],
    ),
    '',
    ...(results.damonPageout === true
      ? [
          'This VM’s kernel runs a DAMON `pageout` scheme (kdamond), which reclaims cold pages: the RSS of a process that has been idle reads low (the JVM’s can fall below its used heap); peak RSS (VmHWM) is the upper figure, the heap after a full GC what the JVM needs live.',
          '',
        ]
      : []),
  )
  const size = results.size
  if (size !== undefined && results.indexing !== undefined) {
    out.push(
      `Index: ${formatBytes(size.replicaBytes)} per replica (${formatInt(size.replicaBytes / (results.indexing.docs / 2))} B/article with \`pubmatch_fwd\`, the term fields and the stored record), ${formatBytes(size.indexBytes)} all 4 replicas, ${formatBytes(size.diskBytes)} on disk with the update logs. ` +
        `\`indexCorpus\` wrote ${formatInt(results.indexing.docs)} articles in ${formatSeconds(results.indexing.seconds)} s (${formatInt(results.indexing.docsPerSecond)} docs/s into 2 × 2, ${results.indexing.errors} rejected).` +
        (results.deployed === undefined
          ? ''
          : ` Model A deployed in ${formatMs(results.deployed.deployMs)} ms and loaded on every replica in ${formatMs(results.deployed.loadMs)} ms.`),
      '',
    )
  }
  return out
}

function faults(results: RerankResults): string[] {
  const fault = results.solr?.fault
  const swap = results.solr?.swap
  const out: string[] = []
  if (fault !== undefined) {
    out.push(
      '## A node stopped under load',
      '',
      `${formatInt(fault.summary.requests)} reranked searches paced at ${fault.rate} req/s; node ${fault.node} (the first URL the serving client tries; it holds one replica of each shard) stopped through the cluster’s control URL at a quarter of the run (${formatSeconds(fault.stoppedAt / 1000)} s in; the stop took ${formatMs(fault.stopMs)} ms) and started again at 60 % (active again ${formatSeconds(fault.restartedAt / 1000)} s in, after ${formatMs(fault.restartMs)} ms). The client is \`createSolrClient\` with both node URLs and its default retries (6 attempts, back-off from 200 ms).`,
      '',
      markdownTable(
        ['requests due while', 'requests', 'failed', 'p50 / p95 / p99 ms'],
        [
          [
            'the whole run',
            formatInt(fault.summary.requests),
            failedOf(fault.summary),
            triple(fault.summary.latency),
          ],
          ...Object.entries(fault.byState).map(([state, s]) => [
            `node ${state}`,
            formatInt(s.requests),
            failedOf(s),
            triple(s.latency),
          ]),
        ],
      ),
      '',
      `**Failed queries: ${fault.summary.failed}** (target 0). HTTP attempts during the run: ${formatInt(fault.fetch.attempts)}, of which ${formatInt(fault.fetch.networkErrors)} got no answer and ${formatInt(fault.fetch.httpErrors)} an error status (retried by the client). ` +
        `Results: of ${fault.checkedQueries} fixed queries (top ${results.options.rows} ids before the stop), ${fault.sameWhileDown} gave the same ids in the same order while the node was down (${fault.sameSetWhileDown} the same set; ${fault.checkFailuresWhileDown} failed) and ${fault.sameAfterRestart} after the restart (${fault.sameSetAfterRestart} the same set; ${fault.checkFailuresAfter} failed).` +
        (fault.differing.length === 0
          ? ''
          : ` Differing: ${fault.differing.map((q) => `\`${q}\``).join(', ')}.`),
      '',
    )
  }
  if (swap !== undefined) {
    out.push(
      '## Hot model swap under load',
      '',
      `${formatInt(swap.summary.requests)} reranked searches paced at ${swap.rate} req/s on model A; at 30 % (${formatSeconds(swap.deployAt / 1000)} s in) model B was deployed under a new name (\`deployModel\`, ${formatMs(swap.deployMs)} ms) and loaded on every replica (\`loadModelOnReplicas\`, ${formatMs(swap.loadMs)} ms), then the queries switched to it (${formatSeconds(swap.switchAt / 1000)} s in; ${formatInt(swap.afterSwitchOnB)} searches answered by B).`,
      '',
      markdownTable(
        ['window', 'requests', 'failed', 'p50 / p95 / p99 ms'],
        [
          [
            'the whole run',
            formatInt(swap.summary.requests),
            failedOf(swap.summary),
            triple(swap.summary.latency),
          ],
          [
            'deploy and load of B (on A)',
            formatInt(swap.deployWindow.requests),
            failedOf(swap.deployWindow),
            triple(swap.deployWindow.latency),
          ],
          [
            '**10 s around the switch** (5 s each side)',
            formatInt(swap.window.requests),
            failedOf(swap.window),
            triple(swap.window.latency),
          ],
        ],
      ),
      '',
      `**Failed queries: ${swap.summary.failed}** (target 0); HTTP attempts ${formatInt(swap.fetch.attempts)}, ${formatInt(swap.fetch.networkErrors)} without an answer, ${formatInt(swap.fetch.httpErrors)} with an error status.`,
      '',
    )
  }
  return out
}

function projection(results: RerankResults): string[] {
  const p = results.projection
  if (p === undefined) {
    return [
      '## Projection to PubMed’s 36M',
      '',
      'Not computed (a phase it needs did not finish).',
      '',
    ]
  }
  const { cluster, second } = p
  return [
    `## Projection to PubMed’s ${formatInt(PUBMED_ARTICLES / 1e6)}M with the second stage`,
    '',
    `From this run: ${formatInt(cluster.input.measuredDocs)} articles on ${cluster.input.measuredShards} shards; the first stage as scale-projection.ts projects it (shards of at most ${formatInt(results.options.shardDocs)} articles, stretched ×${cluster.scale.toFixed(1)} from the measured ${formatInt(cluster.measuredDocsPerShard)} per shard), the second stage by \`projectSecondStage\`.`,
    '',
    markdownTable(
      ['for 36M articles', 'value', 'from'],
      [
        [
          'shards × replicas, nodes',
          `${cluster.shards} × ${cluster.replicas} (${formatInt(cluster.docsPerShard)} per shard), ${cluster.nodes} nodes`,
          'one replica per node',
        ],
        [
          'index bytes per article (one replica)',
          formatInt(second.bytesPerDoc),
          'measured: replica size / articles per shard',
        ],
        [
          'index per shard / all replicas',
          `${formatBytes(cluster.shardIndexBytes)} / ${formatBytes(cluster.totalIndexBytes)}`,
          'linear in articles',
        ],
        [
          'RAM per node',
          `${(cluster.ramPerNodeBytes / GIB).toFixed(1)} GiB`,
          `replica index (page cache) + ${cluster.input.heapGiB} GiB heap`,
        ],
        [
          '(a) first stage p50 / p99 ms',
          `${formatMs(cluster.p50)} / ${formatMs(cluster.p99)}`,
          `one shard’s QTime × ${cluster.scale.toFixed(2)} + fan-out ${formatMs(cluster.fanOutP50)} / ${formatMs(cluster.fanOutP99)}`,
        ],
        [
          '(b) rerank p50 / p99 ms',
          `${formatMs(second.p50)} / ${formatMs(second.p99)}`,
          `one shard’s rerank QTime × ${second.candidateScale.toFixed(2)} (${formatInt(second.candidatesPerShard)} candidates per shard instead of ${formatInt(second.input.measuredCandidatesPerShard)}) + fan-out ${formatMs(second.fanOutP50)} / ${formatMs(second.fanOutP99)}`,
        ],
        [
          '**reranked search p50 / p99 ms**',
          `**${formatMs(second.totalP50)} / ${formatMs(second.totalP99)}**`,
          '(a) + (b)',
        ],
        [
          'fan-out share of the p99',
          pct(second.fanOutShareP99),
          'both requests’ fan-out / the total p99',
        ],
        [
          'indexing 36M at this run’s rate',
          `${cluster.indexHoursMeasuredRate.toFixed(1)} h`,
          'same hardware, no added nodes',
        ],
      ],
      1,
    ),
    '',
    second.fanOutShareP99 >= 0.5
      ? `**Fan-out dominates**: at ${cluster.shards} shards ${pct(second.fanOutShareP99)} of the projected p99 is the distributed requests’ fixed cost (HTTP and JSON between nodes, the statistics phase, the candidate ids sent to every shard, the merge), not the shards’ work; the second stage’s per-shard work shrinks as shards are added (each holds fewer of the 500 candidates), its fan-out does not.`
      : `The shards’ work dominates the projected p99 (fan-out ${pct(second.fanOutShareP99)}): the first stage’s per-shard time grows with the shard, the second stage’s shrinks as shards are added (each holds fewer of the 500 candidates).`,
    '',
    'Assumptions:',
    '',
    // scale.ts's assumptions, less those about its match-all queries and its embedded rows
    ...PROJECTION_ASSUMPTIONS.filter(
      (a) => !/^(A shard’s search time|Synthetic text|The embedded rows)/.test(a),
    ).map((a) => `- ${a}`),
    ...SECOND_STAGE_ASSUMPTIONS.map((a) => `- ${a}`),
    '',
  ]
}

function phases(results: RerankResults): string[] {
  return [
    '## Phases',
    '',
    markdownTable(
      ['phase', 'wall s', 'load before (1/5/15 min)', 'load after'],
      results.phases.map((p) => [
        p.phase,
        formatSeconds(p.seconds),
        p.before.join(' / '),
        p.after.join(' / '),
      ]),
    ),
    '',
    results.setup === undefined
      ? ''
      : `Setup ${results.setup.reused ? 'reused the cached corpus store and index' : `built the corpus store in ${formatSeconds(results.setup.corpusSeconds)} s and the index in ${formatSeconds(results.setup.indexSeconds)} s`}; forward store ${formatSeconds(results.setup.forwardSeconds)} s.` +
        (results.module === undefined
          ? ''
          : ` Solr module jar sha256 ${results.module.atStart.sha256.slice(0, 12)} at start${results.module.atEnd === undefined ? '' : results.module.atEnd.sha256 === results.module.atStart.sha256 ? ', unchanged at the end' : `, **changed** at the end (${results.module.atEnd.sha256.slice(0, 12)})`}.`),
    '',
  ]
}

/**
 * The report.
 * @param results - a run
 */
export function renderRerankReport(results: RerankResults): string {
  return [
    ...header(results),
    ...latency(results),
    ...memory(results),
    ...faults(results),
    ...projection(results),
    ...models(results),
    ...phases(results),
  ].join('\n')
}
