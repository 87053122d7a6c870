import { isPubmatchError } from '@pubmatch/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { QueryNode, TermNode } from './ast.ts'
import {
  PUBMED_FIELDS,
  type ProximityField,
  type PubmedDateField,
  type PubmedField,
} from './fields.ts'
import { formatQuery } from './format.ts'
import { parseQuery } from './parse.ts'

const term = (
  text: string,
  field: PubmedField | null = null,
  quoted = false,
  noExplode = false,
): TermNode => ({
  kind: 'term',
  text,
  quoted,
  field,
  noExplode,
  wildcard: text.includes('*'),
})

/** Generated trees in the normal form `parseQuery` produces (flat AND/OR, 2+ children). */
const queryTree = (): fc.Arbitrary<QueryNode> => {
  const fields = PUBMED_FIELDS.map((info) => info.tag)
  const explodable = PUBMED_FIELDS.filter((info) => info.explodable).map((info) => info.tag)
  const dateFields = PUBMED_FIELDS.filter((info) => info.date).map(
    (info) => info.tag as PubmedDateField,
  )
  const proximityFields: ProximityField[] = ['ti', 'tiab', 'ab', 'ad']
  const plainWord = fc
    .stringMatching(/^[A-Za-z0-9][A-Za-z0-9,.'/+&%$-]{0,8}$/)
    .filter((word) => !/^(AND|OR|NOT)$/.test(word))
  const wildcardWord = fc
    .tuple(fc.stringMatching(/^[a-z]{4,7}$/), fc.stringMatching(/^[a-z]{0,3}$/), fc.boolean())
    .map(([stem, middle, trailing]) => `${stem}*${middle}${trailing && middle !== '' ? '*' : ''}`)
  const word = fc.oneof({ weight: 4, arbitrary: plainWord }, { weight: 1, arbitrary: wildcardWord })
  const words = (min: number): fc.Arbitrary<string> =>
    fc.array(word, { minLength: min, maxLength: 4 }).map((ws) => ws.join(' '))
  const phraseWord = fc.oneof(
    word,
    fc.constantFrom('AND', 'OR', '(x)', '[y]', 'a:b', '#3', 'and/or'),
  )
  const phrase = (min: number): fc.Arbitrary<string> =>
    fc.array(phraseWord, { minLength: min, maxLength: 4 }).map((ws) => ws.join(' '))
  const fieldTag = fc.oneof(
    fc.constant({ field: null, noExplode: false }),
    fc.constantFrom(...fields).map((field) => ({ field, noExplode: false })),
    fc.constantFrom(...explodable).map((field) => ({ field, noExplode: true })),
  )
  const termNode: fc.Arbitrary<QueryNode> = fc
    .tuple(fc.boolean(), words(1), phrase(1), fieldTag)
    .map(([quoted, bare, quotedText, tag]) =>
      term(quoted ? quotedText : bare, tag.field, quoted, tag.noExplode),
    )
  const date = fc
    .tuple(
      fc.integer({ min: 1800, max: 3000 }),
      fc.integer({ min: 0, max: 12 }),
      fc.integer({ min: 0, max: 31 }),
      fc.nat(2),
    )
    .map(([year, month, day, parts]) =>
      [String(year), String(month).padStart(2, '0'), String(day).padStart(2, '0')]
        .slice(0, parts + 1)
        .join('/'),
    )
  const leaf: fc.Arbitrary<QueryNode> = fc.oneof(
    { weight: 6, arbitrary: termNode },
    {
      weight: 1,
      arbitrary: fc
        .tuple(phrase(2), fc.constantFrom(...proximityFields), fc.nat(20))
        .map(([text, field, distance]): QueryNode => ({
          kind: 'proximity',
          text,
          field,
          distance,
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...dateFields), date, date)
        .map(([field, from, to]): QueryNode => ({ kind: 'range', field, from, to })),
    },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 1, max: 999 })
        .map((index): QueryNode => ({ kind: 'history', index })),
    },
  )
  const { tree } = fc.letrec<{ tree: QueryNode }>((self) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc
        .tuple(
          fc.constantFrom('and' as const, 'or' as const),
          fc.array(self('tree'), { minLength: 2, maxLength: 4 }),
        )
        .map(([kind, children]): QueryNode => ({
          kind,
          children: children.flatMap((child) => (child.kind === kind ? child.children : [child])),
        })),
      fc
        .tuple(self('tree'), self('tree'))
        .map(([include, exclude]): QueryNode => ({ kind: 'not', include, exclude })),
    ),
  }))
  return tree
}

