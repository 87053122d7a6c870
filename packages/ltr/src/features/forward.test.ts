import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createAnalyzer, getAnalyzer, whitespaceTokenize } from '@pubmatch/analysis'
import { isPubmatchError } from '@pubmatch/core'
import { describe, expect, it, onTestFinished } from 'vitest'
import { buildForwardIndex, createForwardIndexBuilder, loadForwardIndex, tokenFlags, type ForwardIndex } from './forward.ts'
import { TOKEN_DEFINITE, TOKEN_INDEFINITE, TOKEN_STOPWORD } from './spans.ts'

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pubmatch-forward-'))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  return dir
}

function tokens(forward: ForwardIndex, field: 'title' | 'abstract' | 'mesh', id: string): string[] {
  const { offsets, terms, flags } = forward.field(field)
  const doc = forward.docIndex(id)
  const out: string[] = []
  for (let k = offsets[doc]!; k < offsets[doc + 1]!; k++) {
    const term = terms[k]! < 0 ? '_' : forward.term(terms[k]!)
    out.push(flags[k] === 0 ? term : `${term}/${flags[k]}`)
  }
  return out
}

// PMID 14991249 (NLM medsamp2006.xml), title and MeSH as published.
const DOC = {
  id: '14991249',
  title: 'Spontaneous resolution of solitary osteochondroma in the young adult.',
  abstract: 'Spontaneous resolution of a solitary osteochondroma is rare.',
  mesh: ['Follow-Up Studies', 'Remission, Spontaneous'],
}

describe('tokenFlags', () => {
  it('flags PubMed stop words, a/an and the, case-insensitively', () => {
    expect(tokenFlags('The')).toBe(TOKEN_STOPWORD | TOKEN_DEFINITE)
    expect(tokenFlags('an')).toBe(TOKEN_STOPWORD | TOKEN_INDEFINITE)
    expect(tokenFlags('of')).toBe(TOKEN_STOPWORD)
    expect(tokenFlags('osteochondroma')).toBe(0)
  })
})

describe('buildForwardIndex', () => {
  it('keeps stop words of a biomedical index as flagged tokens without a term, and skips joined compounds', () => {
    const forward = buildForwardIndex([DOC], { analyzer: getAnalyzer('biomedical') })
    expect(forward.analyzer).toBe('biomedical')
    expect(forward.tokenAnalyzer).toBe('biomedical:nostop')
    // of = 1 (stop), in = 1, the = 1|4, a = 1|2; term -1 shown as `_`.
    expect(tokens(forward, 'title', DOC.id)).toEqual(['spontan', 'resolut', '_/1', 'solitari', 'osteochondroma', '_/1', '_/5', 'young', 'adult'])
    expect(tokens(forward, 'abstract', DOC.id)).toEqual(['spontan', 'resolut', '_/1', '_/3', 'solitari', 'osteochondroma', '_/1', 'rare'])
    // `Follow-Up` gives followup (joined, skipped), follow, up.
    expect(tokens(forward, 'mesh', DOC.id)).toEqual(['follow', 'up', 'studi', 'remiss', 'spontan'])
    expect(forward.termId('spontan')).toBe(0)
    expect(forward.termId('the')).toBe(-1)
    expect(forward.docIndex('nope')).toBe(-1)
  })

  it('keeps stop words as terms for analyzers that index them (whitespace)', () => {
    const forward = buildForwardIndex([{ id: 'd', title: 'the effect of a diet', abstract: '' }], { analyzer: getAnalyzer('whitespace') })
    expect(forward.tokenAnalyzer).toBe('whitespace')
    expect(tokens(forward, 'title', 'd')).toEqual(['the/5', 'effect', 'of/1', 'a/3', 'diet'])
    expect(tokens(forward, 'abstract', 'd')).toEqual([])
  })

  it('fills the positions a custom analyzer leaves empty with stop-word tokens', () => {
    const dropOf = createAnalyzer('custom-drop-of', whitespaceTokenize, [(t) => (t.term === 'of' ? null : t)])
    const forward = buildForwardIndex([{ id: 'd', title: 'effect of of diet', abstract: '' }], { analyzer: dropOf })
    expect(forward.tokenAnalyzer).toBe('custom-drop-of')
    expect(tokens(forward, 'title', 'd')).toEqual(['effect', '_/1', '_/1', 'diet'])
  })

  it('rejects duplicate ids', () => {
    expect(() => buildForwardIndex([DOC, DOC], { analyzer: getAnalyzer('biomedical') })).toThrow(/duplicate document id "14991249"/)
  })
})

