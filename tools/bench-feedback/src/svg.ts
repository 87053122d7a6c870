/**
 * A small hand-written SVG line plot (no dependency): panels in a grid, all with the same x steps
 * (feedback rounds) and each with its own y range, one path per series, one legend below.
 */

/** One line. */
export interface Series {
  readonly name: string
  /** One value per x step; `undefined` leaves a gap. */
  readonly values: ReadonlyArray<number | undefined>
  readonly colour: string
  readonly dashed?: boolean
  /** List the series in the legend. Defaults to `true`. */
  readonly legend?: boolean
}

/** One panel of the plot. */
export interface Panel {
  readonly title: string
  /** The y axis's title. */
  readonly yTitle: string
  readonly series: readonly Series[]
  /** Grid step of the y axis. Defaults to {@link autoStep} of the panel's values. */
  readonly yStep?: number
}

/** Options of {@link renderLinePlot}. */
export interface LinePlotOptions {
  readonly title: string
  /** The x steps' labels (e.g. `0` … `5`). */
  readonly xLabels: readonly string[]
  readonly xTitle: string
  readonly panels: readonly Panel[]
  /** Panels per row. Defaults to all in one row. */
  readonly columns?: number
}

/** Candidate grid steps, finest first. */
const STEPS = [0.001, 0.002, 0.0025, 0.005, 0.01, 0.02, 0.025, 0.05, 0.1, 0.2, 0.25, 0.5, 1]

/**
 * A linear map from a domain onto a range.
 * @param domain - [d0, d1]
 * @param range - [r0, r1]
 */
export function scaleLinear(
  domain: readonly [number, number],
  range: readonly [number, number],
): (x: number) => number {
  const [d0, d1] = domain
  const [r0, r1] = range
  const span = d1 - d0 || 1
  return (x) => r0 + ((x - d0) / span) * (r1 - r0)
}

/**
 * The y range of the values, widened outwards to multiples of `step` (at least one step wide).
 * @param values - the plotted values (`undefined` ignored)
 * @param step - the grid step
 */
export function niceRange(
  values: ReadonlyArray<number | undefined>,
  step: number,
): [number, number] {
  const defined = values.filter((v): v is number => v !== undefined && Number.isFinite(v))
  if (defined.length === 0) {
    return [0, step]
  }
  // a little tolerance so that 0.3 / 0.05 = 5.999… does not become 5
  const lo = Math.floor(Math.min(...defined) / step + 1e-9) * step
  let hi = Math.ceil(Math.max(...defined) / step - 1e-9) * step
  if (hi <= lo) {
    hi = lo + step
  }
  return [round(lo), round(hi)]
}

/**
 * The finest grid step of {@link STEPS} that spans the values in at most `maxTicks` intervals.
 * @param values - the plotted values (`undefined` ignored)
 * @param maxTicks - most grid intervals. Defaults to `8`.
 */
export function autoStep(values: ReadonlyArray<number | undefined>, maxTicks = 8): number {
  for (const step of STEPS) {
    const [lo, hi] = niceRange(values, step)
    if (Math.round((hi - lo) / step) <= maxTicks) {
      return step
    }
  }
  return STEPS[STEPS.length - 1]!
}

function round(x: number): number {
  return Math.round(x * 1e9) / 1e9
}

/**
 * The `d` attribute of a path through the points, one decimal per coordinate; an `undefined`
 * value starts a new segment.
 * @param values - one y value per step
 * @param x - step index → x coordinate
 * @param y - value → y coordinate
 */
export function linePath(
  values: ReadonlyArray<number | undefined>,
  x: (i: number) => number,
  y: (v: number) => number,
): string {
  const parts: string[] = []
  let pen = false
  values.forEach((v, i) => {
    if (v === undefined || !Number.isFinite(v)) {
      pen = false
      return
    }
    parts.push(`${pen ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`)
    pen = true
  })
  return parts.join(' ')
}

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function decimals(step: number): number {
  return Math.max(2, Math.ceil(-Math.log10(step) - 1e-9))
}

/**
 * The plot as a standalone SVG document (inline styles; it also embeds in HTML as it is).
 * @param o - see {@link LinePlotOptions}
 */
