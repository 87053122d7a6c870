/**
 * The labelled reviews of a screening data folder laid out as `shared/data/screening/` is:
 * `cohen2006/<Review>.csv` and `synergy/<Review>/{labels.csv,works_*.zip}`.
 */
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { PubmatchError } from '@pubmatch/core'
import type { ScreeningDataset } from '../records.ts'
import { readCohenReview } from './cohen.ts'
import { readSynergyReview } from './synergy.ts'

/** A review found in a screening data folder. */
export interface ScreeningReviewEntry {
  readonly name: string
  readonly source: ScreeningDataset['source']
  /** The CSV file (Cohen) or the review folder (SYNERGY). */
  readonly path: string
}

/**
 * Every review under a screening data folder, Cohen 2006 then SYNERGY, each by name.
 * @param root - the folder holding `cohen2006/` and/or `synergy/`
 * @throws PubmatchError `NOT_FOUND` when it holds neither
 */
export async function listScreeningReviews(root: string): Promise<ScreeningReviewEntry[]> {
  const list = async (dir: string): Promise<string[]> => (await readdir(dir).catch(() => [] as string[])).sort()
  const cohen = (await list(join(root, 'cohen2006'))).filter((f) => f.endsWith('.csv')).map((f) => ({ name: f.replace(/\.csv$/, ''), source: 'cohen2006' as const, path: join(root, 'cohen2006', f) }))
  const synergy: ScreeningReviewEntry[] = []
  for (const name of await list(join(root, 'synergy'))) {
    const path = join(root, 'synergy', name)
    if ((await stat(path)).isDirectory()) {
      synergy.push({ name, source: 'synergy', path })
    }
  }
  if (cohen.length + synergy.length === 0) {
    throw new PubmatchError('NOT_FOUND', `${root}: no cohen2006/*.csv or synergy/<review>/ here`, { details: { file: root } })
  }
  return [...cohen, ...synergy]
}

/**
 * Reads a review found by {@link listScreeningReviews}.
 * @param entry - the review
 */
export function readScreeningReview(entry: ScreeningReviewEntry): Promise<ScreeningDataset> {
  return entry.source === 'cohen2006' ? readCohenReview(entry.path) : readSynergyReview(entry.path)
}

/**
 * Reads one review from a path: a folder is a SYNERGY review, a `.csv` file a Cohen 2006 review.
 * @param path - the review's folder or file
 * @throws PubmatchError `UNSUPPORTED_FORMAT` for anything else
 */
export async function readScreeningReviewAt(path: string): Promise<ScreeningDataset> {
  const info = await stat(path).catch((cause: unknown) => {
    throw new PubmatchError('NOT_FOUND', `no review at ${path}`, { cause, details: { file: path } })
  })
  if (info.isDirectory()) {
    return readSynergyReview(path)
  }
  if (/\.csv$/i.test(path)) {
    return readCohenReview(path)
  }
  throw new PubmatchError('UNSUPPORTED_FORMAT', `${path}: a review is a SYNERGY folder (labels.csv, works_*.zip) or a Cohen 2006 CSV file`, { details: { file: path } })
}
