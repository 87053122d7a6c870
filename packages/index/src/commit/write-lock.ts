import { open, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { PubmatchError } from '@pubmatch/core'

/** The lock file that keeps a second writer out of an index directory. */
export const WRITE_LOCK_FILE = 'write.lock'

const heldHere = new Set<string>()

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Takes the index's write lock: creates `write.lock` holding this process id. A lock left by
 * a process that no longer runs is taken over.
 * @param dir - the index directory
 * @returns a function that releases the lock
 * @throws PubmatchError `INVALID_ARGUMENT` when another live writer holds it
 */
export async function acquireWriteLock(dir: string): Promise<() => Promise<void>> {
  const path = join(dir, WRITE_LOCK_FILE)
  for (let attempt = 0; attempt < 2; attempt++) {
    if (!heldHere.has(path)) {
      try {
        const handle = await open(path, 'wx')
        await handle.writeFile(String(process.pid))
        await handle.close()
        heldHere.add(path)
        return async () => {
          heldHere.delete(path)
          await rm(path, { force: true })
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw new PubmatchError('IO', `cannot create ${path}`, { cause: error, details: { file: path } })
        }
      }
    }
    const owner = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10)
    if (heldHere.has(path) || (Number.isInteger(owner) && owner > 0 && alive(owner))) {
      throw new PubmatchError(
        'INVALID_ARGUMENT',
        `${dir} is locked by another index writer (process ${Number.isNaN(owner) ? '?' : owner}); close it first`,
        { details: { file: path } },
      )
    }
    await rm(path, { force: true })
  }
  throw new PubmatchError('IO', `cannot take the write lock ${path}`, { details: { file: path } })
}
