/**
 * A reader for NCBI's PubMed Best Match research sample (github.com/ncbi-nlp/PubMed-Best-Match,
 * `data/`): 1,000 real PubMed log queries, and for 672 of them a ranked gold list and the
 * first-stage candidate list.
 */
import { readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { PubmatchError, truncateForMessage } from '@pubmatch/core'
import { isSimpleQuery } from '@pubmatch/bm25f'
import type { LabelledQuery } from '../types.ts'
import { goldOverlap, ncbiJudgements, type EligibilityOptions } from './labels.ts'

/** One query of the sample. */
export interface BestMatchSampleQuery {
  /** `qid0000` … `qid0999`. */
  readonly id: string
  readonly text: string
  /** Whether `isSimpleQuery` accepts it (no field tags, Boolean operators, wildcards, quotes). */
  readonly simple: boolean
  /** The ranked gold PMIDs (`data/gold_standard/<id>.txt`), when the sample has them. */
  readonly gold: readonly string[] | undefined
  /** The first-stage candidate PMIDs (`data/results/<id>.txt`), when the sample has them. */
  readonly results: readonly string[] | undefined
  /** How many of the top-10 gold PMIDs are among the candidates (0 without either list). */
  readonly overlap: number
  /** NCBI's check: at least 5 of the top-10 gold PMIDs are among the top-500 candidates. */
  readonly eligible: boolean
}

/** Counts over the sample. */
export interface BestMatchSampleStats {
  readonly queries: number
  readonly simple: number
  readonly withGold: number
  /** Queries whose candidate list is present and not empty. */
  readonly withResults: number
  readonly eligible: number
  readonly simpleWithGold: number
  readonly simpleEligible: number
}

/** The sample as {@link readBestMatchSample} returns it. */
export interface BestMatchSample {
  /** All queries of `queries.txt`, in file order. */
  readonly queries: readonly BestMatchSampleQuery[]
  /** Every query with a gold list, graded with `ncbiGrade` (rank 0–9 → 12 − rank, 10–20 → 2, later → 1). */
  readonly labelled: readonly LabelledQuery[]
  readonly stats: BestMatchSampleStats
}

const QUERY_LINE = /^(qid\d+)\|(.*)$/

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8')
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code === 'ENOENT' ? 'NOT_FOUND' : 'IO'
    throw new PubmatchError(code, `cannot read ${path}: ${String(cause)}`, {
      cause,
      details: { file: path },
    })
  }
}

/** Reads a one-PMID-per-line file; a line that is not a PMID is an error naming file:line. */
async function readIdList(path: string): Promise<string[]> {
  const ids: string[] = []
  const lines = (await readText(path)).split('\n')
  lines.forEach((raw, i) => {
    const line = raw.trim()
    if (line === '') {
      return
    }
    if (!/^\d+$/.test(line)) {
      throw new PubmatchError(
        'UNSUPPORTED_FORMAT',
        `${path}:${i + 1}: expected a PMID, got ${truncateForMessage(line)}`,
        { details: { file: path, position: i + 1 } },
      )
    }
    ids.push(line)
  })
  return ids
}

async function listIds(dir: string): Promise<Set<string>> {
  let names: string[]
  try {
    names = await readdir(dir)
  } catch (cause) {
    throw new PubmatchError('NOT_FOUND', `cannot list ${dir}: ${String(cause)}`, {
      cause,
      details: { file: dir },
    })
  }
  return new Set(names.filter((n) => /^qid\d+\.txt$/.test(n)).map((n) => n.slice(0, -4)))
}

/**
 * Reads NCBI's Best Match sample: `data/queries/queries.txt` (`qidNNNN|text`),
 * `data/gold_standard/qidNNNN.txt` (ranked PMIDs) and `data/results/qidNNNN.txt` (candidate
 * PMIDs), classifies every query with `isSimpleQuery` and applies the eligibility check of
 * `ncbiEligible` to the candidate lists.
 * @param dir - the sample's root (the folder holding `data/`), e.g. `../shared/data/pubmed-best-match`
 * @param options - eligibility thresholds; defaults are NCBI's (5 of the top 10 in the top 500)
 * @throws PubmatchError `NOT_FOUND` when a file or folder is missing, `UNSUPPORTED_FORMAT`
 *   for a line that is not `qidNNNN|text` or a PMID
 */
export async function readBestMatchSample(
  dir: string,
  options: EligibilityOptions = {},
): Promise<BestMatchSample> {
  const data = join(dir, 'data')
  const queriesPath = join(data, 'queries', 'queries.txt')
  const goldDir = join(data, 'gold_standard')
  const resultsDir = join(data, 'results')
  const [text, goldIds, resultIds] = await Promise.all([
    readText(queriesPath),
    listIds(goldDir),
    listIds(resultsDir),
  ])
  const minOverlap = options.minOverlap ?? 5

  const queries: BestMatchSampleQuery[] = []
  const labelled: LabelledQuery[] = []
  const seen = new Set<string>()
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const raw = (lines[i] as string).replace(/\r$/, '')
    if (raw.trim() === '') {
      continue
    }
    const match = QUERY_LINE.exec(raw)
    if (match === null) {
      throw new PubmatchError(
        'UNSUPPORTED_FORMAT',
        `${queriesPath}:${i + 1}: expected "qidNNNN|text", got ${truncateForMessage(raw)}`,
        { details: { file: queriesPath, position: i + 1 } },
      )
    }
    const id = match[1] as string
    const queryText = match[2] as string
    if (seen.has(id)) {
      throw new PubmatchError(
        'UNSUPPORTED_FORMAT',
        `${queriesPath}:${i + 1}: query ${id} repeats`,
        {
          details: { file: queriesPath, position: i + 1 },
        },
      )
    }
    seen.add(id)
    const gold = goldIds.has(id) ? await readIdList(join(goldDir, `${id}.txt`)) : undefined
    const results = resultIds.has(id) ? await readIdList(join(resultsDir, `${id}.txt`)) : undefined
    const overlap =
      gold !== undefined && results !== undefined ? goldOverlap(gold, results, options) : 0
    queries.push({
      id,
      text: queryText,
      simple: isSimpleQuery(queryText),
      gold,
      results,
      overlap,
      eligible: gold !== undefined && results !== undefined && overlap >= minOverlap,
    })
    if (gold !== undefined) {
      labelled.push({ id, text: queryText, judgements: ncbiJudgements(gold) })
    }
  }
  const count = (test: (q: BestMatchSampleQuery) => boolean): number => queries.filter(test).length
  return {
    queries,
    labelled,
    stats: {
      queries: queries.length,
      simple: count((q) => q.simple),
      withGold: count((q) => q.gold !== undefined),
      withResults: count((q) => q.results !== undefined && q.results.length > 0),
      eligible: count((q) => q.eligible),
      simpleWithGold: count((q) => q.simple && q.gold !== undefined),
      simpleEligible: count((q) => q.simple && q.eligible),
    },
  }
}
