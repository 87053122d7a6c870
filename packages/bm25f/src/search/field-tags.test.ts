/**
 * PubMed's field tags on real records: NLM's medsamp2006.xml (88 citations of every status, with
 * grants, data banks, personal names as subject, vernacular titles) and three single-citation
 * efetch files with their PubMed history dates, all from the bundled sample corpus. Every
 * expected PMID list was read off the XML by hand (element and value named in each test).
 */
import type { Article } from '@pubmatch/core'
import { defaultPubmedFields, type IndexReader } from '@pubmatch/index'
// eslint-disable-next-line no-restricted-imports -- test only: reads the real PubMed XML
import { readPubmedXml } from '@pubmatch/ingest'
import { samplePath } from '@pubmatch/sample-data'
import { beforeAll, describe, expect, it } from 'vitest'
import { suiteIndex } from '../../test/helpers.ts'
import { createSearcher } from './searcher.ts'
import type { FirstStageRanker, SearchOptions } from './types.ts'

const FILES = ['medsamp2006.xml', 'pmid_151222.xml', 'pmid_30078747.xml', 'pmid_9500320.xml']

let reader: IndexReader
let searcher: FirstStageRanker

beforeAll(async () => {
  const articles: Article[] = []
  for (const file of FILES) {
    for await (const record of readPubmedXml(samplePath('pubmed', file))) {
      if (record.kind === 'article') {
        articles.push(record.article)
      }
    }
  }
  reader = await suiteIndex(articles, { fields: defaultPubmedFields() })
  searcher = createSearcher(reader, { limit: 1000 })
})

const ids = (query: string, options: SearchOptions = {}): string[] =>
  searcher
    .search(query, options)
    .hits.map((hit) => hit.id)
    .sort()

const codes = (query: string, options: SearchOptions = {}): string[] =>
  searcher.search(query, options).warnings.map((w) => w.code)

