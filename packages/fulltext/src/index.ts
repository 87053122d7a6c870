// the full-text index: passages by section type, and the articles for the baselines
export { buildFulltextIndex, openFulltextIndex } from './fulltext-index.ts'
export type { BuildFulltextOptions, FulltextIndex } from './fulltext-index.ts'
// ranking: per-section BM25, Sum or Max log-odds, or BM25 on the abstract or the merged text
export { compileSectionModel, FULLTEXT_STRATEGIES, rankFulltext, sectionScores } from './scoring.ts'
export type { Bm25Params, CompiledSectionModel, FulltextHit, FulltextStrategy, SectionScores } from './scoring.ts'
// section models: PAV functions per section type, trained from labelled queries, saved and drawn
export { trainSectionModel } from './scoring.ts'
export type { LabelledFulltextQuery, SectionModel } from './scoring.ts'
export { evaluatePav } from './pav.ts'
export type { PavFunction } from './pav.ts'
export { loadSectionModel, plotSectionModel, saveSectionModel } from './model.ts'
export type { PlotOptions, SavedSectionModel } from './model.ts'
