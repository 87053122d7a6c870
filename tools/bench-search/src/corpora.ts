import { createWriteStream } from 'node:fs'
import { once } from 'node:events'
import { join } from 'node:path'
import { PubmatchError, type Article } from '@pubmatch/core'
import { defaultPubmedFields, testCollectionFields, type FieldConfig } from '@pubmatch/index'
import { readNfcorpusDocs } from '@pubmatch/ingest'
import { generateCorpus } from '@pubmatch/synth'

/** The fields a benchmark index has: NFCorpus-style title + abstract, or the PubMed fields. */
export type FieldSet = 'test-collection' | 'pubmed'

/** Where a corpus's articles come from. */
export type CorpusSource =
  | { readonly kind: 'nfcorpus'; readonly times: number }
  | { readonly kind: 'synth'; readonly size: number; readonly seed: number }

/** One benchmark corpus. */
export interface CorpusSpec {
  /** The name used on the command line and in the cache, e.g. `nfcorpus-x30`, `synth-1m`. */
  readonly name: string
  /** For tables, e.g. `NFCorpus ×30`, `synthetic 1M`. */
  readonly label: string
  readonly source: CorpusSource
  /** Index fields, each with the default (`biomedical`) analyzer. */
  readonly fields: FieldSet
  /** Documents per flushed segment of the build. */
  readonly maxBufferedDocs: number
}

/** Seed of every synthetic corpus (tools/synth's README uses 1). */
export const SYNTH_SEED = 1

const SIZE_SUFFIX: Record<string, number> = { '': 1, k: 1_000, m: 1_000_000 }

/**
 * The corpus a name stands for: `nfcorpus` (3,394 documents), `nfcorpus-xK` (replicated K
 * times, ids suffixed `#k` as packages/index/bench does), `synth-N`, `synth-Nk`, `synth-Nm`
 * (tools/synth, seed {@link SYNTH_SEED}). NFCorpus uses `testCollectionFields()` and 10,000
 * buffered documents (as packages/index/BENCHMARKS.md); synthetic corpora use
 * `defaultPubmedFields()` and 25,000 (fewer flushes and merges at 1M).
 * @param name - the name
 * @throws PubmatchError `INVALID_ARGUMENT` for an unknown name
 */
export function corpusSpec(name: string): CorpusSpec {
  const nf = /^nfcorpus(?:-x(\d+))?$/.exec(name)
  if (nf) {
    const times = Number(nf[1] ?? 1)
    if (times >= 1) {
      return {
        name,
        label: times === 1 ? 'NFCorpus' : `NFCorpus ×${times}`,
        source: { kind: 'nfcorpus', times },
        fields: 'test-collection',
        maxBufferedDocs: 10_000,
      }
    }
  }
  const synth = /^synth-(\d+)([km]?)$/.exec(name)
  if (synth) {
    const size = Number(synth[1]) * SIZE_SUFFIX[synth[2]!]!
    if (size >= 1) {
      return {
        name,
        label: `synthetic ${synth[1]}${synth[2]!.toUpperCase()}`,
        source: { kind: 'synth', size, seed: SYNTH_SEED },
        fields: 'pubmed',
        maxBufferedDocs: 25_000,
      }
    }
  }
  throw new PubmatchError(
    'INVALID_ARGUMENT',
    `unknown corpus "${name.slice(0, 200)}" (nfcorpus, nfcorpus-xK, synth-N[k|m])`,
  )
}

/** Documents in a corpus. */
export function corpusSize(spec: CorpusSpec): number {
  return spec.source.kind === 'nfcorpus' ? 3394 * spec.source.times : spec.source.size
}

/** The index fields of a corpus (default `biomedical` analyzer). */
export function indexFields(spec: CorpusSpec): FieldConfig[] {
  return spec.fields === 'pubmed' ? defaultPubmedFields() : testCollectionFields()
}

/**
 * NFCorpus's documents (`readNfcorpusDocs`), replicated `times` times with ids suffixed `#k`
 * (k = 0 … times − 1) when `times > 1`, in that order.
 * @param shared - the shared data folder
 * @param times - replication. Defaults to `1`.
 */
export async function readNfcorpusArticles(shared: string, times = 1): Promise<Article[]> {
  const base: Article[] = []
  for await (const record of readNfcorpusDocs(join(shared, 'nfcorpus/corpus.docs'))) {
    if (record.kind === 'article') {
      base.push(record.article)
    }
  }
  if (times === 1) {
    return base
  }
  const out: Article[] = []
  for (let k = 0; k < times; k++) {
    for (const article of base) {
      out.push({ ...article, id: `${article.id}#${k}` })
    }
  }
  return out
}

/**
 * A corpus's articles: NFCorpus in memory (read before any clock starts), synthetic ones
 * generated lazily (their generation time is measured and excluded by the build case).
 * @param spec - the corpus
 * @param shared - the shared data folder (NFCorpus only)
 */
export async function corpusArticles(spec: CorpusSpec, shared: string): Promise<Iterable<Article>> {
  return spec.source.kind === 'nfcorpus'
    ? readNfcorpusArticles(shared, spec.source.times)
    : generateCorpus({ size: spec.source.size, seed: spec.source.seed })
}

/** A document as the anchors' drivers read it: id, title, abstract. */
export interface TitleAbstract {
  readonly id: string
  readonly title: string
  /** The abstract's section texts joined with single spaces (labels left out). */
  readonly abstract: string
}

/**
 * The title and abstract text of an article, as the anchors' drivers index it. Title and
 * abstract are what `testCollectionFields()` indexes; on a PubMed-fields index the comparison
 * searches only those two fields.
 * @param article - the article
 */
export function titleAbstract(article: Article): TitleAbstract {
  return {
    id: article.id,
    title: article.title,
    abstract: article.abstract.map((section) => section.text).join(' '),
  }
}

/**
 * Writes articles as JSON lines of {@link TitleAbstract} (the anchors' drivers' input).
 * @param articles - the articles
 * @param path - the output file (overwritten)
 * @returns the number of lines written
 */
export async function writeTitleAbstractJsonl(
  articles: Iterable<Article>,
  path: string,
): Promise<number> {
  const out = createWriteStream(path, { encoding: 'utf8' })
  let count = 0
  for (const article of articles) {
    if (!out.write(`${JSON.stringify(titleAbstract(article))}\n`)) {
      await once(out, 'drain')
    }
    count++
  }
  out.end()
  await once(out, 'finish')
  return count
}
