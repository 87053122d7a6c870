import { describe, expect, it } from 'vitest'
import { render } from '../../test/render.ts'
import { phraseTokens } from '../analyzer.ts'
import { createBiomedicalTokenizer } from './biomedical-tokenizer.ts'

const tokenize = createBiomedicalTokenizer()
const terms = (text: string): string[] => render(tokenize(text))

describe('createBiomedicalTokenizer', () => {
  describe('compounds and the position scheme', () => {
    it('gives COX-2, cox2 and cox 2 the same parts at the same positions', () => {
      expect(terms('COX-2 inhibitors')).toEqual(['cox2@0/2', 'cox@0', '2@1', 'inhibitors@2'])
      expect(terms('cox2 inhibitors')).toEqual(['cox2@0/2', 'cox@0', '2@1', 'inhibitors@2'])
      expect(terms('cox 2 inhibitors')).toEqual(['cox@0', '2@1', 'inhibitors@2'])
      // Unicode hyphen, en dash and minus sign are hyphens too.
      for (const variant of ['COX\u20102', 'COX\u20132', 'COX\u22122']) {
        expect(terms(variant)).toEqual(['cox2@0/2', 'cox@0', '2@1'])
      }
      // A phrase matcher uses the parts only: identical for all spellings.
      const parts = ['COX-2', 'cox2', 'cox 2'].map((text) => render(phraseTokens(tokenize(text))))
      expect(parts).toEqual([
        ['cox@0', '2@1'],
        ['cox@0', '2@1'],
        ['cox@0', '2@1'],
      ])
    })

    it('puts each joined form at the position of its first part, with the parts it covers', () => {
      // il|6 binds tightly (name + number), 6|induced does not: joins il6induced (all) and il6.
      expect(terms('IL-6-induced')).toEqual([
        'il6induced@0/3',
        'il6@0/2',
        'il@0',
        '6@1',
        'induced@2',
      ])
      expect(tokenize('IL-6-induced').map((t) => t.original)).toEqual([
        'il-6-induced',
        'il-6',
        'il',
        '6',
        'induced',
      ])
      expect(terms('SARS-CoV-2')).toEqual(['sarscov2@0/3', 'sars@0', 'cov2@1/2', 'cov@1', '2@2'])
      expect(terms('IL-2R')).toEqual(['il2r@0/3', 'il@0', '2@1', 'r@2'])
      // A number binds to any word before it, however long.
      expect(terms('caspase-3-dependent')).toEqual([
        'caspase3dependent@0/3',
        'caspase3@0/2',
        'caspase@0',
        '3@1',
        'dependent@2',
      ])
    })

    it('joins word-word compounds only as a whole', () => {
      expect(terms('anti-inflammatory drugs')).toEqual([
        'antiinflammatory@0/2',
        'anti@0',
        'inflammatory@1',
        'drugs@2',
      ])
      // acetyl|d: a one-letter part after a long word does not bind tightly.
      expect(terms('acetyl-D-glucosamine')).toEqual([
        'acetyldglucosamine@0/3',
        'acetyl@0',
        'd@1',
        'glucosamine@2',
      ])
    })

    it('treats slashes and plus signs as separators, not break points', () => {
      expect(terms('HER2/neu')).toEqual(['her2@0/2', 'her@0', '2@1', 'neu@2'])
      expect(terms('Na+/K+-ATPase')).toEqual(['na@0', 'k@1', 'atpase@2'])
    })

    it('treats brackets inside a word as break points and elsewhere as separators', () => {
      const tokens = tokenize('β(2)-adrenergic')
      expect(render(tokens)).toEqual(['β2adrenergic@0/3', 'β2@0/2', 'β@0', '2@1', 'adrenergic@2'])
      expect(tokens[0]!.original).toBe('β(2)-adrenergic')
      expect(terms('(CaMKII) activity [12]')).toEqual(['camkii@0', 'activity@1', '12@2'])
    })
  })

  describe('numbers and units', () => {
    it('keeps decimal numbers whole and splits on commas', () => {
      expect(terms('p < 0.05, 2.5 mg and 1,000 cells')).toEqual([
        'p@0',
        '0.05@1',
        '2.5@2',
        'mg@3',
        'and@4',
        '1@5',
        '000@6',
        'cells@7',
      ])
      expect(terms('Fig. 2. 1.5-fold')).toEqual(['fig@0', '2@1', '1.5fold@2/2', '1.5@2', 'fold@3'])
    })

    it('splits a number from its unit and keeps the joined form (10mg = 10-mg ⊃ 10 mg)', () => {
      expect(terms('10mg')).toEqual(['10mg@0/2', '10@0', 'mg@1'])
      expect(terms('10-mg')).toEqual(['10mg@0/2', '10@0', 'mg@1'])
      expect(terms('10 mg')).toEqual(['10@0', 'mg@1'])
    })

    it('does not join purely numeric compounds such as ranges', () => {
      expect(terms('2008–2009 14-15')).toEqual(['2008@0', '2009@1', '14@2', '15@3'])
    })

    it('keeps the micro sign on its unit', () => {
      expect(terms('5 µg/ml')).toEqual(['5@0', 'μg@1', 'ml@2'])
      expect(terms('5μg')).toEqual(['5μg@0/2', '5@0', 'μg@1'])
      // Not a unit: μ is a Greek letter part.
      expect(terms('μ-opioid')).toEqual(['μopioid@0/2', 'μ@0', 'opioid@1'])
    })
  })

  describe('Greek letters', () => {
    it('splits where Latin letters meet Greek ones, as at a hyphen', () => {
      expect(terms('TNFα')).toEqual(['tnfα@0/2', 'tnf@0', 'α@1'])
      expect(terms('TNF-α')).toEqual(['tnfα@0/2', 'tnf@0', 'α@1'])
      expect(terms('TNF-alpha')).toEqual(['tnfalpha@0/2', 'tnf@0', 'alpha@1'])
      expect(terms('TNF alpha')).toEqual(['tnf@0', 'alpha@1'])
      expect(terms('NF-κB')).toEqual(['nfκb@0/3', 'nf@0', 'κ@1', 'b@2'])
      expect(terms('IL-1β')).toEqual(['il1β@0/3', 'il@0', '1@1', 'β@2'])
    })

    it('binds spelled-out letter names tightly (TNF-alpha-induced joins tnfalpha)', () => {
      expect(terms('TNF-alpha-induced')).toEqual([
        'tnfalphainduced@0/3',
        'tnfalpha@0/2',
        'tnf@0',
        'alpha@1',
        'induced@2',
      ])
    })
  })

  describe('apostrophes', () => {
    it("drops a possessive 's and a trailing apostrophe", () => {
      expect(terms("Alzheimer's disease")).toEqual(['alzheimer@0', 'disease@1'])
      expect(terms('Crohn\u2019s disease')).toEqual(['crohn@0', 'disease@1'])
      expect(terms("patients' attitudes")).toEqual(['patients@0', 'attitudes@1'])
      expect(terms("Crohn's-like")).toEqual(['crohnlike@0/2', 'crohn@0', 'like@1'])
    })

    it('drops apostrophes inside a word and keeps them in original', () => {
      const tokens = tokenize("O'Brien don't")
      expect(render(tokens)).toEqual(['obrien@0', 'dont@1'])
      expect(tokens.map((t) => t.original)).toEqual(["o'brien", "don't"])
      expect(terms("3'UTR 5'-end")).toEqual([
        '3utr@0/2',
        '3@0',
        'utr@1',
        '5end@2/2',
        '5@2',
        'end@3',
      ])
    })
  })

  describe('Unicode', () => {
    it('normalises before splitting (full-width, math letters, soft hyphens)', () => {
      expect(terms('ＣＯＸ－２')).toEqual(['cox2@0/2', 'cox@0', '2@1'])
      // U+1D6FC MATHEMATICAL ITALIC SMALL ALPHA (a surrogate pair) is α after NFKC.
      expect(terms('\u{1d6fc}-helix')).toEqual(['αhelix@0/2', 'α@0', 'helix@1'])
      expect(terms('immuno\u00adlogy')).toEqual(['immunology@0'])
      expect(terms('naïve T-cells')).toEqual(['naive@0', 'tcells@1/2', 't@1', 'cells@2'])
    })

    it('separates at emoji and zero-width spaces and keeps other scripts as words', () => {
      expect(terms('cancer\u{1f600}cells a\u200bb')).toEqual(['cancer@0', 'cells@1', 'a@2', 'b@3'])
      expect(terms('Рак легких 肺癌')).toEqual(['рак@0', 'легких@1', '肺癌@2'])
    })
  })

  describe('options', () => {
    it('emits parts only with joinCompounds: false', () => {
      const parts = createBiomedicalTokenizer({ joinCompounds: false })
      expect(render(parts('COX-2 IL-6-induced'))).toEqual([
        'cox@0',
        '2@1',
        'il@2',
        '6@3',
        'induced@4',
      ])
    })

    it('keeps letter-digit runs whole with splitAlphaNumeric: false', () => {
      const whole = createBiomedicalTokenizer({ splitAlphaNumeric: false })
      expect(render(whole('cox2 COX-2 TNFα'))).toEqual([
        'cox2@0',
        'cox2@1/2',
        'cox@1',
        '2@2',
        'tnfα@3',
      ])
    })

    it('keeps case with normalize: false', () => {
      const raw = createBiomedicalTokenizer({ normalize: false })
      expect(render(raw("COX-2 Crohn's IL-1Beta"))).toEqual([
        'COX2@0/2',
        'COX@0',
        '2@1',
        'Crohn@2',
        'IL1Beta@3/3',
        'IL@3',
        '1@4',
        'Beta@5',
      ])
    })

    it('drops tokens longer than maxTokenLength but keeps their positions', () => {
      const short = createBiomedicalTokenizer({ maxTokenLength: 5 })
      expect(render(short('short loooooong cox-22222'))).toEqual(['short@0', 'cox@2', '22222@3'])
    })

    it('rejects a maxTokenLength below 1', () => {
      expect(() =>
        createBiomedicalTokenizer({ maxTokenLength: 0 }),
      ).toThrowErrorMatchingInlineSnapshot(
        `[PubmatchError: maxTokenLength must be a positive integer, got 0]`,
      )
    })
  })

  it('returns nothing for empty or punctuation-only text', () => {
    expect(tokenize('')).toEqual([])
    expect(tokenize(' -- (), ;')).toEqual([])
  })
})

