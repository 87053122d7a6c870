/**
 * Feature parity of the second stage in Solr, column by column, on a real collection: for each
 * query, the 179 (+ M1–M3) values each shard computed for its candidates (`createSolrReranker`
 * with `features: true`, the `[pubmatch]` transformer) against `@pubmatch/ltr`'s extractor over
 * the embedded index and forward store, given the same candidates with Solr's first-stage scores
 * and total (as `packages/engine/test/solr-rerank.test.ts` does on the bundled sample), and the
 * model's scores against the TypeScript scorer of the same model.
 */
import type { SearchResult } from '@pubmatch/bm25f'
import type { SearchEngine } from '@pubmatch/engine'
import { engineInternals } from '@pubmatch/engine/internal'
import { scoreRows } from '@pubmatch/lightgbm-wasm'
import { bestMatchExtractor, loadModel, type FeatureExtractor, type RankerModel } from '@pubmatch/ltr'
import { createQueryMemory, loadModelMemory, MEMORY_SCHEMA_SUFFIX, withQueryMemory } from '@pubmatch/ltr/internal'
import type { SolrRerankResult, SolrSearchResult } from '@pubmatch/solr'

/** One feature column over every row compared. */
export interface ColumnParity {
  readonly feature: string
  /** Rows whose Solr value equals the embedded value bit for bit. */
  readonly identical: number
  /** The largest |Solr − embedded| / max(|Solr|, |embedded|) (0 when both are 0). */
  readonly maxRelative: number
  /** The row of the largest difference: query, document, Solr's value, the embedded value. */
  readonly worst?: { readonly query: string; readonly id: string; readonly solr: number; readonly embedded: number }
}

/** What {@link FeatureParityCheck.summary} returns. */
export interface FeatureParity {
  readonly queries: number
  readonly rows: number
  readonly columns: readonly ColumnParity[]
  /** The largest relative difference of the model's double-precision score (`modelScore`). */
  readonly modelScoreMaxRelative: number
  /** The largest relative difference of the score Solr ranks by (a 32-bit float). */
  readonly floatScoreMaxRelative: number
  /** Candidates Solr did not return (should be none). */
  readonly missing: number
}

/** Accumulates the comparison query by query. */
export interface FeatureParityCheck {
  /**
   * @param query - the query text
   * @param first - the Solr first stage's candidates (the ones reranked)
   * @param solr - the rerank of `first` with `features: true`
   */
  add(query: string, first: SolrSearchResult, solr: SolrRerankResult): void
  summary(): FeatureParity
}

/** |a − b| relative to the larger magnitude (0 when both are 0 or both are the same). */
export function relativeDifference(a: number, b: number): number {
  if (Object.is(a, b)) {
    return 0
  }
  const scale = Math.max(Math.abs(a), Math.abs(b))
  return scale === 0 ? 0 : Math.abs(a - b) / scale
}

/**
 * A parity check against the embedded engine's extractor, built as `openReranker` builds it for
 * the model (the query memory from the model's `memory.jsonl`, analysed by the index's title analyzer).
 * @param engine - the embedded engine over the same corpus
 * @param modelDir - the model deployed into the collection
 */
