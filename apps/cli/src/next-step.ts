/**
 * What to run next when a command finds something missing (no corpus, no index, no full-text
 * index, no section model): every message names a command that works from where the user
 * stands, with the `-c`/`-i` they gave, paths they have (the bundled sample) and the way they
 * run pubmatch (`pubmatch`, or `pnpm pubmatch` through the repository's script).
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { PubmatchError } from '@pubmatch/core'
import { MANIFEST_FILE, noArticlesError, openCorpus } from '@pubmatch/ingest'
import { SETTINGS_FILE, fulltextDir, readIndexSettings, sectionModelFile } from '@pubmatch/engine'
import { SAMPLE_CORPUS_DIR } from '@pubmatch/sample-data'
import { DEFAULT_CORPUS, DEFAULT_INDEX } from './paths.ts'

/** How the user runs pubmatch: `pnpm pubmatch` when through the repository's `pubmatch` or `demo` script, else `pubmatch`. */
export function commandName(): string {
  const script = process.env['npm_lifecycle_event']
  return process.env['npm_package_name'] === 'pubmatch-monorepo' && (script === 'pubmatch' || script === 'demo') ? 'pnpm pubmatch' : 'pubmatch'
}

/** A word as it can be pasted into a shell: as it is when it holds only safe characters, else quoted. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : /^[^"$`\\!]*$/.test(word) ? `"${word}"` : `'${word.replaceAll("'", `'\\''`)}'`
}

/**
 * A pubmatch command line, in backquotes, as it can be pasted into a shell.
 * @param args - the arguments after `pubmatch`; empty strings are left out
 */
export function commandLine(...args: string[]): string {
  return `\`${[commandName(), ...args.filter((arg) => arg !== '').map(shellWord)].join(' ')}\``
}

/**
 * `[flag, dir]` when `dir` is not the default, else nothing: the flags a suggested command needs.
 * @param flag - `-c` or `-i`
 * @param dir - the directory the command used
 * @param fallback - the flag's default
 */
function flagFor(flag: '-c' | '-i', dir: string, fallback: string): string[] {
  return resolve(dir) === resolve(fallback) ? [] : [flag, shortPath(dir)]
}

/**
 * A path as briefly as it can be written from the working directory: relative when that is
 * shorter, else absolute.
 * @param path - any path
 */
export function shortPath(path: string): string {
  const absolute = resolve(path)
  const rel = relative(process.cwd(), absolute)
  return rel === '' ? '.' : rel.length < absolute.length ? rel : absolute
}

/** Three ways to fill a corpus, the first two with files every installation has (the bundled sample). */
function ingestExamples(corpus: string): string {
  const c = flagFor('-c', corpus, DEFAULT_CORPUS)
  return (
    `${commandLine('ingest', ...c, shortPath(join(SAMPLE_CORPUS_DIR, 'pubmed', 'medsamp2006.xml')))} (a PubMed XML file), ` +
    `${commandLine('ingest', ...c, shortPath(join(SAMPLE_CORPUS_DIR, 'jats')))} (a directory of PMC full texts, JATS or BioC) or ` +
    `${commandLine('ingest', ...c, '--entrez', 'asthma[mh]', '--max', '500')} (PubMed through NCBI E-utilities)`
  )
}

/**
 * What `pubmatch ingest` says when given nothing to read.
 * @param corpus - the corpus it would write
 */
export function nothingToIngest(corpus: string): PubmatchError {
  return new PubmatchError('INVALID_ARGUMENT', `give files or directories to read, or an Entrez query: e.g. ${ingestExamples(corpus)}`)
}

function isNonEmptyDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory() && readdirSync(dir).length > 0
  } catch {
    return false
  }
}

/**
 * Throws `NOT_FOUND` naming what to run when `corpus` holds no corpus: ingest into it (with
 * examples), or the demo; for a directory of files that is not a corpus, ingest that directory.
 * @param corpus - the corpus directory (`-c`)
 * @param index - the index directory of the command, when it has one (`-i`), for the commands suggested after
 */