describe('PubMed field tags on the sample corpus', () => {
  it('finds journal volume [vi], issue [ip], first page or pagination [pg], NLM id [jid], place [pl]', () => {
    // JournalIssue/Volume = 18
    expect(ids('18[vi]')).toEqual(['11524736', '11748851', '11748856'])
    expect(ids('18[volume]')).toEqual(ids('18[vi]'))
    // JournalIssue/Issue = 6
    expect(ids('6[ip]')).toEqual([
      '11748851',
      '11748856',
      '12230355',
      '12230384',
      '13634534',
      '9634358',
      '9861576',
    ])
    // MedlinePgn 546-7; "1475-6; author reply 1475-6"; 637-41 (pmid_9500320)
    expect(ids('546[pg]')).toEqual(['11748851'])
    expect(ids('546-7[pg]')).toEqual(['11748851'])
    expect(ids('1475[page]')).toEqual(['12211241'])
    expect(ids('637[pg] AND 351[vi]')).toEqual(['9500320'])
    // MedlineJournalInfo/NlmUniqueID 9215429, Country Norway
    expect(ids('9215429[jid]')).toEqual(['11524736', '11748851', '11748856'])
    expect(ids('norway[pl]')).toEqual(['11441930'])
  })

  it('applies PubMed’s author truncation in [au], [1au], [lastau] and full names in [fau]', () => {
    // Authors Lin OS (10854512) and Lin CC (15110832)
    expect(ids('lin[au]')).toEqual(['10854512', '15110832'])
    expect(ids('lin c[au]')).toEqual(['15110832'])
    expect(ids('"lin c"[au]')).toEqual([])
    expect(ids('"lin cc"[au]')).toEqual(['15110832'])
    // Cohen CB (12211266), COHEN GN and COHEN-BAZIRE G (14796701)
    expect(ids('cohen c[author]')).toEqual(['12211266'])
    // Chen G and Chen JC are last authors, never first
    expect(ids('chen[1au]')).toEqual([])
    expect(ids('chen[lastau]')).toEqual(['12192682', '8863847'])
    expect(ids('chen g[first author]')).toEqual([])
    expect(ids('comeglio p[1au]')).toEqual(['11524736', '11748851'])
    // Spector, Reynold (11731716): both orders in [fau], and a full name typed in [au]
    expect(ids('spector reynold[fau]')).toEqual(['11731716'])
    expect(ids('reynold spector[fau]')).toEqual(['11731716'])
    expect(ids('spector reynold[au]')).toEqual(['11731716'])
    // CollectiveName "European Society of Cardiology. Working Group on Arrhythmias …"
    expect(ids('"european society of cardiology"[cn]')).toEqual(['11428848'])
  })

  it('finds investigators [ir]/[fir], personal names as subject [ps], affiliations [ad]', () => {
    // InvestigatorList of pmid_30078747: Caesar-Johnson, Samantha J
    expect(ids('caesar-johnson s[ir]')).toEqual(['30078747'])
    expect(ids('caesar-johnson samantha[fir]')).toEqual(['30078747'])
    // PersonalNameSubject Sherrington C S (12219757)
    expect(ids('sherrington[ps]')).toEqual(['12219757'])
    // Affiliation "… Tufts University …" and "Johnson Space Center" (NASA, twice)
    expect(ids('tufts[ad]')).toEqual(['10972993'])
    expect(ids('"johnson space center"[ad]')).toEqual(['11858276', '12192682'])
    expect(ids('"johnson center"[ad:~1]')).toEqual(['11858276', '12192682'])
    expect(ids('"johnson center"[ad:~0]')).toEqual([])
  })

  it('finds grants [gr], secondary source ids [si], registry numbers [rn], subheadings [sh]', () => {
    // GrantList of 10972993: CA62269 / NCI; of 30078747: P30 CA016672 / NCI NIH HHS
    expect(ids('CA62269[gr]')).toEqual(['10972993'])
    expect(ids('nci[gr]')).toEqual(['10972993', '30078747'])
    expect(ids('"P30 CA016672"[gr]')).toEqual(['30078747'])
    // DataBank GENBANK AF005358 … (10540283)
    // (GENBANK is also a data bank of 9394824 and 10097079)
    expect(ids('genbank[si]')).toEqual(['10097079', '10540283', '9394824'])
    expect(ids('AF005358[si]')).toEqual(['10540283'])
    expect(ids('GENBANK/AF005358[si]')).toEqual(['10540283'])
    // RegistryNumber 9007-49-2 (DNA: 11748851, 11748856, 8863847) and EC 4.99.1.1 (8119288)
    expect(ids('9007-49-2[rn]')).toEqual(['11748851', '11748856', '8863847'])
    expect(ids('"EC 4.99.1.1"[rn]')).toEqual(['8119288'])
    // QualifierName history
    expect(ids('history[sh]')).toEqual(['11612527', '11675721', '12219757', '12227380'])
    expect(ids('history[subheading]')).toEqual(ids('history[sh]'))
  })

  it('searches [all] in every field but the computed filters, untagged terms in the general ones', () => {
    // Affiliation "… Tufts University …" (10972993): a tag-only field
    expect(ids('tufts[all]')).toEqual(['10972993'])
    expect(ids('tufts')).toEqual([])
    // Country Norway (11441930), NlmUniqueID 9215429, DataBankName GenBank, grant Agency NCI
    expect(ids('norway[all]')).toEqual(['11441930'])
    expect(ids('9215429[All Fields]')).toEqual(['11524736', '11748851', '11748856'])
    expect(ids('genbank[all]')).toEqual(['10097079', '10540283', '9394824'])
    expect(ids('nci[all]')).toEqual(['10972993', '30078747'])
    // the word "english" of three DescriptorNames and one AbstractText, not the english filter
    // that every English-language record has
    expect(ids('english[all]')).toEqual(['10389168', '14695699', '14991249', '8655018'])
    expect(ids('english[sb]').length).toBeGreaterThan(4)
    // tag-only fields match but never score: the same score as the untagged word's
    const tagged = searcher.search('cell[all]', { limit: 1000 })
    const untagged = searcher.search('cell', { limit: 1000 })
    const score = new Map(untagged.hits.map((hit) => [hit.id, hit.score]))
    for (const hit of tagged.hits) {
      expect(hit.score).toBe(score.get(hit.id) ?? 0)
    }
  })

  it('explodes [sh] through MeSH’s qualifier trees unless :noexp', () => {
    // QualifierName therapy (Y11): 10101342 11034741 11406024 11428848 12230384 14594616 15228064
    // 8941094 9110943 9575322 9627170; below it (qual2014.xml) drug therapy Y11.020 (11441930
    // 11704686 14695699 9110943 9861576 9885794), prevention & control Y11.040 (10331749 11428848
    // 11704686 12230355 12230384 14749521 9929727), rehabilitation Y11.060 (9110943), surgery
    // Y11.070 (10083987 10854512); no diet therapy, nursing, radiotherapy or transplantation here
    expect(ids('therapy[sh:noexp]')).toEqual([
      '10101342',
      '11034741',
      '11406024',
      '11428848',
      '12230384',
      '14594616',
      '15228064',
      '8941094',
      '9110943',
      '9575322',
      '9627170',
    ])
    expect(ids('therapy[sh]')).toEqual([
      '10083987',
      '10101342',
      '10331749',
      '10854512',
      '11034741',
      '11406024',
      '11428848',
      '11441930',
      '11704686',
      '12230355',
      '12230384',
      '14594616',
      '14695699',
      '14749521',
      '15228064',
      '8941094',
      '9110943',
      '9575322',
      '9627170',
      '9861576',
      '9885794',
      '9929727',
    ])
    // pharmacology (Y07): 10192114 10389168 14744982 8863847 9885794; below it administration &
    // dosage Y07.010 (10083987 14695699 9482442 9885794), adverse effects Y07.020 (10083987
    // 11441930 15968009 9500320 9505772 9861576), antagonists & inhibitors Y07.040 (9885794),
    // diagnostic use Y07.060 and pharmacokinetics Y07.070 (8941094)
    expect(ids('pharmacology[sh:noexp]')).toEqual([
      '10192114',
      '10389168',
      '14744982',
      '8863847',
      '9885794',
    ])
    expect(ids('pharmacology[sh]')).toEqual([
      '10083987',
      '10192114',
      '10389168',
      '11441930',
      '14695699',
      '14744982',
      '15968009',
      '8863847',
      '8941094',
      '9482442',
      '9500320',
      '9505772',
      '9861576',
      '9885794',
    ])
    // a leaf: surgery (Y11.070) has transplantation below it, absent here
    expect(ids('surgery[sh]')).toEqual(['10083987', '10854512'])
    // "&" or "and", any case: QualifierName "administration & dosage"
    expect(ids('Administration and Dosage[sh]')).toEqual([
      '10083987',
      '14695699',
      '9482442',
      '9885794',
    ])
    expect(ids('"administration & dosage"[sh:noexp]')).toEqual(ids('Administration and Dosage[sh]'))
  })

  it('finds transliterated titles [tt], not in [ti]', () => {
    // VernacularTitle "La lucha contra el tabaco en los niños, …" (9929727)
    expect(ids('"lucha contra el tabaco"[tt]')).toEqual(['9929727'])
    expect(ids('"lucha contra el tabaco"[ti]')).toEqual([])
  })

  it('answers the citation-status and abstract filters [sb]/[filter]', () => {
    // MedlineCitation Status="PubMed-not-MEDLINE" / "In-Process"
    expect(ids('pubmednotmedline[sb]')).toEqual([
      '11431089',
      '11567133',
      '15117668',
      '15278624',
      '15284444',
    ])
    expect(ids('in process[filter]')).toEqual(['11056631', '15611660', '15611661', '15611667'])
    // 88 medsamp citations, 32 of them without AbstractText and 2 (12179763, 12349809) with
    // only an OtherAbstract (PIP), plus the three efetch files (all with an Abstract)
    expect(ids('hasabstract').length).toBe(88 - 32 - 2 + 3)
    expect(ids('hasabstract')).not.toContain('12179763')
    expect(ids('hasabstract[filter]')).not.toContain('10078868')
    expect(ids('medline[sb] AND pubmednotmedline[sb]')).toEqual([])
  })

  it('warns when a filter is approximated or unknown', () => {
    expect(codes('free full text[sb]')).toEqual(['FIELD_APPROXIMATED'])
    expect(ids('cancer[sb]')).toEqual([])
    expect(codes('cancer[sb]')).toEqual(['FIELD_NOT_INDEXED'])
  })

  it('searches completion [dcom], entry [edat], create [crdt] and MeSH [mhda] dates, absolute and relative', () => {
    // DateCompleted 2002/09/…
    expect(ids('2002/09[dcom]')).toEqual([
      '12192682',
      '12211241',
      '12211266',
      '12219757',
      '12227380',
      '12230355',
      '12230384',
    ])
    // relative to a fixed clock: 2003-06-15 … 2005-06-15
    const now = new Date(Date.UTC(2005, 5, 15))
    expect(ids('"last 2 years"[dcom]', { now })).toEqual([
      '11431089',
      '14594616',
      '14695699',
      '14729922',
      '14744982',
      '14749521',
      '14796701',
      '14991249',
      '15110832',
      '15117668',
      '15206831',
      '15228064',
      '15278624',
      '15284444',
    ])
    // History: pubmed 2018/8/7, medline 2019/6/14, entrez 2018/8/7 (30078747); 1978/7/1 (151222)
    expect(ids('2018/08/07[edat]')).toEqual(['30078747'])
    expect(ids('2019/06[mhda]')).toEqual(['30078747'])
    expect(ids('1978[crdt]')).toEqual(['151222'])
    expect(ids('1998/03/01:1998/03/31[edat]')).toEqual(['9500320'])
    expect(ids('2018:2019[Date - Entry]')).toEqual(['30078747'])
  })

  it('keeps untagged search off the tag-only fields', () => {
    // "tufts" is only in an affiliation: [all] finds it (above), an untagged word does not
    expect(ids('tufts')).toEqual([])
    expect(ids('tufts[tw]')).toEqual([])
  })
})