export async function createFeatureParityCheck(engine: SearchEngine, modelDir: string): Promise<FeatureParityCheck> {
  const { reader, forwardStore } = engineInternals(engine)
  const model: RankerModel = await loadModel(modelDir)
  let extractor: FeatureExtractor = bestMatchExtractor({ reader, forward: await forwardStore(), syntax: engine.firstStage.syntax })
  if (model.manifest.schema.version.includes(MEMORY_SCHEMA_SUFFIX)) {
    const field = reader.hasField('title') ? 'title' : reader.schema.fields[0]!.name
    const memory = createQueryMemory({
      queries: await loadModelMemory(modelDir),
      analyzer: reader.analyzer(field),
      k: model.manifest.training.memory?.k ?? 20,
    })
    extractor = withQueryMemory(extractor, memory)
  }
  const features = extractor.schema.features.map((feature) => feature.id)
  const width = features.length
  const identical = new Float64Array(width)
  const maxRelative = new Float64Array(width)
  const worst = new Map<number, ColumnParity['worst']>()
  let queries = 0
  let rows = 0
  let missing = 0
  let modelScoreMaxRelative = 0
  let floatScoreMaxRelative = 0
  return {
    add(query, first, solr) {
      if (first.hits.length === 0) {
        return
      }
      queries++
      const candidates: SearchResult = {
        hits: first.hits.map((hit) => {
          const docNumber = reader.docNumber(hit.id)
          if (docNumber === undefined) {
            throw new Error(`Solr returned ${hit.id}, which the embedded index does not hold`)
          }
          return { id: hit.id, docNumber, score: hit.score, rank: hit.rank }
        }),
        total: first.total,
        totalRelation: 'eq',
        query: first.query,
        warnings: [],
        stats: { docsScored: 0, postingsScored: 0, docsMatched: first.total, windows: 0, blocksSkipped: 0, clauses: 0, pruned: false },
      }
      const matrix = extractor.extract(query, candidates)
      const scores = scoreRows(model.model, matrix, { raw: true })
      const byId = new Map(solr.hits.map((hit) => [hit.id, hit]))
      first.hits.forEach((hit, i) => {
        const got = byId.get(hit.id)
        if (got?.features === undefined || got.features.length !== width) {
          missing++
          return
        }
        rows++
        for (let c = 0; c < width; c++) {
          const want = matrix.data[i * width + c]!
          const have = got.features[c]!
          if (Object.is(have, want)) {
            identical[c]!++
            continue
          }
          const d = relativeDifference(have, want)
          if (d > maxRelative[c]! || !worst.has(c)) {
            worst.set(c, { query, id: hit.id, solr: have, embedded: want })
          }
          maxRelative[c] = Math.max(maxRelative[c]!, d)
        }
        if (typeof got.modelScore !== 'number') {
          throw new Error(`Solr returned no model score for ${hit.id} of \`${query}\``)
        }
        modelScoreMaxRelative = Math.max(modelScoreMaxRelative, relativeDifference(got.modelScore, scores[i]!))
        floatScoreMaxRelative = Math.max(floatScoreMaxRelative, relativeDifference(got.score, scores[i]!))
      })
    },
    summary() {
      return {
        queries,
        rows,
        missing,
        modelScoreMaxRelative,
        floatScoreMaxRelative,
        columns: features.map((feature, c) => ({
          feature,
          identical: identical[c]!,
          maxRelative: maxRelative[c]!,
          ...(worst.has(c) ? { worst: worst.get(c)! } : {}),
        })),
      }
    },
  }
}

/**
 * The parity as Markdown: how many columns are bit-identical on every row, and each column that is not.
 * @param parity - the summary
 */
export function renderFeatureParity(parity: FeatureParity): string {
  const exact = parity.columns.filter((column) => column.identical === parity.rows)
  const within = parity.columns.filter((column) => column.identical < parity.rows && column.maxRelative <= 1e-9)
  const beyond = parity.columns.filter((column) => column.maxRelative > 1e-9)
  const lines = [
    `${parity.rows.toLocaleString('en-US')} rows (${parity.queries} queries × their candidates, up to 500), ${parity.columns.length} columns; ${parity.missing} candidates without features.`,
    '',
    `- bit-identical on every row: **${exact.length} of ${parity.columns.length}** columns`,
    `- not bit-identical but within 1e-9 relative: ${within.length}${within.length === 0 ? '' : ` (${within.map((c) => `${c.feature} ${c.maxRelative.toExponential(2)}`).join(', ')})`}`,
    `- beyond 1e-9 relative: ${beyond.length}${beyond.length === 0 ? '' : ` (${beyond.map((c) => `${c.feature}: ${c.maxRelative.toExponential(2)} on ${parity.rows - c.identical} rows, worst \`${c.worst?.query}\` ${c.worst?.id}: Solr ${c.worst?.solr}, embedded ${c.worst?.embedded}`).join('; ')})`}`,
    `- model score (double precision, \`modelScore\`): largest relative difference ${parity.modelScoreMaxRelative.toExponential(2)}; the score Solr ranks by (32-bit float): ${parity.floatScoreMaxRelative.toExponential(2)}`,
  ]
  return lines.join('\n')
}
