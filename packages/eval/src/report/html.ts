import { runEntries, type ComparisonCell, type RunComparison } from '../compare.ts'
import { perQueryValues, type EvaluationResult } from '../evaluate.ts'
import { formatPValue } from './text.ts'

/** Input of {@link renderHtmlReport}. */
export interface HtmlReportInput {
  /** Page title. Defaults to `Retrieval evaluation`. */
  title?: string
  /** A sentence or two shown under the title (plain text). Defaults to none. */
  description?: string
  /** Run name → evaluation, in display order (the same runs as `comparison`). */
  runs: ReadonlyMap<string, EvaluationResult> | Readonly<Record<string, EvaluationResult>>
  /** The comparison of the runs ({@link compareRuns}). */
  comparison: RunComparison
  /** Measure plotted per query (an output name such as `ndcg_cut_10`). Defaults to the comparison's first measure. */
  metric?: string
  /** Text shown as the generation note (pass a date to stamp the report). Defaults to none. */
  generated?: string
  /**
   * Also plot each measure's mean across the runs in their display order, a line per measure
   * (for runs that are steps of one process, such as feedback rounds). Defaults to `false`.
   */
  trend?: boolean
}

const PALETTE = ['#1f6fb2', '#e07b00', '#2e8b57', '#8e44ad', '#c0392b', '#16a085', '#7f8c8d']
const BASELINE_COLOUR = '#6b7280'
const BETTER = '#1b7f3b'
const WORSE = '#b3261e'

/** Escapes text for HTML element content and attribute values. */
function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

const fmt = (x: number, digits = 4): string => x.toFixed(digits)
const signed = (x: number, digits = 4): string =>
  (x > 0 ? '+' : x < 0 ? '−' : '±') + Math.abs(x).toFixed(digits)

/** A "nice" upper bound for an axis: 1, 2, 2.5 or 5 times a power of ten. */
function niceCeiling(x: number): number {
  if (!(x > 0)) {
    return 1
  }
  const power = 10 ** Math.floor(Math.log10(x))
  const m = x / power
  const step = m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10
  return step * power
}

interface Bar {
  readonly label: string
  readonly value: number
  readonly colour: string
  readonly note?: string
}

interface ChartOptions {
  readonly title: string
  readonly yLabel: string
  readonly min: number
  readonly max: number
  /** Optional reference series drawn as a step line over the bars. */
  readonly reference?: { readonly values: readonly number[]; readonly label: string }
  /** Optional dashed horizontal line. */
  readonly marker?: { readonly value: number; readonly label: string }
}

