export { checkPavFunction, evaluatePav, fitPav, logOdds } from './pav.ts'
export type { PavFunction, PavPoint } from './pav.ts'
export { ABSTRACT_FIELD, MERGED_FIELD, articleKey, buildFulltextIndex, openFulltextIndex, scoredPassages } from './fulltext-index.ts'
export type { BuildFulltextOptions, FulltextIndex } from './fulltext-index.ts'
export {
  bm25,
  compileSectionModel,
  FULLTEXT_STRATEGIES,
  fieldScores,
  queryTerms,
  rankFulltext,
  sectionScores,
  termSectionScores,
  trainingPoints,
  trainSectionModel,
} from './scoring.ts'
export type { Bm25Params, CompiledSectionModel, FulltextHit, FulltextStrategy, LabelledFulltextQuery, SectionModel, SectionScores } from './scoring.ts'
export { loadSectionModel, modelSections, plotSectionModel, saveSectionModel, SECTION_MODEL_FORMAT } from './model.ts'
export type { PlotOptions, SavedSectionModel } from './model.ts'
