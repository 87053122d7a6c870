/**
 * A labelled screening record: one candidate of a systematic review as a pubmatch article, with
 * the reviewers' decisions on it.
 */
import type { Article, PubmatchError } from '@pubmatch/core'

/** A review's decision on a record: `1` included, `0` excluded. */
export type ScreeningLabel = 0 | 1

/** One candidate record of a labelled review. */
export interface ScreeningRecord {
  /** The record's key in its data set (Cohen `record_id`, SYNERGY OpenAlex id). */
  readonly key: string
  /** The record as an article (`id`: the PMID when the source has one, else `key`). */
  readonly article: Article
  /** The final decision (included in the review after full-text reading). */
  readonly label: ScreeningLabel
  /** The title-and-abstract decision, where the data set has it (Cohen 2006). */
  readonly abstractLabel?: ScreeningLabel
}

/** A labelled review as read: its records in file order, and the records that could not be read. */
export interface ScreeningDataset {
  /** The review's name (file or folder name, e.g. `ADHD`, `Donners_2021`). */
  readonly name: string
  /** Which data set it belongs to. */
  readonly source: 'cohen2006' | 'synergy'
  readonly records: ScreeningRecord[]
  /** One typed error per record that was skipped (its `details.record` names it). */
  readonly errors: PubmatchError[]
}