/** An inline SVG bar chart with a y axis, gridlines and a native tooltip per bar. */
function barChart(bars: readonly Bar[], o: ChartOptions): string {
  const width = 960
  const height = 260
  const left = 56
  const right = 16
  const top = 16
  const bottom = 36
  const plotW = width - left - right
  const plotH = height - top - bottom
  const y = (v: number): number => top + plotH * (1 - (v - o.min) / (o.max - o.min || 1))
  const slot = plotW / Math.max(1, bars.length)
  const gap = slot > 4 ? Math.min(2, slot * 0.2) : 0
  const ticks = Array.from({ length: 5 }, (_, i) => o.min + ((o.max - o.min) * i) / 4)
  const parts: string[] = []
  parts.push(
    `<svg viewBox="0 0 ${width} ${height}" width="100%" role="img" aria-label="${esc(o.title)}" xmlns="http://www.w3.org/2000/svg">`,
  )
  for (const t of ticks) {
    parts.push(
      `<line x1="${left}" x2="${width - right}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}" class="grid"/>`,
      `<text x="${left - 6}" y="${(y(t) + 4).toFixed(1)}" class="tick" text-anchor="end">${esc(fmt(t, 2))}</text>`,
    )
  }
  const zero = y(Math.max(o.min, Math.min(o.max, 0)))
  bars.forEach((bar, i) => {
    const x = left + i * slot + gap / 2
    const yv = y(bar.value)
    const h = Math.abs(zero - yv)
    parts.push(
      `<rect x="${x.toFixed(2)}" y="${Math.min(zero, yv).toFixed(2)}" width="${Math.max(0.5, slot - gap).toFixed(2)}" height="${Math.max(h, bar.value === 0 ? 0 : 0.75).toFixed(2)}" fill="${bar.colour}"><title>${esc(bar.label)}: ${esc(fmt(bar.value))}${bar.note === undefined ? '' : ` (${esc(bar.note)})`}</title></rect>`,
    )
  })
  if (o.reference !== undefined) {
    const points = o.reference.values
      .map(
        (v, i) =>
          `${(left + i * slot).toFixed(2)},${y(v).toFixed(2)} ${(left + (i + 1) * slot).toFixed(2)},${y(v).toFixed(2)}`,
      )
      .join(' ')
    parts.push(
      `<polyline points="${points}" class="reference"><title>${esc(o.reference.label)}</title></polyline>`,
    )
  }
  if (o.marker !== undefined) {
    const ym = y(o.marker.value).toFixed(1)
    parts.push(
      `<line x1="${left}" x2="${width - right}" y1="${ym}" y2="${ym}" class="marker"/>`,
      `<text x="${width - right - 4}" y="${(Number(ym) - 5).toFixed(1)}" class="marker-label" text-anchor="end">${esc(o.marker.label)}</text>`,
    )
  }
  parts.push(
    `<line x1="${left}" x2="${width - right}" y1="${zero.toFixed(1)}" y2="${zero.toFixed(1)}" class="axis"/>`,
    `<line x1="${left}" x2="${left}" y1="${top}" y2="${top + plotH}" class="axis"/>`,
    `<text x="14" y="${top + plotH / 2}" class="axis-label" text-anchor="middle" transform="rotate(-90 14 ${top + plotH / 2})">${esc(o.yLabel)}</text>`,
    `<text x="${left + plotW / 2}" y="${height - 8}" class="axis-label" text-anchor="middle">${bars.length} queries (hover a bar for its id)</text>`,
    '</svg>',
  )
  return parts.join('\n')
}

/**
 * An inline SVG line chart of each measure's mean across the runs, in order; a point is hollow
 * where the run is not significantly different from the baseline.
 */
function trendChart(comparison: RunComparison): string {
  const width = 960
  const height = 300
  const left = 56
  const right = 170
  const top = 16
  const bottom = 52
  const plotW = width - left - right
  const plotH = height - top - bottom
  const rows = comparison.rows
  const max = niceCeiling(Math.max(0, ...rows.flatMap((row) => row.cells.map((cell) => cell.mean))))
  const x = (i: number): number => left + (rows.length === 1 ? plotW / 2 : (plotW * i) / (rows.length - 1))
  const y = (v: number): number => top + plotH * (1 - v / (max || 1))
  const parts: string[] = [
    `<svg viewBox="0 0 ${width} ${height}" width="100%" role="img" aria-label="Mean of each measure by run" xmlns="http://www.w3.org/2000/svg">`,
  ]
  for (let t = 0; t <= 4; t++) {
    const v = (max * t) / 4
    parts.push(
      `<line x1="${left}" x2="${left + plotW}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" class="grid"/>`,
      `<text x="${left - 6}" y="${(y(v) + 4).toFixed(1)}" class="tick" text-anchor="end">${esc(fmt(v, 2))}</text>`,
    )
  }
  rows.forEach((row, i) => {
    parts.push(`<text x="${x(i).toFixed(1)}" y="${top + plotH + 18}" class="tick" text-anchor="middle">${esc(row.run)}</text>`)
  })
  comparison.measures.forEach((measure, m) => {
    const colour = PALETTE[m % PALETTE.length] ?? '#1f6fb2'
    const points = rows.map((row, i) => `${x(i).toFixed(1)},${y(row.cells[m]?.mean ?? 0).toFixed(1)}`).join(' ')
    parts.push(`<polyline points="${points}" fill="none" stroke="${colour}" stroke-width="2"/>`)
    rows.forEach((row, i) => {
      const cell = row.cells[m]
      if (cell === undefined) {
        return
      }
      const filled = row.isBaseline || cell.significant
      parts.push(
        `<circle cx="${x(i).toFixed(1)}" cy="${y(cell.mean).toFixed(1)}" r="4" fill="${filled ? colour : '#fff'}" stroke="${colour}" stroke-width="2"><title>${esc(row.run)}: ${esc(measure)} ${esc(fmt(cell.mean))}${row.isBaseline ? ' (baseline)' : cell.significant ? ' (significant)' : ''}</title></circle>`,
      )
    })
    const ly = top + 14 + m * 18
    parts.push(
      `<line x1="${left + plotW + 16}" x2="${left + plotW + 36}" y1="${ly - 4}" y2="${ly - 4}" stroke="${colour}" stroke-width="2"/>`,
      `<text x="${left + plotW + 42}" y="${ly}" class="tick">${esc(measure)}</text>`,
    )
  })
  parts.push(
    `<line x1="${left}" x2="${left + plotW}" y1="${top + plotH}" y2="${top + plotH}" class="axis"/>`,
    `<line x1="${left}" x2="${left}" y1="${top}" y2="${top + plotH}" class="axis"/>`,
    `<text x="${left + plotW / 2}" y="${height - 8}" class="axis-label" text-anchor="middle">runs in the order given (filled point: the baseline, or significantly different from it)</text>`,
    '</svg>',
  )
  return parts.join('\n')
}

