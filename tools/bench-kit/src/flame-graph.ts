/**
 * A flame graph (SVG) of a V8 CPU profile (`node --cpu-prof`, `inspector` `Profiler.stop`): the
 * call tree with each frame as wide as the time spent in it and its callees, the root at the
 * bottom, each frame's name, place and time in its tooltip. Written here because the flame-graph
 * packages on npm read other formats (perf, DTrace, `--prof` logs) or are no longer kept.
 */
import { PubmatchError } from '@pubmatch/core'

/** The parts of a V8 `.cpuprofile` this reads. */
export interface CpuProfile {
  readonly nodes: ReadonlyArray<{
    readonly id: number
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
    readonly children?: readonly number[]
  }>
  /** The node of each sample. */
  readonly samples: readonly number[]
  /** Microseconds before each sample (the first from the profile's start). */
  readonly timeDeltas: readonly number[]
}

/** Options of {@link flameGraphSvg}. */
export interface FlameGraphOptions {
  /** The heading. Defaults to `CPU profile`. */
  readonly title?: string
  /** Width in pixels. Defaults to `1200`. */
  readonly width?: number
  /** Frames narrower than this (pixels) are left out. Defaults to `0.5`. */
  readonly minWidth?: number
}

/** One frame of the merged call tree. */
export interface FlameFrame {
  readonly name: string
  /** `file:line` (1-based line), or empty for V8's own frames. */
  readonly place: string
  /** Microseconds in this frame alone. */
  self: number
  /** Microseconds in this frame and its callees. */
  total: number
  readonly children: FlameFrame[]
}

/**
 * The profile's call tree, time per frame: a sample's time is the delta after it (the time until
 * the next sample; the last sample gets the mean delta), children with the same name and place
 * merged, children ordered by name (a flame graph's x axis is not time).
 * @param profile - the profile
 * @throws PubmatchError `INVALID_ARGUMENT` when samples and deltas differ in number or a sample
 *   names no node
 */
export function flameTree(profile: CpuProfile): FlameFrame {
  const { nodes, samples, timeDeltas } = profile
  if (samples.length !== timeDeltas.length) {
    throw new PubmatchError('INVALID_ARGUMENT', `a CPU profile has ${samples.length} samples but ${timeDeltas.length} time deltas`)
  }
  const byId = new Map(nodes.map((node) => [node.id, node]))
  const selfById = new Map<number, number>()
  const mean = timeDeltas.length === 0 ? 0 : timeDeltas.reduce((a, b) => a + b, 0) / timeDeltas.length
  samples.forEach((id, i) => {
    if (!byId.has(id)) {
      throw new PubmatchError('INVALID_ARGUMENT', `sample ${i} of a CPU profile names node ${id}, which the profile does not hold`)
    }
    const delta = i + 1 < timeDeltas.length ? timeDeltas[i + 1]! : mean
    selfById.set(id, (selfById.get(id) ?? 0) + Math.max(0, delta))
  })
  const isChild = new Set(nodes.flatMap((node) => node.children ?? []))
  const roots = nodes.filter((node) => !isChild.has(node.id))
  const root: FlameFrame = { name: 'all', place: '', self: 0, total: 0, children: [] }
  const build = (nodeId: number, parent: FlameFrame, seen: Set<number>): void => {
    const node = byId.get(nodeId)
    if (node === undefined || seen.has(nodeId)) {
      return
    }
    seen.add(nodeId)
    const { functionName, url, lineNumber } = node.callFrame
    const name = functionName === '' ? '(anonymous)' : functionName
    const place = url === '' ? '' : `${url.replace(/^file:\/\//, '').split('/').slice(-2).join('/')}:${lineNumber + 1}`
    let frame = parent.children.find((child) => child.name === name && child.place === place)
    if (frame === undefined) {
      frame = { name, place, self: 0, total: 0, children: [] }
      parent.children.push(frame)
    }
    frame.self += selfById.get(nodeId) ?? 0
    for (const child of node.children ?? []) {
      build(child, frame, seen)
    }
  }
  for (const node of roots) {
    // V8's own root frame, "(root)", is the graph's "all"
    if (node.callFrame.functionName === '(root)') {
      root.self += selfById.get(node.id) ?? 0
      for (const child of node.children ?? []) {
        build(child, root, new Set([node.id]))
      }
    } else {
      build(node.id, root, new Set())
    }
  }
  const sum = (frame: FlameFrame): number => {
    frame.children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.place < b.place ? -1 : 1))
    frame.total = frame.self + frame.children.reduce((acc, child) => acc + sum(child), 0)
    return frame.total
  }
  sum(root)
  return root
}

