/**
 * A screening project: a named review on disk holding its candidate records, an optional question,
 * and every decision taken. Layout of its folder:
 *
 * - `project.json`: name, question, creation time and the candidates (articles), written once
 *   (temporary file, fsync, rename: `writeFileAtomic`);
 * - `decisions/decisions-NNNNNN.jsonl`: the append-only decision log (`createJsonlLog`: each batch
 *   is one write of whole lines and an fsync before `decide` returns, so a kill loses nothing
 *   decided; a torn last line is reported and skipped, never used). A record's latest decision
 *   counts; the log keeps the history.
 *
 * - `features.bin`: the candidates' feature vectors, a cache rebuilt when missing, damaged or
 *   built from another project file (see `feature-cache.ts`), so that opening a project does not
 *   analyse every candidate again.
 *
 * `next` retrains the ranker on every decision so far (a batch of decisions, then `next`, is one
 * retrain) and returns the best-scored undecided records.
 */
import { mkdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { abstractText, PubmatchError, type Article } from '@pubmatch/core'
import { createJsonlLog, writeFileAtomic, type JsonlLog, type LogProblem } from '@pubmatch/core/node'
import type { FeedbackGrade } from '@pubmatch/feedback'
import { cachedFeatures, featureCacheKey } from './feature-cache.ts'
import type { FeatureMatrix } from './features.ts'
import { createRanker, screeningFeatureOptions, screeningFeatures, type RankerName, type ScreeningRanker } from './ranker.ts'
import { correctedProbability, estimatedRecall, kneeStop, recallEstimateReadiness, type KneeStop } from './stopping.ts'

/** A reviewer's decision on a record. */
export type Decision = 'include' | 'exclude'

/** One logged decision. */
export interface DecisionEvent {
  readonly id: string
  readonly decision: Decision
  /** PubMed-style grade of an include: `highly-relevant` weighs more in the Rocchio feedback. */
  readonly grade?: 'relevant' | 'highly-relevant'
  readonly note?: string
  /** ISO time. */
  readonly at: string
}

/** A decision as given to {@link ScreeningProject.decide}. */
export type DecisionInput = Omit<DecisionEvent, 'at'> & { readonly at?: string }

/** What `project.json` holds. */
interface ProjectFile {
  readonly format: 'pubmatch-screen/1'
  readonly name: string
  readonly question?: string
  readonly ranker: RankerName
  readonly created: string
  readonly articles: Article[]
}

/** A record proposed for screening. */
export interface ProposedRecord {
  readonly article: Article
  /** 1-based rank among the undecided records. */
  readonly rank: number
  readonly score: number
}

/** Where a project stands, with the stopping aid. */
export interface ProjectStatus {
  readonly name: string
  readonly candidates: number
  readonly screened: number
  readonly included: number
  readonly excluded: number
  /** The knee method (Cormack & Grossman 2016) on the decisions in the order taken. */
  readonly knee: KneeStop
  /**
   * The model's estimate of the recall reached; absent (and the advice says why) before enough
   * decisions (`recallEstimateReadiness`).
   */
  readonly estimatedRecall?: number
  /** What the stopping aid says, in words, with its risk. */
  readonly advice: string
}

/** An open project. */
export interface ScreeningProject {
  readonly dir: string
  readonly name: string
  readonly question?: string
  readonly articles: readonly Article[]
  /** Each record's latest decision. */
  decisions(): ReadonlyMap<string, DecisionEvent>
  /** Every logged decision in order. */
  history(): readonly DecisionEvent[]
  /** Lines of the log that could not be used (a torn last line after a crash). */
  readonly problems: readonly LogProblem[]
  /** Retrains on the decisions so far and returns the best `count` undecided records. */
  next(count?: number): ProposedRecord[]
  /**
   * Logs decisions (fsynced before it resolves).
   * @throws PubmatchError `NOT_FOUND` for an id that is not a candidate (nothing is logged)
   */
  decide(decisions: readonly DecisionInput[]): Promise<void>
  status(): ProjectStatus
  /** Included, excluded or every decided record as RIS or CSV, with its decision history. */
  exportRecords(format: 'ris' | 'csv', which: 'included' | 'excluded' | 'decided'): string
  close(): Promise<void>
}

const PROJECT_FILE = 'project.json'
const FEATURES_FILE = 'features.bin'
/** Bumped whenever the features built from the same options change (analysis, weighting). */
const FEATURES_VERSION = 1
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/

function decisionLog(dir: string): JsonlLog<DecisionEvent> {
  return createJsonlLog<DecisionEvent>(join(dir, 'decisions'), {
    prefix: 'decisions',
    name: 'decision log',
    format: (event) => JSON.stringify(event),
    parse: (line, where) => {
      const value = JSON.parse(line) as Partial<DecisionEvent>
      if (typeof value.id !== 'string' || (value.decision !== 'include' && value.decision !== 'exclude') || typeof value.at !== 'string') {
        throw new PubmatchError('MALFORMED_JSON', `${where.file}:${where.line}: not a decision`, { details: { file: where.file, position: where.line } })
      }
      return value as DecisionEvent
    },
  })
}

/** Options of {@link createScreeningProject}. */
export interface CreateProjectOptions {
  /** The project's name: letters, digits, `.`, `_`, `-`. */
  readonly name: string
  readonly articles: readonly Article[]
  readonly question?: string
  /** Defaults to `logistic`. */
  readonly ranker?: RankerName
}

/**
 * Creates a project in `dir` (which must not hold one).
 * @param dir - the project's folder
 * @param options - see {@link CreateProjectOptions}
 * @throws PubmatchError `INVALID_ARGUMENT` for a bad name, no candidates, or a folder that already holds a project
 */
export async function createScreeningProject(dir: string, options: CreateProjectOptions): Promise<ScreeningProject> {
  if (!NAME.test(options.name)) {
    throw new PubmatchError('INVALID_ARGUMENT', `a project name is letters, digits, ".", "_" or "-" (at most 100), got "${options.name.slice(0, 120)}"`)
  }
  if (options.articles.length === 0) {
    throw new PubmatchError('INVALID_ARGUMENT', `project ${options.name}: no candidate records`)
  }
  if (await stat(join(dir, PROJECT_FILE)).then(() => true, () => false)) {
    throw new PubmatchError('INVALID_ARGUMENT', `${dir} already holds a screening project`, { details: { file: dir } })
  }
  await mkdir(dir, { recursive: true })
  const file: ProjectFile = {
    format: 'pubmatch-screen/1',
    name: options.name,
    ...(options.question ? { question: options.question } : {}),
    ranker: options.ranker ?? 'logistic',
    created: new Date().toISOString(),
    articles: [...options.articles],
  }
  await writeFileAtomic(join(dir, PROJECT_FILE), `${JSON.stringify(file)}\n`)
  return openScreeningProject(dir)
}

/**
 * Opens a project and replays its decision log.
 * @param dir - the project's folder
 * @throws PubmatchError `NOT_FOUND` when there is no project, `MALFORMED_JSON` for a damaged `project.json`
 */
export async function openScreeningProject(dir: string): Promise<ScreeningProject> {
  const path = join(dir, PROJECT_FILE)
  const text = await readFile(path, 'utf8').catch((cause: unknown) => {
    throw new PubmatchError('NOT_FOUND', `no screening project in ${dir}`, { cause, details: { file: path } })
  })
  let file: ProjectFile
  try {
    file = JSON.parse(text) as ProjectFile
  } catch (cause) {
    throw new PubmatchError('MALFORMED_JSON', `${path}: ${(cause as Error).message}`, { cause, details: { file: path } })
  }
  if (typeof file !== 'object' || file === null || file.format !== 'pubmatch-screen/1' || !Array.isArray(file.articles) || typeof file.name !== 'string') {
    throw new PubmatchError('SCHEMA_MISMATCH', `${path} is not a pubmatch-screen/1 project file`, { details: { file: path } })
  }
  const log = decisionLog(dir)
  const { records: history, problems } = await log.readAll()
  const byId = new Map(file.articles.map((a, i) => [a.id, i]))
  const latest = new Map<string, DecisionEvent>()
  for (const event of history) {
    latest.set(event.id, event)
  }
  // the learned rankers' features, from `features.bin` when it was built from this project file
  let matrix: FeatureMatrix | undefined
  if (file.ranker !== 'rocchio') {
    const key = featureCacheKey(text, { version: FEATURES_VERSION, ...screeningFeatureOptions() })
    matrix = (await cachedFeatures(join(dir, FEATURES_FILE), key, () => screeningFeatures(file.articles))).matrix
  }
  let ranker: ScreeningRanker | undefined
  const rankerOf = (): ScreeningRanker =>
    (ranker ??= createRanker(file.articles, { ranker: file.ranker, ...(file.question ? { question: file.question } : {}), ...(matrix ? { matrix } : {}) }))
  const grades = (): Map<number, FeedbackGrade> => {
    const out = new Map<number, FeedbackGrade>()
    for (const [id, event] of latest) {
      out.set(byId.get(id)!, event.decision === 'exclude' ? 'non-relevant' : (event.grade ?? 'relevant'))
    }
    return out
  }
  let lastScores: Float64Array | undefined
  const project: ScreeningProject = {
    dir,
    name: file.name,
    ...(file.question ? { question: file.question } : {}),
    articles: file.articles,
    problems,
    decisions: () => latest,
    history: () => history,
    next(count = 10) {
      const scores = rankerOf().score(grades())
      lastScores = scores
      const undecided: number[] = []
      for (let i = 0; i < scores.length; i++) {
        if (!latest.has(file.articles[i]!.id)) {
          undecided.push(i)
        }
      }
      undecided.sort((a, b) => scores[b]! - scores[a]! || a - b)
      return undecided.slice(0, count).map((i, k) => ({ article: file.articles[i]!, rank: k + 1, score: scores[i]! }))
    },
    async decide(decisions) {
      const at = new Date().toISOString()
      const events = decisions.map((d): DecisionEvent => {
        if (!byId.has(d.id)) {
          throw new PubmatchError('NOT_FOUND', `project ${file.name}: ${d.id} is not one of its candidates`, { details: { record: d.id } })
        }
        if (d.decision !== 'include' && d.decision !== 'exclude') {
          throw new PubmatchError('INVALID_ARGUMENT', `a decision is include or exclude, got "${String(d.decision)}"`, { details: { record: d.id } })
        }
        if (d.grade !== undefined && (d.decision !== 'include' || (d.grade !== 'relevant' && d.grade !== 'highly-relevant'))) {
          throw new PubmatchError('INVALID_ARGUMENT', `a grade (relevant, highly-relevant) goes with an include, got ${d.decision} ${String(d.grade)}`, { details: { record: d.id } })
        }
        return { id: d.id, decision: d.decision, ...(d.grade ? { grade: d.grade } : {}), ...(d.note ? { note: d.note } : {}), at: d.at ?? at }
      })
      await log.append(events)
      for (const event of events) {
        history.push(event)
        latest.set(event.id, event)
      }
      lastScores = undefined
    },
    status() {
      // the decisions in the order first taken, each with its latest value
      const order: string[] = []
      const seen = new Set<string>()
      for (const event of history) {
        if (!seen.has(event.id)) {
          seen.add(event.id)
          order.push(event.id)
        }
      }
      const labels = order.map((id) => (latest.get(id)!.decision === 'include' ? 1 : 0))
      const included = labels.filter((l) => l === 1).length
      const knee = kneeStop(labels)
      let recall: number | undefined
      const excluded = labels.length - included
      const notYet = rankerOf().name === 'logistic' ? recallEstimateReadiness(included, excluded) : 'the recall estimate needs the logistic ranker'
      if (notYet === undefined) {
        const scores = lastScores ?? rankerOf().score(grades())
        lastScores = scores
        const rest = file.articles.flatMap((a, i) => (latest.has(a.id) ? [] : [correctedProbability(scores[i]!, included, excluded, rankerOf().positiveShare)]))
        recall = estimatedRecall(included, rest)
      }
      const pct = (x: number): string => `${(100 * x).toFixed(0)} %`
      const advice = knee.stop
        ? `The knee method (Cormack & Grossman 2016) would stop here: the rate of includes before the knee at record ${knee.knee} is ${knee.slopeRatio.toFixed(0)} times the rate since (target ${knee.target}). It is a heuristic without a guarantee: relevant records unlike those found so far can remain.`
        : `Keep screening: the knee method (Cormack & Grossman 2016) does not stop yet (${knee.screened < 150 ? `fewer than 150 records screened` : `slope ratio ${Number.isNaN(knee.slopeRatio) ? 'undefined' : knee.slopeRatio.toFixed(0)} < target ${knee.target}`}).`
      return {
        name: file.name,
        candidates: file.articles.length,
        screened: labels.length,
        included,
        excluded: labels.length - included,
        knee,
        ...(recall === undefined ? {} : { estimatedRecall: recall }),
        advice: recall === undefined ? `${advice} No recall estimate: ${notYet}.` : `${advice} The model estimates the recall at ${pct(recall)} (an estimate, not a measurement).`,
      }
    },
    exportRecords(format, which) {
      const chosen = file.articles.filter((a) => {
        const d = latest.get(a.id)
        return d !== undefined && (which === 'decided' || (which === 'included') === (d.decision === 'include'))
      })
      const historyOf = (id: string): DecisionEvent[] => history.filter((e) => e.id === id)
      const trail = (id: string): string => historyOf(id).map((e) => `${e.at} ${e.decision}${e.grade ? ` (${e.grade})` : ''}${e.note ? `: ${e.note}` : ''}`).join(' | ')
      if (format === 'csv') {
        const cell = (text: string): string => (/[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text)
        const lines = ['id,title,abstract,year,journal,doi,decision,grade,decided_at,history']
        for (const a of chosen) {
          const d = latest.get(a.id)!
          lines.push([a.id, a.title, abstractText(a), String(a.pubDate?.year ?? ''), a.journal?.title ?? '', a.articleIds.find((x) => x.type === 'doi')?.value ?? '', d.decision, d.grade ?? '', d.at, trail(a.id)].map(cell).join(','))
        }
        return `${lines.join('\n')}\n`
      }
      const out: string[] = []
      for (const a of chosen) {
        const d = latest.get(a.id)!
        out.push('TY  - JOUR', `ID  - ${a.id}`, `TI  - ${a.title}`)
        for (const author of a.authors) {
          out.push(`AU  - ${author.collectiveName ?? [author.lastName, author.foreName ?? author.initials].filter(Boolean).join(', ')}`)
        }
        if (a.abstract.length > 0) out.push(`AB  - ${abstractText(a)}`)
        if (a.pubDate?.year !== undefined) out.push(`PY  - ${a.pubDate.year}`)
        if (a.journal?.title) out.push(`JO  - ${a.journal.title}`)
        for (const heading of a.mesh) out.push(`KW  - ${heading.descriptorName}`)
        const doi = a.articleIds.find((x) => x.type === 'doi')?.value
        if (doi) out.push(`DO  - ${doi}`)
        out.push(`N1  - pubmatch screen ${file.name}: ${d.decision}${d.grade ? ` (${d.grade})` : ''} at ${d.at}`)
        for (const e of historyOf(a.id)) out.push(`N1  - decision history: ${e.at} ${e.decision}${e.grade ? ` (${e.grade})` : ''}${e.note ? `: ${e.note}` : ''}`)
        out.push('ER  - ', '')
      }
      return out.join('\n')
    },
    close: () => log.close(),
  }
  return project
}
