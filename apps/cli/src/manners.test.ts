import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bin, pubmatch, samplePath } from '../test/run-cli.ts'

// How the built CLI behaves as a Unix tool: exit statuses, closed output, encodings, JSON.
const sample = samplePath('pubmed/pmid_9500320.xml')


/** A billion-laughs PubMed file: ten levels of ten-fold entity expansion. */
function entityBomb(): string {
  const entities = ['<!ENTITY lol "lol">']
  for (let k = 1; k <= 10; k++) {
    entities.push(`<!ENTITY lol${k} "${`&lol${k === 1 ? '' : k - 1};`.repeat(10)}">`)
  }
  return `<?xml version="1.0"?>\n<!DOCTYPE PubmedArticleSet [${entities.join('')}]>\n<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID Version="1">1</PMID><Article><ArticleTitle>&lol10;</ArticleTitle></Article></MedlineCitation></PubmedArticle></PubmedArticleSet>\n`
}

describe.runIf(existsSync(bin))('pubmatch as a Unix tool (built CLI)', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pubmatch-manners-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('stops quietly with status 141 when its output is closed (pubmatch eval … | head)', async () => {
    const qrels = join(dir, 'big.qrel')
    const runFile = join(dir, 'big.run')
    const queries = Array.from({ length: 3000 }, (_, q) => `q${q}`)
    await writeFile(qrels, queries.map((q) => `${q} 0 d1 1\n`).join(''))
    await writeFile(runFile, queries.map((q) => `${q} Q0 d1 1 1.0 t\n${q} Q0 d2 2 0.5 t\n`).join(''))
    const child = spawn(process.execPath, [bin, 'eval', '--trec-eval', '-q', runFile, qrels], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    // read one chunk, then close the pipe as `head` does
    child.stdout.once('data', () => child.stdout.destroy())
    const code = await new Promise<number | null>((resolve) => child.on('close', (status) => resolve(status)))
    expect(stderr).toBe('')
    expect(code).toBe(141)
  })

  it('reports how an ingest went in its exit status: 0 all read, 1 partly, 2 nothing usable', async () => {
    const bomb = join(dir, 'bomb.xml')
    await writeFile(bomb, entityBomb())
    const empty = join(dir, 'empty.xml')
    await writeFile(empty, '')
    const mixed = join(dir, 'mixed')
    await mkdir(mixed)
    await writeFile(join(mixed, 'a.xml'), await readFile(sample))
    await writeFile(join(mixed, 'b.xml'), entityBomb())

    const good = await pubmatch('ingest', sample, '-c', join(dir, 'c0'), '-q')
    expect([good.code, good.stderr]).toEqual([0, ''])

    const partly = await pubmatch('ingest', mixed, '-c', join(dir, 'c1'), '-q', '--show-errors', '0')
    expect(partly.code).toBe(1)
    expect(partly.stdout).toMatch(/articles added\s+1\n/)
    expect(partly.stdout).toMatch(/files that failed\s+1\n/)
    expect(partly.stderr).toContain('ingest: partly done: 1 file failed, 1 error in all (exit status 1)')
    // the failure is kept with the rest
    const errors = await pubmatch('corpus', 'errors', '-c', join(dir, 'c1'), '--json')
    expect(JSON.parse(errors.stdout.trim())).toMatchObject({ code: 'ENTITY_EXPANSION_LIMIT' })

    for (const file of [bomb, empty]) {
      const failed = await pubmatch('ingest', file, '-c', join(dir, 'c2'), '-q', '--json')
      expect(failed.code).toBe(2)
      expect(JSON.parse(failed.stdout)).toMatchObject({ outcome: 'failed', failedSources: 1, added: 0 })
    }
    const binary = join(dir, 'binary.xml')
    await writeFile(binary, Buffer.from([0, 1, 2, 3, 255, 254, 0, 7, 8, 9]))
    const refused = await pubmatch('ingest', binary, '-c', join(dir, 'c2'), '-q')
    expect(refused.code).toBe(2)
    expect(refused.stdout).toMatch(/files that failed\s+1\n/)
  })

  it('reads XML in UTF-16 with a byte-order mark and encoding="UTF-16" like the same file in UTF-8', async () => {
    const utf8 = await readFile(sample, 'utf8')
    const declared = utf8.replace('<?xml version="1.0" ?>', '<?xml version="1.0" encoding="UTF-16"?>')
    expect(declared).not.toBe(utf8)
    const le = join(dir, 'utf16le.xml')
    await writeFile(le, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(declared, 'utf16le')]))
    const be = join(dir, 'utf16be.xml')
    const beBytes = Buffer.from(declared, 'utf16le')
    beBytes.swap16()
    await writeFile(be, Buffer.concat([Buffer.from([0xfe, 0xff]), beBytes]))
    for (const [name, file] of [['le', le], ['be', be]] as const) {
      const corpus = join(dir, `u16${name}`)
      const result = await pubmatch('ingest', file, '-c', corpus, '-q', '--json')
      expect([name, result.code]).toEqual([name, 0])
      expect(JSON.parse(result.stdout)).toMatchObject({ added: 1, errors: 0 })
      const shown = JSON.parse((await pubmatch('corpus', 'show', '9500320', '-c', corpus)).stdout) as { title: string }
      const reference = await pubmatch('ingest', sample, '-c', join(dir, `u8${name}`), '-q')
      expect(reference.code).toBe(0)
      const expected = JSON.parse((await pubmatch('corpus', 'show', '9500320', '-c', join(dir, `u8${name}`))).stdout) as { title: string }
      expect(shown.title).toBe(expected.title)
    }
  })

  it('counts an efetch answer with an empty <PubmedArticleSet> as a file with no articles', async () => {
    const none = join(dir, 'none.xml')
    await writeFile(none, '<?xml version="1.0" ?>\n<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2025//EN" "https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_250101.dtd">\n<PubmedArticleSet></PubmedArticleSet>\n')
    const result = await pubmatch('ingest', none, '-c', join(dir, 'c3'))
    expect(result.stdout).toMatch(/files skipped \(no articles\)\s+1\n/)
    expect(result.stdout).toMatch(/sources read\s+0\n/)
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('nothing to ingest: 1 file held no articles (exit status 2)')
  })

  it('names a missing file as NOT_FOUND with status 2, without a stack trace', async () => {
    const result = await pubmatch('eval', join(dir, 'no.run'), join(dir, 'no.qrel'))
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/^pubmatch: NOT_FOUND: .*no\.qrel/)
    expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1)
  })

  it('runs a batch past the queries that cannot run, names each, and says how many failed', async () => {
    const corpus = join(dir, 'c0')
    const index = join(dir, 'i-batch')
    expect((await pubmatch('index', '-c', corpus, '-i', index, '-q')).code).toBe(0)
    const queries = join(dir, 'batch.tsv')
    // query 2 refers to a search history, query 3 has an unclosed parenthesis (PubMed syntax);
    // query 5's unknown tag is dropped with a warning, as PubMed does
    await writeFile(queries, '1\tcolitis in children\n2\tasthma AND #3\n3\t(asthma OR colitis\n4\tcolitis\n5\tcolitis[notatag]\n')
    const runFile = join(dir, 'batch.run')
    // by default the parenthesis is closed as PubMed closes it, with a warning; the history fails
    const recovered = await pubmatch('run', '-i', index, '--queries', queries, '--syntax', 'pubmed', '-o', runFile, '-q', '--json')
    expect(recovered.code).toBe(1)
    const recoveredSummary = JSON.parse(recovered.stdout) as { failed: number; failures: Array<{ id: string; code: string }> }
    expect(recoveredSummary.failures.map((f) => [f.id, f.code])).toEqual([['2', 'INVALID_ARGUMENT']])
    expect(recovered.stderr).toMatch(/^query 3: warning: QUERY_SYNTAX: "\(" is never closed with "\)"$/m)
    expect(recovered.stderr).toMatch(/^query 5: warning: QUERY_SYNTAX: unknown field tag \[notatag\]/m)
    const recoveredIds = new Set((await readFile(runFile, 'utf8')).trim().split('\n').map((line) => line.split(' ')[0]))
    expect(recoveredIds).toEqual(new Set(['1', '3', '4', '5']))
    // --strict: the unclosed parenthesis fails too
    const ran = await pubmatch('run', '-i', index, '--queries', queries, '--syntax', 'pubmed', '-o', runFile, '-q', '--json', '--strict')
    expect(ran.code).toBe(1)
    const summary = JSON.parse(ran.stdout) as { queries: number; failed: number; failures: Array<{ id: string; code: string }> }
    expect(summary).toMatchObject({ queries: 5, failed: 2 })
    expect(summary.failures.map((f) => [f.id, f.code])).toEqual([
      ['2', 'INVALID_ARGUMENT'],
      ['3', 'QUERY_SYNTAX'],
    ])
    // each failure on stderr even with -q, and the run holds the other queries
    expect(ran.stderr).toMatch(/^query 2: INVALID_ARGUMENT: #3 refers to the search history/m)
    expect(ran.stderr).toMatch(/^query 3: QUERY_SYNTAX: /m)
    const qids = new Set((await readFile(runFile, 'utf8')).trim().split('\n').map((line) => line.split(' ')[0]))
    expect(qids).toEqual(new Set(['1', '4', '5']))
    const text = await pubmatch('run', '-i', index, '--queries', queries, '--syntax', 'pubmed', '-o', runFile, '-q', '--strict')
    expect(text.stdout).toMatch(/^wrote \S+batch\.run: 3 queries \(2 of 5 failed and are not in the run: see above\)/)
    // every query failing: no run, the first failure named
    const bad = join(dir, 'bad.tsv')
    await writeFile(bad, '1\t#3\n2\t(colitis\n')
    const none = await pubmatch('run', '-i', index, '--queries', bad, '--syntax', 'pubmed', '-o', join(dir, 'bad.run'), '-q', '--strict')
    expect(none.code).toBe(64)
    expect(none.stderr).toMatch(/every one of the 2 queries failed \(the first, 1: INVALID_ARGUMENT/)
    expect(existsSync(join(dir, 'bad.run'))).toBe(false)
  })

  it('prints JSON for scripts: index, run and eval', async () => {
    const corpus = join(dir, 'c0')
    const index = join(dir, 'i0')
    const indexed = await pubmatch('index', '-c', corpus, '-i', index, '-q', '--json')
    expect(JSON.parse(indexed.stdout)).toMatchObject({ index, docCount: 1, added: 1, deleted: 0, errors: 0 })
    const queries = join(dir, 'q.tsv')
    await writeFile(queries, '1\tcolitis in children\n2\tasthma\n')
    const runFile = join(dir, 'q.run')
    const ran = await pubmatch('run', '-i', index, '--queries', queries, '-o', runFile, '-q', '--json')
    expect(JSON.parse(ran.stdout)).toEqual({ out: runFile, queries: 2, warnings: 0, reranked: false })
    const qrels = join(dir, 'q.qrel')
    await writeFile(qrels, '1 0 9500320 1\n2 0 9500320 0\n')
    const evaluated = await pubmatch('eval', runFile, qrels, '--json', '-m', 'P.10')
    const parsed = JSON.parse(evaluated.stdout) as { runs: Array<{ name: string; mean: Record<string, number> }> }
    expect(parsed.runs.map((r) => r.name)).toEqual(['q.run'])
    // query 1 finds the one relevant document (P@10 0.1), query 2 nothing (0): trec_eval -c mean 0.05
    expect(parsed.runs[0]!.mean['P_10']).toBeCloseTo(0.05, 10)
  })
})
