import { randomBytes } from 'node:crypto'
import { open, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/**
 * Writes a new file and flushes it to disk. Fails if the file exists: index files are
 * written once under fresh names and never modified.
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
 * Replaces a file atomically: the bytes go to a temporary file in the same directory,
 * which is flushed, renamed over `path`, and the directory is flushed too. Readers see the
 * old content or the new, never a mix.
 * @param path - the file to replace
 * @param data - its new content
 */
export async function replaceFileAtomic(path: string, data: Uint8Array | string): Promise<void> {
  const tmp = join(dirname(path), `.tmp-${basename(path)}-${process.pid}-${randomBytes(4).toString('hex')}`)
  try {
    await writeNewFile(tmp, data)
    await rename(tmp, path)
  } catch (error) {
    await rm(tmp, { force: true })
    throw error
  }
  await syncDirectory(dirname(path))
}

/**
 * Flushes a directory's entries (new and renamed files) to disk. Best effort on platforms
 * that cannot open directories.
 * @param dir - the directory
 */
export async function syncDirectory(dir: string): Promise<void> {
  let handle
  try {
    handle = await open(dir, 'r')
    await handle.sync()
  } catch {
    // Windows cannot fsync a directory; rename is still atomic there.
  } finally {
    await handle?.close()
  }
}
