import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { readLines } from './scale-batches.ts'
import { parseProcStatus, processMemory, withTimeLimit } from './scale-measure.ts'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) {
    rmSync(dir, { recursive: true, force: true })
  }
})

describe('parseProcStatus', () => {
  it('reads VmRSS, VmHWM, RssAnon and RssFile in MiB', () => {
    const status =
      'Name:\tjava\nVmHWM:\t 2097152 kB\nVmRSS:\t 1048576 kB\nRssAnon:\t  786432 kB\nRssFile:\t  262144 kB\n'
    expect(parseProcStatus(status)).toEqual({ rss: 1024, peak: 2048, anon: 768, file: 256 })
  })

  it('reads this process', () => {
    expect(processMemory(process.pid).rss).toBeGreaterThan(10)
  })
})

describe('withTimeLimit', () => {
  it('rejects with TIMEOUT and aborts the signal past the limit', async () => {
    // a phase that runs until it is stopped: only the limit can end it
    let stopped!: () => void
    const phaseStopped = new Promise<void>((done) => (stopped = done))
    await expect(
      withTimeLimit('a phase', 20, async (signal) => {
        await new Promise((done) => signal.addEventListener('abort', done, { once: true }))
        stopped()
      }),
    ).rejects.toThrow(/a phase ran past its limit/)
    await phaseStopped
  })
})

describe('readLines', () => {
  it('yields each line as bytes, across chunk boundaries', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-solr-'))
    dirs.push(dir)
    const long = 'x'.repeat(5 * 2 ** 20)
    writeFileSync(join(dir, 'f'), `[1]\n${long}\n[2,3]\n`)
    const lines: string[] = []
    for await (const line of readLines(join(dir, 'f'))) {
      lines.push(line.length > 100 ? `long ${line.length}` : line.toString('utf8'))
    }
    expect(lines).toEqual(['[1]', `long ${long.length}`, '[2,3]'])
  })

  it('rejects a file that does not end with a newline', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-solr-'))
    dirs.push(dir)
    writeFileSync(join(dir, 'f'), '[1]\n[2')
    const read = async (): Promise<void> => {
      for await (const _ of readLines(join(dir, 'f'))) {
        // drain
      }
    }
    await expect(read()).rejects.toThrow(/does not end with a newline/)
  })
})
