/**
 * The benchmark's inputs, built once into `.cache/` and reused: the synthetic 100k corpus
 * (tools/synth, seed 1: the same articles as bench-search's `synth-100k`) written to a corpus
 * store, its PubMed-fields index built with `updateIndex` (as `pubmatch index` builds it), and the
 * forward store the features read. Each step is skipped when its output is already there.
 */
import { createHash } from 'node:crypto'
import { cp, rm } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { PubmatchError } from '@pubmatch/core'
import { openSearch, readIndexSettings, updateIndex, type RankingOptions } from '@pubmatch/engine'
import { writeIndexSettings } from '@pubmatch/engine/internal'
import { openCorpus, readPubmedXml, type IngestRecord } from '@pubmatch/ingest'
import { generateCorpus } from '@pubmatch/synth'

/** Seed of the synthetic corpus (bench-search's `SYNTH_SEED`, tools/synth's README). */
export const SYNTH_SEED = 1

/** Where the corpus and index of one corpus size live. */
export interface CorpusPaths {
  readonly corpus: string
  readonly index: string
}

/**
 * The synthetic corpus in a corpus store and its index, built when missing.
 * @param cache - the cache directory
 * @param size - articles
 * @param say - progress lines
 */
export async function ensureSyntheticIndex(cache: string, size: number, say: (text: string) => void): Promise<CorpusPaths> {
  const base = join(cache, `synth-${size}`)
  const paths = { corpus: join(base, 'corpus'), index: join(base, 'index') }
  const key = `synth:size=${size}:seed=${SYNTH_SEED}`
  const fingerprint = createHash('sha256').update(key).digest('hex')
  {
    const store = await openCorpus(paths.corpus, { create: true })
    try {
      if (store.completedSource(key, fingerprint) === undefined) {
        say(`generating ${size.toLocaleString('en')} synthetic articles (tools/synth, seed ${SYNTH_SEED}) into ${paths.corpus}`)
        const started = performance.now()
        let done = 0
        const records = function* (): Generator<IngestRecord> {
          for (const article of generateCorpus({ size, seed: SYNTH_SEED })) {
            yield { kind: 'article', article }
            done++
            if (done % 10_000 === 0) {
              say(`  corpus ${done.toLocaleString('en')}/${size.toLocaleString('en')} (${((performance.now() - started) / 1000).toFixed(0)} s)`)
            }
          }
        }
        await store.writeSource({ key, fingerprint }, records())
        say(`  corpus written in ${((performance.now() - started) / 1000).toFixed(0)} s`)
      }
    } finally {
      await store.close()
    }
  }
  if (!existsSync(join(paths.index, 'pubmatch.json'))) {
    say(`indexing into ${paths.index} (updateIndex, PubMed fields, biomedical analyzer)`)
    let last = 0
    const result = await updateIndex({
      corpus: paths.corpus,
      index: paths.index,
      fields: 'pubmed',
      onProgress: ({ done, total, phase }) => {
        if (performance.now() - last > 10_000) {
          last = performance.now()
          say(`  index ${phase} ${done.toLocaleString('en')}/${total.toLocaleString('en')}`)
        }
      },
    })
    say(`  indexed ${result.docCount.toLocaleString('en')} documents in ${result.seconds.toFixed(0)} s (${result.errors} errors)`)
  }
  await ensureForwardStore(paths.index, say)
  return paths
}

/**
 * Builds the forward store of an index's current generation when it is missing or stale (the
 * server would otherwise build it when it opens the index with a model).
 * @param index - the index directory
 * @param say - progress lines
 * @param ranking - the first stage (irrelevant to the forward store; passed to `openSearch`)
 */
export async function ensureForwardStore(index: string, say: (text: string) => void, ranking?: RankingOptions): Promise<void> {
  let announced = false
  const started = performance.now()
  const engine = await openSearch({
    index,
    ...(ranking === undefined ? {} : { ranking }),
    onProgress: (done, total) => {
      if (!announced) {
        say(`building the forward store of ${index} (${total.toLocaleString('en')} documents)`)
        announced = true
      }
      if (done % 20_000 === 0 && done > 0) {
        say(`  forward store ${done.toLocaleString('en')}/${total.toLocaleString('en')}`)
      }
    },
  })
  await engine.prepareFeatures()
  if (announced) {
    say(`  forward store built in ${((performance.now() - started) / 1000).toFixed(0)} s`)
  }
}

/**
 * A private copy of a corpus and its index (the swap run adds articles and a generation to it,
 * so every run starts from the same state). The copy's settings point at the copied corpus.
 * @param from - the original
 * @param dir - the copy's directory (replaced)
 */
export async function copyCorpusAndIndex(from: CorpusPaths, dir: string): Promise<CorpusPaths> {
  await rm(dir, { recursive: true, force: true })
  const to = { corpus: join(dir, 'corpus'), index: join(dir, 'index') }
  await cp(from.corpus, to.corpus, { recursive: true })
  await cp(from.index, to.index, { recursive: true })
  const settings = await readIndexSettings(to.index)
  await writeIndexSettings(to.index, { ...settings, corpus: resolve(to.corpus) })
  return to
}

/** What {@link addRealArticles} did. */
export interface NewGeneration {
  readonly articles: number
  readonly ingestMs: number
  readonly indexMs: number
  readonly docCount: number
}

/**
 * Ingests real PubMed XML into a corpus store and applies it to the index incrementally: the
 * index gets a new generation (what `pubmatch ingest` + `pubmatch index` do on a live system).
 * @param paths - the corpus and index
 * @param file - a PubMed XML file
 */
export async function addRealArticles(paths: CorpusPaths, file: string): Promise<NewGeneration> {
  const t0 = performance.now()
  const store = await openCorpus(paths.corpus)
  let articles = 0
  try {
    await store.writeSource({ key: resolve(file), fingerprint: `bench-server:${resolve(file)}` }, readPubmedXml(file), (record) => {
      if (record.kind === 'article') {
        articles++
      }
    })
  } finally {
    await store.close()
  }
  const t1 = performance.now()
  const result = await updateIndex({ corpus: paths.corpus, index: paths.index })
  if (result.built) {
    throw new PubmatchError('INVALID_ARGUMENT', `bench-server: ${paths.index} was rebuilt, not updated`)
  }
  return { articles, ingestMs: t1 - t0, indexMs: performance.now() - t1, docCount: result.docCount }
}
