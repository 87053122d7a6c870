import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { isPubmatchError } from '@pubmatch/core'
import { sharedDataPath } from '@pubmatch/core/testing'
import { samplePath } from '@pubmatch/sample-data'
import { describe, expect, it } from 'vitest'
import { thrownPubmatchError as failure } from '../testing/thrown.ts'
import { parseDoctype, type XmlDoctype } from './doctype.ts'
import { createEntityDecoder, type EntityDecoder } from './entities.ts'
import { parseXmlElement } from './parse.ts'
import { createXmlRecordScanner, type XmlScanEvent } from './scanner.ts'
import type { XmlElement, XmlNode } from './tree.ts'

const decoder = (doctype?: XmlDoctype, maxEntityExpansion?: number): EntityDecoder =>
  createEntityDecoder(doctype, maxEntityExpansion === undefined ? {} : { maxEntityExpansion })

const parse = (xml: string): XmlElement => parseXmlElement(xml, { decoder: decoder() })

/** Every record (elements at depth 2) of a document, with its DOCTYPE. */
function recordsOf(text: string): { doctype?: XmlDoctype; records: string[] } {
  const scanner = createXmlRecordScanner()
  let doctype: XmlDoctype | undefined
  const records: string[] = []
  const take = (events: readonly XmlScanEvent[]): void => {
    for (const event of events) {
      if (event.type === 'doctype') {
        doctype = parseDoctype(event.text)
      } else if (event.type === 'record') {
        records.push(event.record.xml)
      }
    }
  }
  take(scanner.push(text))
  try {
    take(scanner.end())
  } catch (error) {
    // A truncated file (biopython einfo4.xml): the records before the cut still count.
    if (!isPubmatchError(error, 'TRUNCATED_INPUT')) {
      throw error
    }
  }
  return doctype === undefined ? { records } : { doctype, records }
}

function xmlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) {
      return xmlFiles(path)
    }
    return /\.xml(\.gz)?$/.test(name) ? [path] : []
  })
}

const readText = (path: string): string =>
  (path.endsWith('.gz') ? gunzipSync(readFileSync(path)) : readFileSync(path)).toString('utf8')

describe('parseXmlElement', () => {
  it('keeps mixed content in order, merges text, keeps CDATA undecoded, drops comments and PIs', () => {
    const root = parse(
      '<r a="x &amp; y" b=\'&#233;\'>CO<sub>2</sub> a<!-- c -->b<?pi x?>c<![CDATA[&amp;]]>&#233;<e/></r>',
    )
    expect(root).toEqual({
      name: 'r',
      attrs: { a: 'x & y', b: 'é' },
      children: [
        'CO',
        { name: 'sub', attrs: {}, children: ['2'] },
        ' abc&amp;é',
        { name: 'e', attrs: {}, children: [] },
      ],
    })
  })

  it('normalises line ends, keeps whitespace-only text and accepts spaces inside tags', () => {
    const root = parse('<r\r\n  k = "a\r\nb"\t>\r\n <x/>\r</r >')
    expect(root).toEqual({
      name: 'r',
      attrs: { k: 'a\nb' },
      children: ['\n ', { name: 'x', attrs: {}, children: [] }, '\n'],
    })
  })

  it('keeps the text around a comment as one piece, as the former parser did', () => {
    expect(parse('<r>&#38;<!-- -->#38;</r>').children).toEqual(['&#38;'])
    expect(parse('<r>&#38;<?pi?>#38;</r>').children).toEqual(['&#38;'])
  })

  it('names the problem, its line and column and the record in MALFORMED_XML', () => {
    const error = failure(() =>
      parseXmlElement('<R>\n  <Id>b</Id>\n  <oops>\n</R>', {
        decoder: decoder(),
        file: 'set.xml',
        record: 'Id b (#2)',
      }),
    )
    expect(error.code).toBe('MALFORMED_XML')
    expect(error.details).toMatchObject({ file: 'set.xml', record: 'Id b (#2)' })
    expect(error.message).toMatchInlineSnapshot(
      `"set.xml record Id b (#2): not well-formed XML (Expected closing tag 'oops' (opened in line 3, col 3) instead of closing tag 'R'.:4:1): "<R> <Id>b</Id> <oops> </R>""`,
    )
  })

  it.each([
    ['an unclosed element', '<r><a></r>'],
    ['a missing end tag', '<r><a>'],
    ['a stray end tag', '<r></a></r>'],
    ['a bare &', '<r>a & b</r>'],
    ['an unterminated reference', '<r>&amp</r>'],
    ['a reference name over 20 characters', `<r>&${'a'.repeat(21)};</r>`],
    ['a hex reference written &#X', '<r>&#X41;</r>'],
    ['a repeated attribute', '<r a="1" a="2"/>'],
    ['an unquoted attribute', '<r a=1/>'],
    ['an attribute without a value', '<r a/>'],
    ['attributes without a space between them', '<r a="1"b="2"/>'],
    ['an open quote', '<r a="1/>'],
    ['a name starting with a digit', '<r><1a/></r>'],
    ['a space after <', '<r>< a/></r>'],
    ['a space after </', '<r><a></ a></r>'],
    ['an end tag with attributes', '<r></r a="1">'],
    ['a / inside a start tag', '<r/ >'],
    ['text after the element', '<r/>x'],
    ['a second element', '<r/><s/>'],
    ['an XML declaration inside', '<r><?xml version="1.0"?></r>'],
    ['an unclosed comment', '<r><!-- c</r>'],
    ['an unclosed CDATA section', '<r><![CDATA[x</r>'],
    ['a DOCTYPE inside the element', '<r><!DOCTYPE r></r>'],
    ['a declaration inside the element', '<r><!ELEMENT r ANY></r>'],
    ['258 nested elements', `${'<a>'.repeat(258)}${'</a>'.repeat(258)}`],
  ])('refuses %s', (_what, xml) => {
    expect(failure(() => parse(xml)).code).toBe('MALFORMED_XML')
  })

  it('accepts 257 nested elements, as fast-xml-parser did', () => {
    let element: XmlNode | undefined = parse(`${'<a>'.repeat(257)}x${'</a>'.repeat(257)}`)
    let depth = 0
    while (typeof element === 'object') {
      depth++
      element = element.children[0]
    }
    expect([depth, element]).toEqual([257, 'x'])
  })

  it('decodes nothing in a record that turns out to be malformed: the error is MALFORMED_XML and no budget is spent', () => {
    const doctype = parseDoctype(
      '<!DOCTYPE r [<!ENTITY big "0123456789"><!ENTITY ext SYSTEM "file:///etc/passwd">]>',
    )
    const decode = decoder(doctype)
    const error = failure(() =>
      parseXmlElement('<r t="&big;">&big; &ext;<broken></r>', { decoder: decode }),
    )
    expect([error.code, decode.expanded]).toEqual(['MALFORMED_XML', 0])
    expect(parseXmlElement('<r t="&big;">&big;</r>', { decoder: decode })).toEqual({
      name: 'r',
      attrs: { t: '0123456789' },
      children: ['0123456789'],
    })
    expect(decode.expanded).toBe(20)
  })
})

