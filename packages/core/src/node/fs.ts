import { randomBytes } from 'node:crypto'
import { open, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/**
 * A unique temporary name in the same directory as `path` (same file system, so a final
 * rename is atomic). Temporary names start with `.tmp-` so they are easy to sweep.
 * @param path - the eventual file
 */
export function temporaryPathFor(path: string): string {
  return join(dirname(path), `.tmp-${basename(path)}-${process.pid}-${randomBytes(4).toString('hex')}`)
}

/**
 * Writes a new file and flushes it to disk. Fails (`EEXIST`) if the file exists, so a file
 * written under a fresh name is never modified afterwards.
 * @param path - the file
 * @param data - its content
 */
export async function writeNewFile(path: string, data: Uint8Array | string): Promise<void> {
  const handle = await open(path, 'wx')
  try {
    await handle.writeFile(data)
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/**
 * Flushes a directory's entries (new and renamed files) to disk. Best effort on platforms
 * that cannot open a directory (Windows); a rename is still atomic there.
 * @param dir - the directory
 */
export async function syncDirectory(dir: string): Promise<void> {
  let handle
  try {
    handle = await open(dir, 'r')
    await handle.sync()
  } catch {
    // cannot fsync a directory here
  } finally {
    await handle?.close()
  }
}

/**
 * Writes a file crash-safely: the bytes go to a temporary file beside the target, which is
 * flushed, renamed over the target, and the directory is flushed too. Readers see the old
 * content or the new, never a mix; on failure the temporary file is removed.
 * @param path - the file to create or replace
 * @param data - its new content
 */
export async function writeFileAtomic(path: string, data: Uint8Array | string): Promise<void> {
  const tmp = temporaryPathFor(path)
  try {
    await writeNewFile(tmp, data)
    await rename(tmp, path)
  } catch (error) {
    await rm(tmp, { force: true })
    throw error
  }
  await syncDirectory(dirname(path))
}
