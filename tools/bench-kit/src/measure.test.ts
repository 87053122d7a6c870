import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { clockTicksPerSecond, dirBytes, machineDescription, parseProcStatTicks, timeIterable } from './measure.ts'

describe('timeIterable', () => {
  it('counts items, calls back every N items and notes the end', () => {
    let calls = 0
    const timed = timeIterable(['a', 'b', 'c', 'd', 'e'], { everyN: 2, every: () => calls++ })
    expect(timed.endedAt).toBeUndefined()
    expect([...timed]).toEqual(['a', 'b', 'c', 'd', 'e'])
    expect(timed.count).toBe(5)
    expect(calls).toBe(2) // after the 2nd and the 4th item
    expect(timed.endedAt).toBeTypeOf('number')
    expect(timed.producingMs).toBeGreaterThanOrEqual(0)
  })

  it('stops with TIMEOUT once its deadline has passed', () => {
    const timed = timeIterable([1, 2, 3], { deadline: performance.now() - 1 })
    expect(() => [...timed]).toThrowErrorMatchingInlineSnapshot(`[PubmatchError: time limit reached after 0 items]`)
  })
})

describe('dirBytes', () => {
  it('sums file sizes per extension, or per name without one, leaving directories and links out', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-kit-dirbytes-'))
    try {
      writeFileSync(join(dir, '_0.pst'), 'abc')
      writeFileSync(join(dir, '_1.pst'), 'de')
      writeFileSync(join(dir, 'INDEX.json'), '{}')
      writeFileSync(join(dir, 'iamglass'), 'xxxx')
      symlinkSync(join(dir, 'iamglass'), join(dir, 'link.pst'))
      mkdtempSync(join(dir, 'sub-'))
      expect(dirBytes(dir)).toEqual({ total: 11, byKind: { pst: 5, json: 2, iamglass: 4 } })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('/proc', () => {
  it('adds utime and stime (fields 14 and 15), counting from the last parenthesis', () => {
    const stat = '1234 (node a) b) S 1 1234 1234 0 -1 4194304 5000 0 0 0 250 50 0 0 20 0 11 0 100 1000 200'
    expect(parseProcStatTicks(stat)).toBe(300)
    expect(() => parseProcStatTicks('gone')).toThrowErrorMatchingInlineSnapshot(`[PubmatchError: not a /proc/<pid>/stat line: "gone"]`)
  })

  it('knows the clock ticks per second', () => {
    expect(clockTicksPerSecond()).toBeGreaterThan(0)
  })
})

describe('machineDescription', () => {
  it('names the cores, the CPU, the memory, Node and the platform', () => {
    expect(machineDescription()).toMatch(/^\d+ × .+, \d+ GiB RAM, Node v\d+\.\d+\.\d+, \w+$/)
  })
})
