import type { Article, DeletedCitation, FullTextDocument, PubmatchError } from '@pubmatch/core'

/**
 * What every reader in this package yields, one value per input record: an article, a
 * deletion, a full text, or the error that kept one record from being read. Readers never
 * throw for a bad record: they yield `{ kind: 'error' }` and carry on with the next one.
 * They throw only when the whole input is unusable (missing file, unsupported format…),
 * and then with a {@link PubmatchError}.
 */
export type IngestRecord =
  | { kind: 'article'; article: Article }
  | { kind: 'delete'; deleted: DeletedCitation[] }
  | { kind: 'fulltext'; document: FullTextDocument }
  | { kind: 'error'; error: PubmatchError }
