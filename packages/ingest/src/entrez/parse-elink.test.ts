import { describe, expect, it } from 'vitest'
import { readEutilsFixture as read } from '../../test/eutils-fixtures.ts'
import { parseELink } from './parse-elink.ts'

describe('parseELink', () => {
  it('reads the neighbour link sets of biopython elink1 with their link names and ids', () => {
    const { linkSets } = parseELink(read('biopython/elink1.xml'), 'xml')
    expect(linkSets).toHaveLength(1)
    const set = linkSets[0]!
    expect(set.dbFrom).toBe('pubmed')
    expect(set.ids).toEqual(['9298984'])
    // link counts per LinkSetDb, counted in the file
    expect(set.linkSetDbs.map((db) => [db.linkName, db.links.length])).toEqual([
      ['pubmed_pubmed', 101],
      ['pubmed_pubmed_citedin', 39],
      ['pubmed_pubmed_combined', 5],
      ['pubmed_pubmed_five', 5],
      ['pubmed_pubmed_refs', 56],
      ['pubmed_pubmed_reviews', 1],
      ['pubmed_pubmed_reviews_five', 5],
    ])
    expect(set.linkSetDbs[0]!.links.slice(0, 3)).toEqual([
      { id: '9298984' },
      { id: '8794856' },
      { id: '9700164' },
    ])
    expect(set.linkSetDbs.every((db) => db.dbTo === 'pubmed')).toBe(true)
  })

  it('reads neighbour scores (elink1 with <Score> added in code, as cmd=neighbor_score sends them)', () => {
    // The recorded elink1 answer is cmd=neighbor, without scores; this variant gives the
    // k-th pubmed_pubmed link the score 100000 − k, in the neighbor_score layout.
    let k = 0
    const scored = read('biopython/elink1.xml').replace(
      /<Id>(\d+)<\/Id>\s*<\/Link>/g,
      (_, id: string) => {
        k += 1
        return `<Id>${id}</Id><Score>${100000 - k}</Score></Link>`
      },
    )
    const links = parseELink(scored, 'xml').linkSets[0]!.linkSetDbs[0]!.links
    expect(links.slice(0, 3)).toEqual([
      { id: '9298984', score: 99999 },
      { id: '8794856', score: 99998 },
      { id: '9700164', score: 99997 },
    ])
  })

  it('reads the JSON layout, with plain and scored links, like the XML', () => {
    const xml = parseELink(read('biopython/elink1.xml'), 'xml')
    const set = xml.linkSets[0]!
    const json = JSON.stringify({
      header: { type: 'elink', version: '0.3' },
      linksets: [
        {
          dbfrom: set.dbFrom,
          ids: set.ids,
          linksetdbs: set.linkSetDbs.map((db) => ({
            dbto: db.dbTo,
            linkname: db.linkName,
            links: db.links.map((l) => l.id),
          })),
        },
      ],
    })
    expect(parseELink(json, 'json')).toEqual(xml)
    const scored =
      '{"linksets":[{"dbfrom":"pubmed","ids":["1"],"linksetdbs":[{"dbto":"pubmed","linkname":"pubmed_pubmed","links":[{"id":"1","score":"2147483647"},{"id":"7","score":"38765"}]}]}]}'
    expect(parseELink(scored, 'json').linkSets[0]!.linkSetDbs[0]!.links).toEqual([
      { id: '1', score: 2147483647 },
      { id: '7', score: 38765 },
    ])
  })

  it('reads acheck, ncheck and llinks answers (biopython elink7, elink8, elink6)', () => {
    const acheck = parseELink(read('biopython/elink7.xml'), 'xml').linkSets[0]!.idChecks
    expect(acheck[0]!.id).toBe('12169658')
    expect(acheck[0]!.links.slice(0, 2)).toEqual([
      { dbTo: 'books', linkName: 'pubmed_books_refs', menuTag: 'Cited in Books' },
      { dbTo: 'cdd', linkName: 'pubmed_cdd', menuTag: 'Conserved Domain Links' },
    ])
    expect(parseELink(read('biopython/elink8.xml'), 'xml').linkSets[0]!.idChecks).toEqual([
      { id: '12068369', hasNeighbor: true, links: [] },
    ])
    const urls = parseELink(read('biopython/elink6.xml'), 'xml').linkSets[0]!.idUrls
    expect(urls.map((u) => u.id)).toEqual(['12085856', '12085853'])
    expect(urls[0]!.urls[0]).toEqual({
      url: 'https://medlineplus.gov/coronaryarterybypasssurgery.html',
      linkName: 'Coronary Artery Bypass Surgery',
      categories: ['Medical'],
      attributes: ['free resource'],
      provider: 'MedlinePlus Health Information',
    })
  })

  it('reads a cross-database link set (biopython elink2, nuccore → protein)', () => {
    const set = parseELink(read('biopython/elink2.xml'), 'xml').linkSets[0]!
    expect(set.ids).toEqual(['48819', '7140345'])
    expect(set.linkSetDbs).toEqual([
      { dbTo: 'protein', linkName: 'nuccore_protein', links: [{ id: '48820' }] },
    ])
  })

  it('turns an error-only answer into UPSTREAM_ERROR', () => {
    const body = '<eLinkResult><ERROR>Invalid db name specified: fleegle</ERROR></eLinkResult>'
    expect(() => parseELink(body, 'xml')).toThrow(
      /ELink returned an error for elink: "Invalid db name specified: fleegle"/,
    )
    expect(() => parseELink('{"ERROR":"Invalid db name"}', 'json')).toThrow(
      /UPSTREAM|Invalid db name/,
    )
  })
})
