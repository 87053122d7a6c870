import { describe, expect, it } from 'vitest'
import { render } from '../../test/render.ts'
import { samplePath } from '@pubmatch/sample-data'
import { articleTitle, readText } from '../../test/texts.ts'
import { phraseTokens, type Analyzer } from '../analyzer.ts'
import { biomedicalAnalyzer } from './biomedical.ts'

const analyzer = biomedicalAnalyzer()
const analyze = (text: string): string[] => render(analyzer.analyze(text))
const terms = (text: string): string[] => analyzer.analyze(text).map((t) => t.term)

describe('biomedicalAnalyzer', () => {
  it('is named by its configuration', () => {
    expect(analyzer.name).toBe('biomedical')
    expect(biomedicalAnalyzer({ stem: false }).name).toBe('biomedical:nostem')
    expect(biomedicalAnalyzer({ stopwords: false }).name).toBe('biomedical:nostop')
    expect(biomedicalAnalyzer({ stem: false, stopwords: false }).name).toBe(
      'biomedical:nostem:nostop',
    )
    expect(biomedicalAnalyzer({ stopwords: ['x'] }).name).toBe('biomedical:custom')
    expect(biomedicalAnalyzer({ greek: false, name: 'mine' }).name).toBe('mine')
  })

  it('matches COX-2, cox2 and cox 2 in queries and documents', () => {
    const doc = analyzer.analyze('Selective COX-2 inhibitors')
    for (const query of ['COX-2 inhibitor', 'cox2 inhibitors', 'cox 2 inhibitor']) {
      const phrase = phraseTokens(analyzer.analyze(query)).map((t) => t.term)
      expect(phrase).toEqual(['cox', '2', 'inhibitor'])
    }
    expect(render(phraseTokens(doc))).toEqual(['select@0', 'cox@1', '2@2', 'inhibitor@3'])
    expect(doc.map((t) => t.term)).toContain('cox2')
  })

  it('spells out Greek letters so that the symbol and the name meet', () => {
    expect(terms('TNF-α')).toEqual(terms('TNF-alpha'))
    expect(terms('TNFα')).toEqual(terms('TNF-alpha'))
    expect(terms('IL-1β')).toEqual(['il1beta', 'il', '1', 'beta'])
    expect(terms('NF-κB')).toEqual(['nfkappab', 'nf', 'kappa', 'b'])
    expect(terms('NF-kappaB')).toEqual(['nfkappab', 'nf', 'kappab'])
  })

  it('drops PubMed stop words, stems the rest and keeps the unstemmed original', () => {
    const tokens = analyzer.analyze(
      'The effects of aspirin were significantly reduced in these patients',
    )
    expect(render(tokens)).toEqual(['effect@1', 'aspirin@3', 'reduc@6', 'patient@9'])
    expect(tokens.map((t) => t.original)).toEqual(['effects', 'aspirin', 'reduced', 'patients'])
  })

  it('can run without stemming, stop words or Greek spelling', () => {
    expect(terms2(biomedicalAnalyzer({ stem: false }), 'the studies of TNF-α')).toEqual([
      'studies',
      'tnfalpha',
      'tnf',
      'alpha',
    ])
    expect(terms2(biomedicalAnalyzer({ stopwords: false }), 'the studies')).toEqual([
      'the',
      'studi',
    ])
    expect(terms2(biomedicalAnalyzer({ greek: false }), 'TNF-α')).toEqual(['tnfα', 'tnf', 'α'])
    expect(terms2(biomedicalAnalyzer({ stem: (w) => w.toUpperCase() }), 'the cells')).toEqual([
      'CELLS',
    ])
  })

  describe('on real PubMed titles (the sample corpus)', () => {
    const medsamp = readText(samplePath('pubmed', 'medsamp2006.xml'))
    const medline = readText(samplePath('pubmed', 'medline16n0902.xml.gz'))

    // Expected lists worked out by hand from the rules (tokenizer README, PubMed stop words,
    // Porter2 steps), then checked against the implementation.
    const cases: readonly (readonly [
      xml: 'medsamp' | 'medline',
      pmid: string,
      title: string,
      tokens: string[],
    ])[] = [
      [
        'medsamp',
        '14744982',
        "Superior 5' homogeneity of RNA from ATP-initiated transcription under the T7 phi 2.5 promoter.",
        [
          'superior@0',
          '5@1',
          'homogen@2',
          'rna@4',
          'atpiniti@6/2',
          'atp@6',
          'initi@7',
          'transcript@8',
          'under@9',
          't7@11/2',
          't@11',
          '7@12',
          'phi@13',
          '2.5@14',
          'promot@15',
        ],
      ],
      [
        'medsamp',
        '10972993',
        'Altered expression of BRCA1, BRCA2, and a newly identified BRCA2 exon 12 deletion variant in malignant human ovarian, prostate, and breast cancer cell lines.',
        [
          'alter@0',
          'express@1',
          'brca1@3/2',
          'brca@3',
          '1@4',
          'brca2@5/2',
          'brca@5',
          '2@6',
          'newli@9',
          'identifi@10',
          'brca2@11/2',
          'brca@11',
          '2@12',
          'exon@13',
          '12@14',
          'delet@15',
          'variant@16',
          'malign@18',
          'human@19',
          'ovarian@20',
          'prostat@21',
          'breast@23',
          'cancer@24',
          'cell@25',
          'line@26',
        ],
      ],
      [
        'medsamp',
        '12174865',
        "Physicians' attitudes towards medical ethics issues in Turkey.",
        ['physician@0', 'attitud@1', 'toward@2', 'medic@3', 'ethic@4', 'issu@5', 'turkey@7'],
      ],
      [
        'medsamp',
        '11675721',
        'Thomas Dover\'s "Ancient physician\'s legacy".',
        ['thoma@0', 'dover@1', 'ancient@2', 'physician@3', 'legaci@4'],
      ],
      [
        'medsamp',
        '8941094',
        'Assessment of myocardial viability in patients with chronic coronary artery disease. Rest-4-hour-24-hour 201Tl tomography versus dobutamine echocardiography.',
        [
          'assess@0',
          'myocardi@2',
          'viabil@3',
          'patient@5',
          'chronic@7',
          'coronari@8',
          'arteri@9',
          'diseas@10',
          'rest4hour24hour@11/5',
          'rest4@11/2',
          'rest@11',
          '4@12',
          'hour24@13/2',
          'hour@13',
          '24@14',
          'hour@15',
          '201tl@16/2',
          '201@16',
          'tl@17',
          'tomographi@18',
          'versus@19',
          'dobutamin@20',
          'echocardiographi@21',
        ],
      ],
      [
        'medsamp',
        '9634358',
        'Retraction: A rabbit model for human cytomeglovirus--induced chorioretinal disease (J Infect Dis 1993;168:336-44).',
        [
          'retract@0',
          'rabbit@2',
          'model@3',
          'human@5',
          'cytomeglovirusinduc@6/2',
          'cytomeglovirus@6',
          'induc@7',
          'chorioretin@8',
          'diseas@9',
          'j@10',
          'infect@11',
          'dis@12',
          '1993@13',
          '168@14',
          '336@15',
          '44@16',
        ],
      ],
      [
        'medline',
        '25389292',
        'Peroxisome proliferator-activated receptor-α-mediated transcription of miR-199a2 attenuates endothelin-1 expression via hypoxia-inducible factor-1α.',
        [
          'peroxisom@0',
          'proliferatoractiv@1/2',
          'prolifer@1',
          'activ@2',
          'receptoralphamedi@3/3',
          'receptoralpha@3/2',
          'receptor@3',
          'alpha@4',
          'mediat@5',
          'transcript@6',
          'mir199a2@8/4',
          'mir@8',
          '199@9',
          '2@11',
          'attenu@12',
          'endothelin1@13/2',
          'endothelin@13',
          '1@14',
          'express@15',
          'via@16',
          'hypoxiainduc@17/2',
          'hypoxia@17',
          'induc@18',
          'factor1alpha@19/3',
          'factor@19',
          '1@20',
          'alpha@21',
        ],
      ],
      [
        'medline',
        '26702203',
        'Ropivacaine 0.025% mixed with fentanyl 3.0 μg/ml and epinephrine 0.5 μg/ml is effective for epidural patient-controlled analgesia after cesarean section.',
        [
          'ropivacain@0',
          '0.025@1',
          'mix@2',
          'fentanyl@4',
          '3.0@5',
          'ug@6',
          'epinephrin@9',
          '0.5@10',
          'ug@11',
          'effect@14',
          'epidur@16',
          'patientcontrol@17/2',
          'patient@17',
          'control@18',
          'analgesia@19',
          'after@20',
          'cesarean@21',
          'section@22',
        ],
      ],
      [
        'medline',
        '26347990',
        'Ligand-Based Discovery of a New Scaffold for Allosteric Modulation of the μ-Opioid Receptor.',
        [
          'ligandbas@0/2',
          'ligand@0',
          'base@1',
          'discoveri@2',
          'new@5',
          'scaffold@6',
          'alloster@8',
          'modul@9',
          'muopioid@12/2',
          'mu@12',
          'opioid@13',
          'receptor@14',
        ],
      ],
    ]

    it.each(cases)('pins %s PMID %s', (xml, pmid, title, tokens) => {
      const actual = articleTitle(xml === 'medsamp' ? medsamp : medline, pmid)
      expect(actual).toBe(title)
      expect(analyze(actual)).toEqual(tokens)
    })
  })
})

function terms2(a: Analyzer, text: string): string[] {
  return a.analyze(text).map((t) => t.term)
}
