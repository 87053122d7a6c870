import { describe, expect, it } from 'vitest'
import { createEntityDecoder } from '../xml/entities.ts'
import { parseXmlElement } from '../xml/parse.ts'
import { jatsText } from './text.ts'
import { jatsArticleToBioc } from './to-bioc.ts'

const element = (xml: string) => parseXmlElement(xml, { decoder: createEntityDecoder(undefined) })

/** (section_type, type, text) of every passage of a synthetic article. */
function passages(xml: string): string[][] {
  return jatsArticleToBioc(element(xml)).document.passages.map((p) => [
    p.infons.section_type!,
    p.infons.type!,
    p.text,
  ])
}

const FRONT = `<front><article-meta>
  <article-id pub-id-type="pmid">111</article-id><article-id pub-id-type="pmc">PMC222</article-id>
  <title-group><article-title>A <italic>synthetic</italic> article</article-title></title-group>
  <contrib-group><contrib contrib-type="author"><name><surname>Doe</surname><given-names>J</given-names></name></contrib>
  <contrib contrib-type="author"><collab>The Consortium</collab></contrib></contrib-group>
  <pub-date pub-type="epub"><year>2020</year></pub-date><volume>3</volume>
  <permissions><license xlink:href="https://creativecommons.org/licenses/by-nc-nd/4.0/"><license-p>CC licence text</license-p></license></permissions>
  <abstract><p>One paragraph abstract.</p></abstract>
  <abstract abstract-type="summary"><title>Author summary</title><p>Plain words.</p></abstract>
  <kwd-group><title>Keywords</title><kwd>alpha</kwd><kwd>beta <italic>gamma</italic></kwd></kwd-group>
</article-meta></front>`

describe('jatsText', () => {
  it('joins inline markup, drops citations with their brackets and the space before them', () => {
    const cases: Array<[string, string]> = [
      ['<p>CO<sub>2</sub> and Φ<italic>X</italic>174</p>', 'CO2 and ΦX174'],
      [
        '<p>evolution <xref ref-type="bibr">[1]</xref>–<xref ref-type="bibr">[5]</xref>. Next</p>',
        'evolution. Next',
      ],
      [
        '<p>as shown <xref ref-type="bibr">[2]</xref>, <xref ref-type="bibr">[3]</xref>. Here</p>',
        'as shown. Here',
      ],
      [
        '<p>by Wang <italic>et al. </italic>[<xref ref-type="bibr">28</xref>], Ryan</p>',
        'by Wang et al., Ryan',
      ],
      [
        '<p>growth<sup><xref ref-type="bibr">3</xref>,<xref ref-type="bibr">4</xref></sup>.</p>',
        'growth.',
      ],
      [
        '<p>studies (<xref ref-type="bibr">Smith 2001</xref>; <xref ref-type="bibr">Li 2002</xref>) show</p>',
        'studies show',
      ],
      [
        '<p>(see <xref ref-type="bibr">1</xref>) and (<xref ref-type="fig">Fig. 2</xref>)</p>',
        '(see) and (Fig. 2)',
      ],
      [
        '<p>x <inline-formula><mml:math><mml:msup><mml:mi>e</mml:mi><mml:mn>2</mml:mn></mml:msup></mml:math></inline-formula> y</p>',
        'x e2 y',
      ],
      [
        '<p>a<inline-formula><alternatives><tex-math>\\alpha</tex-math><mml:math><mml:mi>α</mml:mi></mml:math></alternatives></inline-formula>b</p>',
        'a α b',
      ],
      [
        '<p>written<disp-formula><graphic xlink:href="e1.jpg"/></disp-formula>in which</p>',
        'writtenin which',
      ],
      [
        '<p>Text<fn><p>a footnote</p></fn> and <ext-link ext-link-type="uri" xlink:href="http://x.org">http://x.org</ext-link>.</p>',
        'Text and http://x.org.',
      ],
    ]
    for (const [xml, text] of cases) {
      expect([xml, jatsText(element(xml))]).toEqual([xml, text])
    }
  })
})

