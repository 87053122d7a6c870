import { randomBytes } from 'node:crypto'
import { open, rename, rm } from 'node:fs/promises'
import { dirname, basename, join } from 'node:path'

/**
 * Writes a file crash-safely: the bytes go to a temporary file beside the target, which is
 * flushed to disk and then renamed over the target, so readers see the old file or the new
 * one, never a partial one.
 * @param path - the file to replace
 * @param data - its new content
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const tmp = temporaryPathFor(path)
  const handle = await open(tmp, 'w')
  try {
    await handle.writeFile(data)
    await handle.sync()
  } finally {
    await handle.close()
  }
  try {
    await rename(tmp, path)
  } catch (error) {
    await rm(tmp, { force: true })
    throw error
  }
}

/**
 * A unique temporary name in the same directory as `path` (same file system, so the final
 * rename is atomic). Temporary names start with `.tmp-` so they are easy to sweep.
 * @param path - the eventual file
 */
export function temporaryPathFor(path: string): string {
  return join(dirname(path), `.tmp-${basename(path)}-${process.pid}-${randomBytes(4).toString('hex')}`)
}
