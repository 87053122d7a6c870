import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseXmlDocument } from './records.ts'
import {
  attribute,
  childElement,
  childElements,
  childPath,
  childText,
  localName,
  mathText,
  ownText,
  textContent,
} from './tree.ts'

const parse = (xml: string) => parseXmlDocument(xml).root

describe('xml tree helpers', () => {
  it('keeps mixed content in document order with adjacent text merged', () => {
    const root = parse('<T>CO<sub>2</sub> and O<sub>2</sub> &amp; more</T>')
    expect(root.children).toEqual([
      'CO',
      { name: 'sub', attrs: {}, children: ['2'] },
      ' and O',
      { name: 'sub', attrs: {}, children: ['2'] },
      ' & more',
    ])
  })

  it('finds children, paths, attributes and child text', () => {
    const root = parse('<A x="1"><B><C k="v">one</C><C>two</C></B><D>  </D></A>')
    expect(attribute(root, 'x')).toBe('1')
    expect(attribute(root, 'missing')).toBeUndefined()
    expect(attribute(root, 'toString')).toBeUndefined()
    expect(childElements(childElement(root, 'B'), 'C').map((c) => textContent(c))).toEqual([
      'one',
      'two',
    ])
    expect(childElements(root).map((c) => c.name)).toEqual(['B', 'D'])
    expect(attribute(childPath(root, 'B', 'C'), 'k')).toBe('v')
    expect(childPath(root, 'B', 'X', 'C')).toBeUndefined()
    expect(childText(root, 'D')).toBeUndefined()
    expect(childText(childElement(root, 'B'), 'C')).toBe('one')
    expect(localName('mml:mi')).toBe('mi')
    expect(localName('mi')).toBe('mi')
  })

  it('keeps CDATA verbatim, without decoding references in it', () => {
    expect(textContent(parse('<T>a <![CDATA[x &amp; <b>]]> z</T>'))).toBe('a x &amp; <b> z')
  })
})

describe('ownText', () => {
  it("joins the element's own text as written, without its children's", () => {
    const root = parse('<T> a <b>x</b>\n b <![CDATA[ c ]]></T>')
    expect(ownText(root)).toBe(' a \n b  c ')
    expect(ownText(undefined)).toBe('')
  })
})

describe('textContent', () => {
  it('collapses whitespace exactly as replace(/\\s+/g, " ").trim() does', () => {
    const units = [' ', '  ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u2003', '\u3000', '\ufeff']
    const text = fc.array(
      fc.oneof(fc.constantFrom(...units), fc.constantFrom('a', 'é', '中', 'xyz', '0')),
      {
        maxLength: 30,
      },
    )
    fc.assert(
      fc.property(text, (parts) => {
        const raw = parts.join('')
        expect(textContent(raw)).toBe(raw.replace(/\s+/g, ' ').trim())
      }),
      { numRuns: 2000, seed: 20261122 },
    )
  })

  it('joins sub and sup to their neighbours', () => {
    expect(
      textContent(parse('<T>CO<sub>2</sub> 15 km·h<sup>-1</sup> r<sup>2</sup>&lt;0.25</T>')),
    ).toBe('CO2 15 km·h-1 r2<0.25')
  })

  it('restores a lost space only where a word meets a word across i, b or u', () => {
    expect(textContent(parse('<T>at the<i>TERT</i>gene region</T>'))).toBe(
      'at the TERT gene region',
    )
    expect(textContent(parse('<T>(<i>TERT</i>) gene</T>'))).toBe('(TERT) gene')
    expect(textContent(parse('<T>A &quot;<i>Blood Relationship&quot;</i> Between</T>'))).toBe(
      'A "Blood Relationship" Between',
    )
    expect(textContent(parse('<T><b>Competing Interests: </b>none</T>'))).toBe(
      'Competing Interests: none',
    )
  })

  it('separates block elements and collapses whitespace, non-breaking spaces included', () => {
    expect(textContent(parse('<T><P>one</P><P>two</P>\n   6&#xa0;weeks</T>'))).toBe(
      'one two 6 weeks',
    )
  })

  it('returns an empty string for undefined', () => {
    expect(textContent(undefined)).toBe('')
  })
})

describe('mathText', () => {
  const mml = (body: string) =>
    parse(`<T>x <mml:math xmlns:mml="http://www.w3.org/1998/Math/MathML">${body}</mml:math> y</T>`)

  it('drops an accent over its base and joins scripts (V̇O2max)', () => {
    // pubmed6.xml, PMID 30108519, as written there (indentation included).
    const root = mml(`
      <mml:msub><mml:mrow><mml:mover><mml:mrow><mml:mi>V</mml:mi></mml:mrow><mml:mo>.</mml:mo></mml:mover>
      <mml:mi>O</mml:mi></mml:mrow><mml:mrow><mml:mn>2</mml:mn><mml:mi>m</mml:mi><mml:mi>a</mml:mi><mml:mi>x</mml:mi></mml:mrow></mml:msub>`)
    expect(textContent(root)).toBe('x VO2max y')
  })

  it('writes pre-scripts before the base (³He)', () => {
    // pubmed7.xml, PMID 29963580.
    const root =
      mml(`<mml:mrow><mml:mmultiscripts><mml:mrow><mml:mi>He</mml:mi></mml:mrow><mml:mprescripts/><mml:none/>
      <mml:mrow><mml:mn>3</mml:mn></mml:mrow></mml:mmultiscripts><mml:mo>/</mml:mo><mml:mmultiscripts><mml:mrow><mml:mi>Xe</mml:mi></mml:mrow>
      <mml:mprescripts/><mml:none/><mml:mrow><mml:mn>129</mml:mn></mml:mrow></mml:mmultiscripts><mml:mtext> </mml:mtext><mml:mi>MRI</mml:mi></mml:mrow>`)
    expect(textContent(root)).toBe('x 3He/129Xe MRI y')
  })

  it('spaces relational operators and linearises fractions, roots and fences', () => {
    const root = parse(
      '<math><mi>x</mi><mo>=</mo><mfrac><mn>1</mn><mn>2</mn></mfrac><mo>+</mo><msqrt><mi>y</mi></msqrt>' +
        '<mo>+</mo><msqrt><mi>a</mi><mo>+</mo><mi>b</mi></msqrt><mfenced><mi>p</mi><mi>q</mi></mfenced>' +
        '<semantics><mi>z</mi><annotation encoding="TeX">z</annotation></semantics></math>',
    )
    expect(mathText(root)).toBe('x = 1/2 + √y + √(a + b)(p, q)z')
  })

  it('keeps an accent-free over-script (a limit) and honours accent="true"', () => {
    expect(mathText(parse('<math><munder><mo>lim</mo><mi>n</mi></munder></math>'))).toBe('limn')
    expect(mathText(parse('<math><mover accent="true"><mi>x</mi><mo>→</mo></mover></math>'))).toBe(
      'x',
    )
  })
})
