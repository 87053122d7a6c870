// Parse throughput of the full-text readers against the PubMed XML reader, on the real files
// in ../shared/data. Run from packages/ingest after building:
//
//   npx tsc -p tsconfig.build.json && node bench/parse-throughput.mjs [runs=5]
//
// Each case runs `runs` times, each time in a fresh Node process (so one case's heap and JIT
// state do not help another); the table gives the median of the runs and their min–max.
// Cases:
//   jats        every .nxml of pmc/jats, 20 rounds (readJatsXml, streaming)
//   bioc-json   every .json of pmc/bioc-json, 3 rounds (readBiocFile), as tools/bench
//   pubmed-xml  pubmed-xml/medline16n0902.xml.gz, 5 rounds (readPubmedXml, streaming)
// Rates are per wall-clock second and per CPU second (user + system) of the measured loop.
import { execFileSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const shared = process.env.PUBMATCH_SHARED ?? fileURLToPath(new URL('../../../../shared/data/', import.meta.url))

async function runCase(name) {
  const { readBiocFile, readJatsXml, readPubmedXml } = await import('../dist/index.js')
  const filesOf = (dir, ext) =>
    readdirSync(dir)
      .filter((file) => file.endsWith(ext))
      .sort()
      .map((file) => join(dir, file))
  const setups = {
    jats: { files: filesOf(join(shared, 'pmc/jats'), '.nxml'), rounds: 20, read: (f) => readJatsXml(f) },
    'bioc-json': { files: filesOf(join(shared, 'pmc/bioc-json'), '.json'), rounds: 3, read: (f) => readBiocFile(f) },
    'pubmed-xml': {
      files: [join(shared, 'pubmed-xml/medline16n0902.xml.gz')],
      rounds: 5,
      read: (f) => readPubmedXml(f),
    },
  }
  const setup = setups[name]
  if (setup === undefined) {
    throw new Error(`unknown case ${name}; known: ${Object.keys(setups).join(', ')}`)
  }
  const bytes = setup.files.reduce((sum, file) => sum + statSync(file).size, 0) * setup.rounds
  let articles = 0
  let passages = 0
  let errors = 0
  const cpu = process.cpuUsage()
  const started = performance.now()
  for (let round = 0; round < setup.rounds; round++) {
    for (const file of setup.files) {
      for await (const record of setup.read(file)) {
        if (record.kind === 'fulltext') {
          articles++
          passages += record.document.passages.length
        } else if (record.kind === 'article') {
          articles++
        } else if (record.kind === 'error') {
          errors++
        }
      }
    }
  }
  const seconds = (performance.now() - started) / 1000
  const used = process.cpuUsage(cpu)
  return { name, articles, passages, errors, bytes, seconds, cpuSeconds: (used.user + used.system) / 1e6 }
}

if (process.argv[2] === '--case') {
  process.stdout.write(`${JSON.stringify(await runCase(process.argv[3]))}\n`)
} else {
  const runs = Number(process.argv[2] ?? 5)
  const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b)
    const mid = sorted.length >> 1
    return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
  }
  const fmt = (n) => Math.round(n).toLocaleString('en')
  const span = (values) => `${fmt(Math.min(...values))}–${fmt(Math.max(...values))}`
  const rows = []
  const load = loadavg()[0].toFixed(1)
  for (const name of ['jats', 'bioc-json', 'pubmed-xml']) {
    const results = []
    for (let run = 0; run < runs; run++) {
      const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--case', name], { encoding: 'utf8' })
      results.push(JSON.parse(out.trim().split('\n').at(-1)))
      process.stderr.write(`bench: ${name} run ${run + 1}/${runs}: ${results.at(-1).seconds.toFixed(2)} s\n`)
    }
    const r0 = results[0]
    const articlesPerS = results.map((r) => r.articles / r.seconds)
    const articlesPerCpuS = results.map((r) => r.articles / r.cpuSeconds)
    const passagesPerS = results.map((r) => r.passages / r.seconds)
    const passagesPerCpuS = results.map((r) => r.passages / r.cpuSeconds)
    const mbPerS = results.map((r) => r.bytes / 1e6 / r.seconds)
    rows.push(
      `| ${name} | ${fmt(r0.articles)} | ${r0.passages === 0 ? '–' : fmt(r0.passages)} | ${r0.errors} | ` +
        `${median(results.map((r) => r.seconds)).toFixed(2)} s | ${fmt(median(articlesPerS))} (${span(articlesPerS)}) | ` +
        `${fmt(median(articlesPerCpuS))} | ${r0.passages === 0 ? '–' : `${fmt(median(passagesPerS))} (${span(passagesPerS)})`} | ` +
        `${r0.passages === 0 ? '–' : fmt(median(passagesPerCpuS))} | ${median(mbPerS).toFixed(1)} |`,
    )
  }
  process.stdout.write(
    [
      `Parse throughput, median of ${runs} runs (min–max) — ${new Date().toISOString()} — ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}, load average at start ${load}`,
      '',
      '| case | articles | passages | errors | wall (median) | articles/s | articles/CPU-s | passages/s | passages/CPU-s | MB/s (input bytes) |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...rows,
      '',
    ].join('\n'),
  )
}
