import { isPubmatchError, type PubmatchError } from '@pubmatch/core'
import { describe, expect, it } from 'vitest'
import { createXmlRecordScanner, type XmlScanEvent, type XmlScannerOptions } from './scanner.ts'

function scan(
  text: string,
  chunkSize = text.length,
  options: XmlScannerOptions = {},
): XmlScanEvent[] {
  const scanner = createXmlRecordScanner(options)
  const events: XmlScanEvent[] = []
  for (let i = 0; i < text.length; i += chunkSize) {
    events.push(...scanner.push(text.slice(i, i + chunkSize)))
  }
  events.push(...scanner.end())
  return events
}

function scanError(text: string, options: XmlScannerOptions = {}): PubmatchError {
  try {
    scan(text, text.length || 1, options)
  } catch (error) {
    if (isPubmatchError(error)) {
      return error
    }
    throw error
  }
  throw new Error('expected a PubmatchError')
}

const records = (events: XmlScanEvent[]) =>
  events.flatMap((e) => (e.type === 'record' ? [e.record.xml] : []))

const TRICKY = `\uFEFF<?xml version="1.0" encoding="UTF-8"?>
<!-- a comment with <Fake>tags</Fake> -->
<!DOCTYPE Set PUBLIC "-//X//EN" "x.dtd" [ <!ENTITY x "a>b"> <!-- ] > --> ]>
<?pi with > inside?>
<Set a="1" b = '2'>
  <Rec id="a>b" note='q"uote'>text <![CDATA[ </Rec> ]] > x]> </Rec> ]]> <!-- </Rec> a -> </Rec> --> <?pi </Rec>?></Rec>
  <Rec/>
  <Rec><Inner><Deep x="/>"/></Inner></Rec>
  stray text between records
</Set>
<!-- trailing comment -->
`

