import { stat } from 'node:fs/promises'
import { readBiocFile } from '../bioc/read-bioc.ts'
import { readJatsXml } from '../jats/reader.ts'
import { readJsonlArticles } from '../collections/jsonl.ts'
import { readMedlineText } from '../collections/medline-text.ts'
import { readNfcorpusDocs } from '../collections/nfcorpus.ts'
import { readMeshXml } from '../mesh/reader.ts'
import { readPubmedXml } from '../pubmed/reader.ts'
import type { IngestRecord } from '../records.ts'
import type { FileReader, FileReaders } from './ingest-files.ts'

/** Wraps a reader that cannot report bytes: reports the whole file once it is read. */
function wholeFile(read: (path: string) => AsyncIterable<IngestRecord>): FileReader {
  return async function* (path, onBytes) {
    yield* read(path)
    onBytes((await stat(path)).size)
  }
}

/**
 * The reader for every input format: streaming PubMed XML, JATS and MeSH XML with byte
 * progress, BioC files, NFCorpus, JSON lines and MEDLINE text.
 */
export function defaultReaders(): FileReaders {
  const xml =
    (read: typeof readPubmedXml | typeof readJatsXml): FileReader =>
    (path, onBytes) =>
      read(path, { file: path, onBytes })
  return {
    'pubmed-xml': xml(readPubmedXml),
    'mesh-descriptors': xml(readMeshXml),
    'mesh-qualifiers': xml(readMeshXml),
    'mesh-supplementary': xml(readMeshXml),
    'bioc-json': wholeFile(readBiocFile),
    'bioc-xml': wholeFile(readBiocFile),
    jats: xml(readJatsXml),
    nfcorpus: wholeFile(readNfcorpusDocs),
    jsonl: wholeFile(readJsonlArticles),
    'medline-text': wholeFile(readMedlineText),
  }
}
