import type { Command } from 'commander'
import { PubmatchError } from '@pubmatch/core'
import { readUsage } from '@pubmatch/ltr'
import {
  createSolrClient,
  deployModel,
  indexCorpus,
  listModels,
  loadModelOnReplicas,
  pushUsage,
  readLocalCluster,
  removeModel,
  startLocalCluster,
  stopLocalCluster,
  type IndexCorpusResult,
  type SolrClient,
  type SolrFieldSet,
} from '@pubmatch/solr'
import { createProgress } from '../progress.ts'
import { DEFAULT_SOLR_DIR } from '../paths.ts'
import { parsePositiveInt } from './ingest.ts'
import { assertCorpus, commandLine } from '../next-step.ts'

/**
 * The Solr nodes of a `--solr` flag: `local` (the cluster `pubmatch solr up` started in
 * `.pubmatch/solr`, or `local:DIR`) or base URLs separated by commas.
 * @param solr - the flag's value
 */
export async function solrUrls(solr: string): Promise<string[]> {
  if (solr === 'local' || solr.startsWith('local:')) {
    const dir = solr === 'local' ? DEFAULT_SOLR_DIR : solr.slice('local:'.length)
    const state = await readLocalCluster(dir)
    if (state === undefined) {
      throw new PubmatchError('NOT_FOUND', `no local SolrCloud in ${dir}; start one with ${commandLine('solr', 'up', ...(dir === DEFAULT_SOLR_DIR ? [] : ['--dir', dir]))}`)
    }
    return state.nodes.filter((node) => node.running).map((node) => node.url)
  }
  return solr.split(',').map((url) => url.trim())
}

/** A client for a `--solr` flag. */
export async function solrClient(solr: string): Promise<SolrClient> {
  return createSolrClient({ urls: await solrUrls(solr) })
}

interface ClusterFlags {
  dir: string
  nodes: number
  heap: string
  solr?: string
  json: boolean
}

/** Adds `pubmatch solr up|down|status`. */
export function registerSolrCommands(program: Command): void {
  const solr = program.command('solr').description('a local SolrCloud (several Solr nodes and ZooKeeper on loopback) for the Solr backend')
  solr
    .command('up')
    .description('start a local SolrCloud in its own JVM (needs Java 17; the Maven module is built by `pnpm build`), or check a cluster with --solr')
    .option('--dir <dir>', 'the cluster directory (data, logs, state)', DEFAULT_SOLR_DIR)
    .option('--nodes <n>', 'Solr nodes', parsePositiveInt, 2)
    .option('--heap <size>', 'the JVM heap', '2g')
    .option('--solr <urls>', 'check a cluster of your own instead (base URLs, comma-separated) and print its live nodes')
    .option('--json', 'print JSON', false)
    .addHelpText(
      'after',
      `
Example:
  pubmatch solr up
  pubmatch index --solr local --collection pubmed --shards 2 --replicas 2
  pubmatch search --backend solr://127.0.0.1:PORT/solr/pubmed "asthma children"
  pubmatch solr down`,
    )
    .action(async (flags: ClusterFlags) => {
      if (flags.solr !== undefined) {
        const client = await solrClient(flags.solr)
        const status = await client.request({ path: 'admin/collections', params: { action: 'CLUSTERSTATUS' } })
        const live = ((status.cluster as { live_nodes?: string[] } | undefined)?.live_nodes ?? []).sort()
        process.stdout.write(flags.json ? `${JSON.stringify({ urls: client.urls, liveNodes: live }, null, 2)}\n` : `Solr at ${client.urls.join(', ')}: ${live.length} live nodes (${live.join(', ')})\n`)
        return
      }
      const started = performance.now()
      const cluster = await startLocalCluster({ dir: flags.dir, nodes: flags.nodes, heap: flags.heap })
      const state = cluster.state
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ dir: cluster.dir, ...state }, null, 2)}\n`)
        return
      }
      const first = state.nodes[0]!.url.replace(/^http:\/\//, '')
      process.stdout.write(
        `SolrCloud in ${cluster.dir} (ready in ${((performance.now() - started) / 1000).toFixed(1)} s): ${state.nodes.length} nodes, ZooKeeper ${state.zkHost}\n` +
          state.nodes.map((node) => `  node ${node.node}: ${node.url}\n`).join('') +
          `Index a corpus:  pubmatch index --solr local --collection pubmed --shards 2 --replicas 2\n` +
          `Search it:       pubmatch search --backend solr://${first}/pubmed "…"\n` +
          `Stop it:         pubmatch solr down\n`,
      )
    })
  solr
    .command('down')
    .description('stop the local SolrCloud')
    .option('--dir <dir>', 'the cluster directory', DEFAULT_SOLR_DIR)
    .option('--solr <urls>', 'a cluster of your own: pubmatch does not stop what it did not start, and says so')
    .action(async (flags: { dir: string; solr?: string }) => {
      if (flags.solr !== undefined) {
        throw new PubmatchError('INVALID_ARGUMENT', `solr: ${flags.solr} is not a cluster pubmatch started; stop it with its own tools`)
      }
      const stopped = await stopLocalCluster(flags.dir)
      process.stdout.write(stopped ? `stopped the SolrCloud in ${flags.dir}\n` : `no SolrCloud is running in ${flags.dir}\n`)
    })
  solr
    .command('status')
    .description('the local SolrCloud’s nodes')
    .option('--dir <dir>', 'the cluster directory', DEFAULT_SOLR_DIR)
    .action(async (flags: { dir: string }) => {
      const state = await readLocalCluster(flags.dir)
      if (state === undefined) {
        process.stdout.write(`no SolrCloud in ${flags.dir}\n`)
        return
      }
      process.stdout.write(`${JSON.stringify(state, null, 2)}\n`)
    })
}

