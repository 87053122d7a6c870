/**
 * A local cluster started with `ownerPid` dies with its owner: a test run killed midway (turbo
 * stopping a task when another fails) leaves no JVM behind. Real JVM, 1 node; skipped only where
 * the Maven module is not built (never in CI).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isPubmatchError } from '@pubmatch/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { javaBuilt, readLocalCluster, startLocalCluster, STATE_FILE } from '../src/cluster.ts'

const RUN = javaBuilt() || process.env.CI !== undefined

/** A process that does nothing until it is killed. */
function idleProcess(): ChildProcess {
  return spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' })
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Resolves once `pid` has exited (polls; the test's hang timeout is the only bound). */
async function exited(pid: number): Promise<void> {
  while (running(pid)) {
    await new Promise((done) => setTimeout(done, 200))
  }
}

describe('startLocalCluster ownerPid', () => {
  it('rejects an owner that is not a process id, before starting anything', async () => {
    for (const ownerPid of [0, -4, 1.5, Number.NaN]) {
      const error: unknown = await startLocalCluster({ dir: join(tmpdir(), 'pubmatch-never-created'), ownerPid }).catch((e: unknown) => e)
      expect(isPubmatchError(error, 'INVALID_ARGUMENT')).toBe(true)
      expect(String((error as Error).message)).toContain('ownerPid')
    }
    expect(existsSync(join(tmpdir(), 'pubmatch-never-created'))).toBe(false)
  })
})

describe.skipIf(!RUN)('a local cluster owned by another process', () => {
  let work: string
  const owners: ChildProcess[] = []

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'pubmatch-solr-owner-'))
  })

  afterAll(async () => {
    for (const owner of owners) {
      owner.kill('SIGKILL')
    }
    // a cluster the test could not see stop is stopped here, and waited for
    const state = await readLocalCluster(join(work, 'owned'))
    if (state !== undefined && running(state.pid)) {
      process.kill(state.pid, 'SIGKILL')
      await exited(state.pid)
    }
    await rm(work, { recursive: true, force: true })
  })

  it('shuts down cleanly when its owner is killed', async () => {
    const owner = idleProcess()
    owners.push(owner)
    const dir = join(work, 'owned')
    const cluster = await startLocalCluster({ dir, nodes: 1, heap: '512m', ownerPid: owner.pid! })
    const jvm = cluster.state.pid
    expect(running(jvm)).toBe(true)
    owner.kill('SIGKILL')
    await exited(jvm)
    // the shutdown hook ran: a clean shutdown deletes the state file
    expect(existsSync(join(dir, STATE_FILE))).toBe(false)
  })

  it('refuses to start for an owner that has already exited', async () => {
    const owner = idleProcess()
    const pid = owner.pid!
    owner.kill('SIGKILL')
    await new Promise((done) => owner.once('exit', done))
    const error: unknown = await startLocalCluster({ dir: join(work, 'orphan'), nodes: 1, heap: '512m', ownerPid: pid }).catch((e: unknown) => e)
    expect(isPubmatchError(error, 'INTERNAL')).toBe(true)
    expect(String((error as Error).message)).toMatch(/exited \(3\) before it was ready/)
  })
})
