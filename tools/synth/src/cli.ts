#!/usr/bin/env node
// node dist/cli.js --size 100000 --seed 1 --out corpus.jsonl [--format jsonl|article] [--model m.json] [--start 0] [--workers N] [--quiet]
import { availableParallelism } from 'node:os'
import { parseArgs } from 'node:util'
import { writeCorpusJsonl } from './jsonl.ts'
import { loadCorpusModel } from './model.ts'

const USAGE = `usage: pubmatch-synth --size N --seed S --out FILE [--format jsonl|article] [--model FILE]
                      [--start I] [--workers N] [--quiet]

Writes N synthetic PubMed-like articles as JSON lines. --format jsonl (default) writes the
records \`pubmatch ingest FILE\` reads; --format article writes whole Article objects.
--workers defaults to the number of CPUs (at most 4); the output does not depend on it.`

function integer(name: string, value: string | undefined, fallback?: number): number {
  if (value === undefined) {
    if (fallback === undefined) {
      throw new Error(`--${name} is required\n${USAGE}`)
    }
    return fallback
  }
  const n = Number(value.replace(/_/g, ''))
  if (!Number.isInteger(n) || n < 0) {
    throw new Error(`--${name} must be a non-negative integer, got "${value.slice(0, 40)}"`)
  }
  return n
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      size: { type: 'string' },
      seed: { type: 'string' },
      out: { type: 'string' },
      format: { type: 'string', default: 'jsonl' },
      model: { type: 'string' },
      start: { type: 'string' },
      workers: { type: 'string' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  })
  if (values.help) {
    process.stdout.write(`${USAGE}\n`)
    return
  }
  const size = integer('size', values.size)
  const seed = integer('seed', values.seed)
  const start = integer('start', values.start, 0)
  const workers = Math.max(
    1,
    integer('workers', values.workers, Math.min(4, availableParallelism())),
  )
  if (values.out === undefined) {
    throw new Error(`--out is required\n${USAGE}`)
  }
  if (values.format !== 'jsonl' && values.format !== 'article') {
    throw new Error(`--format must be jsonl or article, got "${values.format.slice(0, 40)}"`)
  }
  const model = loadCorpusModel(values.model)
  const started = performance.now()
  const tty = process.stderr.isTTY
  const report = (written: number, bytes: number, end = false): void => {
    if (values.quiet) {
      return
    }
    const seconds = (performance.now() - started) / 1000
    const line =
      `synth: ${written.toLocaleString('en-US')}/${size.toLocaleString('en-US')} articles ` +
      `(${size > 0 ? ((100 * written) / size).toFixed(0) : '100'}%), ` +
      `${Math.round(written / Math.max(seconds, 1e-9)).toLocaleString('en-US')} articles/s, ` +
      `${(bytes / 1048576).toFixed(1)} MiB, ${seconds.toFixed(1)} s`
    process.stderr.write(tty && !end ? `\r${line}` : tty ? `\r${line}\n` : `${line}\n`)
  }
  const result = await writeCorpusJsonl({
    path: values.out,
    size,
    seed,
    start,
    model,
    format: values.format,
    workers,
    onProgress: (written, bytes) => {
      if (written < size) {
        report(written, bytes)
      }
    },
    progressEvery: Math.max(1000, Math.min(50_000, Math.ceil(size / 100))),
  })
  report(result.articles, result.bytes, true)
}

main().catch((error: unknown) => {
  process.stderr.write(`synth: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exitCode = 1
})
