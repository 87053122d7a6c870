/**
 * A reranking model on disk: LightGBM's text model (`model.txt`) plus a manifest
 * (`manifest.json`) naming the feature schema it was trained on, the training data, parameters
 * and metrics. Loading a model whose schema differs from the extractor's fails loudly.
 */
import { mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { checkJson, isPubmatchError, json, parseJson, PubmatchError, type JsonShape } from '@pubmatch/core'
import { parseLightGbmModel, parseLightGbmModelInSteps, type LightGbmModel, type LightGbmParams, type ModelTree } from '@pubmatch/lightgbm-wasm'
import { writeFileAtomic } from '@pubmatch/core/node'
import type { FeatureSchema, LabelledQuery } from './types.ts'

/**
 * The manifest's format tag. Version 2 has typed `firstStage` and `training` records (version 1's
 * were free-form; such models are refused with a request to retrain).
 */
export const MODEL_FORMAT = 'pubmatch-ltr-model/2'
export const MODEL_FILE = 'model.txt'
export const MANIFEST_FILE = 'manifest.json'
/** The query memory of a model that uses one (`withQueryMemory`): JSON lines `{id, text, judgements}`. */
export const MEMORY_FILE = 'memory.jsonl'

/** The first stage a model reranks: its candidates' features depend on every part of it. */
export interface FirstStageRecord {
  /** The scoring function (`bm25f`, `bm25`, …). */
  readonly ranker: string
  /** Its parameters as given (`k1`, `b`, `fieldWeights`, …); `{}` for its defaults. */
  readonly params: Readonly<Record<string, unknown>>
  /** The analyzer of the index's text fields (`biomedical`). */
  readonly analyzer: string
  /** The index's field set (`pubmed`, `test-collection`). */
  readonly fieldSet: string
  /** The index's text fields, in schema order. */
  readonly fields: readonly string[]
  /** `all` (PubMed's Boolean semantics) or `any` (ranked retrieval). */
  readonly match: 'all' | 'any'
  /** `pubmed` (PubMed query syntax) or `plain` (natural-language text). */
  readonly syntax: 'pubmed' | 'plain'
  /** Candidates per query the model was trained on (reranking may use another depth). */
  readonly depth: number
}

/** How a model's training data was made. */
export interface TrainingRecord {
  /** The training queries (a file, or a description). */
  readonly queries: string
  /** Their judgements (a file, or a description). */
  readonly qrels: string
  /** The validation queries: a file, or `split 65/15/20 (seed N)`. */
  readonly validation: string
  /** The search log that gave past usage (F2–F3), or `null`. */
  readonly usageLog: string | null
  /** First-stage candidates per query. */
  readonly depth: number
  readonly trainQueries: number
  readonly trainRows: number
  readonly validQueries: number
  /** Queries held out and evaluated into `metrics.test_*` (0 with given validation queries). */
  readonly testQueries: number
  /** Training time (LightGBM only), in seconds. */
  readonly seconds: number
  readonly seed: number
  /** The query memory (M1–M3): how many queries it remembers and how many it consults; `null` without. */
  readonly memory: { readonly queries: number; readonly k: number } | null
}

/** The smallest and largest value of a feature among the training rows. */
export type QueryRange = readonly [number, number]

/** What `manifest.json` holds. */
export interface ModelManifest {
  readonly format: typeof MODEL_FORMAT
  /** When it was trained (ISO 8601). */
  readonly createdAt: string
  /** The feature schema: its version and the feature ids in column order. */
  readonly schema: { readonly version: string; readonly features: readonly string[] }
  /** The first stage the model reranks; opening it over another is an error. */
  readonly firstStage: FirstStageRecord
  /** How the training data was made. */
  readonly training: TrainingRecord
  /** LightGBM parameters and the trees kept. */
  readonly lightgbm: { readonly params: LightGbmParams; readonly iterations: number }
  /** Metrics measured at training time (validation NDCG, cross-validation, held-out test). */
  readonly metrics: Readonly<Record<string, number>>
  /**
   * Per query-level feature id: its range over the training queries. A query outside it is left
   * in first-stage order (`BestMatchReranker.rerank`). Absent: no such check.
   */
  readonly queryRanges?: Readonly<Record<string, QueryRange>>
}

const FIRST_STAGE: JsonShape<FirstStageRecord> = json.object({
  ranker: json.string,
  params: json.record(json.unknown),
  analyzer: json.string,
  fieldSet: json.string,
  fields: json.array(json.string),
  match: json.literal('all', 'any'),
  syntax: json.literal('pubmed', 'plain'),
  depth: json.count,
})

const TRAINING: JsonShape<TrainingRecord> = json.object({
  queries: json.string,
  qrels: json.string,
  validation: json.string,
  usageLog: json.nullable(json.string),
  depth: json.count,
  trainQueries: json.count,
  trainRows: json.count,
  validQueries: json.count,
  testQueries: json.count,
  seconds: json.number,
  seed: json.integer,
  memory: json.nullable(json.object({ queries: json.count, k: json.count })),
})

const LIGHTGBM_PARAM_VALUE = json.union(json.string, json.number, json.boolean, json.array(json.union(json.string, json.number)))

const MANIFEST: JsonShape<ModelManifest> = json.object({
  format: json.literal(MODEL_FORMAT),
  createdAt: json.string,
  schema: json.object({ version: json.string, features: json.array(json.string) }),
  firstStage: FIRST_STAGE,
  training: TRAINING,
  lightgbm: json.object({ params: json.record(LIGHTGBM_PARAM_VALUE), iterations: json.count }),
  metrics: json.record(json.number),
  queryRanges: json.optional(json.record(json.tuple(json.number, json.number))),
})

/** One line of a model's query memory. */
const MEMORY_QUERY = json.object({ id: json.string, text: json.string, judgements: json.record(json.count) })

/** A loaded model. */
export interface RankerModel {
  readonly manifest: ModelManifest
  readonly text: string
  /** The parsed trees, for `scoreRows` of @pubmatch/lightgbm-wasm. */
  readonly model: LightGbmModel
}

/**
 * Writes a model directory crash-safely: `model.txt` first, then `manifest.json` (each via a
 * temporary file and a rename), so a manifest always describes a complete model.
 * @param dir - the model directory (created if missing)
 * @param manifest - the manifest
 * @param text - LightGBM's model text
 */
export async function saveModel(dir: string, manifest: ModelManifest, text: string): Promise<void> {
  const model = parseLightGbmModel(text)
  if (model.numFeatures !== manifest.schema.features.length) {
    throw new PubmatchError(
      'SCHEMA_MISMATCH',
      `the model uses ${model.numFeatures} features but the manifest lists ${manifest.schema.features.length}`,
    )
  }
  await mkdir(dir, { recursive: true })
  await writeFileAtomic(join(dir, MODEL_FILE), text)
  await writeFileAtomic(join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`)
}

/**
 * A model's manifest from its text (`manifest.json`), checked as {@link loadModel} checks it: for
 * a manifest read from elsewhere than a model directory (a model deployed into a Solr collection).
 * @param text - the manifest's JSON
 * @param file - where it came from, for messages
 * @throws PubmatchError `UNSUPPORTED_FORMAT` (not a manifest of this format: the message names the
 *   file and the first field that does not fit)
 */
export function parseModelManifest(text: string, file: string): ModelManifest {
  return checkJson(parseJson(text, json.unknown, { file, code: 'UNSUPPORTED_FORMAT' }), MANIFEST, { file, code: 'UNSUPPORTED_FORMAT' })
}

/** Options of {@link loadModel}. */
export interface LoadModelOptions {
  /**
   * A model loaded earlier: when the directory holds the same model text and manifest, its parsed
   * trees are used instead of parsing the text again (so a scorer that compiled them keeps its
   * compiled form). Defaults to none.
   */
  readonly reuse?: RankerModel
}

/**
 * Reads a model directory and checks it against the feature schema it will be used with.
 * @param dir - the model directory
 * @param schema - the extractor's schema; its version and feature ids must equal the manifest's
 * @param options - see {@link LoadModelOptions}
 * @throws PubmatchError `NOT_FOUND` (no model there), `UNSUPPORTED_FORMAT` (not a manifest or model: the
 *   message names the file and the first field that does not fit), `SCHEMA_MISMATCH` (trained on other features)
 */
export async function loadModel(dir: string, schema?: FeatureSchema, options: LoadModelOptions = {}): Promise<RankerModel> {
  let manifestText: string
  let text: string
  try {
    manifestText = await readFile(join(dir, MANIFEST_FILE), 'utf8')
    text = await readFile(join(dir, MODEL_FILE), 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new PubmatchError(
        'NOT_FOUND',
        `no model in ${dir} (expected ${MANIFEST_FILE} and ${MODEL_FILE}); train one on judged queries with \`pubmatch train -i INDEX --queries QUERIES --qrels QRELS -o ${dir}\` (TREC qrels, or \`pubmatch clicks labels\` from a search log)`,
      )
    }
    throw error
  }
  const source = { file: join(dir, MANIFEST_FILE), code: 'UNSUPPORTED_FORMAT' } as const
  const parsed = parseJson(manifestText, json.unknown, source)
  if (typeof parsed === 'object' && parsed !== null && (parsed as { format?: unknown }).format === 'pubmatch-ltr-model/1') {
    throw new PubmatchError(
      'UNSUPPORTED_FORMAT',
      `${source.file} is a pubmatch-ltr-model/1 manifest, which does not record its first stage exactly; retrain the model with \`pubmatch train\``,
      { details: { file: source.file } },
    )
  }
  const manifest = checkJson(parsed, MANIFEST, source)
  const reuse = options.reuse
  if (reuse !== undefined && reuse.text === text && JSON.stringify(reuse.manifest) === JSON.stringify(manifest)) {
    if (schema !== undefined) {
      checkSchema(manifest, schema, dir)
    }
    return { manifest, text, model: reuse.model }
  }
  let model: LightGbmModel
  try {
    // in steps: a server loading a new model goes on answering meanwhile
    model = await parseLightGbmModelInSteps(text, nextTurn)
  } catch (error) {
    throw isPubmatchError(error) ? new PubmatchError(error.code, `${join(dir, MODEL_FILE)}: ${error.message}`) : error
  }
  if (model.numFeatures !== manifest.schema.features.length) {
    throw new PubmatchError(
      'SCHEMA_MISMATCH',
      `${join(dir, MODEL_FILE)} uses ${model.numFeatures} features but its manifest lists ${manifest.schema.features.length}`,
    )
  }
  if (schema !== undefined) {
    checkSchema(manifest, schema, dir)
  }
  return { manifest, text, model }
}