/** The flags of `pubmatch index --solr`. */
export interface SolrIndexFlags {
  corpus: string
  solr: string
  collection?: string
  shards: number
  replicas: number
  fields?: SolrFieldSet
  analyzer?: string
  mesh: boolean
  batch: number
  plain: boolean
  quiet: boolean
}

/**
 * `pubmatch index --solr`: a corpus into a SolrCloud collection (created when missing), resumable.
 * @param flags - the flags
 */
export async function runSolrIndex(flags: SolrIndexFlags): Promise<IndexCorpusResult> {
  if (flags.collection === undefined) {
    throw new PubmatchError('INVALID_ARGUMENT', 'index: --solr needs --collection NAME')
  }
  assertCorpus(flags.corpus)
  const client = await solrClient(flags.solr)
  const progress = createProgress({ plain: flags.plain, quiet: flags.quiet })
  let started = false
  const controller = new AbortController()
  const stop = (): void => controller.abort()
  process.once('SIGINT', stop)
  try {
    const result = await indexCorpus({
      client,
      corpus: flags.corpus,
      collection: flags.collection,
      shards: flags.shards,
      replicas: flags.replicas,
      ...(flags.fields === undefined ? {} : { fieldSet: flags.fields }),
      ...(flags.analyzer === undefined ? {} : { analyzer: flags.analyzer }),
      meshEntryTerms: flags.mesh,
      batchSize: flags.batch,
      signal: controller.signal,
      onProgress: ({ done, total }) => {
        if (!started) {
          progress.start(total ?? 0, 'solr')
          started = true
        }
        progress.update(done)
      },
    })
    for (const { id, error } of result.errorList.slice(0, 20)) {
      process.stderr.write(`index: ${id}: ${error.code}: ${error.message}\n`)
    }
    return result
  } finally {
    progress.stop()
    process.off('SIGINT', stop)
  }
}

interface ModelSolrFlags {
  solr: string
  collection: string
  json: boolean
}

/**
 * Adds `pubmatch model deploy-solr|list-solr|remove-solr`: models deployed into a SolrCloud
 * collection (ZooKeeper), for the second stage on the shards.
 * @param model - the `pubmatch model` command
 */
