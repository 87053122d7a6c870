import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ANCHOR_NAMES, ANCHORS, parseAnchorList, probeAnchor } from './anchors.ts'

describe('ANCHORS', () => {
  it('has a driver script for every anchor', () => {
    for (const name of ANCHOR_NAMES) {
      expect(ANCHORS[name].name).toBe(name)
      expect(existsSync(ANCHORS[name].driver)).toBe(true)
    }
  })
})

describe('parseAnchorList', () => {
  it('keeps the report order and ignores case, blanks and repeats', () => {
    expect(parseAnchorList('xapian,TANTIVY, tantivy,')).toEqual(['tantivy', 'xapian'])
    expect(parseAnchorList('')).toEqual([])
  })
})

describe('probeAnchor', () => {
  it('says why when the interpreter does not start', () => {
    const probe = probeAnchor('/nonexistent/python3', 'tantivy')
    expect(probe.ok).toBe(false)
    expect(probe.ok ? '' : probe.reason).toContain('/nonexistent/python3 did not start')
  })
})
