import { PubmatchError } from '@pubmatch/core'
import { describe, expect, it } from 'vitest'
import { parseXmlDocument, parseXmlRecords, type XmlRecordResult } from './records.ts'

const summary = (results: readonly XmlRecordResult[]) =>
  results.map((r) =>
    r.kind === 'element'
      ? `${r.element.name}:${r.id}`
      : `${r.error.code}:${String(r.error.details.record)}`,
  )

describe('parseXmlRecords', () => {
  it('parses each record on its own and names a broken one by the id found in its text', () => {
    const results = parseXmlRecords(
      '<Set><R><Id>a</Id></R><R><Id>b</Id><oops></R><R><Id>c</Id></R></Set>',
      {
        recordId: (record) => /<Id>(\w+)<\/Id>/.exec(record.xml)?.[1],
        recordIdLabel: 'Id',
        file: 'set.xml',
      },
    )
    expect(summary(results)).toEqual(['R:a', 'MALFORMED_XML:b', 'R:c'])
    const error = results[1]?.kind === 'error' ? results[1].error : undefined
    expect(error?.message).toMatch(
      /^set\.xml record Id b \(#2\): not well-formed XML \(/,
    )
    // '<Set>' is 5 characters and '<R><Id>a</Id></R>' 17: the second record starts at 22.
    expect(error?.details).toMatchObject({ file: 'set.xml', record: 'b', position: 22 })
  })

  it('keeps the records before a structural problem and ends with it', () => {
    expect(summary(parseXmlRecords('<Set><R/><R/></Set><Other/>'))).toEqual([
      'R:#1',
      'R:#2',
      'MALFORMED_XML:undefined',
    ])
    expect(summary(parseXmlRecords('<Set><R/><R>cut'))).toEqual([
      'R:#1',
      'TRUNCATED_INPUT:undefined',
    ])
  })

  it('lets onRoot reject the input before any record, and decodes root attributes', () => {
    const seen: Record<string, string>[] = []
    expect(() =>
      parseXmlRecords('<Wrong a="&amp;&#33;"><R/></Wrong>', {
        onRoot: (root) => {
          seen.push(root.attributes)
          throw new PubmatchError('UNSUPPORTED_FORMAT', 'no')
        },
      }),
    ).toThrow('no')
    expect(seen).toEqual([{ a: '&!' }])
  })
})

describe('parseXmlDocument', () => {
  it('returns the root element and the DOCTYPE', () => {
    const { root, doctype } = parseXmlDocument(
      '<!DOCTYPE r SYSTEM "r.dtd" [<!ENTITY e "E">]><r k="&e;">&e;</r>',
    )
    expect(root).toEqual({ name: 'r', attrs: { k: 'E' }, children: ['E'] })
    expect(doctype?.systemId).toBe('r.dtd')
  })

  it('throws for a truncated or malformed document', () => {
    expect(() => parseXmlDocument('<r><a></r>')).toThrow(
      expect.objectContaining({ code: 'MALFORMED_XML' }) as Error,
    )
    expect(() => parseXmlDocument('<r><a>')).toThrow(
      expect.objectContaining({ code: 'TRUNCATED_INPUT' }) as Error,
    )
    expect(() => parseXmlDocument('')).toThrow(
      expect.objectContaining({ code: 'EMPTY_INPUT' }) as Error,
    )
  })
})
