export {
  PubmatchError,
  isPubmatchError,
  toPubmatchError,
  truncateForMessage,
} from './errors.ts'
export type { PubmatchErrorCode, ErrorDetails, PubmatchErrorOptions } from './errors.ts'
export { articleYear, abstractText, articleId, emptyArticle } from './article.ts'
export type {
  Article,
  ArticleId,
  ArticleSource,
  AbstractSection,
  Author,
  AuthorIdentifier,
  Book,
  Chemical,
  CommentCorrection,
  DeletedCitation,
  DerivedFrom,
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
export { compareCodePoints } from './code-point-order.ts'
export * as json from './json/shapes.ts'
export { checkJson, parseJson } from './json/parse.ts'
export type { JsonSource } from './json/parse.ts'
export type { JsonFields, JsonObjectOf, JsonPath, JsonShape, JsonShapeType } from './json/shapes.ts'
export { SECTION_TYPES } from './fulltext.ts'
export type { FullTextDocument, Passage, PassageRole, SectionType } from './fulltext.ts'
export type { MeshDescriptor, MeshQualifierRecord, MeshSupplementaryRecord } from './mesh.ts'
export type { Qrels, Query, Run, RunEntry } from './evaluation.ts'
export type { Token } from './token.ts'
