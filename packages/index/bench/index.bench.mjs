// Index build benchmark (run `pnpm build` first; `pnpm bench` does). Inputs: NFCorpus
// `corpus.docs` (3,394 documents) and the same corpus replicated ×30 (101,820 documents, ids
// suffixed `#k`), indexed with `testCollectionFields({ analyzer: 'whitespace' })`; optionally
// MEDLINE `medline16n0902.xml.gz` with the default PubMed fields (needs @pubmatch/ingest's dist).
// Every scenario runs in its own child process so that peak RSS is its own.
//
// Usage: node bench/index.bench.mjs [--quick] [--repeat N] all scenarios, Markdown tables
//        (--quick: ×3 instead of ×30; --repeat: best wall time of N runs per build)
//        node bench/index.bench.mjs --child '<json>'     one scenario, JSON (internal)
// PUBMATCH_SHARED overrides the data folder.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const shared = process.env.PUBMATCH_SHARED ?? fileURLToPath(new URL('../../../../shared/data/', import.meta.url))
const self = fileURLToPath(import.meta.url)

async function loadNfcorpus(times) {
  const { emptyArticle } = await import('@pubmatch/core')
  const base = []
  for (const line of readFileSync(join(shared, 'nfcorpus/corpus.docs'), 'utf8').split('\n')) {
    if (line.trim() === '') continue
    const tab = line.indexOf('\t')
    const tokens = line.slice(tab + 1).split(/\s+/).filter((t) => t !== '')
    let at = tokens.indexOf('abstract')
    if (at < 0) at = tokens.indexOf('summary')
    const a = emptyArticle(line.slice(0, tab), 'test-collection')
    a.title = (at < 0 ? tokens : tokens.slice(0, at)).join(' ')
    const abstract = at < 0 ? '' : tokens.slice(at + 1).join(' ')
    if (abstract !== '') a.abstract = [{ text: abstract }]
    base.push(a)
  }
  const out = []
  for (let k = 0; k < times; k++) {
    for (const a of base) out.push(times === 1 ? a : { ...a, id: `${a.id}#${k}` })
  }
  return out
}

async function loadMedline() {
  const { readPubmedXml } = await import('../../ingest/dist/index.js')
  const out = []
  for await (const record of readPubmedXml(join(shared, 'pubmed-xml/medline16n0902.xml.gz'))) {
    if (record.kind === 'article') out.push(record.article)
  }
  return out
}

function dirBytes(dir) {
  const sizes = {}
  let total = 0
  for (const file of readdirSync(dir)) {
    const size = statSync(join(dir, file)).size
    const ext = file.includes('.') ? file.slice(file.lastIndexOf('.') + 1) : file
    sizes[ext] = (sizes[ext] ?? 0) + size
    total += size
  }
  return { total, sizes }
}

/** Walks the postings of the given terms: doc + freq only, or with positions too. */
function decodePass(index, NO_MORE_DOCS, field, terms, withPositions) {
  let postings = 0
  for (const term of terms) {
    const cursor = index.postings(field, term)
    for (let d = cursor.nextDoc(); d !== NO_MORE_DOCS; d = cursor.nextDoc()) {
      postings += cursor.freq() > 0 ? 1 : 0
      if (withPositions) cursor.positions()
    }
  }
  return postings
}

function bestOf(rounds, fn) {
  let best = Infinity
  let value
  for (let r = 0; r < rounds; r++) {
    const t = performance.now()
    value = fn()
    best = Math.min(best, performance.now() - t)
  }
  return { ms: best, value }
}

/**
 * Pure codec speed: the real doc gaps and frequencies of every full 128-document block of
 * field `abstract`, encoded by each codec into one buffer and decoded back, best of 7.
 */
