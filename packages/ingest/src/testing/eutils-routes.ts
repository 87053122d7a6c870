import type { ReplayRoute } from './replay-server.ts'

/**
 * The route table of the real E-utilities responses in `shared/data/eutils` (paths relative
 * to that folder; the package's tests commit a subset of it in the same layout,
 * `test/fixtures/eutils`), so that a client call with these parameters is answered with the
 * real bytes. Klortho's routes are the request URLs its `samples/README.md` lists; Biopython's
 * are keyed by the terms and ids found in the answers themselves (its test suite does not
 * record the URLs). Routes are tried in order, so specific ones come first; the last EInfo
 * route answers any other EInfo request with the database list.
 */
/**
 * The two routes of a Klortho sample rendered in both formats: `klortho/<sample>.json` for
 * `retmode=json`, then `klortho/<sample>.xml` for `retmode=xml`.
 */
function jsonAndXml(
  utility: string,
  params: Readonly<Record<string, string>>,
  sample: string,
): ReplayRoute[] {
  return (['json', 'xml'] as const).map((retmode) => ({
    utility,
    params: { ...params, retmode },
    file: `klortho/${sample}.${retmode}`,
  }))
}

export const EUTILS_ROUTES: readonly ReplayRoute[] = [
  // Klortho: E-utilities XML with their JSON renderings (2012–2013).
  ...jsonAndXml(
    'esearch',
    {
      db: 'pubmed',
      term: 'cancer',
      reldate: '60',
      datetype: 'edat',
      retmax: '100',
      usehistory: 'y',
    },
    'esearch.pubmed',
  ),
  ...jsonAndXml(
    'esearch',
    { db: 'nlmcatalog', term: 'obstetrics[MeSH Terms] OR fleegle[MeSH Terms]' },
    'esearch.error',
  ),
  ...jsonAndXml('esearch', { db: 'fleegle' }, 'esearch.baderror'),
  ...jsonAndXml(
    'esummary',
    { db: 'pubmed', id: '5683731,22144687', version: '2.0' },
    'esummary.pubmed',
  ),
  ...jsonAndXml(
    'esummary',
    { db: 'pmc', id: '254085,1,14900', version: '2.0' },
    'esummary.pmcerror',
  ),
  ...jsonAndXml('esummary', { db: 'fleegle' }, 'esummary.error'),
  {
    utility: 'einfo',
    params: { db: 'pubmed', retmode: 'json' },
    file: 'klortho/einfo.pubmed.json',
  },
  ...jsonAndXml('einfo', { db: 'fleegle' }, 'einfo.error'),
  { utility: 'einfo', params: { retmode: 'json' }, file: 'klortho/einfo.json' },
  // Biopython: live responses recorded for its Entrez tests (2016–2025).
  {
    utility: 'esearch',
    params: { db: 'pubmed', term: 'biopython' },
    file: 'biopython/esearch1.xml',
  },
  {
    utility: 'esearch',
    params: {
      db: 'pubmed',
      term: 'cancer',
      reldate: '60',
      datetype: 'edat',
      retmax: '100',
      usehistory: 'y',
    },
    file: 'biopython/esearch2.xml',
  },
  {
    utility: 'esearch',
    params: { db: 'pubmed', term: 'PNAS[ta] AND 97[vi]', retstart: '6', retmax: '6' },
    file: 'biopython/esearch3.xml',
  },
  {
    utility: 'esearch',
    params: { db: 'pubmed', term: 'stem cells AND hasabstract' },
    file: 'biopython/esearch5.xml',
  },
  { utility: 'esearch', params: { db: 'pubmed', term: 'abcXYZ' }, file: 'biopython/esearch8.xml' },
  { utility: 'espell', params: { term: 'biopythooon' }, file: 'biopython/espell.xml' },
  { utility: 'epost', params: { db: 'nothing' }, file: 'biopython/epost2.xml' },
  {
    utility: 'epost',
    params: { db: 'pubmed', id: '11237011,12466850' },
    file: 'biopython/epost1.xml',
  },
  { utility: 'einfo', params: { db: 'pubmed' }, file: 'biopython/einfo2.xml' },
  // einfo4.xml is a real answer cut off mid-list; `db=truncated` is a made-up key to reach it.
  { utility: 'einfo', params: { db: 'truncated' }, file: 'biopython/einfo4.xml' },
  { utility: 'einfo', params: {}, file: 'biopython/einfo1.xml' },
  { utility: 'elink', params: { dbfrom: 'pubmed', id: '9298984' }, file: 'biopython/elink1.xml' },
  {
    utility: 'elink',
    params: { dbfrom: 'pubmed', id: '11812492,11774222' },
    file: 'biopython/elink3.xml',
  },
  {
    utility: 'elink',
    params: { dbfrom: 'pubmed', id: '12085856,12085853', cmd: 'llinks' },
    file: 'biopython/elink6.xml',
  },
  {
    utility: 'elink',
    params: { dbfrom: 'pubmed', id: '12169658', cmd: 'acheck' },
    file: 'biopython/elink7.xml',
  },
  {
    utility: 'elink',
    params: { dbfrom: 'pubmed', id: '12068369', cmd: 'ncheck' },
    file: 'biopython/elink8.xml',
  },
  {
    utility: 'esummary',
    params: { db: 'pubmed', id: '11850928,11482001' },
    file: 'biopython/esummary1.xml',
  },
  {
    utility: 'esummary',
    params: { db: 'protein', id: '28800982,28628843' },
    file: 'biopython/esummary3.xml',
  },
]

/**
 * The PMIDs of the records in an EFetch `<PubmedArticleSet>`, in order, by a plain scan of
 * the text (no XML parser): the first `<PMID>` inside each `<PubmedArticle>`.
 * @param xml - an EFetch answer
 */
export function articleSetPmids(xml: string): string[] {
  const pmids: string[] = []
  const pattern = /<PubmedArticle>[\s\S]*?<PMID[^>]*>(\d+)<\/PMID>/g
  for (const match of xml.matchAll(pattern)) {
    if (match[1] !== undefined) {
      pmids.push(match[1])
    }
  }
  return pmids
}
