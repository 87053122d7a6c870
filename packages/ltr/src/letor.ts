/**
 * Feature logging in the formats other learning-to-rank tools read: LETOR / SVMlight text
 * (`label qid:Q 1:v 2:v … # docid`, RankLib, XGBoost, SVMrank) and LightGBM's own text dataset
 * (LibSVM lines without `qid` plus a `.query` file of group sizes).
 */
import { PubmatchError, truncateForMessage } from '@pubmatch/core'
import type { TrainingSet } from './training-set.ts'

/** Options of {@link formatLetor}. */
export interface FormatLetorOptions {
  /** Write zero-valued features too (RankLib wants dense rows). Defaults to `true`. */
  readonly dense?: boolean
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) {
    return 'nan'
  }
  // shortest round-tripping form; integers without a decimal point
  return String(value)
}

function rowFeatures(set: TrainingSet, row: number, dense: boolean): string {
  const { data, numFeatures } = set.features
  const parts: string[] = []
  const base = row * numFeatures
  for (let c = 0; c < numFeatures; c++) {
    const value = data[base + c]!
    if (dense || value !== 0) {
      parts.push(`${c + 1}:${formatValue(value)}`)
    }
  }
  return parts.join(' ')
}

/**
 * A training set as LETOR / SVMlight text: one line per (query, document), grouped by query in
 * the set's order; feature ids are 1-based columns; the comment names the document.
 * @param set - the training set
 * @param options - see {@link FormatLetorOptions}
 */
export function formatLetor(set: TrainingSet, options: FormatLetorOptions = {}): string {
  const dense = options.dense ?? true
  const lines: string[] = []
  let row = 0
  for (const [g, size] of set.groups.entries()) {
    const qid = set.queryIds[g]!
    if (/\s/.test(qid)) {
      throw new PubmatchError('INVALID_ARGUMENT', `query id "${truncateForMessage(qid)}" contains white space; LETOR cannot hold it`)
    }
    for (let i = 0; i < size; i++, row++) {
      lines.push(`${set.labels[row]} qid:${qid} ${rowFeatures(set, row, dense)} # ${set.docIds[row]}`)
    }
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`
}

/**
 * A training set as LightGBM's text input: `data` holds LibSVM lines (`label i:v …`, 0-based
 * feature ids as LightGBM numbers them) and `query` the group sizes, one per line (LightGBM reads
 * `train.txt` with `train.txt.query` beside it).
 * @param set - the training set
 */
export function formatLightGbmText(set: TrainingSet): { data: string; query: string } {
  const { data, numFeatures } = set.features
  const lines: string[] = []
  for (let row = 0; row < set.labels.length; row++) {
    const parts = [String(set.labels[row])]
    for (let c = 0; c < numFeatures; c++) {
      const value = data[row * numFeatures + c]!
      if (value !== 0) {
        parts.push(`${c}:${formatValue(value)}`)
      }
    }
    lines.push(parts.join(' '))
  }
  return {
    data: lines.length === 0 ? '' : `${lines.join('\n')}\n`,
    query: set.groups.length === 0 ? '' : `${set.groups.join('\n')}\n`,
  }
}

/**
 * Reads LETOR / SVMlight text back into a training set (rows grouped by consecutive `qid`).
 * @param text - the file's contents
 * @param numFeatures - columns of the matrix (features above it are an error)
 * @param source - a name for error messages
 * @throws PubmatchError `UNSUPPORTED_FORMAT` naming the line
 */
export function parseLetor(text: string, numFeatures: number, source = 'LETOR input'): TrainingSet {
  const labels: number[] = []
  const docIds: string[] = []
  const queryIds: string[] = []
  const groups: number[] = []
  const values: number[] = []
  const lines = text.split('\n')
  for (const [i, raw] of lines.entries()) {
    const hash = raw.indexOf('#')
    const body = (hash < 0 ? raw : raw.slice(0, hash)).trim()
    if (body.length === 0) {
      continue
    }
    const fail = (what: string): never => {
      throw new PubmatchError('UNSUPPORTED_FORMAT', `${source}:${i + 1}: ${what}: "${truncateForMessage(raw)}"`, {
        details: { position: i + 1 },
      })
    }
    const tokens = body.split(/\s+/)
    const label = Number(tokens[0])
    if (!Number.isInteger(label) || label < 0) {
      fail('the label must be a non-negative integer')
    }
    const qidToken = tokens[1] ?? ''
    if (!qidToken.startsWith('qid:') || qidToken.length === 4) {
      fail('the second column must be qid:<id>')
    }
    const qid = qidToken.slice(4)
    if (queryIds.at(-1) !== qid) {
      if (queryIds.includes(qid)) {
        fail(`the rows of qid ${qid} are not consecutive`)
      }
      queryIds.push(qid)
      groups.push(0)
    }
    groups[groups.length - 1]! += 1
    const row = new Array<number>(numFeatures).fill(0)
    for (const token of tokens.slice(2)) {
      const colon = token.indexOf(':')
      const id = Number(token.slice(0, colon))
      const value = token.slice(colon + 1) === 'nan' ? Number.NaN : Number(token.slice(colon + 1))
      if (colon <= 0 || !Number.isInteger(id) || id < 1 || id > numFeatures) {
        fail(`bad feature "${token}" (ids are 1 … ${numFeatures})`)
      }
      if (Number.isNaN(value) && token.slice(colon + 1) !== 'nan') {
        fail(`bad feature value "${token}"`)
      }
      row[id - 1] = value
    }
    labels.push(label)
    values.push(...row)
    docIds.push(hash < 0 ? '' : raw.slice(hash + 1).trim())
  }
  return {
    features: { data: Float64Array.from(values), numRows: labels.length, numFeatures },
    labels: Int32Array.from(labels),
    groups: Int32Array.from(groups),
    queryIds,
    docIds,
    firstStageRanks: Int32Array.from(docIds, () => 0),
    stats: { queries: queryIds.length, skipped: [] },
  }
}