function marker(cell: ComparisonCell): string {
  if (!cell.significant) {
    return ''
  }
  return cell.difference > 0
    ? ' <span class="sig better" title="significantly better">▲</span>'
    : ' <span class="sig worse" title="significantly worse">▼</span>'
}

const STYLE = `
:root { color-scheme: light; --fg: #1f2328; --muted: #57606a; --line: #d0d7de; --bg-alt: #f6f8fa; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--fg); margin: 0; background: #fff; }
main { max-width: 1040px; margin: 0 auto; padding: 24px 24px 64px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 36px 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 15px; margin: 20px 0 4px; }
p.lead, p.note, .meta { color: var(--muted); margin: 4px 0; }
table { border-collapse: collapse; margin: 8px 0; font-variant-numeric: tabular-nums; }
th, td { padding: 6px 12px; border-bottom: 1px solid var(--line); text-align: right; white-space: nowrap; }
th:first-child, td:first-child, th.l, td.l { text-align: left; }
thead th { background: var(--bg-alt); font-weight: 600; }
tr.baseline td { background: #fbfbfc; }
td .delta { display: block; font-size: 12px; color: var(--muted); }
td .delta.better { color: ${BETTER}; } td .delta.worse { color: ${WORSE}; }
.sig.better { color: ${BETTER}; } .sig.worse { color: ${WORSE}; }
.yes { color: ${BETTER}; font-weight: 600; } .no { color: var(--muted); }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 6px; vertical-align: baseline; }
figure { margin: 8px 0 20px; }
figcaption { color: var(--muted); font-size: 13px; }
svg .grid { stroke: #eaeef2; stroke-width: 1; }
svg .axis { stroke: #8c959f; stroke-width: 1; }
svg .tick, svg .axis-label, svg .marker-label { font: 11px system-ui, sans-serif; fill: var(--muted); }
svg .reference { fill: none; stroke: #111827; stroke-width: 1.2; stroke-opacity: 0.65; }
svg .marker { stroke: #111827; stroke-dasharray: 5 4; stroke-width: 1; }
svg rect:hover { opacity: 0.7; }
`

/**
 * Renders a self-contained HTML report (inline CSS and SVG; no scripts, no external
 * assets): the mean of every compared measure per run with significance markers, a table
 * of the significance tests, per-query bar charts of one measure for every run (queries in
 * the baseline's order, the baseline drawn as a line over each run), and for every
 * non-baseline run its per-query difference from the baseline, sorted.
 * @param input - see {@link HtmlReportInput}
 */
