// Micro benchmark of the analyzers (run `pnpm build` first; `pnpm bench` does).
// Inputs: NFCorpus `corpus.docs` (pre-processed text) and the abstracts and titles of the 2016
// MEDLINE baseline chunk `medline16n0902.xml.gz` (plain text pulled out with a regex, entities
// decoded roughly). Prints tokens/s (tokens out of the analyzer) and MB/s (UTF-8 bytes in), best of N passes,
// by wall clock and by CPU time.
// Usage: node bench/analyze.bench.mjs [--rounds N]   (PUBMATCH_SHARED overrides the data folder)
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { analyzeTerms, biomedicalAnalyzer, createBiomedicalTokenizer, whitespaceAnalyzer } from '../dist/index.js'

const shared =
  process.env.PUBMATCH_SHARED ?? fileURLToPath(new URL('../../../../shared/data/', import.meta.url))
const roundsFlag = process.argv.indexOf('--rounds')
const rounds = roundsFlag > 0 ? Number(process.argv[roundsFlag + 1]) : 10

function loadNfcorpus() {
  const file = `${shared}/nfcorpus/corpus.docs`
  if (!existsSync(file)) {
    return null
  }
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => line.slice(line.indexOf('\t') + 1))
}

const ENTITIES = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&apos;': "'" }

function loadMedline() {
  const file = `${shared}/pubmed-xml/medline16n0902.xml.gz`
  if (!existsSync(file)) {
    return null
  }
  const xml = gunzipSync(readFileSync(file)).toString('utf8')
  const texts = []
  for (const match of xml.matchAll(/<(AbstractText|ArticleTitle)\b[^>]*>([\s\S]*?)<\/\1>/g)) {
    texts.push(
      match[2].replace(/<[^>]+>/g, '').replace(/&(?:lt|gt|amp|quot|apos);/g, (e) => ENTITIES[e]),
    )
  }
  return texts
}

function measure(label, analyze, texts) {
  const bytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text, 'utf8'), 0)
  let tokens = 0
  for (const text of texts) {
    tokens += analyze(text).length // warm-up round (JIT, stem cache)
  }
  // Best of `rounds` passes, by wall clock and by process CPU time (the latter is steadier on a
  // busy machine).
  let wall = Infinity
  let cpu = Infinity
  for (let r = 0; r < rounds; r++) {
    const startCpu = process.cpuUsage()
    const start = process.hrtime.bigint()
    for (const text of texts) {
      analyze(text)
    }
    wall = Math.min(wall, Number(process.hrtime.bigint() - start) / 1e9)
    const used = process.cpuUsage(startCpu)
    cpu = Math.min(cpu, (used.user + used.system) / 1e6)
  }
  const row = {
    analyzer: label,
    texts: texts.length,
    MB: +(bytes / 1e6).toFixed(2),
    tokens,
    'tokens/s': Math.round(tokens / wall),
    'MB/s': +(bytes / 1e6 / wall).toFixed(2),
    'tokens/s (cpu)': Math.round(tokens / cpu),
    'MB/s (cpu)': +(bytes / 1e6 / cpu).toFixed(2),
  }
  console.log(JSON.stringify(row))
  return row
}

const rows = []
const nfcorpus = loadNfcorpus()
const medline = loadMedline()
if (nfcorpus === null && medline === null) {
  console.error(`no benchmark data under ${shared}`)
  process.exit(1)
}
if (nfcorpus !== null) {
  const ws = whitespaceAnalyzer()
  const wsStem = whitespaceAnalyzer({ stem: true })
  rows.push(measure('nfcorpus / whitespace', (t) => ws.analyze(t), nfcorpus))
  rows.push(measure('nfcorpus / whitespace:stem', (t) => wsStem.analyze(t), nfcorpus))
}
if (medline !== null) {
  const tokenize = createBiomedicalTokenizer()
  const bio = biomedicalAnalyzer()
  const bioNoStem = biomedicalAnalyzer({ stem: false })
  rows.push(measure('medline16n0902 / biomedical tokenizer only', tokenize, medline))
  rows.push(measure('medline16n0902 / biomedical:nostem', (t) => bioNoStem.analyze(t), medline))
  rows.push(measure('medline16n0902 / biomedical', (t) => bio.analyze(t), medline))
  // The term stream an index builds from: no token objects, the filters once per distinct term.
  let streamed = []
  const sink = (term) => {
    streamed.push(term)
  }
  const termsOf = (t) => {
    streamed = []
    analyzeTerms(bio, t, sink)
    return streamed
  }
  rows.push(measure('medline16n0902 / biomedical, analyzeTerms', termsOf, medline))
}
console.table(rows)
