import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { XMLParser } from 'fast-xml-parser'
import { isPubmatchError, type PubmatchError } from '@pubmatch/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readPubmedXml } from '../pubmed/reader.ts'
import type { IngestRecord } from '../records.ts'
import { parseXmlDocument } from './records.ts'

const dir = mkdtempSync(join(tmpdir(), 'pubmatch-hostile-'))
let server: Server
let requests = 0
let origin = ''

beforeAll(async () => {
  server = createServer((_request, response) => {
    requests++
    response.end('<!ENTITY leaked "SECRET">')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()))
  rmSync(dir, { recursive: true, force: true })
})

function write(name: string, text: string): string {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

async function readFailure(
  path: string,
): Promise<{ records: IngestRecord[]; error: PubmatchError }> {
  const records: IngestRecord[] = []
  try {
    for await (const record of readPubmedXml(path)) {
      records.push(record)
    }
  } catch (error) {
    if (isPubmatchError(error)) {
      return { records, error }
    }
    throw error
  }
  throw new Error('expected a PubmatchError')
}

function article(pmid: string, title: string): string {
  return (
    `<PubmedArticle><MedlineCitation Status="MEDLINE" Owner="NLM"><PMID Version="1">${pmid}</PMID>` +
    `<Article><ArticleTitle>${title}</ArticleTitle></Article></MedlineCitation></PubmedArticle>`
  )
}

function billionLaughs(): string {
  const entities = ['<!ENTITY lol "lol">']
  for (let k = 1; k <= 9; k++) {
    entities.push(`<!ENTITY lol${k} "${`&lol${k === 1 ? '' : k - 1};`.repeat(10)}">`)
  }
  return (
    `<?xml version="1.0"?>\n<!DOCTYPE PubmedArticleSet [\n${entities.join('\n')}\n]>\n` +
    `<PubmedArticleSet>${article('1', '&lol9;')}${article('2', 'fine')}</PubmedArticleSet>`
  )
}

describe('fast-xml-parser 5.12 on its own (pinned so that an upgrade that changes it is noticed)', () => {
  const defaults = () => new XMLParser()

  it('silently leaves a billion-laughs reference unexpanded (entities whose value holds & are dropped)', () => {
    const parsed = defaults().parse(billionLaughs()) as {
      PubmedArticleSet: { PubmedArticle: unknown[] }
    }
    expect(JSON.stringify(parsed)).toContain('&lol9;')
  })

  it('throws a plain Error for a SYSTEM entity, even one that is never used', () => {
    expect(() => {
      defaults().parse(`<!DOCTYPE r [<!ENTITY x SYSTEM "${origin}/x">]><r>no use</r>`)
    }).toThrow('External entities are not supported')
  })

  it('misreads a PUBLIC entity declaration', () => {
    expect(() => {
      defaults().parse('<!DOCTYPE r [<!ENTITY x PUBLIC "-//X//EN" "x.ent">]><r/>')
    }).toThrow('Expected quoted string')
  })

  it('caps expansion per document with a plain Error', () => {
    const xml = `<!DOCTYPE r [<!ENTITY a "${'x'.repeat(9000)}">]><r>${'&a;'.repeat(20)}</r>`
    expect(() => {
      defaults().parse(xml)
    }).toThrow('Expanded content length limit exceeded')
  })

  it('accepts mismatched tags unless validation is asked for', () => {
    expect(() => {
      defaults().parse('<r><a></b></r>')
    }).not.toThrow()
    expect(() => {
      defaults().parse('<r><a></b></r>', true)
    }).toThrow()
  })
})

describe('hostile XML', () => {
  it('fails a billion-laughs file with ENTITY_EXPANSION_LIMIT from the measured size, never expanding it', async () => {
    const { records, error } = await readFailure(write('laughs.xml', billionLaughs()))
    expect(records).toEqual([])
    expect(error.code).toBe('ENTITY_EXPANSION_LIMIT')
    // 3 × 10^9 characters is beyond V8's maximum string length: getting this error (and
    // not a RangeError or an out-of-memory crash) shows the expansion was never built.
    expect(error.details).toMatchObject({
      entity: 'lol9',
      expandedLength: 3_000_000_000,
      limit: 1_000_000,
    })
    expect(error.message).toContain('laughs.xml')
  })

  it('fails a quadratic-blowup document once the total expansion passes the limit', () => {
    const xml = `<!DOCTYPE r [<!ENTITY a "${'x'.repeat(10_000)}">]><r>${'&a;'.repeat(200)}</r>`
    try {
      parseXmlDocument(xml)
      expect.unreachable()
    } catch (error) {
      expect(isPubmatchError(error, 'ENTITY_EXPANSION_LIMIT')).toBe(true)
      // 100 references fill the 1 000 000-character budget exactly; the 101st is refused.
      expect((error as PubmatchError).details).toMatchObject({
        expandedLength: 10_000,
        alreadyExpanded: 1_000_000,
      })
    }
  })

  it('refuses a used SYSTEM entity with EXTERNAL_ENTITY and fetches nothing', async () => {
    const before = requests
    const path = write(
      'xxe.xml',
      `<?xml version="1.0"?><!DOCTYPE PubmedArticleSet [<!ENTITY xxe SYSTEM "${origin}/secret">]>` +
        `<PubmedArticleSet>${article('1', 'title &xxe;')}</PubmedArticleSet>`,
    )
    const { error } = await readFailure(path)
    expect(error.code).toBe('EXTERNAL_ENTITY')
    expect(error.details).toMatchObject({ entity: 'xxe', systemId: `${origin}/secret` })
    expect(requests).toBe(before)
  })

  it('refuses an external parameter entity (out-of-band XXE) and a PUBLIC entity, fetching nothing', async () => {
    const before = requests
    const oob = write(
      'oob.xml',
      `<!DOCTYPE PubmedArticleSet [<!ENTITY % remote SYSTEM "${origin}/evil.dtd"> %remote;]><PubmedArticleSet/>`,
    )
    expect((await readFailure(oob)).error.code).toBe('EXTERNAL_ENTITY')
    const pub = write(
      'public.xml',
      `<!DOCTYPE PubmedArticleSet [<!ENTITY p PUBLIC "-//X//EN" "${origin}/p.ent">]>` +
        `<PubmedArticleSet>${article('1', '&p;')}</PubmedArticleSet>`,
    )
    expect((await readFailure(pub)).error.code).toBe('EXTERNAL_ENTITY')
    const attribute = write(
      'attribute.xml',
      `<!DOCTYPE PubmedArticleSet [<!ENTITY f SYSTEM "file:///etc/passwd">]>` +
        `<PubmedArticleSet><PubmedArticle><MedlineCitation Status="&f;"><PMID>1</PMID></MedlineCitation></PubmedArticle></PubmedArticleSet>`,
    )
    expect((await readFailure(attribute)).error.code).toBe('EXTERNAL_ENTITY')
    expect(requests).toBe(before)
  })

  it('ignores external entities that are declared but never used, and the external DTD of every PubMed file', async () => {
    const before = requests
    const path = write(
      'declared.xml',
      `<?xml version="1.0"?><!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2019//EN" "${origin}/pubmed.dtd" [` +
        `<!ENTITY unused SYSTEM "${origin}/unused"><!ENTITY ok "an internal entity">]>` +
        `<PubmedArticleSet>${article('7', 'Title with &ok; &amp; &#x3b1;')}</PubmedArticleSet>`,
    )
    const records: IngestRecord[] = []
    for await (const record of readPubmedXml(path)) {
      records.push(record)
    }
    expect(records).toHaveLength(1)
    expect(records[0]?.kind === 'article' && records[0].article.title).toBe(
      'Title with an internal entity & α',
    )
    expect(requests).toBe(before)
  })
})
