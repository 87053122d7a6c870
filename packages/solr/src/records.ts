/**
 * What a serving process reads from the collection instead of a local index: each article's
 * stored record (`pubmatch_record`, the JSON of the embedded index's `StoredDocument`, stored
 * only) and the corpus's MeSH vocabulary (one document, `_pubmatch_mesh`, whose stored-only
 * `pubmatch_mesh` holds the descriptors' ui, name, tree numbers and entry terms as gzip'd JSON in
 * base64), so that `[mh]` maps and explodes as with the corpus at hand.
 */
import { gunzipSync, gzipSync, strFromU8, strToU8 } from 'fflate'
import {
  checkJson,
  json,
  parseJson,
  PubmatchError,
  type Article,
  type JsonShape,
  type MeshDescriptor,
} from '@pubmatch/core'
import { defaultStoredDocument, type StoredDocument } from '@pubmatch/index'
import type { SolrClient } from './client.ts'

/** The stored-only field of an article's record (JSON of `StoredDocument`). */
export const RECORD_FIELD = 'pubmatch_record'

/** The stored-only field of the MeSH vocabulary document. */
export const MESH_FIELD = 'pubmatch_mesh'

/** The id of the MeSH vocabulary document. */
export const MESH_ID = '_pubmatch_mesh'

const STORED_DOCUMENT: JsonShape<StoredDocument> = json.object({
  id: json.string,
  title: json.string,
  year: json.optional(json.integer),
  journal: json.optional(json.string),
  authors: json.array(json.string),
  authorCount: json.count,
  pubTypes: json.array(json.string),
  languages: json.array(json.string),
  abstract: json.optional(json.string),
  pmcid: json.optional(json.string),
  doi: json.optional(json.string),
  derivedFrom: json.optional(json.literal('jats', 'bioc')),
})

/**
 * An article's record as the collection stores it: the embedded index's stored record
 * (`defaultStoredDocument`), as JSON.
 * @param article - the article
 */
export function encodeRecord(article: Article): string {
  return JSON.stringify(defaultStoredDocument(article))
}

/**
 * A record read back, checked.
 * @param text - the stored field's value
 * @param where - what it was read from (for the message)
 * @throws PubmatchError `INDEX_CORRUPTED` for a value of another shape
 */
export function decodeRecord(text: string, where: string): StoredDocument {
  return parseJson(text, STORED_DOCUMENT, { file: where, code: 'INDEX_CORRUPTED' })
}

/** What the vocabulary keeps of a descriptor (what `[mh]` mapping and explosion read). */
type VocabularyEntry = Pick<MeshDescriptor, 'ui' | 'name' | 'treeNumbers' | 'entryTerms'>

const VOCABULARY: JsonShape<Array<readonly [string, string, string[], string[]]>> = json.array(
  json.tuple(json.string, json.string, json.array(json.string), json.array(json.string)),
)

/**
 * The MeSH vocabulary document of a corpus's descriptors.
 * @param descriptors - the corpus's MeSH descriptors
 */
export function meshDocument(descriptors: readonly VocabularyEntry[]): Record<string, string> {
  const rows = descriptors.map((d) => [
    d.ui,
    d.name,
    d.treeNumbers,
    d.entryTerms.filter((term) => term !== d.name),
  ])
  return {
    id: MESH_ID,
    [MESH_FIELD]: Buffer.from(gzipSync(strToU8(JSON.stringify(rows)), { mtime: 0 })).toString(
      'base64',
    ),
  }
}

/**
 * The MeSH descriptors a collection holds, or `undefined` when it holds none (a collection of a
 * corpus without MeSH records, or of the test-collection field set).
 * @param client - a client
 * @param collection - the collection
 * @throws PubmatchError `INDEX_CORRUPTED` for a vocabulary document that does not decode,
 *   `UPSTREAM_HTTP`/`NETWORK`
 */
export async function readMeshVocabulary(
  client: SolrClient,
  collection: string,
): Promise<MeshDescriptor[] | undefined> {
  const answer = await client.request({
    path: `${collection}/select`,
    params: { q: '{!term f=id v=$id}', id: MESH_ID, fl: MESH_FIELD, rows: 1 },
  })
  const { response } = checkJson(
    answer,
    json.object({ response: json.object({ docs: json.array(json.record(json.unknown)) }) }),
    {
      file: `${collection}/select`,
    },
  )
  const encoded = response.docs[0]?.[MESH_FIELD]
  if (typeof encoded !== 'string') {
    return undefined
  }
  const where = `the MeSH vocabulary document ${MESH_ID} of collection ${collection}`
  let text: string
  try {
    text = strFromU8(gunzipSync(Buffer.from(encoded, 'base64')))
  } catch (cause) {
    throw new PubmatchError(
      'INDEX_CORRUPTED',
      `${where} is not gzip'd base64; index the corpus into the collection again`,
      {
        cause,
        details: { file: where },
      },
    )
  }
  return parseJson(text, VOCABULARY, { file: where, code: 'INDEX_CORRUPTED' }).map(
    ([ui, name, treeNumbers, entryTerms]) => ({
      ui,
      name,
      treeNumbers,
      entryTerms: [name, ...entryTerms],
      allowableQualifiers: [],
    }),
  )
}