describe('extending a forward store (an index update)', () => {
  const biomedical = getAnalyzer('biomedical')
  const other = { id: 'x1', title: 'Vitamin D and the bones', abstract: 'Bones need vitamin D.' }
  const third = { id: 'x3', title: 'An atlas of the eye', abstract: '' }

  it('keeps the base documents it does not drop, token for token, and adds the new ones after them', () => {
    const base = buildForwardIndex([DOC, other, third], { analyzer: biomedical })
    const newer = { ...other, title: 'Vitamin D, the bones and osteochondroma' }
    const added = { id: 'x4', title: 'Osteochondroma of the young', abstract: 'Rare.', mesh: ['Bone Neoplasms'] }
    const builder = createForwardIndexBuilder({ analyzer: biomedical, base, drop: new Set(['x1']) })
    builder.add(newer)
    builder.add(added)
    const extended = builder.finish()
    const fresh = buildForwardIndex([DOC, third, newer, added], { analyzer: biomedical })
    expect([...Array(extended.docCount).keys()].map((d) => extended.id(d))).toEqual(['14991249', 'x3', 'x1', 'x4'])
    for (const id of ['14991249', 'x3', 'x1', 'x4']) {
      for (const field of ['title', 'abstract', 'mesh'] as const) {
        expect(tokens(extended, field, id)).toEqual(tokens(fresh, field, id))
      }
    }
    // the base's term ids stay as they were
    expect(extended.termId('spontan')).toBe(base.termId('spontan'))
    expect(extended.termId('vitamin')).toBe(base.termId('vitamin'))
  })

  it('refuses a base built for another analyzer', () => {
    const base = buildForwardIndex([DOC], { analyzer: getAnalyzer('whitespace') })
    expect(() => createForwardIndexBuilder({ analyzer: biomedical, base })).toThrow(/built for analyzer whitespace/)
  })
})

describe('ForwardIndex.save / loadForwardIndex', () => {
  it('round-trips every column, id and term', async () => {
    const dir = await tempDir()
    const file = join(dir, 'forward.bin')
    const forward = buildForwardIndex([DOC, { id: 'x', title: 'Young adults', abstract: '' }], { analyzer: getAnalyzer('biomedical') })
    await forward.save(file)
    const loaded = await loadForwardIndex(file)
    expect([loaded.analyzer, loaded.tokenAnalyzer, loaded.docCount, loaded.termCount]).toEqual(['biomedical', 'biomedical:nostop', 2, forward.termCount])
    for (const field of ['title', 'abstract', 'mesh'] as const) {
      expect(loaded.field(field)).toEqual(forward.field(field))
      expect(tokens(loaded, field, 'x')).toEqual(tokens(forward, field, 'x'))
    }
    expect(loaded.id(1)).toBe('x')
    expect(loaded.termId('young')).toBe(forward.termId('young'))
  })

  it('reports a damaged file as INDEX_CORRUPTED and a missing one as NOT_FOUND', async () => {
    const dir = await tempDir()
    const file = join(dir, 'forward.bin')
    await buildForwardIndex([DOC], { analyzer: getAnalyzer('biomedical') }).save(file)
    const bytes = await readFile(file)
    bytes[bytes.length - 3] = bytes[bytes.length - 3]! ^ 0xff
    await writeFile(file, bytes)
    await expect(loadForwardIndex(file)).rejects.toSatisfy((e: unknown) => isPubmatchError(e, 'INDEX_CORRUPTED') && /checksum mismatch/.test(e.message))
    await writeFile(file, bytes.subarray(0, 20))
    await expect(loadForwardIndex(file)).rejects.toSatisfy((e: unknown) => isPubmatchError(e, 'INDEX_CORRUPTED'))
    await expect(loadForwardIndex(join(dir, 'missing.bin'))).rejects.toSatisfy((e: unknown) => isPubmatchError(e, 'NOT_FOUND'))
  })

  it('reports a header of another shape (under a valid checksum) as INDEX_CORRUPTED naming the file and field', async () => {
    const dir = await tempDir()
    const file = join(dir, 'forward.bin')
    await buildForwardIndex([DOC], { analyzer: getAnalyzer('biomedical') }).save(file)
    const bytes = await readFile(file)
    // magic (8 bytes) and SHA-256 of the payload (32), then the payload: u32 header length, header JSON, …
    const payloadAt = 8 + 32
    const headerLength = bytes.readUInt32LE(payloadAt)
    const header = bytes.toString('utf8', payloadAt + 4, payloadAt + 4 + headerLength)
    const damaged = Buffer.from(header.replace(/"docCount":1\b/, '"docCount":"1"'), 'utf8')
    const length = Buffer.alloc(4)
    length.writeUInt32LE(damaged.length)
    const payload = Buffer.concat([length, damaged, bytes.subarray(payloadAt + 4 + headerLength)])
    await writeFile(file, Buffer.concat([bytes.subarray(0, 8), createHash('sha256').update(payload).digest(), payload]))
    const error = await loadForwardIndex(file).catch((e: unknown) => e)
    expect(isPubmatchError(error, 'INDEX_CORRUPTED')).toBe(true)
    expect((error as Error).message.replace(dir, '<dir>')).toMatchInlineSnapshot(`"<dir>/forward.bin: docCount is "1", expected a non-negative integer"`)
  })
})