export function renderHtmlReport(input: HtmlReportInput): string {
  const { comparison } = input
  const runs = new Map(runEntries(input.runs))
  const metric = input.metric ?? comparison.measures[0] ?? 'map'
  const title = input.title ?? 'Retrieval evaluation'
  const baseline = runs.get(comparison.baseline)
  const queryIds = comparison.queryIds
  const colour = new Map(
    comparison.rows.map((r, i) => [
      r.run,
      r.isBaseline ? BASELINE_COLOUR : (PALETTE[i % PALETTE.length] ?? '#1f6fb2'),
    ]),
  )
  const testName =
    comparison.test === 't-test' ? 'paired two-sided t-test' : 'paired two-sided randomisation test'
  const correction =
    comparison.correction === 'none'
      ? 'no correction for multiple comparisons'
      : `${comparison.correction} correction`
  const html: string[] = []
  html.push(
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    '<main>',
    `<h1>${esc(title)}</h1>`,
  )
  if (input.description !== undefined) {
    html.push(`<p class="lead">${esc(input.description)}</p>`)
  }
  html.push(
    `<p class="meta">${comparison.rows.length} runs · ${queryIds.length} queries · baseline <strong>${esc(comparison.baseline)}</strong> · ${esc(testName)}, α = ${comparison.alpha}, ${esc(correction)}${input.generated === undefined ? '' : ` · ${esc(input.generated)}`}</p>`,
  )

  // ---- means
  html.push('<h2>Mean effectiveness</h2>', '<table>', '<thead><tr><th>Run</th>')
  for (const m of comparison.measures) {
    html.push(`<th>${esc(m)}</th>`)
  }
  html.push('</tr></thead>', '<tbody>')
  for (const row of comparison.rows) {
    html.push(
      `<tr${row.isBaseline ? ' class="baseline"' : ''}><td><span class="swatch" style="background:${colour.get(row.run) ?? BASELINE_COLOUR}"></span>${esc(row.run)}${row.isBaseline ? ' <span class="no">(baseline)</span>' : ''}</td>`,
    )
    for (const cell of row.cells) {
      const delta = row.isBaseline
        ? ''
        : `<span class="delta ${cell.significant ? (cell.difference > 0 ? 'better' : 'worse') : ''}">${signed(cell.difference)}</span>`
      html.push(`<td>${fmt(cell.mean)}${marker(cell)}${delta}</td>`)
    }
    html.push('</tr>')
  }
  html.push(
    '</tbody></table>',
    `<p class="note">▲ / ▼: significantly better / worse than the baseline (${esc(testName)}, p ≤ ${comparison.alpha}). Small numbers: difference from the baseline's mean.</p>`,
  )

  if (input.trend === true) {
    html.push('<h2>Means by run</h2>', `<figure>${trendChart(comparison)}</figure>`)
  }

  // ---- significance
  html.push(
    '<h2>Significance tests</h2>',
    '<table>',
    '<thead><tr><th>Run</th><th class="l">Measure</th><th>Mean</th><th>Δ vs baseline</th><th>Relative Δ</th><th>Wins / ties / losses</th><th>p-value</th><th>Significant</th></tr></thead>',
    '<tbody>',
  )
  for (const row of comparison.rows) {
    if (row.isBaseline) {
      continue
    }
    for (const cell of row.cells) {
      const base = cell.mean - cell.difference
      const relative = base === 0 ? '—' : `${signed((100 * cell.difference) / base, 1)} %`
      html.push(
        `<tr><td>${esc(row.run)}</td><td class="l">${esc(cell.measure)}</td><td>${fmt(cell.mean)}</td><td>${signed(cell.difference)}</td><td>${relative}</td><td>${cell.wins} / ${cell.ties} / ${cell.losses}</td><td>${cell.pValue === undefined ? '—' : formatPValue(cell.pValue)}</td><td class="${cell.significant ? 'yes' : 'no'}">${cell.significant ? 'yes' : 'no'}</td></tr>`,
      )
    }
  }
  html.push('</tbody></table>')

  // ---- per-query values
  if (baseline !== undefined) {
    const baseValues = perQueryValues(baseline, metric, queryIds)
    const order = queryIds
      .map((q, i) => ({ q, i }))
      .sort((a, b) => (baseValues[b.i] ?? 0) - (baseValues[a.i] ?? 0) || (a.q < b.q ? -1 : 1))
    const allValues = [...runs.values()].flatMap((r) => perQueryValues(r, metric, queryIds))
    const max = niceCeiling(Math.max(1e-9, ...allValues))
    const min = Math.min(0, ...allValues)
    html.push(
      `<h2>Per-query ${esc(metric)}</h2>`,
      `<p class="note">One bar per query, queries sorted by the baseline's ${esc(metric)} (descending). Over every other run the baseline is drawn as a dark line, so bars above the line are queries the run improves.</p>`,
    )
    for (const row of comparison.rows) {
      const result = runs.get(row.run)
      if (result === undefined) {
        continue
      }
      const values = perQueryValues(result, metric, queryIds)
      const bars = order.map(({ q, i }) => ({
        label: q,
        value: values[i] ?? 0,
        colour: colour.get(row.run) ?? BASELINE_COLOUR,
      }))
      const meanValue = values.reduce((s, v) => s + v, 0) / Math.max(1, values.length)
      html.push(
        `<figure><h3><span class="swatch" style="background:${colour.get(row.run) ?? BASELINE_COLOUR}"></span>${esc(row.run)}${row.isBaseline ? ' (baseline)' : ''}</h3>`,
        barChart(bars, {
          title: `${row.run}: per-query ${metric}`,
          yLabel: metric,
          min,
          max,
          marker: { value: meanValue, label: `mean ${fmt(meanValue)}` },
          reference: row.isBaseline
            ? undefined
            : {
                values: order.map(({ i }) => baseValues[i] ?? 0),
                label: `${comparison.baseline} (baseline)`,
              },
        }),
        `<figcaption>${esc(row.run)}: mean ${esc(metric)} ${fmt(meanValue)}; ${values.filter((v) => v === 0).length} of ${values.length} queries score 0.</figcaption></figure>`,
      )
    }

    // ---- per-query differences
    const others = comparison.rows.filter((r) => !r.isBaseline)
    if (others.length > 0) {
      html.push(
        `<h2>Per-query difference from ${esc(comparison.baseline)} (${esc(metric)})</h2>`,
        '<p class="note">Each bar is one query: the run\'s value minus the baseline\'s, sorted from largest gain to largest loss. Green: the run is better; red: worse.</p>',
      )
      for (const row of others) {
        const result = runs.get(row.run)
        if (result === undefined) {
          continue
        }
        const values = perQueryValues(result, metric, queryIds)
        const diffs = queryIds
          .map((q, i) => ({ q, d: (values[i] ?? 0) - (baseValues[i] ?? 0) }))
          .sort((a, b) => b.d - a.d || (a.q < b.q ? -1 : 1))
        const bound = niceCeiling(Math.max(1e-9, ...diffs.map((x) => Math.abs(x.d))))
        const meanDiff = diffs.reduce((s, x) => s + x.d, 0) / Math.max(1, diffs.length)
        const wins = diffs.filter((x) => x.d > 0).length
        const losses = diffs.filter((x) => x.d < 0).length
        const cell = row.cells.find((c) => c.measure === metric)
        html.push(
          `<figure><h3>${esc(row.run)} − ${esc(comparison.baseline)}</h3>`,
          barChart(
            diffs.map((x) => ({
              label: x.q,
              value: x.d,
              colour: x.d >= 0 ? BETTER : WORSE,
              note: 'difference',
            })),
            {
              title: `${row.run} minus ${comparison.baseline}: per-query ${metric}`,
              yLabel: `Δ ${metric}`,
              min: -bound,
              max: bound,
              marker: { value: meanDiff, label: `mean Δ ${signed(meanDiff)}` },
            },
          ),
          `<figcaption>${wins} queries better, ${diffs.length - wins - losses} tied, ${losses} worse; mean difference ${signed(meanDiff)}${cell?.pValue === undefined ? '' : `, p = ${formatPValue(cell.pValue)}${cell.significant ? ' (significant)' : ' (not significant)'}`}.</figcaption></figure>`,
        )
      }
    }
  }
  html.push(
    '<p class="note">Measures follow trec_eval 10.0 definitions (ndcg_cut: gain = grade; ties in score broken by document id, descending).</p>',
    '</main>',
    '</body>',
    '</html>',
    '',
  )
  return html.join('\n')
}