describe('createXmlRecordScanner', () => {
  it('cuts the records out, whatever is inside quotes, CDATA, comments and PIs', () => {
    const events = scan(TRICKY)
    expect(events.filter((e) => e.type !== 'record')).toEqual([
      {
        type: 'doctype',
        text: '<!DOCTYPE Set PUBLIC "-//X//EN" "x.dtd" [ <!ENTITY x "a>b"> <!-- ] > --> ]>',
      },
      { type: 'root', name: 'Set', attributes: { a: '1', b: '2' } },
    ])
    expect(records(events)).toEqual([
      `<Rec id="a>b" note='q"uote'>text <![CDATA[ </Rec> ]] > x]> </Rec> ]]> <!-- </Rec> a -> </Rec> --> <?pi </Rec>?></Rec>`,
      '<Rec/>',
      '<Rec><Inner><Deep x="/>"/></Inner></Rec>',
    ])
    const ordinals = events.flatMap((e) => (e.type === 'record' ? [e.record.ordinal] : []))
    expect(ordinals).toEqual([1, 2, 3])
    const first = events.find((e) => e.type === 'record')
    expect(
      first?.type === 'record' && TRICKY.slice(first.record.offset, first.record.offset + 4),
    ).toBe('<Rec')
  })

  it('gives the same events for every chunk size, down to one character', () => {
    const whole = scan(TRICKY)
    for (let size = 1; size <= TRICKY.length; size++) {
      expect(scan(TRICKY, size), `chunk size ${size}`).toEqual(whole)
    }
  })

  it('returns the root as the record at depth 1, chosen per root by a function', () => {
    expect(
      records(scan('<PubmedArticle><PMID>1</PMID></PubmedArticle>', 5, { recordDepth: 1 })),
    ).toEqual(['<PubmedArticle><PMID>1</PMID></PubmedArticle>'])
    const byRoot = (root: string) => (root === 'One' ? 1 : 2)
    expect(records(scan('<One><A/></One>', 3, { recordDepth: byRoot }))).toEqual([
      '<One><A/></One>',
    ])
    expect(records(scan('<Set><A/></Set>', 3, { recordDepth: byRoot }))).toEqual(['<A/>'])
  })

  it('unwinds a missing end tag at the record end so the next records survive', () => {
    expect(records(scan('<Set><Rec><A><B></Rec><Rec>ok</Rec></Set>', 4))).toEqual([
      '<Rec><A><B></Rec>',
      '<Rec>ok</Rec>',
    ])
  })

  it('skips a record longer than maxRecordLength without buffering it, and goes on', () => {
    const big = `<Rec>${'x'.repeat(500)}</Rec>`
    const stats = { chars: 0, records: 0, maxBufferedChars: 0, maxRecordChars: 0 }
    const events = scan(`<Set>${big}<Rec>small</Rec></Set>`, 64, { maxRecordLength: 100, stats })
    expect(events.filter((e) => e.type === 'skipped')).toEqual([
      { type: 'skipped', name: 'Rec', ordinal: 1, offset: 5, length: expect.any(Number) as number },
    ])
    expect(records(events)).toEqual(['<Rec>small</Rec>'])
    expect(stats.maxBufferedChars).toBeLessThanOrEqual(100 + 64)
  })

  it('holds at most the longest record plus a partial tag', () => {
    const stats = { chars: 0, records: 0, maxBufferedChars: 0, maxRecordChars: 0 }
    const recs = Array.from({ length: 50 }, (_, k) => `<Rec n="${k}">${'y'.repeat(k * 7)}</Rec>`)
    scan(`<Set>${recs.join('\n')}</Set>`, 16, { stats })
    const longest = Math.max(...recs.map((r) => r.length))
    expect(stats.maxRecordChars).toBe(longest)
    expect(stats.maxBufferedChars).toBeLessThanOrEqual(longest + 16)
    expect(stats.records).toBe(50)
  })

  it('reports an empty or blank input as EMPTY_INPUT', () => {
    expect(scanError('').code).toBe('EMPTY_INPUT')
    const blank = scanError(' \n\t\uFEFF')
    expect(blank.code).toBe('EMPTY_INPUT')
    expect(blank.message).toMatchInlineSnapshot(
      `"<input>: the input holds only whitespace"`,
    )
  })

  it('reports text that does not start like XML as UNSUPPORTED_FORMAT', () => {
    const error = scanError('%PDF-1.4 binary\u0000\u0001 junk', { file: 'paper.pdf' })
    expect(error.code).toBe('UNSUPPORTED_FORMAT')
    expect(error.message).toMatchInlineSnapshot(
      `"paper.pdf: not XML: the input does not start with "<" (it begins "%PDF-1.4 binary\\u0000\\u0001 junk")"`,
    )
    expect(scanError('<?xml version="1.0"?> hello <Set/>').code).toBe('UNSUPPORTED_FORMAT')
    expect(scanError('<1abc>').code).toBe('UNSUPPORTED_FORMAT')
  })

  it('reports every kind of early end as TRUNCATED_INPUT', () => {
    const insideRecord = scanError('<Set><Rec>abc', { file: 'cut.xml' })
    expect(insideRecord.code).toBe('TRUNCATED_INPUT')
    expect(insideRecord.message).toMatchInlineSnapshot(
      `"cut.xml: the input ends inside record #1 <Rec> (started at character 5)"`,
    )
    expect(scanError('<Set><Rec/>').message).toContain('ends before </Set>')
    expect(scanError('<?xml version="1.0"?>\n').message).toContain('ends before its root element')
    expect(scanError('<Set><Rec a="x').code).toBe('TRUNCATED_INPUT')
    expect(scanError('<Set><!-- never closed').code).toBe('TRUNCATED_INPUT')
    expect(scanError('<Set><Rec><![CDATA[ x').code).toBe('TRUNCATED_INPUT')
  })

  it('rejects a second root element as MALFORMED_XML', () => {
    expect(scanError('<A/><B/>').code).toBe('MALFORMED_XML')
  })
})