const FRAME_HEIGHT = 16
const TOP = 40

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** A warm colour from the frame's name (the same name, the same colour in every graph). */
function colour(name: string): string {
  let hash = 0
  for (let i = 0; i < name.length; i++) {
    hash = (hash * 31 + name.charCodeAt(i)) >>> 0
  }
  const red = 205 + (hash % 50)
  const green = 80 + ((hash >>> 8) % 150)
  const blue = (hash >>> 16) % 60
  return `rgb(${red},${green},${blue})`
}

/**
 * The flame graph of a profile as a standalone SVG document.
 * @param profile - the profile
 * @param options - see {@link FlameGraphOptions}
 */
export function flameGraphSvg(profile: CpuProfile, options: FlameGraphOptions = {}): string {
  const root = flameTree(profile)
  const width = options.width ?? 1200
  const minWidth = options.minWidth ?? 0.5
  const scale = root.total === 0 ? 0 : (width - 20) / root.total
  const rects: string[] = []
  let depth = 0
  const draw = (frame: FlameFrame, x: number, level: number): void => {
    const w = frame.total * scale
    if (w < minWidth) {
      return
    }
    depth = Math.max(depth, level + 1)
    rects.push(`${level}\u0000${x}\u0000${w}\u0000${frame.name}\u0000${frame.place}\u0000${frame.total}\u0000${frame.self}`)
    let childX = x
    for (const child of frame.children) {
      draw(child, childX, level + 1)
      childX += child.total * scale
    }
  }
  draw(root, 10, 0)
  const height = TOP + depth * FRAME_HEIGHT + 10
  const ms = (us: number): string => (us / 1000).toFixed(us >= 10_000 ? 0 : 1)
  const body = rects.map((entry) => {
    const [level, x, w, name, place, total, self] = entry.split('\u0000') as [string, string, string, string, string, string, string]
    const y = height - 10 - (Number(level) + 1) * FRAME_HEIGHT
    const share = root.total === 0 ? 0 : (Number(total) / root.total) * 100
    const label = `${name}${place === '' ? '' : ` (${place})`}`
    const tip = `${label}: ${ms(Number(total))} ms, ${share.toFixed(1)} % (self ${ms(Number(self))} ms)`
    const chars = Math.floor((Number(w) - 6) / 7)
    const text = chars < 3 ? '' : label.length <= chars ? label : `${label.slice(0, chars - 1)}…`
    return (
      `<g><title>${escapeXml(tip)}</title>` +
      `<rect x="${Number(x).toFixed(2)}" y="${y}" width="${Number(w).toFixed(2)}" height="${FRAME_HEIGHT - 1}" fill="${name === 'all' ? '#ccc' : colour(name)}" rx="2"/>` +
      (text === '' ? '' : `<text x="${(Number(x) + 3).toFixed(2)}" y="${y + 11.5}">${escapeXml(text)}</text>`) +
      '</g>'
    )
  })
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Verdana, sans-serif" font-size="11">\n` +
    `<rect width="100%" height="100%" fill="#fafaf5"/>\n` +
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="15">${escapeXml(options.title ?? 'CPU profile')} (${ms(root.total)} ms sampled; hover a frame for its time)</text>\n` +
    `${body.join('\n')}\n</svg>\n`
  )
}