describe('jatsArticleToBioc', () => {
  it('maps every part of an article to the BioC section_type and type the converter uses', () => {
    const xml = `<article xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:mml="http://www.w3.org/1998/Math/MathML">${FRONT}
<body>
  <p>Before any section.</p>
  <sec><title>Highlights</title><p>Inherits INTRO: nothing came before.</p></sec>
  <sec sec-type="intro"><title>Overview</title><p>Intro by sec-type <xref ref-type="bibr">[1]</xref>.</p>
    <p>With a figure <fig id="f1"><label>Figure 1</label><caption><title>Fig title.</title><p>Fig legend.</p></caption><graphic/></fig> inside.</p></sec>
  <sec><title>Patients and methods</title>
    <sec><title>Results of a pilot</title><p>Nested: stays METHODS.</p>
      <list><list-item><p>Item one</p></list-item><list-item><p>Item two<fig id="f2"><caption><p>In a list.</p></caption></fig></p></list-item></list></sec>
    <table-wrap id="t1"><caption><title>Table title</title><p>Table legend.</p></caption>
      <table><thead><tr><th>A</th><th>B</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>
      <table-wrap-foot><fn><p>* p &lt; 0.05</p></fn></table-wrap-foot></table-wrap></sec>
  <sec><title>Cohort description</title><p>No rule: inherits METHODS.</p>
    <boxed-text><title>Box</title><p>Boxed.</p></boxed-text></sec>
  <sec><title>Results and discussion</title><p>Results first.</p>
    <p>Files <supplementary-material id="s1"><caption><title>Table S1</title><p>Primers.</p></caption></supplementary-material></p></sec>
  <sec><title>Case presentation</title><p>A case.</p></sec>
  <sec><title>Conclusions and perspectives</title><p>Discussion wins.</p></sec>
  <sec><title>Competing interests</title><p>None.</p></sec>
</body>
<back>
  <ack><p>Thanks.</p></ack>
  <glossary><title>Abbreviations</title><def-list><def-item><term>BMI</term><def><p>body mass index</p></def></def-item></def-list></glossary>
  <app-group><app><title>Appendix 1</title><p>Derivation.</p><sec><title>Part</title><p>More.</p></sec></app></app-group>
  <ref-list><title>References</title><ref id="r1"><element-citation><person-group><name><surname>Roe</surname><given-names>R</given-names></name></person-group>
    <article-title>A cited work</article-title><source>J Test</source><year>2001</year><pub-id pub-id-type="pmid">42</pub-id></element-citation></ref>
    <ref id="r2"><mixed-citation>Unstructured reference.</mixed-citation></ref></ref-list>
  <sec><title>Image processing</title><p>After the references: inherits REF.</p></sec>
  <fn-group><fn fn-type="conflict"><p>Competing Interests: none.</p></fn><fn><p>Funding: NIH.</p></fn></fn-group>
</back>
<floats-group><fig id="f9"><caption><p>Floating legend.</p></caption></fig></floats-group>
<sub-article article-type="decision-letter"><front-stub><title-group><article-title>Decision letter</article-title></title-group></front-stub>
  <body><p>Accept.</p></body></sub-article>
</article>`
    expect(passages(xml)).toEqual([
      ['TITLE', 'front', 'A synthetic article'],
      ['ABSTRACT', 'abstract', 'One paragraph abstract.'],
      ['ABSTRACT', 'abstract_title_1', 'Author summary'],
      ['ABSTRACT', 'abstract', 'Plain words.'],
      ['KEYWORD', 'paragraph', 'alpha; beta gamma'],
      ['INTRO', 'paragraph', 'Before any section.'],
      ['INTRO', 'title_1', 'Highlights'],
      ['INTRO', 'paragraph', 'Inherits INTRO: nothing came before.'],
      ['INTRO', 'title_1', 'Overview'],
      ['INTRO', 'paragraph', 'Intro by sec-type.'],
      ['INTRO', 'paragraph', 'With a figure inside.'],
      ['FIG', 'fig_title_caption', 'Fig title.'],
      ['FIG', 'fig_caption', 'Fig legend.'],
      ['METHODS', 'title_1', 'Patients and methods'],
      ['METHODS', 'title_2', 'Results of a pilot'],
      ['METHODS', 'paragraph', 'Nested: stays METHODS.'],
      ['METHODS', 'paragraph', 'Item one'],
      ['METHODS', 'paragraph', 'Item two'],
      ['FIG', 'fig_caption', 'In a list.'],
      ['TABLE', 'table_title_caption', 'Table title'],
      ['TABLE', 'table_caption', 'Table legend.'],
      ['TABLE', 'table', 'A\tB\n1\t2'],
      ['TABLE', 'table_footnote', '* p < 0.05'],
      ['METHODS', 'title_1', 'Cohort description'],
      ['METHODS', 'paragraph', 'No rule: inherits METHODS.'],
      ['METHODS', 'title_2', 'Box'],
      ['METHODS', 'paragraph', 'Boxed.'],
      ['RESULTS', 'title_1', 'Results and discussion'],
      ['RESULTS', 'paragraph', 'Results first.'],
      ['RESULTS', 'paragraph', 'Files'],
      ['SUPPL', 'paragraph', 'Table S1'],
      ['SUPPL', 'paragraph', 'Primers.'],
      ['CASE', 'title_1', 'Case presentation'],
      ['CASE', 'paragraph', 'A case.'],
      ['DISCUSS', 'title_1', 'Conclusions and perspectives'],
      ['DISCUSS', 'paragraph', 'Discussion wins.'],
      ['COMP_INT', 'title_1', 'Competing interests'],
      ['COMP_INT', 'paragraph', 'None.'],
      ['FIG', 'fig_caption', 'Floating legend.'],
      ['ACK_FUND', 'paragraph', 'Thanks.'],
      ['ABBR', 'title', 'Abbreviations'],
      ['ABBR', 'paragraph', 'BMI'],
      ['ABBR', 'paragraph', 'body mass index'],
      ['APPENDIX', 'title_1', 'Appendix 1'],
      ['APPENDIX', 'paragraph', 'Derivation.'],
      ['APPENDIX', 'title_2', 'Part'],
      ['APPENDIX', 'paragraph', 'More.'],
      ['REF', 'title', 'References'],
      ['REF', 'ref', 'A cited work'],
      ['REF', 'ref', ''],
      ['REF', 'title_1', 'Image processing'],
      ['REF', 'paragraph', 'After the references: inherits REF.'],
      ['COMP_INT', 'footnote', 'Competing Interests: none.'],
      ['ACK_FUND', 'footnote', 'Funding: NIH.'],
      ['REVIEW_INFO', 'title', 'Decision letter'],
      ['REVIEW_INFO', 'paragraph', 'Accept.'],
    ])
    const { document, front } = jatsArticleToBioc(element(xml))
    expect(document.id).toBe('PMC222')
    expect(document.infons).toEqual({ license: 'CC BY-NC-ND' })
    expect(front.articleIds).toEqual({ pmid: '111', pmc: 'PMC222' })
    expect(document.passages[0]!.infons).toMatchObject({
      'article-id_pmc': '222',
      'article-id_pmid': '111',
      name_0: 'surname:Doe;given-names:J',
      name_1: 'The Consortium',
      year: '2020',
      volume: '3',
      license: 'CC licence text',
      kwd: 'alpha beta gamma',
    })
    const ref = document.passages.find((p) => p.infons.type === 'ref')!
    expect(ref.infons).toMatchObject({
      id: 'r1',
      name_0: 'surname:Roe;given-names:R',
      source: 'J Test',
      year: '2001',
      'pub-id_pmid': '42',
    })
  })

  it('gives a document without id (and NO-CC CODE) when the article has no PMC id or licence', () => {
    const { document } = jatsArticleToBioc(
      element(
        '<article><front><article-meta><title-group><article-title>T</article-title></title-group></article-meta></front></article>',
      ),
    )
    expect(document.id).toBeUndefined()
    expect(document.infons).toEqual({ license: 'NO-CC CODE' })
    expect(document.passages).toEqual([
      { offset: 0, text: 'T', infons: { section_type: 'TITLE', type: 'front' } },
    ])
  })
})
