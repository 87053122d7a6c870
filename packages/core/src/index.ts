/**
 * `@pubmatch/core`: the vocabulary every pubmatch package shares: the article model, MeSH records,
 * queries, runs and judgements, the one error class, the checks of JSON read from disk or another
 * process, and the code point order of strings. Node-only helpers are in `@pubmatch/core/node`.
 */

// Errors: one class, told apart by `code`
export { PubmatchError, isPubmatchError, toPubmatchError, truncateForMessage } from './errors.ts'
export type { ErrorDetails, PubmatchErrorCode, PubmatchErrorOptions } from './errors.ts'

// The article model (citations, books, test-collection documents, records derived from full texts)
export { abstractText, articleId, articleYear, emptyArticle } from './article.ts'
export type {
  AbstractSection,
  Article,
  ArticleId,
  ArticleSource,
  Author,
  AuthorIdentifier,
  Book,
  Chemical,
  CommentCorrection,
  DataBank,
  DeletedCitation,
  DerivedFrom,
  Grant,
  HistoryDate,
  Journal,
  Keyword,
  MeshHeading,
  MeshQualifier,
  OtherAbstract,
  PartialDate,
  PublicationType,
  SupplementaryConcept,
} from './article.ts'

// PMC full texts, MeSH records, queries and judgements, analysed tokens
export { SECTION_TYPES } from './fulltext.ts'
export type { FullTextDocument, Passage, PassageRole, SectionType } from './fulltext.ts'
export type { MeshDescriptor, MeshQualifierRecord, MeshSupplementaryRecord } from './mesh.ts'
export type { Qrels, Query, Run, RunEntry } from './evaluation.ts'
export type { Token } from './token.ts'

// Checked JSON: the `json` shapes and the checks (`readJsonFile` is in `@pubmatch/core/node`)
export * as json from './json/namespace.ts'
export { checkJson, parseJson } from './json/parse.ts'
export type { JsonSource } from './json/parse.ts'
export type { JsonShape, JsonShapeType } from './json/shapes.ts'

// The one string order of ids and terms: Unicode code points (the byte order of UTF-8)
export { compareCodePoints } from './code-point-order.ts'