export function assertCorpus(corpus: string, index?: string): void {
  if (existsSync(join(corpus, MANIFEST_FILE))) {
    return
  }
  const i = index === undefined ? [] : flagFor('-i', index, DEFAULT_INDEX)
  const message = isNonEmptyDirectory(corpus)
    ? `${corpus} is not a pubmatch corpus (no ${MANIFEST_FILE}); if it holds articles to read, ingest them into a corpus with ${commandLine('ingest', shortPath(corpus))}, then run ${commandLine('index', ...i)}`
    : `no corpus at ${corpus}; ingest articles into it first: ${ingestExamples(corpus)}; or run ${commandLine('demo', ...flagFor('-c', corpus, DEFAULT_CORPUS), ...i)} to ingest, index and search the bundled sample`
  throw new PubmatchError('NOT_FOUND', message, { details: { file: corpus } })
}

/**
 * Throws when a corpus to build a new index from has no article: `NOT_FOUND` as
 * {@link assertCorpus} when there is no corpus, `INVALID_ARGUMENT` naming what to ingest when it
 * is empty (or holds only MeSH records), or which files to read again when its full texts were
 * stored before article records were derived from them.
 * @param corpus - the corpus directory (`-c`)
 * @param index - the index directory (`-i`)
 */
export async function assertArticles(corpus: string, index: string): Promise<void> {
  assertCorpus(corpus, index)
  const store = await openCorpus(corpus, { readOnly: true })
  try {
    const stats = store.stats()
    if (stats.articles > 0) {
      return
    }
    if (stats.fullTexts > 0 && stats.deleted === 0) {
      throw noArticlesError(store)
    }
    throw new PubmatchError('INVALID_ARGUMENT', `the corpus ${corpus} holds no articles to index; ingest PubMed XML or PMC full texts into it first, e.g. ${ingestExamples(corpus)}`, {
      details: { file: corpus },
    })
  } finally {
    await store.close()
  }
}

/**
 * Throws `NOT_FOUND` naming what to run when `index` holds no pubmatch index: `pubmatch index`
 * when a corpus is at hand (the default one, or `corpus` beside the index), else the demo or
 * ingesting first.
 * @param index - the index directory (`-i`)
 */
export function assertIndex(index: string): void {
  if (existsSync(join(index, SETTINGS_FILE))) {
    return
  }
  const i = flagFor('-i', index, DEFAULT_INDEX)
  const corpus = [DEFAULT_CORPUS, join(dirname(index), 'corpus')].find((dir) => existsSync(join(dir, MANIFEST_FILE)))
  const message =
    corpus === undefined
      ? `no pubmatch index at ${index}, and no corpus to build one from; run ${commandLine('demo', ...i)} to ingest, index and search the bundled sample, ` +
        `or ingest articles first, e.g. ${ingestExamples(DEFAULT_CORPUS)}, then run ${commandLine('index', ...i)}`
      : `no pubmatch index at ${index}; build it from the corpus in ${corpus} with ${commandLine('index', ...flagFor('-c', corpus, DEFAULT_CORPUS), ...i)}`
  throw new PubmatchError('NOT_FOUND', message, { details: { file: index } })
}

/**
 * Throws `NOT_FOUND` naming what to run when the index has no full-text index: `pubmatch index
 * --fulltext` over the corpus the index follows.
 * @param index - the index directory (`-i`)
 */
export async function assertFulltextIndex(index: string): Promise<void> {
  assertIndex(index)
  if (existsSync(fulltextDir(index))) {
    return
  }
  const settings = await readIndexSettings(index)
  throw new PubmatchError(
    'NOT_FOUND',
    `the index ${index} has no full-text index; build it from the full texts of its corpus with ${commandLine('index', '-c', shortPath(settings.corpus), ...flagFor('-i', index, DEFAULT_INDEX), '--fulltext')}`,
    { details: { file: fulltextDir(index) } },
  )
}

/**
 * Throws `NOT_FOUND` naming what to run when the index has no section model (the PAV functions
 * the log-odds strategies need): `pubmatch fulltext train --known-item`.
 * @param index - the index directory (`-i`)
 */
export async function assertSectionModel(index: string): Promise<void> {
  await assertFulltextIndex(index)
  const file = sectionModelFile(index)
  if (existsSync(file)) {
    return
  }
  throw new PubmatchError(
    'NOT_FOUND',
    `the index ${index} has no section model (${file}); train one with ${commandLine('fulltext', 'train', ...flagFor('-i', index, DEFAULT_INDEX), '--known-item')} ` +
      `(each full text's title as a query for it), or with --queries and --qrels`,
    { details: { file } },
  )
}
