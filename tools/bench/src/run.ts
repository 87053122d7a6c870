/**
 * `pnpm bench` for pubmatch's ingestion: parse throughput of the streaming PubMed XML parser
 * and of the BioC parser on real data from ../shared/data. Each case runs in its own process
 * so that its peak RSS is its own. Prints a Markdown table to paste into BENCHMARKS.md.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { machine, runCase, type CaseResult } from './measure.ts'

const shared = process.env['PUBMATCH_SHARED'] ?? fileURLToPath(new URL('../../../../shared/data/', import.meta.url))
if (!existsSync(shared)) {
  process.stderr.write(`bench: shared data not found at ${shared} (set PUBMATCH_SHARED); nothing to measure\n`)
  process.exit(0)
}

const rows: string[] = []
const mb = (bytes: number): number => bytes / 1e6
const rate = (count: number, seconds: number): string => Math.round(count / seconds).toLocaleString('en')
const cpuColumns = (count: number, cpu: number | undefined, unit: string): string =>
  cpu === undefined ? '– | –' : `${cpu.toFixed(2)} s | ${rate(count, cpu)} ${unit}/CPU-s`
const line = (r: CaseResult, what: string, count: number, unit: string): string =>
  `| ${r.name} | ${what} | ${count} ${unit} | ${r.seconds.toFixed(2)} s | ${rate(count, r.seconds)} ${unit}/s | ${cpuColumns(count, r.values['cpuSeconds'], unit)} | ${(mb(r.values['fileBytes'] ?? 0) / r.seconds).toFixed(1)} MB/s | ${Math.round(r.peakRssMiB)} MiB |`

process.stderr.write('bench: pubmed-xml (medline16n0902.xml.gz ×10)…\n')
const pubmed = await runCase('pubmed-xml', [`${shared}pubmed-xml/medline16n0902.xml.gz`, '10'])
rows.push(line(pubmed, 'medline16n0902.xml.gz ×10 (gzip\'d bytes)', pubmed.values['articles'] ?? 0, 'articles'))
process.stderr.write('bench: bioc-json (267 PMC full texts ×3)…\n')
const bioc = await runCase('bioc-json', [`${shared}pmc/bioc-json`, '3'])
rows.push(line(bioc, 'pmc/bioc-json ×3', bioc.values['documents'] ?? 0, 'documents'))

process.stdout.write(
  [
    `Ingestion parse throughput — ${new Date().toISOString().slice(0, 10)} — ${machine()}`,
    '',
    '| case | input | records | time | records/s | CPU time | records/CPU-s | MB/s | peak RSS |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n'),
)
