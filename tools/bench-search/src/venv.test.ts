import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ANCHOR_REQUIREMENTS, anchorVenvStatus, ensureAnchorVenv, readPins } from './venv.ts'

describe('readPins', () => {
  it('pins tantivy 0.27.0 and pyterrier-pisa 0.4.9 exactly, and everything they pull in', () => {
    const pins = readPins(readFileSync(ANCHOR_REQUIREMENTS, 'utf8'), 'requirements-anchors.txt')
    expect(pins.slice(0, 2)).toEqual([
      { name: 'tantivy', version: '0.27.0' },
      { name: 'pyterrier-pisa', version: '0.4.9' },
    ])
    expect(pins.map((p) => p.name)).toEqual(
      expect.arrayContaining(['numpy', 'python-terrier', 'tbb']),
    )
    expect(new Set(pins.map((p) => p.name.toLowerCase())).size).toBe(pins.length)
  })

  it('refuses a line that is not an exact pin', () => {
    expect(() =>
      readPins('# anchors\ntantivy>=0.25\n', 'req.txt'),
    ).toThrowErrorMatchingInlineSnapshot(
      `[PubmatchError: req.txt, line 2: "tantivy>=0.25" is not an exact pin (name==version)]`,
    )
    expect(() => readPins('numpy\n', 'req.txt')).toThrow(/line 1: "numpy" is not an exact pin/)
  })
})

describe('anchorVenvStatus', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-search-venv-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('tells a missing venv, one made from other requirements, and a current one', () => {
    const requirements = join(dir, 'requirements.txt')
    writeFileSync(requirements, 'tantivy==0.27.0\n')
    const venv = join(dir, 'venv')
    expect(anchorVenvStatus(venv, requirements)).toBe('missing')
    mkdirSync(join(venv, 'bin'), { recursive: true })
    writeFileSync(join(venv, 'bin', 'python'), '')
    // an interpreter but no stamp: the installation did not finish
    expect(anchorVenvStatus(venv, requirements)).toBe('stale')
    writeFileSync(join(venv, 'requirements-anchors.txt'), 'tantivy==0.26.2\n')
    expect(anchorVenvStatus(venv, requirements)).toBe('stale')
    writeFileSync(join(venv, 'requirements-anchors.txt'), 'tantivy==0.27.0\n')
    expect(anchorVenvStatus(venv, requirements)).toBe('current')
  })

  it('returns a current venv as it is, without running pip', async () => {
    const requirements = join(dir, 'requirements.txt')
    const venv = join(dir, 'venv')
    expect(
      await ensureAnchorVenv({ dir: venv, requirements, basePython: '/nonexistent/python3' }),
    ).toEqual({
      ok: true,
      python: join(venv, 'bin', 'python'),
      created: false,
    })
  })

  it('says why when the interpreter that would make the venv does not start', async () => {
    const result = await ensureAnchorVenv({
      dir: join(dir, 'other'),
      requirements: join(dir, 'requirements.txt'),
      basePython: '/nonexistent/python3',
    })
    expect(result.ok).toBe(false)
    expect(result.ok ? '' : result.reason).toContain('/nonexistent/python3 did not start')
  })
})
