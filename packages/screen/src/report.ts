/**
 * The recall curve of screening simulations as an SVG (share of records screened → share of the
 * relevant records found, with the random-screening diagonal) and an HTML report holding the
 * curve and the metrics table. Both are self-contained text: no scripts, no external resources.
 */
import type { SimulationResult } from './simulate.ts'

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf']

/** A curve: its name and the labels in screening order after the priors, out of `total` records. */
export interface RecallCurve {
  readonly name: string
  readonly labels: readonly number[]
  readonly total: number
}

/**
 * The points of a recall curve, `[screened share, recall]`, one per relevant record found (a step
 * curve from (0, 0) to (1, 1)).
 * @param curve - the curve
 */
export function recallPoints(curve: RecallCurve): Array<[number, number]> {
  const relevant = curve.labels.reduce((a, b) => a + b, 0)
  const points: Array<[number, number]> = [[0, 0]]
  let found = 0
  for (const [i, label] of curve.labels.entries()) {
    if (label === 1) {
      points.push([i / curve.total, found / relevant])
      found++
      points.push([(i + 1) / curve.total, found / relevant])
    }
  }
  points.push([1, found / Math.max(1, relevant)])
  return points
}

/**
 * An SVG plot of recall curves.
 * @param curves - the curves
 * @param title - the plot's title
 */
export function recallCurveSvg(curves: readonly RecallCurve[], title: string): string {
  const [w, h, left, top, size] = [520, 440, 60, 40, 360]
  const x = (share: number): string => (left + share * size).toFixed(1)
  const y = (recall: number): string => (top + (1 - recall) * size).toFixed(1)
  const ticks = [0, 0.25, 0.5, 0.75, 1]
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" font-family="sans-serif" font-size="12">`,
    `<title>${escape(title)}</title>`,
    `<text x="${w / 2}" y="20" text-anchor="middle" font-size="14">${escape(title)}</text>`,
    `<rect x="${left}" y="${top}" width="${size}" height="${size}" fill="none" stroke="#888"/>`,
    ...ticks.flatMap((t) => [
      `<text x="${x(t)}" y="${top + size + 16}" text-anchor="middle">${t * 100}%</text>`,
      `<text x="${left - 6}" y="${y(t)}" text-anchor="end" dominant-baseline="middle">${t * 100}%</text>`,
    ]),
    `<text x="${left + size / 2}" y="${top + size + 34}" text-anchor="middle">records screened</text>`,
    `<text x="16" y="${top + size / 2}" text-anchor="middle" transform="rotate(-90 16 ${top + size / 2})">relevant records found</text>`,
    `<line x1="${x(0)}" y1="${y(0)}" x2="${x(1)}" y2="${y(1)}" stroke="#aaa" stroke-dasharray="4 4"/>`,
    ...curves.map((curve, i) => {
      const d = recallPoints(curve).map(([sx, sy], k) => `${k === 0 ? 'M' : 'L'}${x(sx)},${y(sy)}`).join(' ')
      return `<path d="${d}" fill="none" stroke="${COLOURS[i % COLOURS.length]}" stroke-width="1.5"><title>${escape(curve.name)}</title></path>`
    }),
    ...curves.map((curve, i) => `<text x="${left + size + 10}" y="${top + 14 + i * 16}" fill="${COLOURS[i % COLOURS.length]}">${escape(curve.name)}</text>`),
    `<text x="${left + size + 10}" y="${top + 14 + curves.length * 16}" fill="#888">random</text>`,
    '</svg>',
  ]
  return `${parts.join('\n')}\n`
}

/**
 * An HTML report of simulations: the recall curve and a table of every run's metrics.
 * @param results - the simulations (of one review, or several)
 * @param title - the report's title
 */
export function simulationHtml(results: readonly SimulationResult[], title: string): string {
  const pct = (x: number): string => `${(100 * x).toFixed(1)} %`
  const rows = results.map((r) => {
    const m = r.metrics
    const ms = r.retrainMs.length === 0 ? 0 : r.retrainMs.reduce((a, b) => a + b, 0) / r.retrainMs.length
    return `<tr><td>${escape(r.review)}</td><td>${escape(r.ranker)}</td><td>${r.seed}</td><td>${m.records}</td><td>${m.relevant}</td><td>${m.wss95.toFixed(3)}</td><td>${pct(m.recallAt10)}</td><td>${pct(m.recallAt25)}</td><td>${m.toRecall95}</td><td>${m.toRecall100}</td><td>${m.atd.toFixed(1)} (${pct(m.atdShare)})</td><td>${ms.toFixed(1)}</td></tr>`
  })
  const svg = recallCurveSvg(
    results.map((r) => ({ name: `${r.review} ${r.ranker} seed ${r.seed}`, labels: r.labels, total: r.metrics.records })),
    title,
  )
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}td:first-child,th:first-child{text-align:left}</style>
</head><body>
<h1>${escape(title)}</h1>
<p>Metrics after the prior records (one included, one excluded), as asreview-insights defines them: WSS@95 is work saved over random screening at 95 % recall; R@10 % and R@25 % the recall after screening that share; ATD the average position at which a relevant record was found.</p>
${svg}
<table><thead><tr><th>review</th><th>ranker</th><th>seed</th><th>records</th><th>relevant</th><th>WSS@95</th><th>R@10 %</th><th>R@25 %</th><th>screened to 95 %</th><th>screened to 100 %</th><th>ATD</th><th>ms per decision</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table>
</body></html>
`
}
