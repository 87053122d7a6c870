/**
 * The Solr side's input, prepared before its clock starts: the same synthetic articles as the
 * embedded build (same generator, seed and order), mapped with `createDocumentMapper('pubmed')`
 * and serialized as one JSON array of `batchSize` documents per line. Indexing then only reads
 * lines and sends them, so generation and serialization stay out of Solr's docs/s.
 */
import {
  createReadStream,
  createWriteStream,
  existsSync,
  renameSync,
  rmSync,
} from 'node:fs'
import { once } from 'node:events'
import { join } from 'node:path'
import { json, PubmatchError, type JsonShape } from '@pubmatch/core'
import { readJsonFileSync, writeFileAtomic } from '@pubmatch/core/node'
import { createDocumentMapper } from '@pubmatch/solr/internal'
import { syntheticArticles } from './scale-corpus.ts'

/** A prepared batches file. */
export interface BatchesFile {
  readonly path: string
  readonly docs: number
  readonly batches: number
  /** Seconds spent generating and writing it (0 when an earlier run's file was reused). */
  readonly seconds: number
  readonly reused: boolean
}

interface BatchesManifest {
  readonly docs: number
  readonly seed: number
  readonly batchSize: number
  readonly batches: number
}

const BATCHES_MANIFEST: JsonShape<BatchesManifest> = json.object({ docs: json.count, seed: json.integer, batchSize: json.count, batches: json.count })

/**
 * The batches file for `docs` articles of `seed` in `dir`, written unless an earlier run left a
 * complete one (its manifest is written last).
 * @param dir - the working directory
 * @param docs - articles
 * @param seed - the corpus seed
 * @param batchSize - documents per line
 * @param onProgress - called every 100 batches with the documents written
 */
export async function prepareBatches(
  dir: string,
  docs: number,
  seed: number,
  batchSize: number,
  onProgress?: (docsWritten: number) => void,
): Promise<BatchesFile> {
  const path = join(dir, `solr-batches-synth-${docs}-seed${seed}-b${batchSize}.jsonl`)
  const manifestPath = `${path}.done.json`
  if (existsSync(path) && existsSync(manifestPath)) {
    const manifest = readJsonFileSync(manifestPath, BATCHES_MANIFEST)
    if (manifest.docs === docs && manifest.seed === seed && manifest.batchSize === batchSize) {
      return { path, docs, batches: manifest.batches, seconds: 0, reused: true }
    }
  }
  rmSync(manifestPath, { force: true })
  const t0 = performance.now()
  const temporary = `${path}.tmp`
  const out = createWriteStream(temporary)
  const mapper = createDocumentMapper('pubmed')
  let batch: string[] = []
  let batches = 0
  const writeBatch = async (): Promise<void> => {
    if (!out.write(`[${batch.join(',')}]\n`)) {
      await once(out, 'drain')
    }
    batch = []
    batches++
    if (batches % 100 === 0) {
      onProgress?.(batches * batchSize)
    }
  }
  for (const article of syntheticArticles(docs, seed)) {
    batch.push(JSON.stringify(mapper.toSolr(article)))
    if (batch.length === batchSize) {
      await writeBatch()
    }
  }
  if (batch.length > 0) {
    await writeBatch()
  }
  out.end()
  await once(out, 'finish')
  renameSync(temporary, path)
  const manifest: BatchesManifest = { docs, seed, batchSize, batches }
  await writeFileAtomic(manifestPath, JSON.stringify(manifest))
  return { path, docs, batches, seconds: (performance.now() - t0) / 1000, reused: false }
}

/**
 * The lines of a file as byte buffers, without decoding them (each is one update body).
 * @param path - the file
 * @throws PubmatchError `TRUNCATED_INPUT` when the file does not end with a newline
 */
export async function* readLines(path: string): AsyncGenerator<Buffer, void, undefined> {
  let rest: Buffer = Buffer.alloc(0)
  for await (const chunk of createReadStream(path, { highWaterMark: 4 * 2 ** 20 })) {
    let data = rest.length > 0 ? Buffer.concat([rest, chunk as Buffer]) : (chunk as Buffer)
    let newline = data.indexOf(10)
    while (newline >= 0) {
      yield data.subarray(0, newline)
      data = data.subarray(newline + 1)
      newline = data.indexOf(10)
    }
    rest = Buffer.from(data)
  }
  if (rest.length > 0) {
    throw new PubmatchError(
      'TRUNCATED_INPUT',
      `@pubmatch/bench-solr: ${path} does not end with a newline`,
      {
        details: { file: path },
      },
    )
  }
}