/** Lets the event loop run (other requests, timers) before the next step of a long job. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

/**
 * Throws unless a model's manifest was trained on exactly this feature schema.
 * @param manifest - the model's manifest
 * @param schema - the extractor's schema
 * @param where - the model's location, for the message
 */
export function checkSchema(manifest: ModelManifest, schema: FeatureSchema, where = 'the model'): void {
  const ids = schema.features.map((feature) => feature.id)
  if (manifest.schema.version !== schema.version) {
    throw new PubmatchError(
      'SCHEMA_MISMATCH',
      `${where} was trained on feature schema "${manifest.schema.version}", but the extractor computes "${schema.version}"; retrain it`,
    )
  }
  const differ = ids.findIndex((id, i) => manifest.schema.features[i] !== id)
  if (ids.length !== manifest.schema.features.length || differ >= 0) {
    throw new PubmatchError(
      'SCHEMA_MISMATCH',
      `${where} lists ${manifest.schema.features.length} features, the extractor ${ids.length}` +
        (differ >= 0 ? ` (column ${differ}: model "${manifest.schema.features[differ] ?? '-'}", extractor "${ids[differ]}")` : ''),
    )
  }
}

/** A node of a Solr LTR `MultipleAdditiveTreesModel` tree. */
export type SolrTreeNode =
  | { readonly value: string }
  | { readonly feature: string; readonly threshold: string; readonly left: SolrTreeNode; readonly right: SolrTreeNode }

