import { describe, expect, it } from 'vitest'
import { autoStep, linePath, niceRange, renderLinePlot, scaleLinear } from './svg.ts'

describe('scaleLinear', () => {
  it('maps the domain onto the range, also inverted (SVG y grows downwards)', () => {
    const y = scaleLinear([0.2, 0.4], [348, 48])
    expect(y(0.2)).toBeCloseTo(348, 10)
    expect(y(0.4)).toBeCloseTo(48, 10)
    expect(y(0.3)).toBeCloseTo(198, 10)
  })
})

describe('niceRange', () => {
  it('widens to multiples of the step', () => {
    expect(niceRange([0.2553, 0.3055, 0.1182], 0.05)).toEqual([0.1, 0.35])
  })
  it('keeps values already on the grid', () => {
    expect(niceRange([0.3, 0.2], 0.05)).toEqual([0.2, 0.3])
  })
  it('is one step wide for a constant and [0, step] without values', () => {
    expect(niceRange([0.25, 0.25], 0.05)).toEqual([0.25, 0.3])
    expect(niceRange([undefined], 0.05)).toEqual([0, 0.05])
  })
})

describe('autoStep', () => {
  it('takes the finest step that spans the values in at most 8 intervals', () => {
    // 0.005 would need 0.110 … 0.155 = 9 intervals; 0.01 needs 0.11 … 0.16 = 5
    expect(autoStep([0.1135, 0.1508])).toBe(0.01)
    // 0.01 would need 10 intervals; 0.02 needs 5
    expect(autoStep([0.2, 0.3])).toBe(0.02)
    expect(autoStep([-0.006, 0.0234])).toBe(0.005)
  })
})

describe('linePath', () => {
  // x: round 0..2 onto 100..300; y: 0..1 onto 200..0
  const x = scaleLinear([0, 2], [100, 300])
  const y = scaleLinear([0, 1], [200, 0])
  it('moves to the first point and draws lines to the others, one decimal', () => {
    expect(linePath([0.5, 0.25, 0.8], x, y)).toBe('M100.0,100.0 L200.0,150.0 L300.0,40.0')
  })
  it('starts a new segment after a missing value', () => {
    expect(linePath([0.5, undefined, 0.8], x, y)).toBe('M100.0,100.0 M300.0,40.0')
    expect(linePath([undefined, 0.1, 0.2], x, y)).toBe('M200.0,180.0 L300.0,160.0')
  })
  it('is empty without values', () => {
    expect(linePath([], x, y)).toBe('')
  })
})

describe('renderLinePlot', () => {
  it('draws one path per series, dashed where asked, and lists the legend once per name', () => {
    const svg = renderLinePlot({
      title: 'a & b',
      xLabels: ['0', '1'],
      xTitle: 'round',
      panels: [
        {
          title: 'p',
          yTitle: 'nDCG@10',
          series: [
            { name: 's1', colour: '#111111', values: [0.2, 0.3] },
            { name: 's2', colour: '#222222', dashed: true, values: [0.25, 0.25] },
            { name: 'hidden', colour: '#333333', legend: false, values: [0.21, 0.22] },
          ],
        },
      ],
    })
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true)
    expect(svg).toContain('a &#38; b')
    expect(svg.match(/<path /g)).toHaveLength(3)
    expect(svg.match(/stroke-dasharray="5 4"/g)).toHaveLength(2) // the dashed path and its legend line
    expect(svg).toContain('>s1</text>')
    expect(svg).not.toContain('>hidden</text>')
    // y: step 0.02, range [0.2, 0.3] over 300 px from 8 + 48 + 300 = 356 up to 56;
    // x: from 64 + 8 = 72 to 64 + 420 − 8 = 476
    expect(svg).toContain('d="M72.0,356.0 L476.0,56.0"')
    expect(svg).toContain('>0.22</text>')
  })
})