describe('formatQuery', () => {
  it('writes canonical tags, upper-case operators and straight quotes', () => {
    expect(
      formatQuery(parseQuery('\u201CReflex, stretch\u201D[MeSH Terms] or  back[Title/Abstract]')),
    ).toBe('"Reflex, stretch"[mh] AND or back[tiab]')
    expect(formatQuery(parseQuery('diagnosis[MESH:NOEXP] OR "hip pain"[Title/Abstract:~ 2]'))).toBe(
      'diagnosis[mh:noexp] OR "hip pain"[tiab:~2]',
    )
    expect(formatQuery(parseQuery('"2015"[pdat] : "2020"[pdat] #3'))).toBe('2015:2020[dp] AND #3')
  })

  it('puts every nested Boolean node in parentheses', () => {
    expect(formatQuery(parseQuery('a OR b AND c NOT d'))).toBe('((a OR b) AND c) NOT d')
    expect(formatQuery(parseQuery('a AND (b OR c) AND d'))).toBe('a AND (b OR c) AND d')
    expect(formatQuery(parseQuery('a NOT (b NOT c)'))).toBe('a NOT (b NOT c)')
  })

  it('round-trips generated trees: parseQuery(formatQuery(tree)) equals tree', () => {
    fc.assert(
      fc.property(queryTree(), (tree) => {
        const text = formatQuery(tree)
        // Generated words may look like Ovid (`x.tw`), which is not what this property is about.
        expect(parseQuery(text, { detectOvid: false })).toEqual(tree)
        expect(formatQuery(parseQuery(text, { detectOvid: false }))).toBe(text)
      }),
      { numRuns: 3000 },
    )
  })

  it('round-trips parsed text: parse(format(parse(q))) equals parse(q)', () => {
    const piece = fc.constantFrom(
      'heart',
      'attack',
      'colo*',
      '"a b"',
      '"x y z"',
      '[tiab]',
      '[mh:noexp]',
      '[Author]',
      '[ti:~2]',
      ' AND ',
      ' OR ',
      ' NOT ',
      ' and ',
      '(',
      ')',
      ' ',
      ':',
      '2015',
      '2020/01',
      '[dp]',
      '#2',
      '\u201Cq\u201D',
      ',',
      'a:b',
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        let first: QueryNode
        try {
          first = parseQuery(pieces.join(''))
        } catch (error) {
          expect(isPubmatchError(error)).toBe(true)
          return
        }
        expect(parseQuery(formatQuery(first))).toEqual(first)
      }),
      { numRuns: 3000 },
    )
  })

  it('rejects hand-built nodes that PubMed text cannot express', () => {
    expect(() => formatQuery(term('a AND b'))).toThrow(/word "AND" needs quotes/)
    expect(() => formatQuery(term('f(x)'))).toThrow(/needs quotes/)
    expect(() => formatQuery(term('say "hi"', null, true))).toThrow(/cannot contain double quotes/)
    expect(() => formatQuery(term(''))).toThrow(/non-empty/)
    expect(() => formatQuery(term('2015:2020', 'dp'))).toThrow(/range node/)
    expect(() => formatQuery({ kind: 'and', children: [term('a')] })).toThrow(
      /two or more children/,
    )
    expect(() =>
      formatQuery({ kind: 'proximity', text: 'hip', field: 'tiab', distance: 1 }),
    ).toThrow(/two or more words/)
    try {
      formatQuery(term('#3'))
    } catch (error) {
      expect(isPubmatchError(error, 'INVALID_ARGUMENT')).toBe(true)
    }
  })
})