export function renderLinePlot(o: LinePlotOptions): string {
  const columns = Math.max(1, Math.min(o.columns ?? o.panels.length, o.panels.length))
  const rows = Math.ceil(o.panels.length / columns)
  const panelW = 420
  const panelH = 300
  const left = 64
  const right = 16
  const top = 48
  const gapX = 72
  const rowH = top + panelH + 40
  const width = left + columns * panelW + (columns - 1) * gapX + right
  const names = [
    ...new Map(
      o.panels.flatMap((p) =>
        p.series.filter((s) => s.legend !== false).map((s) => [s.name, s] as const),
      ),
    ).values(),
  ]
  const legendTop = 8 + rows * rowH + 12
  const height = legendTop + Math.ceil(names.length / 3) * 18 + 8
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${esc(o.title)}" font-family="system-ui, sans-serif" font-size="11">`,
    `<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${left}" y="18" font-size="14" font-weight="600" fill="#1f2328">${esc(o.title)}</text>`,
  ]
  o.panels.forEach((panel, p) => {
    const values = panel.series.flatMap((s) => s.values)
    const step = panel.yStep ?? autoStep(values)
    const [yMin, yMax] = niceRange(values, step)
    const y0 = 8 + Math.floor(p / columns) * rowH
    const x0 = left + (p % columns) * (panelW + gapX)
    const y = scaleLinear([yMin, yMax], [y0 + top + panelH, y0 + top])
    const x = scaleLinear([0, Math.max(1, o.xLabels.length - 1)], [x0 + 8, x0 + panelW - 8])
    const ticks = Math.round((yMax - yMin) / step)
    out.push(
      `<text x="${x0 + panelW / 2}" y="${y0 + top - 10}" text-anchor="middle" font-size="12" font-weight="600" fill="#1f2328">${esc(panel.title)}</text>`,
    )
    for (let t = 0; t <= ticks; t++) {
      const v = yMin + t * step
      const yy = y(v).toFixed(1)
      out.push(
        `<line x1="${x0}" x2="${x0 + panelW}" y1="${yy}" y2="${yy}" stroke="${Math.abs(v) < step / 2 ? '#8c959f' : '#eaeef2'}"/>`,
        `<text x="${x0 - 6}" y="${(Number(yy) + 4).toFixed(1)}" text-anchor="end" fill="#57606a">${(Math.abs(v) < step / 2 ? 0 : v).toFixed(decimals(step))}</text>`,
      )
    }
    o.xLabels.forEach((label, i) => {
      out.push(
        `<text x="${x(i).toFixed(1)}" y="${y0 + top + panelH + 16}" text-anchor="middle" fill="#57606a">${esc(label)}</text>`,
      )
    })
    const midY = y0 + top + panelH / 2
    out.push(
      `<line x1="${x0}" x2="${x0}" y1="${y0 + top}" y2="${y0 + top + panelH}" stroke="#8c959f"/>`,
      `<line x1="${x0}" x2="${x0 + panelW}" y1="${y0 + top + panelH}" y2="${y0 + top + panelH}" stroke="#8c959f"/>`,
      `<text x="${x0 + panelW / 2}" y="${y0 + top + panelH + 32}" text-anchor="middle" fill="#57606a">${esc(o.xTitle)}</text>`,
      `<text x="${x0 - 50}" y="${midY}" text-anchor="middle" transform="rotate(-90 ${x0 - 50} ${midY})" fill="#57606a">${esc(panel.yTitle)}</text>`,
    )
    for (const s of panel.series) {
      const d = linePath(s.values, x, y)
      if (d === '') {
        continue
      }
      out.push(
        `<path d="${d}" fill="none" stroke="${s.colour}" stroke-width="1.8"${s.dashed === true ? ' stroke-dasharray="5 4"' : ''}><title>${esc(s.name)}: ${s.values.map((v) => (v === undefined ? '–' : v.toFixed(4))).join(', ')}</title></path>`,
      )
      s.values.forEach((v, i) => {
        if (v !== undefined && Number.isFinite(v)) {
          out.push(
            `<circle cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="2.2" fill="${s.colour}"/>`,
          )
        }
      })
    }
  })
  names.forEach((s, i) => {
    const lx = left + (i % 3) * 360
    const ly = legendTop + Math.floor(i / 3) * 18
    out.push(
      `<line x1="${lx}" x2="${lx + 24}" y1="${ly - 4}" y2="${ly - 4}" stroke="${s.colour}" stroke-width="1.8"${s.dashed === true ? ' stroke-dasharray="5 4"' : ''}/>`,
      `<text x="${lx + 30}" y="${ly}" fill="#1f2328">${esc(s.name)}</text>`,
    )
  })
  out.push('</svg>', '')
  return out.join('\n')
}