export function registerModelSolrCommands(model: Command): void {
  const solrFlag = '`local` (the cluster of `pubmatch solr up`), `local:DIR`, or Solr base URLs, comma-separated'
  model
    .command('deploy-solr')
    .description('deploy a model into a SolrCloud collection (stored in ZooKeeper, checked against the collection’s first stage, loaded by the shards)')
    .argument('<dir>', 'the model directory (`pubmatch train -o DIR`)')
    .requiredOption('--solr <urls>', solrFlag)
    .requiredOption('--collection <name>', 'the collection (`pubmatch index --solr … --collection NAME`)')
    .option('--name <name>', 'the model’s name in the collection (default: the directory’s name); names are immutable')
    .option('--no-check', 'do not load the model on every replica after deploying it')
    .option('--json', 'print JSON: the deployed model (and the replicas that loaded it)', false)
    .addHelpText(
      'after',
      `
The model (manifest.json, model.txt, memory.jsonl) is checked by the collection's /pubmatch/models
handler: the manifest's format, LightGBM's text, the feature count, and its first stage (ranker,
parameters, analyzer, field set, fields) against the collection's. It is stored gzip-compressed in
ZooKeeper under /pubmatch/models/COLLECTION/NAME and is immutable: deploy a retrained model under a
new name. Example:
  pubmatch solr up
  pubmatch index --solr local --collection pubmed --shards 2 --replicas 2
  pubmatch train -i .pubmatch/index --queries Q.tsv --qrels Q.qrel -o models/bm-2026-11
  pubmatch model deploy-solr models/bm-2026-11 --solr local --collection pubmed
  pubmatch model list-solr --solr local --collection pubmed`,
    )
    .action(async (dir: string, flags: ModelSolrFlags & { name?: string; check: boolean }) => {
      const client = await solrClient(flags.solr)
      const deployed = await deployModel({ client, collection: flags.collection, dir, ...(flags.name === undefined ? {} : { name: flags.name }) })
      const replicas = flags.check ? await loadModelOnReplicas({ client, collection: flags.collection, name: deployed.name }) : undefined
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ model: deployed, ...(replicas === undefined ? {} : { replicas }) }, null, 2)}\n`)
        return
      }
      const file = deployed.files['model.txt']
      process.stdout.write(
        `deployed ${deployed.name} into ${flags.collection}: ${deployed.trees} trees over ${deployed.features} features` +
          (file === undefined ? '' : ` (model.txt ${file.bytes} bytes, ${file.chunks} ZooKeeper chunk${file.chunks === 1 ? '' : 's'})`) +
          '\n' +
          (replicas === undefined ? '' : `loaded on ${replicas.length} replicas (${[...new Set(replicas.map((r) => r.shard))].sort().join(', ')})\n`) +
          `List the collection's models: ${commandLine('model', 'list-solr', '--solr', flags.solr, '--collection', flags.collection)}\n`,
      )
    })
  model
    .command('list-solr')
    .description('list the models deployed in a SolrCloud collection')
    .requiredOption('--solr <urls>', solrFlag)
    .requiredOption('--collection <name>', 'the collection')
    .option('--json', 'print JSON', false)
    .action(async (flags: ModelSolrFlags) => {
      const client = await solrClient(flags.solr)
      const listing = await listModels({ client, collection: flags.collection })
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(listing, null, 2)}\n`)
        return
      }
      if (listing.models.length === 0) {
        process.stdout.write(
          `no models in ${flags.collection}; deploy one with ${commandLine('model', 'deploy-solr', 'MODEL', '--solr', flags.solr, '--collection', flags.collection)}\n`,
        )
      }
      for (const m of listing.models) {
        process.stdout.write(`${m.name}\t${m.trees} trees\t${m.features} features\tdepth ${String(m.firstStage.depth)}\tdeployed ${m.uploadedAt}\n`)
      }
      for (const name of listing.incomplete) {
        process.stdout.write(
          `${name}\tincomplete (an upload in progress or interrupted; remove it with ${commandLine('model', 'remove-solr', name, '--solr', flags.solr, '--collection', flags.collection)})\n`,
        )
      }
    })
  model
    .command('remove-solr')
    .description('remove a model from a SolrCloud collection (queries using it finish with it)')
    .argument('<name>', 'the model’s name in the collection')
    .requiredOption('--solr <urls>', solrFlag)
    .requiredOption('--collection <name>', 'the collection')
    .option('--json', 'print JSON', false)
    .action(async (name: string, flags: ModelSolrFlags) => {
      const client = await solrClient(flags.solr)
      const removed = await removeModel({ client, collection: flags.collection, name })
      process.stdout.write(
        flags.json
          ? `${JSON.stringify({ removed: name, ...removed }, null, 2)}\n`
          : `removed ${name} from ${flags.collection}${removed.wasComplete ? '' : ' (an incomplete upload)'}\n`,
      )
    })
}

/**
 * Adds `pubmatch clicks usage-solr`: a click log's past usage (F2–F3) written into a SolrCloud
 * collection, where the shards' second stage reads it.
 * @param clicks - the `pubmatch clicks` command
 */
export function registerClicksSolrCommands(clicks: Command): void {
  clicks
    .command('usage-solr')
    .description('write a click log’s past usage (F2–F3: abstract views, full-text requests per article) into a SolrCloud collection, for the second stage on the shards')
    .argument('<log>', 'the click log directory (the server’s --log, or `pubmatch clicks simulate`)')
    .requiredOption('--solr <urls>', '`local` (the cluster of `pubmatch solr up`), `local:DIR`, or Solr base URLs, comma-separated')
    .requiredOption('--collection <name>', 'the collection (`pubmatch index --solr … --collection NAME`)')
    .option('--json', 'print JSON', false)
    .addHelpText(
      'after',
      `
The collection's usage becomes the log's: each article of the log gets its counts, every other
article with counts from an earlier run gets 0. Solr updates the two doc-values fields in place
(\`update.partial.requireInPlace\`), without re-indexing the article. The embedded engine reads the
same log with \`pubmatch serve --usage-log DIR\`. Run it again after re-indexing articles (a
re-indexed article starts at 0). Example:
  pubmatch clicks usage-solr .pubmatch/log --solr local --collection pubmed`,
    )
    .action(async (log: string, flags: { solr: string; collection: string; json: boolean }) => {
      const client = await solrClient(flags.solr)
      const result = await pushUsage({ client, collection: flags.collection, usage: await readUsage(log) })
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
        return
      }
      process.stdout.write(
        `past usage of ${result.updated} articles written into ${flags.collection} (${result.documents} documents in the log)` +
          (result.reset === 0 ? '' : `; ${result.reset} articles with earlier usage set to 0`) +
          '\n' +
          (result.unknown === 0
            ? ''
            : `${result.unknown} ${result.unknown === 1 ? 'document of the log is' : 'documents of the log are'} not in the collection and ${result.unknown === 1 ? 'was' : 'were'} left out: ${result.unknownIds.slice(0, 5).join(', ')}${result.unknown > 5 ? ', …' : ''}\n`),
      )
    })
}
