import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { gzipSync } from 'node:zlib'
import { isPubmatchError, type PubmatchError } from '@pubmatch/core'
import { afterAll, describe, expect, it } from 'vitest'
import { readXmlText, type XmlInput, type XmlTextOptions } from './input.ts'

const dir = mkdtempSync(join(tmpdir(), 'pubmatch-input-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function readAll(input: XmlInput, options?: XmlTextOptions): Promise<string> {
  let text = ''
  for await (const chunk of readXmlText(input, options)) {
    text += chunk
  }
  return text
}

async function failure(
  input: XmlInput,
  options?: XmlTextOptions,
): Promise<{ text: string; error: PubmatchError }> {
  let text = ''
  try {
    for await (const chunk of readXmlText(input, options)) {
      text += chunk
    }
  } catch (error) {
    if (isPubmatchError(error)) {
      return { text, error }
    }
    throw error
  }
  throw new Error('expected a PubmatchError')
}

function chunksOf(bytes: Uint8Array, size: number): Readable {
  const chunks: Uint8Array[] = []
  for (let i = 0; i < bytes.length; i += size) {
    chunks.push(bytes.subarray(i, i + size))
  }
  return Readable.from(chunks)
}

const DOC = '<?xml version="1.0"?><Set><R>Café α – 𝛼</R></Set>'

describe('readXmlText', () => {
  it('reads a file path, decoding UTF-8 split anywhere, and reports the raw bytes read', async () => {
    const path = join(dir, 'plain.xml')
    writeFileSync(path, DOC)
    const seen: number[] = []
    expect(await readAll(path, { chunkSize: 3, onBytes: (n) => seen.push(n) })).toBe(DOC)
    expect(seen.at(-1)).toBe(Buffer.byteLength(DOC))
  })

  it('detects gzip by its magic bytes, whatever the name, including multi-member files', async () => {
    const path = join(dir, 'no-extension')
    writeFileSync(path, Buffer.concat([gzipSync(DOC.slice(0, 20)), gzipSync(DOC.slice(20))]))
    expect(await readAll(path, { chunkSize: 5 })).toBe(DOC)
    expect(await readAll(chunksOf(gzipSync(DOC), 1))).toBe(DOC)
  })

  it('reads Node streams and string chunks', async () => {
    expect(await readAll(Readable.from([Buffer.from(DOC)]))).toBe(DOC)
    expect(await readAll(Readable.from([DOC.slice(0, 7), DOC.slice(7)]))).toBe(DOC)
  })

  it('decodes by BOM or by the XML declaration', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(DOC, 'utf16le')])
    expect(await readAll(chunksOf(utf16, 3))).toBe(DOC)
    const latin1 = Buffer.from(
      '<?xml version="1.0" encoding="ISO-8859-1"?><R>caf\xe9</R>',
      'latin1',
    )
    expect(await readAll(chunksOf(latin1, 4))).toBe(
      '<?xml version="1.0" encoding="ISO-8859-1"?><R>café</R>',
    )
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(DOC)])
    expect(await readAll(chunksOf(bom, 2))).toBe(DOC)
  })

  it('rejects an encoding the platform cannot decode', async () => {
    const { error } = await failure(
      chunksOf(Buffer.from('<?xml version="1.0" encoding="x-no-such"?><R/>'), 64),
    )
    expect(error.code).toBe('UNSUPPORTED_FORMAT')
  })

  it('names the file when it cannot be read', async () => {
    const { error } = await failure(join(dir, 'missing.xml'))
    expect(error.code).toBe('IO')
    expect(error.details.file).toBe(join(dir, 'missing.xml'))
  })

  it('yields what was decoded before a gzip cut, then throws TRUNCATED_INPUT', async () => {
    const long = `<Set>${'<R>some text to compress poorly 0123456789</R>'.repeat(4000)}</Set>`
    const gz = gzipSync(long)
    const path = join(dir, 'cut.xml.gz')
    writeFileSync(path, gz.subarray(0, Math.floor(gz.length / 2)))
    const { text, error } = await failure(path, { chunkSize: 1024 })
    expect(error.code).toBe('TRUNCATED_INPUT')
    expect(error.details.file).toBe(path)
    expect(text.length).toBeGreaterThan(0)
    expect(long.startsWith(text)).toBe(true)
  })
})
