import { BUILTIN_ANALYZER_NAMES, getAnalyzer, type Analyzer, type AnalyzerRegistry } from '@pubmatch/analysis'
import type { Article } from '@pubmatch/core'
import { PubmatchError, truncateForMessage } from '@pubmatch/core'
import type { CodecName } from '../codec/block-codec.ts'
import { logMergePolicy, type MergePolicy } from '../merge/merge-policy.ts'
import type {
  FieldConfig,
  IndexConfig,
  NumericDocValuesConfig,
  SortedSetDocValuesConfig,
  StoredDocument,
} from './config.ts'
import {
  defaultNumericDocValues,
  defaultSortedSetDocValues,
  defaultStoredDocument,
} from './pubmed-fields.ts'

/** The analyzer name recorded for keyword fields. */
export const KEYWORD_ANALYZER = 'keyword'

/** The persisted description of a field (what the manifest records). */
export interface FieldSchema {
  readonly name: string
  /** The analyzer name, or `keyword` for keyword fields. */
  readonly analyzer: string
  readonly keyword: boolean
  readonly positions: boolean
  readonly positionGap: number
}

/** The persisted description of an index: fields and doc value names, in order. */
export interface IndexSchema {
  readonly fields: readonly FieldSchema[]
  readonly numericDocValues: readonly string[]
  readonly sortedSetDocValues: readonly string[]
}

/** An {@link IndexConfig} with defaults applied and its schema derived. */
export interface ResolvedConfig {
  readonly schema: IndexSchema
  readonly fields: readonly FieldConfig[]
  readonly numericDocValues: readonly NumericDocValuesConfig[]
  readonly sortedSetDocValues: readonly SortedSetDocValuesConfig[]
  readonly storedFields: (article: Article) => StoredDocument
  readonly codec: CodecName
  readonly analyzers: AnalyzerRegistry | undefined
  readonly mergePolicy: MergePolicy
}

/** The codec new segments use unless the config names one (see README "Codec"). */
export const DEFAULT_CODEC: CodecName = 'bitpack'

function invalid(message: string): PubmatchError {
  return new PubmatchError('INVALID_ARGUMENT', `${message}`)
}

function checkNames(kind: string, names: readonly string[]): void {
  const seen = new Set<string>()
  for (const name of names) {
    if (typeof name !== 'string' || name === '') {
      throw invalid(`every ${kind} needs a non-empty name`)
    }
    if (seen.has(name)) {
      throw invalid(`duplicate ${kind} name "${truncateForMessage(name)}"`)
    }
    seen.add(name)
  }
}

/**
 * Applies defaults to a config and checks it: at least one field, unique names, known
 * analyzers, a valid codec.
 * @param config - the config
 * @throws PubmatchError `INVALID_ARGUMENT`
 */
export function resolveConfig(config: IndexConfig): ResolvedConfig {
  if (config.fields.length === 0) {
    throw invalid('an index needs at least one field')
  }
  const numericDocValues = config.numericDocValues ?? defaultNumericDocValues()
  const sortedSetDocValues = config.sortedSetDocValues ?? defaultSortedSetDocValues()
  checkNames('field', config.fields.map((f) => f.name))
  checkNames('numeric doc value', numericDocValues.map((f) => f.name))
  checkNames('sorted-set doc value', sortedSetDocValues.map((f) => f.name))
  const codec = config.codec ?? DEFAULT_CODEC
  if (codec !== 'vbyte' && codec !== 'bitpack') {
    throw invalid(`unknown codec "${truncateForMessage(String(codec))}" (vbyte, bitpack)`)
  }
  const fields: FieldSchema[] = config.fields.map((field) => {
    const keyword = field.keyword ?? false
    const analyzer = keyword ? KEYWORD_ANALYZER : (field.analyzer ?? 'biomedical')
    if (!keyword) {
      const known = config.analyzers?.has(analyzer) ?? BUILTIN_ANALYZER_NAMES.includes(analyzer)
      if (!known) {
        throw invalid(`field "${truncateForMessage(field.name)}": unknown analyzer "${truncateForMessage(analyzer)}"`)
      }
    }
    const positionGap = field.positionGap ?? 100
    if (!Number.isInteger(positionGap) || positionGap < 0) {
      throw invalid(`field "${truncateForMessage(field.name)}": positionGap must be a non-negative integer`)
    }
    return { name: field.name, analyzer, keyword, positions: field.positions ?? !keyword, positionGap }
  })
  return {
    schema: {
      fields,
      numericDocValues: numericDocValues.map((d) => d.name),
      sortedSetDocValues: sortedSetDocValues.map((d) => d.name),
    },
    fields: config.fields,
    numericDocValues,
    sortedSetDocValues,
    storedFields: config.storedFields ?? defaultStoredDocument,
    codec,
    analyzers: config.analyzers,
    mergePolicy: config.mergePolicy ?? logMergePolicy(),
  }
}

/**
 * The analyzer of a text field.
 * @param field - the field
 * @param analyzers - a registry, or `undefined` for the built-ins
 */
export function fieldAnalyzer(field: FieldSchema, analyzers: AnalyzerRegistry | undefined): Analyzer {
  return analyzers === undefined ? getAnalyzer(field.analyzer) : analyzers.get(field.analyzer)
}

/**
 * Checks that a config describes the same index as the one on disk.
 * @param stored - the schema in the manifest
 * @param given - the schema of the config passed in
 * @param dir - the index directory, for messages
 * @throws PubmatchError `SCHEMA_MISMATCH`
 */
export function assertSameSchema(stored: IndexSchema, given: IndexSchema, dir: string): void {
  const a = JSON.stringify(stored)
  const b = JSON.stringify(given)
  if (a !== b) {
    throw new PubmatchError(
      'SCHEMA_MISMATCH',
      `${dir}: the index was built with another schema (on disk ${truncateForMessage(a)}; given ${truncateForMessage(b)})`,
      { details: { file: dir } },
    )
  }
}
