import type {
  Article,
  DeletedCitation,
  FullTextDocument,
  MeshDescriptor,
  MeshQualifierRecord,
  MeshSupplementaryRecord,
  PubmatchError,
} from '@pubmatch/core'

/** A MeSH vocabulary record, tagged with its kind. */
export type MeshEntry =
  | { type: 'descriptor'; record: MeshDescriptor }
  | { type: 'qualifier'; record: MeshQualifierRecord }
  | { type: 'supplementary'; record: MeshSupplementaryRecord }

/**
 * What every reader in this package yields, one value per input record: an article, a
 * deletion, a full text, a MeSH record, or the error that kept one record from being read.
 * A full text comes with the article record built from its own front matter (`article`, with
 * `derivedFrom` set), which the corpus store keeps only while it holds no citation for that id.
 * Readers never throw for a bad record: they yield `{ kind: 'error' }` and carry on with the
 * next one. They throw only when the whole input is unusable (missing file, unsupported
 * format…), and then with a {@link PubmatchError}.
 */
export type IngestRecord =
  | { kind: 'article'; article: Article }
  | { kind: 'delete'; deleted: DeletedCitation[] }
  | { kind: 'fulltext'; document: FullTextDocument; article?: Article }
  | { kind: 'mesh'; entry: MeshEntry }
  | { kind: 'error'; error: PubmatchError }
