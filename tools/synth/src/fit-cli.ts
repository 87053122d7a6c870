#!/usr/bin/env node
// Regenerates model/pubmed-model.json from ../shared/data: `pnpm --filter @pubmatch/synth fit`.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { abstractText } from '@pubmatch/core'
import { readNfcorpusDocs } from '@pubmatch/ingest'
import { fitCorpusModel } from './fit/fit.ts'
import { contentGrowth } from './fit/fit-vocabulary.ts'
import { formatJson } from './format-json.ts'
import { DEFAULT_MODEL_PATH } from './model.ts'
import {
  MESH_FILES,
  dataRelative,
  readArticles,
  readMeshVocabulary,
  realArticleFiles,
  sharedDataDir,
} from './real-data.ts'

const QUERY_LOG = 'pubmed-best-match/data/queries/queries.txt'
const NFCORPUS = 'nfcorpus/corpus.docs'

async function main(): Promise<void> {
  const out = process.argv[2] ?? DEFAULT_MODEL_PATH
  const dir = sharedDataDir()
  const files = await realArticleFiles(dir)
  const started = Date.now()
  const nfcorpus: string[] = []
  for await (const record of readNfcorpusDocs(join(dir, NFCORPUS))) {
    if (record.kind === 'article') {
      nfcorpus.push(`${record.article.title} ${abstractText(record.article)}`)
    }
  }
  const model = await fitCorpusModel(readArticles(files), {
    mesh: await readMeshVocabulary(dir),
    // NFCorpus text is lower-cased, without stop words and punctuation, numbers as `num`: only its
    // content-word growth is comparable, so that is all it is used for.
    growth: contentGrowth(nfcorpus, `${NFCORPUS} (${nfcorpus.length} documents, content words)`, {
      ignore: ['num'],
    }),
    queryLog: readFileSync(join(dir, QUERY_LOG), 'utf8'),
    provenance: {
      articleFiles: files.map((file) => dataRelative(dir, file)),
      queryLog: QUERY_LOG,
      meshFiles: [...MESH_FILES],
    },
    onProgress: (message) => process.stderr.write(`fit: ${message}\n`),
  })
  const json = `${formatJson(model)}\n`
  writeFileSync(out, json)
  process.stderr.write(
    `fit: wrote ${out} (${(json.length / 1024).toFixed(0)} KiB, ${model.provenance.articles} articles, ${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
  )
}

main().catch((error: unknown) => {
  process.stderr.write(
    `fit: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  )
  process.exitCode = 1
})
