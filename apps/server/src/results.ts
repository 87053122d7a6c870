/**
 * How search results look in JSON: the fields every ranking shares (a result of `GET /search`, of
 * a full-text search, of a feedback session), both stages' scores, and the model's contributions
 * with feature names. The `Hit`, `SessionDocument` and `ExplainResponse` schemas describe them.
 */
import type { DocumentExplanation, EngineHit, Highlighted } from '@pubmatch/engine'
import { BEST_MATCH_SCHEMA, MEMORY_FEATURES } from '@pubmatch/ltr'

/** A document's title and snippet with the query's words marked. */
export interface Marked {
  readonly title: Highlighted
  readonly snippet: Highlighted
}

/** What every ranking's result needs of a hit. */
export interface RankedDocument {
  readonly id: string
  readonly rank: number
  readonly score: number
  readonly document: EngineHit['document']
}

/**
 * A result's fields of every ranking: id, rank, score, highlighted title and snippet, the stored record's metadata.
 * @param hit - the ranked document
 * @param marked - its highlighted title and snippet
 */
export function resultJson(hit: RankedDocument, marked: Marked): Record<string, unknown> {
  const doc = hit.document
  return {
    pmid: hit.id,
    rank: hit.rank,
    score: hit.score,
    title: marked.title,
    snippet: marked.snippet,
    ...(doc.journal === undefined ? {} : { journal: doc.journal }),
    ...(doc.year === undefined ? {} : { year: doc.year }),
    authors: doc.authors,
    authorCount: doc.authorCount,
    pubTypes: doc.pubTypes,
    ...(doc.pmcid === undefined ? {} : { pmcid: doc.pmcid }),
    ...(doc.doi === undefined ? {} : { doi: doc.doi }),
    ...(doc.derivedFrom === undefined ? {} : { derivedFrom: doc.derivedFrom }),
  }
}

/**
 * A hit of `GET /search`: {@link resultJson} and both stages' scores (with `explain`, their explanations: the BM25F tree, the model's bias and first 20 contributions).
 * @param hit - the engine's hit
 * @param marked - its highlighted title and snippet
 * @param explain - whether to attach the explanations
 */
export function hitJson(hit: EngineHit, marked: Marked, explain: boolean): Record<string, unknown> {
  return {
    ...resultJson(hit, marked),
    firstStage: {
      score: hit.firstStage.score,
      ...(Number.isFinite(hit.firstStage.rank) ? { rank: hit.firstStage.rank } : {}),
      ...(explain && hit.firstStage.explain !== undefined ? { explain: hit.firstStage.explain } : {}),
    },
    ...(hit.secondStage === undefined
      ? {}
      : {
          secondStage: {
            score: hit.secondStage.score,
            ...(explain && hit.secondStage.explain !== undefined
              ? { bias: hit.secondStage.explain.bias, contributions: hit.secondStage.explain.contributions.slice(0, 20) }
              : {}),
          },
        }),
  }
}

const FEATURE_NAMES: ReadonlyMap<string, string> = new Map([...BEST_MATCH_SCHEMA.features, ...MEMORY_FEATURES].map((feature) => [feature.id, feature.name]))

/**
 * An engine's explanation as `GET /articles/:pmid/explain` answers it: `pmid` for `id`, a first-stage rank only when the document has one, and feature names beside the model's contributions.
 * @param explained - the engine's explanation
 */
export function explanationJson(explained: DocumentExplanation): Record<string, unknown> {
  const { id, firstStage, secondStage, ...rest } = explained
  return {
    ...rest,
    pmid: id,
    ...(firstStage === undefined
      ? {}
      : {
          firstStage: {
            score: firstStage.score,
            ...(Number.isFinite(firstStage.rank) ? { rank: firstStage.rank } : {}),
            ...(firstStage.explain === undefined ? {} : { explain: firstStage.explain }),
          },
        }),
    ...(secondStage === undefined
      ? {}
      : {
          secondStage: {
            ...secondStage,
            contributions: secondStage.contributions.map((c) => ({ ...c, ...(FEATURE_NAMES.has(c.feature) ? { name: FEATURE_NAMES.get(c.feature) } : {}) })),
          },
        }),
  }
}