describe('the biomedical tokenizer stream', () => {
  it('sends the terms, positions and spans of the tokens the call returns, in order', () => {
    const tokenize = createBiomedicalTokenizer()
    const text = "IL-6-induced p53 in 5μg/ml, o'brien's x\u{1F600}y; " + 'a'.repeat(70)
    const streamed: string[] = []
    tokenize.stream!(text, (term, position, span) => streamed.push(`${term}@${position}/${span}`))
    // il6induced over 3 parts, il6 over 2, then the parts; the 70-letter word is too long.
    expect(streamed.slice(0, 5)).toEqual(['il6induced@0/3', 'il6@0/2', 'il@0/1', '6@1/1', 'induced@2/1'])
    expect(streamed).toEqual(tokenize(text).map((t) => `${t.term}@${t.position}/${t.positionLength ?? 1}`))
  })

  it('tokenizes correctly when its sink tokenizes again', () => {
    const tokenize = createBiomedicalTokenizer()
    const outer: string[] = []
    const inner: string[] = []
    tokenize.stream!('TNF-α COX-2', (term) => {
      outer.push(term)
      tokenize.stream!('IL-6', (t) => inner.push(t))
      inner.push(tokenize('p53').map((t) => t.term).join('+'))
    })
    expect(outer).toEqual(['tnfα', 'tnf', 'α', 'cox2', 'cox', '2'])
    expect(inner.slice(0, 4)).toEqual(['il6', 'il', '6', 'p53+p+53'])
    expect(inner).toHaveLength(4 * outer.length)
  })
})
