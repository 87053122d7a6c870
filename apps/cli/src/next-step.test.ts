import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sharedDataPath } from '@pubmatch/core/testing'
import { openCorpus, readJatsXml, type IngestRecord } from '@pubmatch/ingest'
import { bin, pubmatchAt, samplePath, suggestedCommands, type CliRun } from '../test/run-cli.ts'

/**
 * Every "do this first" message, met from a fresh directory: the commands it suggests, run as
 * printed in the same directory, work (or lead to the next message, whose commands work).
 */
describe.runIf(existsSync(bin))('what pubmatch says to run next (built CLI, fresh directories)', () => {
  let root: string
  let count = 0
  /** A new empty working directory. */
  const fresh = async (): Promise<string> => {
    const dir = join(root, `cwd-${++count}`)
    await mkdir(dir)
    return dir
  }
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'pubmatch-next-'))
  })
  afterAll(async () => {
    await rm(root, { recursive: true, force: true })
  })

  /** The one suggested command whose arguments start with `prefix`. */
  const pick = (run: CliRun, ...prefix: string[]): string[] => {
    const found = suggestedCommands(run.stderr).filter((args) => prefix.every((word, i) => args[i] === word))
    expect([run.stderr, found.length]).toEqual([run.stderr, 1])
    return found[0]!
  }
  const ok = async (cwd: string, args: readonly string[]): Promise<CliRun> => {
    const run = await pubmatchAt({ cwd }, ...args, ...(args[0] === 'ingest' || args[0] === 'index' || args[0] === 'demo' ? ['--plain'] : []))
    expect([args.join(' '), run.code, run.stderr.match(/^pubmatch: .*$/m)?.[0]]).toEqual([args.join(' '), 0, undefined])
    return run
  }

  it('search with nothing there: the demo, or ingesting bundled files then indexing', async () => {
    const cwd = await fresh()
    const first = await pubmatchAt({ cwd }, 'search', 'cancer')
    expect(first.code).toBe(2)
    expect(first.stderr).toMatch(/^pubmatch: NOT_FOUND: no pubmatch index at \.pubmatch\/index, and no corpus to build one from; /)
    expect(suggestedCommands(first.stderr).map((args) => args[0])).toEqual(['demo', 'ingest', 'ingest', 'ingest', 'index'])
    expect(pick(first, 'ingest', '--entrez')).toEqual(['ingest', '--entrez', 'asthma[mh]', '--max', '500'])
    // the demo, as printed, and the search then works
    await ok(cwd, pick(first, 'demo'))
    expect((await ok(cwd, ['search', 'cancer'])).stdout).toMatch(/matching documents/)
    // elsewhere: a bundled PubMed file, then `pubmatch index`
    const other = await fresh()
    const again = await pubmatchAt({ cwd: other }, 'search', 'cancer')
    await ok(other, pick(again, 'ingest', samplePath('pubmed', 'medsamp2006.xml')))
    const indexing = await pubmatchAt({ cwd: other }, 'search', 'cancer')
    expect(indexing.stderr).toMatch(/^pubmatch: NOT_FOUND: no pubmatch index at \.pubmatch\/index; build it from the corpus in \.pubmatch\/corpus with `pubmatch index`$/m)
    await ok(other, pick(indexing, 'index'))
    await ok(other, ['search', 'cancer'])
  })

  it('index with no corpus, and ingest with nothing to read: bundled files that work as printed', async () => {
    const cwd = await fresh()
    const index = await pubmatchAt({ cwd }, 'index')
    expect(index.code).toBe(2)
    expect(index.stderr).toMatch(/^pubmatch: NOT_FOUND: no corpus at \.pubmatch\/corpus; ingest articles into it first: /)
    const ingest = await pubmatchAt({ cwd }, 'ingest')
    expect(ingest.code).toBe(64)
    expect(ingest.stderr).toMatch(/^pubmatch: INVALID_ARGUMENT: give files or directories to read, or an Entrez query: e\.g\. /)
    // the JATS directory: a corpus of full texts alone, which indexes
    const jats = pick(ingest, 'ingest', samplePath('jats'))
    expect(jats).toEqual(pick(index, 'ingest', samplePath('jats')))
    expect((await ok(cwd, jats)).stdout).toMatch(/articles from full texts\s+3\n/)
    expect((await ok(cwd, ['index'])).stdout).toMatch(/: 3 documents \(3 added or replaced/)
  })

  it('names the -c and -i the user gave', async () => {
    const cwd = await fresh()
    const search = await pubmatchAt({ cwd }, 'search', '-i', 'mine/index', 'cancer')
    expect(pick(search, 'demo')).toEqual(['demo', '-i', 'mine/index'])
    expect(pick(search, 'index')).toEqual(['index', '-i', 'mine/index'])
    const index = await pubmatchAt({ cwd }, 'index', '-c', 'ft', '-i', 'ft/index')
    expect(pick(index, 'demo')).toEqual(['demo', '-c', 'ft', '-i', 'ft/index'])
    const ingest = pick(index, 'ingest', '-c', 'ft', samplePath('jats'))
    await ok(cwd, ingest)
    await ok(cwd, ['index', '-c', 'ft', '-i', 'ft/index'])
    // the corpus beside the index is found
    const beside = await pubmatchAt({ cwd }, 'search', '-i', 'ft/elsewhere/index', 'x')
    expect(beside.code).toBe(2)
    await ok(cwd, ['ingest', '-c', 'ft/elsewhere/corpus', samplePath('pubmed', 'pmid_9500320.xml')])
    const found = await pubmatchAt({ cwd }, 'search', '-i', 'ft/elsewhere/index', 'x')
    expect(pick(found, 'index')).toEqual(['index', '-c', 'ft/elsewhere/corpus', '-i', 'ft/elsewhere/index'])
    const stats = await pubmatchAt({ cwd }, 'corpus', 'stats', '-c', 'other')
    expect(pick(stats, 'demo')).toEqual(['demo', '-c', 'other'])
    // a directory of files given as the corpus: ingest it, then index
    const notCorpus = await pubmatchAt({ cwd }, 'index', '-c', samplePath('jats'))
    expect(notCorpus.stderr).toContain(`${samplePath('jats')} is not a pubmatch corpus (no CORPUS.json)`)
    const [ingestIt, indexIt] = suggestedCommands(notCorpus.stderr)
    const elsewhere = await fresh()
    await ok(elsewhere, ingestIt!)
    await ok(elsewhere, indexIt!)
  })

  it('full-text search: builds the full-text index of the index’s own corpus, then trains the section model', async () => {
    const cwd = await fresh()
    await ok(cwd, ['ingest', '-c', 'ft', samplePath('jats'), samplePath('bioc')])
    await ok(cwd, ['index', '-c', 'ft', '-i', 'ft/index'])
    const merged = await pubmatchAt({ cwd }, 'search', '-i', 'ft/index', '--fulltext', 'merged', 'thyroid')
    expect(merged.code).toBe(2)
    const build = pick(merged, 'index')
    expect(build).toEqual(['index', '-c', 'ft', '-i', 'ft/index', '--fulltext'])
    await ok(cwd, build)
    expect((await ok(cwd, ['search', '-i', 'ft/index', '--fulltext', 'merged', 'thyroid'])).stdout).toMatch(/^\s+1\. 19079722 /m)
    const inspect = await pubmatchAt({ cwd }, 'fulltext', 'inspect', '-i', 'ft/index')
    expect(inspect.code).toBe(2)
    const logodds = await pubmatchAt({ cwd }, 'search', '-i', 'ft/index', '--fulltext', 'sum-logodds', 'thyroid')
    expect(logodds.code).toBe(64)
    const train = pick(logodds, 'fulltext', 'train')
    expect(train).toEqual(pick(inspect, 'fulltext', 'train'))
    await ok(cwd, train)
    await ok(cwd, ['search', '-i', 'ft/index', '--fulltext', 'sum-logodds', 'thyroid'])
    await ok(cwd, ['fulltext', 'inspect', '-i', 'ft/index'])
  })

  it('a corpus whose full texts were stored before records were derived: read them again with --force', async () => {
    const cwd = await fresh()
    const store = await openCorpus(join(cwd, 'old'), { create: true })
    for (const file of ['pone.0000217.nxml', 'ehp-116-1694.nxml']) {
      const path = samplePath('jats', file)
      // the records of an older reader: the full text without its derived article record
      async function* fullTextsOnly(): AsyncGenerator<IngestRecord> {
        for await (const record of readJatsXml(path)) {
          if (record.kind === 'fulltext') {
            yield { kind: 'fulltext', document: record.document }
          }
        }
      }
      await store.writeSource({ key: path, fingerprint: 'before derived records' }, fullTextsOnly())
    }
    await store.close()
    const index = await pubmatchAt({ cwd }, 'index', '-c', 'old')
    expect(index.code).toBe(64)
    expect(index.stderr).toMatch(/^pubmatch: INVALID_ARGUMENT: the corpus old holds 2 full texts but no articles: /)
    const again = pick(index, 'ingest', '--force')
    expect(again).toEqual(['ingest', '--force', '-c', 'old', samplePath('jats', 'pone.0000217.nxml'), samplePath('jats', 'ehp-116-1694.nxml')])
    expect((await ok(cwd, again)).stdout).toMatch(/articles from full texts\s+2\n/)
    await ok(cwd, ['index', '-c', 'old'])
  })

  it('says `pnpm pubmatch` when run through the repository’s script', async () => {
    const cwd = await fresh()
    const viaPnpm = await pubmatchAt({ cwd, env: { npm_lifecycle_event: 'pubmatch', npm_package_name: 'pubmatch-monorepo' } }, 'index')
    expect(viaPnpm.stderr).toContain('`pnpm pubmatch demo`')
    expect(viaPnpm.stderr).not.toMatch(/`pubmatch /)
  })

  it('names the model, Solr and the serve index it needs, with the directories given', async () => {
    const cwd = await fresh()
    await ok(cwd, ['ingest', samplePath('pubmed', 'pmid_9500320.xml')])
    await ok(cwd, ['index'])
    const rerank = await pubmatchAt({ cwd }, 'search', '--rerank', 'my-model', 'x')
    expect(rerank.stderr).toMatch(/^pubmatch: NOT_FOUND: no model in my-model .*`pubmatch train -i INDEX --queries QUERIES --qrels QRELS -o my-model`/)
    const solr = await pubmatchAt({ cwd }, 'index', '--solr', 'local:my-solr', '--collection', 'c')
    expect(pick(solr, 'solr', 'up')).toEqual(['solr', 'up', '--dir', 'my-solr'])
    const serve = await pubmatchAt({ cwd }, 'serve', '-i', 'other/index')
    expect(pick(serve, 'index')).toEqual(['index', '-i', 'other/index'])
  })
})

describe.runIf(existsSync(bin))('a corpus of the real PMC JATS files alone (built CLI)', { tags: ['real-data'] }, () => {
  let cwd: string
  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'pubmatch-pmc-'))
  })
  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true })
  })

  it('ingests, indexes, searches and searches the full texts', async () => {
    const ingest = await pubmatchAt({ cwd }, 'ingest', sharedDataPath('pmc', 'jats'), '-c', 'ft', '--json', '-q')
    expect(ingest.code).toBe(0)
    expect(JSON.parse(ingest.stdout)).toMatchObject({ fullTexts: 8, derived: 8, errors: 0, outcome: 'complete' })
    const index = await pubmatchAt({ cwd }, 'index', '-c', 'ft', '--fulltext', '--json', '-q')
    expect(index.code).toBe(0)
    expect(JSON.parse(index.stdout)).toMatchObject({ docCount: 8, fulltext: { articles: 8 } })
    const search = await pubmatchAt({ cwd }, 'search', 'colorectal cancer', '--json')
    const result = JSON.parse(search.stdout) as { hits: Array<{ id: string; document: { derivedFrom?: string; journal?: string } }> }
    expect(result.hits[0]).toMatchObject({ id: '21045829', document: { derivedFrom: 'jats', journal: 'Br J Cancer' } })
    expect((await pubmatchAt({ cwd }, 'search', 'colorectal cancer')).stdout).toContain('(no PubMed record: from the PMC full text, JATS)')
    expect((await pubmatchAt({ cwd }, 'fulltext', 'train', '--known-item', '--json')).code).toBe(0)
    const fulltext = await pubmatchAt({ cwd }, 'search', '--fulltext', 'sum-logodds', 'colorectal cancer', '--json')
    expect(fulltext.code).toBe(0)
    expect((JSON.parse(fulltext.stdout) as { hits: Array<{ id: string }> }).hits.map((hit) => hit.id)).toContain('21045829')
  })
})
