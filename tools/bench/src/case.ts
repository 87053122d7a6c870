/**
 * One benchmark case, run in its own process by `run.ts` (so that peak RSS is per case).
 * Prints a JSON `CaseResult` on its last line.
 */
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { cpuSecondsSince as cpuSeconds, peakRssMiB } from '@pubmatch/bench-kit'
import { readBiocFile, readPubmedXml } from '@pubmatch/ingest'
import type { CaseResult } from './measure.ts'

const cases: Record<string, (args: string[]) => Promise<Omit<CaseResult, 'peakRssMiB'>>> = {
  /** Streaming PubMed XML parse of one (gzip'd) baseline file, repeated `rounds` times. */
  async 'pubmed-xml'([file, rounds = '5']) {
    if (!file) {
      throw new Error('pubmed-xml needs a file')
    }
    const bytes = (await stat(file)).size
    let articles = 0
    let errors = 0
    const cpu = process.cpuUsage()
    const started = performance.now()
    for (let round = 0; round < Number(rounds); round++) {
      for await (const record of readPubmedXml(file)) {
        if (record.kind === 'article') {
          articles++
        } else if (record.kind === 'error') {
          errors++
        }
      }
    }
    const seconds = (performance.now() - started) / 1000
    return {
      name: 'pubmed-xml',
      seconds,
      values: { articles, errors, fileBytes: bytes * Number(rounds), cpuSeconds: cpuSeconds(cpu) },
    }
  },
  /** BioC JSON parse of every file in a directory. */
  async 'bioc-json'([dir, rounds = '1']) {
    if (!dir) {
      throw new Error('bioc-json needs a directory')
    }
    const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).map((f) => join(dir, f))
    let bytes = 0
    for (const file of files) {
      bytes += (await stat(file)).size
    }
    let documents = 0
    let passages = 0
    let errors = 0
    const cpu = process.cpuUsage()
    const started = performance.now()
    for (let round = 0; round < Number(rounds); round++) {
      for (const file of files) {
        for await (const record of readBiocFile(file)) {
          if (record.kind === 'fulltext') {
            documents++
            passages += record.document.passages.length
          } else if (record.kind === 'error') {
            errors++
          }
        }
      }
    }
    const seconds = (performance.now() - started) / 1000
    return {
      name: 'bioc-json',
      seconds,
      values: { documents, passages, errors, fileBytes: bytes * Number(rounds), cpuSeconds: cpuSeconds(cpu) },
    }
  },
}

const [name, ...args] = process.argv.slice(2)
const run = name ? cases[name] : undefined
if (!run) {
  throw new Error(`unknown case ${String(name)}; known: ${Object.keys(cases).join(', ')}`)
}
const result = await run(args)
process.stdout.write(`${JSON.stringify({ ...result, peakRssMiB: peakRssMiB() })}\n`)