/** Solr's LTR model JSON (`MultipleAdditiveTreesModel`), as NCBI deployed Best Match. */
export interface SolrLtrModel {
  readonly class: 'org.apache.solr.ltr.model.MultipleAdditiveTreesModel'
  readonly name: string
  readonly store?: string
  readonly features: ReadonlyArray<{ readonly name: string }>
  readonly params: { readonly trees: ReadonlyArray<{ readonly weight: string; readonly root: SolrTreeNode }> }
}

function solrNode(tree: ModelTree, node: number, names: readonly string[]): SolrTreeNode {
  if (node < 0) {
    return { value: String(tree.leafValue[~node]) }
  }
  const type = tree.decisionType[node]!
  if ((type & 1) !== 0) {
    throw new PubmatchError('UNSUPPORTED_FORMAT', 'Solr MultipleAdditiveTreesModel has no categorical splits; train without categorical_feature')
  }
  const feature = tree.splitFeature[node]!
  return {
    feature: names[feature] ?? `F${feature + 1}`,
    threshold: String(tree.threshold[node]),
    left: solrNode(tree, tree.leftChild[node]!, names),
    right: solrNode(tree, tree.rightChild[node]!, names),
  }
}

/**
 * Converts a model to Solr LTR's `MultipleAdditiveTreesModel` JSON. Solr sends a row left when
 * `value <= threshold`, as LightGBM does for numerical splits; missing values are not
 * representable (Solr gives an absent feature 0), which is exact here because every pubmatch
 * feature has a value (absent data takes the feature's neutral value). Solr parses thresholds
 * as 32-bit floats, so a value within float rounding of a threshold may go the other way.
 * @param model - a loaded model
 * @param options - the model's Solr name and feature store
 * @throws PubmatchError `UNSUPPORTED_FORMAT` for categorical splits or linear trees
 */
