import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  PubmatchError,
  type Article,
  type MeshDescriptor,
  type MeshQualifierRecord,
} from '@pubmatch/core'
import { detectFormat, readMeshXml, readPubmedXml } from '@pubmatch/ingest'
import type { MeshVocabularyInput } from './fit/fit-mesh.ts'

/**
 * The shared real-data folder: `$PUBMATCH_SHARED` when set, else `../shared/data` from the
 * repository root, resolved from this file (so from `src/` and `dist/` alike).
 * @throws PubmatchError `NOT_FOUND` when the folder does not exist
 */
export function sharedDataDir(): string {
  const dir =
    process.env['PUBMATCH_SHARED'] ??
    fileURLToPath(new URL('../../../../shared/data/', import.meta.url))
  if (!existsSync(dir)) {
    throw new PubmatchError(
      'NOT_FOUND',
      `@pubmatch/synth: shared data not found at ${dir} (set PUBMATCH_SHARED)`,
      { details: { file: dir } },
    )
  }
  return dir
}

/** Folders of the shared data that hold PubMed XML. */
export const ARTICLE_FOLDERS: readonly string[] = ['pubmed-xml', 'eutils', 'trec-pm/medline']

function walk(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) {
      out.push(...walk(path))
    } else {
      out.push(path)
    }
  }
  return out
}

/**
 * The PubMed XML files of the shared data (format sniffed by `@pubmatch/ingest`), sorted.
 * @param dir - the shared data folder
 */
export async function realArticleFiles(dir: string): Promise<string[]> {
  const files: string[] = []
  for (const folder of ARTICLE_FOLDERS) {
    const path = join(dir, folder)
    if (!existsSync(path)) {
      continue
    }
    for (const file of walk(path)) {
      const detection = await detectFormat(file).catch(() => ({ format: null }))
      if (detection.format === 'pubmed-xml') {
        files.push(file)
      }
    }
  }
  return files
}

/**
 * Reads the articles of files (PubMed XML); records that fail to parse are skipped.
 * @param files - PubMed XML files
 */
export async function* readArticles(files: readonly string[]): AsyncGenerator<Article> {
  for (const file of files) {
    for await (const record of readPubmedXml(file)) {
      if (record.kind === 'article') {
        yield record.article
      }
    }
  }
}

/** The MeSH files of the shared data whose records the model embeds. */
export const MESH_FILES: readonly string[] = [
  'mesh/desc-samples.xml',
  'mesh/desc2014-head.xml',
  'mesh/qual2014.xml',
]

/**
 * Reads the descriptors and qualifiers of {@link MESH_FILES}.
 * @param dir - the shared data folder
 */
export async function readMeshVocabulary(dir: string): Promise<MeshVocabularyInput> {
  const descriptors: MeshDescriptor[] = []
  const qualifiers: MeshQualifierRecord[] = []
  for (const file of MESH_FILES) {
    for await (const record of readMeshXml(join(dir, file))) {
      if (record.kind === 'mesh' && record.entry.type === 'descriptor') {
        descriptors.push(record.entry.record)
      } else if (record.kind === 'mesh' && record.entry.type === 'qualifier') {
        qualifiers.push(record.entry.record)
      }
    }
  }
  return { descriptors, qualifiers }
}

/**
 * A path relative to the shared data folder, with `/` separators, for provenance.
 * @param dir - the shared data folder
 * @param file - a file inside it
 */
export function dataRelative(dir: string, file: string): string {
  return relative(dir, file).split('\\').join('/')
}
