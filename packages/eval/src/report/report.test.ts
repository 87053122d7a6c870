import { describe, expect, it } from 'vitest'
import { fixturePath, dataPath } from '../../test/helpers.ts'
import { fakeResult } from '../../test/fake-result.ts'
import { compareRuns, type ComparisonCell } from '../compare.ts'
import { evaluate } from '../evaluate.ts'
import { readQrels } from '../io/qrels.ts'
import { readRun } from '../io/run.ts'
import { renderHtmlReport } from './html.ts'
import { alignColumns, formatCell, formatPValue, formatTable } from './text.ts'

describe('alignColumns', () => {
  it('left-aligns the first column and right-aligns the others', () => {
    expect(
      alignColumns([
        ['run', 'map'],
        ['bm25', '0.1'],
        ['x', '10.25'],
      ]),
    ).toBe('run     map\nbm25    0.1\nx     10.25')
  })
})

describe('formatCell', () => {
  const cell: ComparisonCell = { measure: 'ndcg_cut_10', mean: 0.36291, difference: 0.0574, wins: 120, ties: 100, losses: 60, pValue: 0.00001, significant: true }
  it('writes the mean, the significance marker and optionally the p-value', () => {
    expect(formatCell(cell)).toBe('0.3629 ▲')
    expect(formatCell(cell, { pValue: true })).toBe('0.3629 ▲ (p <0.0001)')
    expect(formatCell({ ...cell, difference: -0.01, pValue: 0.03 }, { pValue: true })).toBe('0.3629 ▼ (p 0.0300)')
    expect(formatCell({ ...cell, significant: false, pValue: 0.53 })).toBe('0.3629')
    const { pValue: _p, ...untested } = cell
    expect(formatCell(untested)).toBe('0.3629')
    expect(formatCell(undefined)).toBe('–')
  })
})

describe('formatPValue', () => {
  it('keeps four decimals and switches to a bound below 0.0001', () => {
    expect([formatPValue(0.04999), formatPValue(0.00042), formatPValue(0.00001)]).toEqual([
      '0.0500',
      '0.00042',
      '<0.0001',
    ])
  })
})

describe('formatTable', () => {
  it('prints means with significance markers and p-values in aligned columns', () => {
    const runs = {
      base: fakeResult('map', [0.2, 0.4, 0.1, 0.5, 0.3, 0.6]),
      better: fakeResult('map', [0.3, 0.6, 0.2, 0.8, 0.3, 0.9]),
      worse: fakeResult('map', [0.1, 0.3, 0.0, 0.4, 0.2, 0.5]),
    }
    expect(formatTable(compareRuns(runs, { test: 't-test' }))).toMatchInlineSnapshot(`
      "run                   map        p
      base (baseline)  0.3500
      better           0.5167 ▲   0.0199
      worse            0.2500 ▼  <0.0001

      ▲ / ▼: significantly better / worse than base (paired t-test, two-sided, p ≤ 0.05; 6 queries)
      "
    `)
  })
})

describe('renderHtmlReport', () => {
  const runs = {
    'bm25 <k1=0.9>': fakeResult('ndcg_cut_10', [0.2, 0.4, 0.1, 0.5, 0.3, 0.6]),
    'lm & rm3': fakeResult('ndcg_cut_10', [0.3, 0.6, 0.2, 0.8, 0.3, 0.9]),
  }
  const comparison = compareRuns(runs, { test: 't-test' })
  const html = renderHtmlReport({ title: 'NFCorpus "dev"', runs, comparison, generated: 'test' })

  it('is one self-contained document: inline SVG, no scripts, no external resources', () => {
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true)
    expect(html).not.toMatch(/<script|<link|<img|@import|url\(/i)
    expect(html.match(/https?:\/\/[^"]+/g)).toEqual([
      'http://www.w3.org/2000/svg',
      'http://www.w3.org/2000/svg',
      'http://www.w3.org/2000/svg',
    ])
  })

  it('draws one per-query chart per run and one difference chart per non-baseline run', () => {
    expect(html.match(/<svg /g)).toHaveLength(3)
    // one bar per query in each chart
    expect(html.match(/<rect /g)).toHaveLength(18)
  })

  it('plots each measure by run on request, the points placed by their means', () => {
    expect(html).not.toContain('Means by run')
    const three = {
      'round 0': fakeResult('ndcg_cut_10', [0.2, 0.4, 0.1, 0.5, 0.3, 0.6]),
      'round 1': fakeResult('ndcg_cut_10', [0.3, 0.6, 0.2, 0.8, 0.3, 0.9]),
      'round 2': fakeResult('ndcg_cut_10', [0.4, 0.6, 0.3, 0.8, 0.4, 0.9]),
    }
    const trend = renderHtmlReport({ runs: three, comparison: compareRuns(three, { test: 't-test' }), trend: true })
    expect(trend).toContain('<h2>Means by run</h2>')
    // means 0.35, 0.5167, 0.5667 on a 0…1 axis (niceCeiling(0.5667) = 1) of 232 px from y = 16:
    // y = 16 + 232 · (1 − mean); x from 56 to 790 in two equal steps
    const points = trend.match(/<polyline points="([^"]+)" fill="none"/)![1]
    expect(points).toBe('56.0,166.8 423.0,128.1 790.0,116.5')
    expect(trend.match(/<circle /g)).toHaveLength(3)
  })

  it('escapes run names and titles', () => {
    expect(html).toContain('bm25 &#60;k1=0.9&#62;')
    expect(html).toContain('lm &#38; rm3')
    expect(html).toContain('<title>NFCorpus &#34;dev&#34;</title>')
    expect(html).not.toContain('<k1=0.9>')
  })

  it('lists the significance test with wins, ties, losses and the p-value', () => {
    expect(html).toContain(
      '<td>lm &#38; rm3</td><td class="l">ndcg_cut_10</td><td>0.5167</td><td>+0.1667</td><td>+47.6 %</td><td>5 / 1 / 0</td><td>0.0199</td><td class="yes">yes</td>',
    )
  })

  it('renders a report of two real runs on NFCorpus dev', { tags: ['real-data'] }, async () => {
    const qrels = await readQrels(dataPath('nfcorpus/dev/s-3.qrel'))
    const options = { measures: ['ndcg_cut.10,20', 'P.10', 'recall.100', 'map', 'recip_rank'] }
    const real = {
      bm25: evaluate(await readRun(fixturePath('nfcorpus-dev.bm25.run.gz')), qrels, options),
      'lm-dir': evaluate(await readRun(fixturePath('nfcorpus-dev.lm.run.gz')), qrels, options),
    }
    const page = renderHtmlReport({
      runs: real,
      comparison: compareRuns(real, { test: 't-test' }),
      metric: 'ndcg_cut_10',
    })
    expect(page.match(/<rect /g)).toHaveLength(3 * 324)
    expect(page).toContain('0.2516')
  })
})