export function toSolrLtr(model: RankerModel, options: { name?: string; store?: string } = {}): SolrLtrModel {
  const names = model.manifest.schema.features
  return {
    class: 'org.apache.solr.ltr.model.MultipleAdditiveTreesModel',
    name: options.name ?? 'pubmatch',
    ...(options.store === undefined ? {} : { store: options.store }),
    features: names.map((name) => ({ name })),
    params: {
      trees: model.model.trees.map((tree) => {
        if (tree.linear !== undefined) {
          throw new PubmatchError('UNSUPPORTED_FORMAT', 'Solr MultipleAdditiveTreesModel has no linear trees')
        }
        return { weight: model.model.averageOutput ? String(1 / model.model.trees.length) : '1', root: solrNode(tree, tree.numLeaves === 1 ? -1 : 0, names) }
      }),
    },
  }
}

/**
 * Scores a feature row with a Solr LTR model the way Solr does (for checking exports).
 * @param solr - the exported model
 * @param row - feature values by the model's feature names
 */
export function scoreSolrLtr(solr: SolrLtrModel, row: ReadonlyMap<string, number>): number {
  let total = 0
  for (const tree of solr.params.trees) {
    let node = tree.root
    while (!('value' in node)) {
      node = (row.get(node.feature) ?? 0) <= Number(node.threshold) ? node.left : node.right
    }
    total += Number(tree.weight) * Number(node.value)
  }
  return total
}

/**
 * Writes the query memory a model was trained with into its directory (crash-safe).
 * @param dir - the model directory
 * @param queries - the remembered queries
 */
export async function saveModelMemory(dir: string, queries: readonly LabelledQuery[]): Promise<void> {
  await mkdir(dir, { recursive: true })
  const lines = queries.map((q) => JSON.stringify({ id: q.id, text: q.text, judgements: Object.fromEntries(q.judgements) }))
  await writeFileAtomic(join(dir, MEMORY_FILE), lines.length === 0 ? '' : `${lines.join('\n')}\n`)
}

/**
 * Reads a model's query memory.
 * @param dir - the model directory
 * @throws PubmatchError `NOT_FOUND` without one, `UNSUPPORTED_FORMAT` naming a bad line
 */
export async function loadModelMemory(dir: string): Promise<LabelledQuery[]> {
  const file = join(dir, MEMORY_FILE)
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new PubmatchError('NOT_FOUND', `the model in ${dir} uses a query memory but has no ${MEMORY_FILE}`)
    }
    throw error
  }
  const out: LabelledQuery[] = []
  for (const [i, line] of text.split('\n').entries()) {
    if (line.trim() === '') {
      continue
    }
    const value = parseJson(line, MEMORY_QUERY, { file: `${file}:${i + 1}`, code: 'UNSUPPORTED_FORMAT' })
    out.push({ id: value.id, text: value.text, judgements: new Map(Object.entries(value.judgements)) })
  }
  return out
}
