import { describe, expect, it } from 'vitest'
import { fmt, fmtMs, fmtRatio } from './report.ts'

describe('fmt', () => {
  it('writes thousands separators and fixed decimals, and – for unknown values', () => {
    expect(fmt(1234567.891, 1)).toBe('1,234,567.9')
    expect(fmt(1234.4)).toBe('1,234')
    expect(fmt(undefined)).toBe('–')
    expect(fmt(Number.NaN)).toBe('–')
    expect(fmt(Infinity)).toBe('–')
  })
})

describe('fmtMs', () => {
  it('keeps two decimals below 10 ms and one above', () => {
    expect(fmtMs(3.1)).toBe('3.10')
    expect(fmtMs(0.042)).toBe('0.04')
    expect(fmtMs(27.44)).toBe('27.4')
    expect(fmtMs(1234.56)).toBe('1,234.6')
  })
})

describe('fmtRatio', () => {
  it('writes a / b as ×r, – when undefined', () => {
    expect(fmtRatio(3, 2)).toBe('×1.50')
    expect(fmtRatio(30, 2)).toBe('×15.0')
    expect(fmtRatio(1, 0)).toBe('–')
    expect(fmtRatio(undefined, 2)).toBe('–')
  })
})