/** Parses every record of the files; gives the number of records and the failures. */
function parseAll(files: readonly string[]): { records: number; failures: string[] } {
  let records = 0
  const failures: string[] = []
  for (const file of files) {
    const { doctype, records: texts } = recordsOf(readText(file))
    for (const xml of texts) {
      records++
      try {
        parseXmlElement(xml, { decoder: decoder(doctype) })
      } catch (error) {
        failures.push(`${file}: ${String(error)}`)
      }
    }
  }
  return { records, failures }
}

describe('parseXmlElement on real data', () => {
  it('parses every record of the sample corpus and of the committed BioC and E-utilities files', () => {
    const fixtures = fileURLToPath(new URL('../../test/fixtures/', import.meta.url))
    const { records, failures } = parseAll([
      ...xmlFiles(samplePath('pubmed')),
      ...xmlFiles(samplePath('mesh')),
      ...xmlFiles(join(fixtures, 'bioc-format')),
      ...xmlFiles(join(fixtures, 'eutils')),
    ])
    expect(failures).toEqual([])
    // The elements at depth 2, counted with Python's ElementTree: 605 in the baseline chunk
    // (604 citations and a DeleteCitation), 88 + 3 more PubMed, 145 MeSH, 36 BioC, 67
    // E-utilities (none complete in the truncated einfo4.xml).
    expect(records).toBe(605 + 88 + 3 + 145 + 36 + 67)
  })

  it('parses every record of the real PubMed, MeSH, BioC and E-utilities files', { tags: ['real-data'] }, () => {
    const { records, failures } = parseAll([
      ...xmlFiles(sharedDataPath('pubmed-xml')),
      ...xmlFiles(sharedDataPath('mesh')),
      ...xmlFiles(sharedDataPath('pmc', 'bioc-format')),
      ...xmlFiles(sharedDataPath('eutils')),
    ])
    expect(failures).toEqual([])
    // 605 in the baseline chunk alone (604 citations and a DeleteCitation).
    expect(records).toBe(1234)
  })

  it('refuses the "<!" declarations fast-xml-parser alone would take for an element or a CDATA section', () => {
    expect(failure(() => parse('<r><!X>y</r>')).code).toBe('MALFORMED_XML')
    expect(failure(() => parse('<r>a<![CDTA[x]]>b</r>')).code).toBe('MALFORMED_XML')
    expect(parse('<r>a<![CDATA[<x>]]>b<!-- <!X> --></r>')).toEqual({ name: 'r', attrs: {}, children: ['a<x>b'] })
  })
})