async function codecMicro(reader, NO_MORE_DOCS) {
  const { ByteWriter } = await import('../dist/io/byte-writer.js')
  const { vbyteCodec } = await import('../dist/codec/vbyte.js')
  const { bitpackCodec } = await import('../dist/codec/bitpack.js')
  const blocks = []
  for (const { term, docFreq } of reader.terms('abstract')) {
    if (docFreq < 128) continue
    const cursor = reader.postings('abstract', term)
    let gaps = []
    let freqs = []
    let previous = -1
    for (let d = cursor.nextDoc(); d !== NO_MORE_DOCS; d = cursor.nextDoc()) {
      gaps.push(d - previous - 1)
      freqs.push(cursor.freq() - 1)
      previous = d
      if (gaps.length === 128) {
        blocks.push(Int32Array.from(gaps), Int32Array.from(freqs))
        gaps = []
        freqs = []
      }
    }
  }
  const out = {}
  for (const codec of [vbyteCodec, bitpackCodec]) {
    const writer = new ByteWriter(1 << 20)
    for (const block of blocks) codec.encode(block, 128, writer)
    writer.u32(0)
    writer.u32(0)
    const bytes = writer.view().slice()
    const target = new Int32Array(128)
    let best = Infinity
    for (let r = 0; r < 7; r++) {
      const t = performance.now()
      let p = 0
      for (let b = 0; b < blocks.length; b++) p = codec.decode(bytes, p, target, 128)
      best = Math.min(best, performance.now() - t)
    }
    out[codec.name] = { ints: blocks.length * 128, bytes: bytes.length - 8, ms: best }
  }
  return out
}

async function child(options) {
  const index = await import('../dist/index.js')
  const { NO_MORE_DOCS } = await import('../dist/internal.js')
  const docs = options.corpus === 'medline' ? await loadMedline() : await loadNfcorpus(options.times)
  const fields =
    options.corpus === 'medline' ? index.defaultPubmedFields() : index.testCollectionFields({ analyzer: 'whitespace' })
  const dir = mkdtempSync(join(tmpdir(), 'pubmatch-index-bench-'))
  let peakHeap = process.memoryUsage().heapUsed
  const timer = setInterval(() => {
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)
  }, 20)
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  const result = await index.buildIndex(docs, dir, { fields, codec: options.codec }, {
    workers: options.workers,
    forceMergeTo: options.forceMerge ? 1 : 0,
  })
  const seconds = (performance.now() - t0) / 1000
  const cpu = process.cpuUsage(cpu0)
  clearInterval(timer)
  const out = {
    ...options,
    docs: result.docsAdded,
    segments: result.segments,
    merges: result.merges,
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    peakHeapMb: peakHeap / 2 ** 20,
    ...dirBytes(dir),
  }
  const t1 = performance.now()
  const reader = await index.openIndex(dir)
  out.openMs = performance.now() - t1
  if (options.decode) {
    const field = 'abstract'
    out.totalPostings = 0
    out.totalPositions = 0
    for (const f of reader.schema.fields) {
      out.totalPostings += reader.fieldStats(f.name).sumDocFreq
      out.totalPositions += f.positions ? reader.fieldStats(f.name).sumTotalTermFreq : 0
    }
    const all = [...reader.terms(field)]
    const long = all.filter((t) => t.docFreq >= 1000).map((t) => t.term)
    const terms = all.map((t) => t.term)
    for (const [name, list] of [['all', terms], ['long', long]]) {
      const plain = bestOf(3, () => decodePass(reader, NO_MORE_DOCS, field, list, false))
      const withPositions = bestOf(3, () => decodePass(reader, NO_MORE_DOCS, field, list, true))
      out[name] = { terms: list.length, postings: plain.value, ms: plain.ms, positionsMs: withPositions.ms }
    }
  }
  if (options.microBench) {
    out.micro = await codecMicro(reader, NO_MORE_DOCS)
  }
  rmSync(dir, { recursive: true, force: true })
  process.stdout.write(JSON.stringify(out))
}

function run(options) {
  const output = execFileSync(process.execPath, [self, '--child', JSON.stringify(options)], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  })
  return JSON.parse(output)
}

const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })

async function main() {
  const started = Date.now()
  const quick = process.argv.includes('--quick')
  const repeatFlag = process.argv.indexOf('--repeat')
  const repeat = repeatFlag > 0 ? Number(process.argv[repeatFlag + 1]) : 1
  if (!existsSync(join(shared, 'nfcorpus/corpus.docs'))) {
    console.error(`no NFCorpus at ${shared}nfcorpus/corpus.docs`)
    process.exit(1)
  }
  console.log(`# @pubmatch/index benchmark — ${new Date().toISOString()}`)
  console.log(`node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}, best of ${repeat} per build\n`)
  const builds = []
  const times = quick ? 3 : 30
  for (const [corpus, t, workers] of [
    ['nfcorpus', 1, 0],
    ['nfcorpus', 1, 2],
    ['nfcorpus', times, 0],
    ['nfcorpus', times, 1],
    ['nfcorpus', times, 2],
  ]) {
    let best
    for (let r = 0; r < repeat; r++) {
      const b = run({ corpus, times: t, workers, codec: 'bitpack' })
      if (best === undefined || b.seconds < best.seconds) best = b
    }
    builds.push(best)
  }
  if (existsSync(fileURLToPath(new URL('../../ingest/dist/index.js', import.meta.url)))) {
    builds.push(run({ corpus: 'medline', times: 1, workers: 0, codec: 'bitpack' }))
  }
  console.log('## Build\n')
  console.log('| corpus | docs | workers | wall s | docs/s (wall) | CPU s | docs/s (CPU) | peak RSS MB | peak main heap MB | index MB | bytes/doc | segments | open ms |')
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
  for (const b of builds) {
    const name = b.corpus === 'medline' ? 'MEDLINE 0902 (PubMed fields)' : b.times === 1 ? 'NFCorpus' : `NFCorpus ×${b.times}`
    console.log(
      `| ${name} | ${fmt(b.docs)} | ${b.workers} | ${fmt(b.seconds, 1)} | ${fmt(b.docs / b.seconds)} | ${fmt(b.cpuSeconds, 1)} | ${fmt(b.docs / b.cpuSeconds)} | ${fmt(b.peakRssMb)} | ${fmt(b.peakHeapMb)} | ${fmt(b.total / 2 ** 20, 1)} | ${fmt(b.total / b.docs)} | ${b.segments} | ${fmt(b.openMs)} |`,
    )
  }
  console.log('\n## Codecs (one merged segment; sizes over all fields, decoding over field `abstract`, best of 3)\n')
  console.log(
    '| codec | .pst bytes | .pst bytes/posting | .pos bytes/position | index MB | all terms: M postings/s (doc+freq / +positions) | terms with df ≥ 1000: M postings/s (doc+freq / +positions) |',
  )
  console.log('|---|---:|---:|---:|---:|---:|---:|')
  let micro
  for (const codec of ['vbyte', 'bitpack']) {
    const c = run({ corpus: 'nfcorpus', times, workers: 0, codec, forceMerge: true, decode: true, microBench: codec === 'bitpack' })
    if (c.micro !== undefined) micro = c.micro
    const rate = (x, ms) => fmt(x.postings / ms / 1000, 1)
    console.log(
      `| ${codec} | ${fmt(c.sizes.pst)} | ${fmt(c.sizes.pst / c.totalPostings, 2)} | ${fmt(c.sizes.pos / c.totalPositions, 2)} | ${fmt(c.total / 2 ** 20, 1)} | ${rate(c.all, c.all.ms)} / ${rate(c.all, c.all.positionsMs)} (${fmt(c.all.terms)} terms) | ${rate(c.long, c.long.ms)} / ${rate(c.long, c.long.positionsMs)} (${fmt(c.long.terms)} terms) |`,
    )
  }
  console.log('\n## Codec decode loop alone (full blocks of `abstract` postings: doc gaps and freq − 1)\n')
  console.log('| codec | integers | bytes/integer | M integers/s (best of 7) |')
  console.log('|---|---:|---:|---:|')
  for (const [name, m] of Object.entries(micro)) {
    console.log(`| ${name} | ${fmt(m.ints)} | ${fmt(m.bytes / m.ints, 2)} | ${fmt(m.ints / m.ms / 1000, 0)} |`)
  }
  console.log(`\nload average at the end ${loadavg().map((l) => l.toFixed(1)).join(' ')}; ${fmt((Date.now() - started) / 1000)} s in all`)
}

if (process.argv[2] === '--child') {
  await child(JSON.parse(process.argv[3]))
} else {
  await main()
}
