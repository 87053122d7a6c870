/**
 * Saved section models: the PAV functions of each section type as JSON, and a plot of them (an SVG
 * of P(relevant | BM25) per section type, like Yeganova et al.'s Figure 1).
 */
import { readFile } from 'node:fs/promises'
import { json, parseJson, PubmatchError, SECTION_TYPES, truncateForMessage, type JsonShape, type SectionType } from '@pubmatch/core'
import { writeFileAtomic } from '@pubmatch/core/node'
import { checkPavFunction, evaluatePav, type PavFunction } from './pav.ts'
import type { SectionModel } from './scoring.ts'

/** The format tag of a saved section model. */
export const SECTION_MODEL_FORMAT = 'pubmatch-section-model/1'

/** A section model as saved, with how it was trained. */
export interface SavedSectionModel extends SectionModel {
  readonly format: typeof SECTION_MODEL_FORMAT
  readonly trainedAt: string
  /** Free description of the training data (queries, labels, the index). */
  readonly training: Readonly<Record<string, string | number>>
}

const PAV_FUNCTION: JsonShape<PavFunction> = json.object({
  xs: json.array(json.number),
  ys: json.array(json.number),
  points: json.count,
  weight: json.number,
  prior: json.number,
})

const SAVED_SECTION_MODEL: JsonShape<SavedSectionModel> = json.object({
  format: json.literal(SECTION_MODEL_FORMAT),
  trainedAt: json.string,
  training: json.record(json.union(json.string, json.number)),
  prior: json.refine(json.number, (prior) => prior > 0 && prior < 1, 'a number between 0 and 1 (both excluded)'),
  sections: json.record(PAV_FUNCTION),
})

/**
 * Writes a section model crash-safely.
 * @param file - the JSON file
 * @param model - the model and its training record
 */
export async function saveSectionModel(file: string, model: SectionModel, training: Readonly<Record<string, string | number>>): Promise<SavedSectionModel> {
  const saved: SavedSectionModel = { format: SECTION_MODEL_FORMAT, trainedAt: new Date().toISOString(), training, prior: model.prior, sections: model.sections }
  await writeFileAtomic(file, `${JSON.stringify(saved, null, 1)}\n`)
  return saved
}

/**
 * Reads and checks a saved section model.
 * @param file - the JSON file
 * @throws PubmatchError `NOT_FOUND`, `UNSUPPORTED_FORMAT` (not JSON, or not of a saved model's shape: the message
 *   names the file and the field), `SCHEMA_MISMATCH` (an unknown section type, a function that is not monotone)
 */
export async function loadSectionModel(file: string): Promise<SavedSectionModel> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new PubmatchError('NOT_FOUND', `no section model at ${file}; train one with \`pubmatch fulltext train -i INDEX --known-item -o ${file}\``, { cause: error, details: { file } })
  }
  const value = parseJson(text, SAVED_SECTION_MODEL, { file, code: 'UNSUPPORTED_FORMAT' })
  for (const [type, f] of Object.entries(value.sections)) {
    if (!(SECTION_TYPES as readonly string[]).includes(type)) {
      throw new PubmatchError('SCHEMA_MISMATCH', `${file}: unknown section type "${truncateForMessage(type)}"`)
    }
    checkPavFunction(f, `${file}: ${type}`)
  }
  return value
}

/** Options of {@link plotSectionModel}. */
export interface PlotOptions {
  /** Plot width and height in pixels. Defaults to `720 × 440`. */
  readonly width?: number
  readonly height?: number
  /** Highest score on the x axis. Defaults to the largest score any function saw (at most 20). */
  readonly maxScore?: number
  readonly title?: string
}

const COLOURS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf', '#393b79', '#637939', '#843c39']

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/**
 * A self-contained SVG: P(relevant | section BM25) of every section type, and the prior.
 * @param model - the model
 * @param options - size, x range, title
 */
export function plotSectionModel(model: SectionModel, options: PlotOptions = {}): string {
  const width = options.width ?? 720
  const height = options.height ?? 440
  const left = 56
  const right = 170
  const top = 32
  const bottom = 44
  const entries = SECTION_TYPES.flatMap((type, i) => {
    const f = model.sections[type]
    return f === undefined ? [] : [{ type, f, colour: COLOURS[i % COLOURS.length]! }]
  })
  const seen = Math.max(1, ...entries.map(({ f }) => f.xs.at(-1) ?? 0))
  const maxX = options.maxScore ?? Math.min(20, seen)
  const maxY = Math.min(1, Math.max(0.05, ...entries.map(({ f }) => f.ys.at(-1) ?? 0)) * 1.05)
  const px = (x: number): number => left + ((width - left - right) * x) / maxX
  const py = (y: number): number => top + (height - top - bottom) * (1 - y / maxY)
  const lines: string[] = []
  for (const { type, f, colour } of entries) {
    const points: string[] = []
    for (let i = 0; i <= 200; i++) {
      const x = (maxX * i) / 200
      points.push(`${px(x).toFixed(1)},${py(evaluatePav(f, x)).toFixed(1)}`)
    }
    lines.push(`<polyline fill="none" stroke="${colour}" stroke-width="2" points="${points.join(' ')}"><title>${type}</title></polyline>`)
  }
  const ticksX = Array.from({ length: 6 }, (_, i) => (maxX * i) / 5)
  const ticksY = Array.from({ length: 6 }, (_, i) => (maxY * i) / 5)
  const legend = entries.map(
    ({ type, f, colour }, i) =>
      `<g transform="translate(${width - right + 14},${top + 14 + i * 18})"><rect width="12" height="12" fill="${colour}"/><text x="18" y="10" font-size="12">${escape(type)} (${f.points.toLocaleString('en-US')})</text></g>`,
  )
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${left}" y="20" font-size="14">${escape(options.title ?? 'P(relevant | largest BM25 of a query token in the section), PAV per section type')}</text>`,
    `<line x1="${left}" y1="${py(0)}" x2="${width - right}" y2="${py(0)}" stroke="#333"/><line x1="${left}" y1="${top}" x2="${left}" y2="${py(0)}" stroke="#333"/>`,
    ...ticksX.map((x) => `<text x="${px(x)}" y="${py(0) + 16}" font-size="11" text-anchor="middle">${x.toFixed(1)}</text>`),
    ...ticksY.map((y) => `<text x="${left - 6}" y="${py(y) + 4}" font-size="11" text-anchor="end">${y.toFixed(2)}</text>`),
    `<text x="${(left + width - right) / 2}" y="${height - 8}" font-size="12" text-anchor="middle">section BM25 score</text>`,
    `<line x1="${left}" y1="${py(model.prior)}" x2="${width - right}" y2="${py(model.prior)}" stroke="#999" stroke-dasharray="4 3"><title>prior ${model.prior.toFixed(4)}</title></line>`,
    ...lines,
    ...legend,
    '</svg>',
    '',
  ].join('\n')
}

/** The section types a model has functions for, in the paper's order. */
export function modelSections(model: SectionModel): SectionType[] {
  return SECTION_TYPES.filter((type) => model.sections[type] !== undefined)
}

