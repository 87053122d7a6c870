/**
 * The anchors' Python virtual environment (`tools/bench-search/.venv`, gitignored): made by the
 * benchmark from the pins of `python/requirements-anchors.txt`, remade when that file changes
 * (CONTRIBUTING.md, "Benchmarks": anchors are installed by the benchmark itself).
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PubmatchError, toPubmatchError, truncateForMessage } from '@pubmatch/core'
import { runProcess } from './measure.ts'

/** The pinned requirements of the venv anchors (tantivy, pyterrier-pisa and what they pull in). */
export const ANCHOR_REQUIREMENTS: string = fileURLToPath(
  new URL('../python/requirements-anchors.txt', import.meta.url),
)

/** The venv's default place: `tools/bench-search/.venv`. */
export const ANCHOR_VENV: string = fileURLToPath(new URL('../.venv', import.meta.url))

/** The oldest Python the pinned wheels install on. */
export const ANCHOR_MIN_PYTHON: readonly [number, number] = [3, 11]

/** The copy of the requirements the venv was made from, inside it. */
const STAMP = 'requirements-anchors.txt'

/** A venv's interpreter. */
export function venvPython(dir: string): string {
  return join(dir, 'bin', 'python')
}

/**
 * Whether a venv was made from these requirements: `missing` (no interpreter), `stale` (made
 * from other requirements, or its installation did not finish) or `current`.
 * @param dir - the venv
 * @param requirements - the requirements file. Defaults to {@link ANCHOR_REQUIREMENTS}.
 */
export function anchorVenvStatus(
  dir: string,
  requirements: string = ANCHOR_REQUIREMENTS,
): 'missing' | 'stale' | 'current' {
  if (!existsSync(venvPython(dir))) {
    return 'missing'
  }
  const stamp = join(dir, STAMP)
  if (!existsSync(stamp)) {
    return 'stale'
  }
  return readFileSync(stamp, 'utf8') === readFileSync(requirements, 'utf8') ? 'current' : 'stale'
}

/** One pinned package of a requirements file. */
export interface Pin {
  readonly name: string
  readonly version: string
}

/**
 * The pins of a requirements file: every line that is not blank or a comment must be
 * `name==version` (exact pins only, so that a rerun installs the same engines).
 * @param text - the file's text
 * @param file - names the file in messages
 * @throws PubmatchError `INVALID_ARGUMENT` for a line that is not an exact pin
 */
export function readPins(text: string, file: string): Pin[] {
  const pins: Pin[] = []
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim()
    if (line === '' || line.startsWith('#')) {
      return
    }
    const pin = /^([A-Za-z0-9][A-Za-z0-9._-]*)==([A-Za-z0-9.+!-]+)$/.exec(line)
    if (pin === null) {
      throw new PubmatchError(
        'INVALID_ARGUMENT',
        `${file}, line ${i + 1}: "${truncateForMessage(line)}" is not an exact pin (name==version)`,
      )
    }
    pins.push({ name: pin[1]!, version: pin[2]! })
  })
  return pins
}

/** Options of {@link ensureAnchorVenv}. */
export interface AnchorVenvOptions {
  /** The venv. Defaults to {@link ANCHOR_VENV}. */
  readonly dir?: string
  /** The pinned requirements. Defaults to {@link ANCHOR_REQUIREMENTS}. */
  readonly requirements?: string
  /** The interpreter that makes the venv. Defaults to `PUBMATCH_ANCHOR_PYTHON`, else `python3`. */
  readonly basePython?: string
  /** Remake the venv even when it is current. Defaults to `false`. */
  readonly refresh?: boolean
  /** Progress messages. Defaults to none. */
  readonly onProgress?: (text: string) => void
}

/** What {@link ensureAnchorVenv} ended with: the venv's interpreter, or why there is none. */
export type AnchorVenv =
  | { readonly ok: true; readonly python: string; readonly created: boolean }
  | { readonly ok: false; readonly reason: string }

/**
 * The anchors' venv, made (`python3 -m venv`, then `pip install --only-binary :all: -r
 * requirements`) when it is missing or stale, or when `refresh` asks. This is the one step of
 * the benchmark that uses the network (PyPI). A failure is returned as a reason, not thrown:
 * the venv anchors are then skipped.
 * @param options - see {@link AnchorVenvOptions}
 */
export async function ensureAnchorVenv(options: AnchorVenvOptions = {}): Promise<AnchorVenv> {
  const dir = options.dir ?? ANCHOR_VENV
  const requirements = options.requirements ?? ANCHOR_REQUIREMENTS
  const base = options.basePython ?? (process.env['PUBMATCH_ANCHOR_PYTHON'] || 'python3')
  const status = anchorVenvStatus(dir, requirements)
  if (status === 'current' && options.refresh !== true) {
    return { ok: true, python: venvPython(dir), created: false }
  }
  const [major, minor] = ANCHOR_MIN_PYTHON
  const check = spawnSync(
    base,
    [
      '-c',
      `import sys; print('%d.%d' % sys.version_info[:2]); sys.exit(0 if sys.version_info >= (${major}, ${minor}) else 3)`,
    ],
    { encoding: 'utf8' },
  )
  if (check.error !== undefined) {
    return {
      ok: false,
      reason: `${base} did not start (${check.error.message}); PUBMATCH_ANCHOR_PYTHON names another interpreter`,
    }
  }
  if (check.status !== 0) {
    return {
      ok: false,
      reason: `${base} is Python ${check.stdout.trim() || '?'}; the pinned wheels need ${major}.${minor} or newer (PUBMATCH_ANCHOR_PYTHON names another interpreter)`,
    }
  }
  options.onProgress?.(
    `${status === 'current' ? 'remaking' : status === 'stale' ? 'updating' : 'making'} the anchors' Python environment ${dir} (${base}, pip install -r python/requirements-anchors.txt)`,
  )
  try {
    rmSync(dir, { recursive: true, force: true })
    await runProcess(base, ['-m', 'venv', dir])
    await runProcess(venvPython(dir), [
      '-m',
      'pip',
      'install',
      '--disable-pip-version-check',
      '--no-input',
      '--quiet',
      '--only-binary',
      ':all:',
      '-r',
      requirements,
    ])
    copyFileSync(requirements, join(dir, STAMP))
  } catch (error) {
    return {
      ok: false,
      reason: `could not make the anchors' Python environment: ${toPubmatchError(error).message}`,
    }
  }
  return { ok: true, python: venvPython(dir), created: true }
}
