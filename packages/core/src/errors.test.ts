import { describe, expect, it } from 'vitest'
import { PubmatchError, isPubmatchError, toPubmatchError, truncateForMessage } from './errors.ts'

describe('PubmatchError', () => {
  it('carries a code, details and cause', () => {
    const cause = new Error('boom')
    const error = new PubmatchError('MALFORMED_XML', 'bad', {
      cause,
      details: { file: 'a.xml', record: '123' },
    })
    expect(error.code).toBe('MALFORMED_XML')
    expect(error.cause).toBe(cause)
    expect(error.toJSON()).toEqual({
      code: 'MALFORMED_XML',
      message: 'bad',
      details: { file: 'a.xml', record: '123' },
    })
    expect(error).toBeInstanceOf(Error)
  })

  it('is recognised by the type guard, with and without a code', () => {
    const error = new PubmatchError('IO', 'x')
    expect(isPubmatchError(error)).toBe(true)
    expect(isPubmatchError(error, 'IO')).toBe(true)
    expect(isPubmatchError(error, 'INTERNAL')).toBe(false)
    expect(isPubmatchError(new Error('x'))).toBe(false)
  })

  it('wraps foreign throwables and passes its own through', () => {
    const own = new PubmatchError('IO', 'x')
    expect(toPubmatchError(own)).toBe(own)
    const wrapped = toPubmatchError(new TypeError('bad'), 'NETWORK')
    expect(wrapped.code).toBe('NETWORK')
    expect(wrapped.message).toBe('bad')
    expect(toPubmatchError('text').code).toBe('INTERNAL')
  })
})

describe('truncateForMessage', () => {
  it('keeps short input on one line', () => {
    expect(truncateForMessage('a\n  b')).toBe('a b')
  })
  it('cuts long input to the bound with an ellipsis', () => {
    const out = truncateForMessage('x'.repeat(500))
    expect(out).toHaveLength(200)
    expect(out.endsWith('…')).toBe(true)
  })
})
