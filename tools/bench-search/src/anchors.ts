/**
 * The engines pubmatch's first stage is measured against in the same run (CONTRIBUTING.md,
 * "Benchmarks"): tantivy and PISA from PyPI in the benchmark's own virtual environment
 * (`venv.ts`), Xapian from Debian's python3-xapian. Each is driven by a small Python script in
 * `python/` that speaks the protocol of `drivers.ts`.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { lastJsonLine } from '@pubmatch/bench-kit'
import { json, PubmatchError, truncateForMessage } from '@pubmatch/core'

/** An anchor engine. */
export type AnchorName = 'tantivy' | 'pisa' | 'xapian'

/** Every anchor, in the order the benchmark runs and reports them. */
export const ANCHOR_NAMES: readonly AnchorName[] = ['tantivy', 'pisa', 'xapian']

/** What the benchmark needs to know of one anchor. */
export interface AnchorSpec {
  readonly name: AnchorName
  /** For tables: `tantivy`, `PISA`, `Xapian`. */
  readonly label: string
  /** The Python driver (`python/<name>_driver.py`). */
  readonly driver: string
  /** Where its Python comes from: the anchors' venv or Debian's python3-xapian. */
  readonly python: 'venv' | 'debian'
  /** A file the driver writes into the index directory last: its presence marks a complete build. */
  readonly marker: string
}

const driver = (name: string): string =>
  fileURLToPath(new URL(`../python/${name}_driver.py`, import.meta.url))

/** The anchors by name. */
export const ANCHORS: Readonly<Record<AnchorName, AnchorSpec>> = {
  tantivy: {
    name: 'tantivy',
    label: 'tantivy',
    driver: driver('tantivy'),
    python: 'venv',
    marker: 'meta.json',
  },
  pisa: {
    name: 'pisa',
    label: 'PISA',
    driver: driver('pisa'),
    python: 'venv',
    marker: 'pisa.json',
  },
  xapian: {
    name: 'xapian',
    label: 'Xapian',
    driver: driver('xapian'),
    python: 'debian',
    marker: 'iamglass',
  },
}

/**
 * Reads a comma-separated list of anchors: `tantivy,pisa`, `all` (every anchor) or `none`.
 * @param text - the list
 * @throws PubmatchError `INVALID_ARGUMENT` naming an unknown anchor
 */
export function parseAnchorList(text: string): AnchorName[] {
  const names = text
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '')
  if (names.length === 1 && names[0] === 'all') {
    return [...ANCHOR_NAMES]
  }
  if (names.length === 1 && names[0] === 'none') {
    return []
  }
  for (const name of names) {
    if (!(ANCHOR_NAMES as readonly string[]).includes(name)) {
      throw new PubmatchError(
        'INVALID_ARGUMENT',
        `unknown anchor "${truncateForMessage(name)}" (${ANCHOR_NAMES.join(', ')}, all or none)`,
      )
    }
  }
  return ANCHOR_NAMES.filter((name) => names.includes(name))
}

/**
 * The first Python that can `import xapian`: `PUBMATCH_PYTHON`, then Debian's
 * `/usr/bin/python3` (where `apt-get install python3-xapian` puts the module; a pyenv
 * `python3` on the PATH may not see it), then `python3`.
 * @returns the interpreter, or `null` when none has the module
 */
export function findXapianPython(): string | null {
  const candidates = [process.env['PUBMATCH_PYTHON'], '/usr/bin/python3', 'python3']
  for (const python of candidates) {
    if (python === undefined || python === '') {
      continue
    }
    const probe = spawnSync(python, ['-c', 'import xapian'], { stdio: 'ignore' })
    if (probe.status === 0) {
      return python
    }
  }
  return null
}

/** What {@link probeAnchor} found: the engine's version and the driver's configuration, or why it cannot run. */
export type AnchorProbe =
  | {
      readonly ok: true
      readonly version: string
      /** What the driver's builds state as their configuration (a cached build of another is redone). */
      readonly config: Readonly<Record<string, string>>
    }
  | { readonly ok: false; readonly reason: string }

/**
 * Runs an anchor's driver with `version` (it imports the engine and prints its version and
 * configuration).
 * @param python - the interpreter
 * @param anchor - the anchor
 */
export function probeAnchor(python: string, anchor: AnchorName): AnchorProbe {
  const probe = spawnSync(python, [ANCHORS[anchor].driver, 'version'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  if (probe.error !== undefined) {
    return { ok: false, reason: `${python} did not start (${probe.error.message})` }
  }
  if (probe.status !== 0) {
    const last = probe.stderr.trimEnd().split('\n').at(-1) ?? ''
    return {
      ok: false,
      reason: `${ANCHORS[anchor].label}'s driver failed under ${python}: ${truncateForMessage(last)}`,
    }
  }
  const { version, config } = lastJsonLine(
    probe.stdout,
    json.object({ version: json.string, config: json.record(json.string) }),
    `${anchor}_driver.py version`,
  )
  return { ok: true, version, config }
}
