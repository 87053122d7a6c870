/**
 * MeSH qualifiers (subheadings) and their hierarchy, for PubMed's `[sh]`: `therapy[sh]` also
 * searches the subheadings below therapy in the qualifier trees (drug therapy, surgery, …), and
 * `therapy[sh:noexp]` therapy alone. The 83 qualifier records of MeSH 2014 (NLM's
 * `qual2014.xml`, bundled in `packages/sample-data/corpus/mesh`; `subheadings.test.ts` checks
 * this table against it record by record): unique id, name, abbreviation and tree numbers, as
 * NLM gives them.
 */
import { normalizeKeyword } from '@pubmatch/index/internal'

/** One MeSH qualifier: `[ui, name, abbreviation, tree numbers]`. */
type QualifierRow = readonly [string, string, string, readonly string[]]

/** A MeSH qualifier (subheading). */
export interface MeshQualifier {
  /** Unique id, `Q000628`. */
  readonly ui: string
  /** Name as MeSH writes it, `administration & dosage`. */
  readonly name: string
  /** Two-letter abbreviation, `AD`. */
  readonly abbreviation: string
  /** Tree numbers, `Y07.010`; a qualifier below another has the other's number as a prefix. */
  readonly treeNumbers: readonly string[]
}

// MeSH 2014 qual2014.xml: QualifierUI, QualifierName, Abbreviation, TreeNumberList
const ROWS: readonly QualifierRow[] = [
  ['Q000002', 'abnormalities', 'AB', ['Y02.030.010']],
  ['Q000008', 'administration & dosage', 'AD', ['Y07.010', 'Y10.010']],
  ['Q000009', 'adverse effects', 'AE', ['Y07.020', 'Y10.020']],
  ['Q000031', 'analogs & derivatives', 'AA', ['Y03.020']],
  ['Q000032', 'analysis', 'AN', ['Y01']],
  ['Q000033', 'anatomy & histology', 'AH', ['Y02']],
  ['Q000037', 'antagonists & inhibitors', 'AI', ['Y03.030', 'Y07.040']],
  ['Q000096', 'biosynthesis', 'BI', ['Y08.040.010']],
  ['Q000097', 'blood', 'BL', ['Y01.010', 'Y08.040.020']],
  ['Q000098', 'blood supply', 'BS', ['Y02.010']],
  ['Q000134', 'cerebrospinal fluid', 'CF', ['Y01.020', 'Y08.040.030']],
  ['Q000138', 'chemical synthesis', 'CS', ['Y03.040']],
  ['Q000139', 'chemically induced', 'CI', ['Y05.010']],
  ['Q000145', 'classification', 'CL', ['Y19']],
  ['Q000150', 'complications', 'CO', ['Y05.020']],
  ['Q000151', 'congenital', 'CN', ['Y05.030']],
  ['Q000166', 'cytology', 'CY', ['Y02.020']],
  ['Q000172', 'deficiency', 'DF', ['Y08.040.040']],
  ['Q000175', 'diagnosis', 'DI', ['Y04']],
  ['Q000176', 'diagnostic use', 'DU', ['Y07.060']],
  ['Q000178', 'diet therapy', 'DH', ['Y11.010']],
  ['Q000187', 'drug effects', 'DE', ['Y21']],
  ['Q000188', 'drug therapy', 'DT', ['Y11.020']],
  ['Q000191', 'economics', 'EC', ['Y06.010']],
  ['Q000193', 'education', 'ED', ['Y23']],
  ['Q000196', 'embryology', 'EM', ['Y02.030', 'Y05.040']],
  ['Q000201', 'enzymology', 'EN', ['Y08.040.050']],
  ['Q000208', 'ethnology', 'EH', ['Y09.010.010']],
  ['Q000209', 'etiology', 'ET', ['Y05']],
  ['Q000235', 'genetics', 'GE', ['Y05.050', 'Y08.010']],
  ['Q000254', 'growth & development', 'GD', ['Y08.020']],
  ['Q000266', 'history', 'HI', ['Y27']],
  ['Q000276', 'immunology', 'IM', ['Y05.060', 'Y08.030']],
  ['Q000293', 'injuries', 'IN', ['Y29']],
  ['Q000294', 'innervation', 'IR', ['Y02.040']],
  ['Q000295', 'instrumentation', 'IS', ['Y31']],
  ['Q000302', 'isolation & purification', 'IP', ['Y01.030']],
  ['Q000331', 'legislation & jurisprudence', 'LJ', ['Y06.020']],
  ['Q000364', 'manpower', 'MA', ['Y06.030']],
  ['Q000378', 'metabolism', 'ME', ['Y08.040']],
  ['Q000379', 'methods', 'MT', ['Y33']],
  ['Q000382', 'microbiology', 'MI', ['Y05.070']],
  ['Q000401', 'mortality', 'MO', ['Y09.010.020']],
  ['Q000451', 'nursing', 'NU', ['Y11.030']],
  ['Q000453', 'epidemiology', 'EP', ['Y09.010']],
  ['Q000458', 'organization & administration', 'OG', ['Y06']],
  ['Q000469', 'parasitology', 'PS', ['Y05.080']],
  ['Q000472', 'pathogenicity', 'PY', ['Y35']],
  ['Q000473', 'pathology', 'PA', ['Y02.020.010', 'Y04.010']],
  ['Q000493', 'pharmacokinetics', 'PK', ['Y07.070', 'Y08.040.060']],
  ['Q000494', 'pharmacology', 'PD', ['Y07']],
  ['Q000502', 'physiology', 'PH', ['Y08']],
  ['Q000503', 'physiopathology', 'PP', ['Y08.050']],
  ['Q000506', 'poisoning', 'PO', ['Y07.020.010', 'Y10.040']],
  ['Q000517', 'prevention & control', 'PC', ['Y11.040']],
  ['Q000523', 'psychology', 'PX', ['Y37']],
  ['Q000528', 'radiation effects', 'RE', ['Y39']],
  ['Q000530', 'radiography', 'RA', ['Y04.020']],
  ['Q000531', 'radionuclide imaging', 'RI', ['Y04.030']],
  ['Q000532', 'radiotherapy', 'RT', ['Y11.050']],
  ['Q000534', 'rehabilitation', 'RH', ['Y11.060']],
  ['Q000556', 'secondary', 'SC', ['Y05.020.010']],
  ['Q000557', 'secretion', 'SE', ['Y08.060']],
  ['Q000592', 'standards', 'ST', ['Y06.040']],
  ['Q000600', 'supply & distribution', 'SD', ['Y06.050', 'Y09.020']],
  ['Q000601', 'surgery', 'SU', ['Y11.070']],
  ['Q000627', 'therapeutic use', 'TU', ['Y10']],
  ['Q000628', 'therapy', 'TH', ['Y11']],
  ['Q000633', 'toxicity', 'TO', ['Y07.020.020']],
  ['Q000635', 'transmission', 'TM', ['Y05.090']],
  ['Q000637', 'transplantation', 'TR', ['Y11.070.010']],
  ['Q000639', 'trends', 'TD', ['Y06.060']],
  ['Q000648', 'ultrastructure', 'UL', ['Y02.020.020']],
  ['Q000652', 'urine', 'UR', ['Y01.040', 'Y08.040.070']],
  ['Q000656', 'utilization', 'UT', ['Y06.070', 'Y09.030']],
  ['Q000662', 'veterinary', 'VE', ['Y41']],
  ['Q000706', 'statistics & numerical data', 'SN', ['Y09']],
  ['Q000736', 'ultrasonography', 'US', ['Y04.040']],
  ['Q000737', 'chemistry', 'CH', ['Y03']],
  ['Q000744', 'contraindications', 'CT', ['Y07.050', 'Y10.030']],
  ['Q000819', 'agonists', 'AG', ['Y03.010', 'Y07.030']],
  ['Q000821', 'virology', 'VI', ['Y05.070.010']],
  ['Q000941', 'ethics', 'ES', ['Y25']],
]

/** The MeSH 2014 qualifiers, by unique id. */
export const MESH_QUALIFIERS: readonly MeshQualifier[] = Object.freeze(
  ROWS.map(([ui, name, abbreviation, treeNumbers]) =>
    Object.freeze({ ui, name, abbreviation, treeNumbers }),
  ),
)

/** How a `[sh]` text finds its qualifier: normalised, `&` read as "and", as PubMed accepts both. */
const lookupKey = (text: string): string => normalizeKeyword(text.replace(/&/g, ' and '))

const BY_KEY: ReadonlyMap<string, MeshQualifier> = new Map(
  MESH_QUALIFIERS.map((qualifier) => [lookupKey(qualifier.name), qualifier]),
)

/**
 * The MeSH qualifier a `[sh]` term names: by name, in any case, with `&` or "and"
 * (`administration and dosage`); `undefined` for a text that is no MeSH 2014 qualifier.
 * @param text - the term's text
 */
export function lookupSubheading(text: string): MeshQualifier | undefined {
  return BY_KEY.get(lookupKey(text))
}

/**
 * The qualifiers below `qualifier` in the qualifier trees (any of its tree numbers followed by
 * `.`), at every depth, in table order: for therapy (`Y11`) diet therapy, drug therapy,
 * nursing, prevention & control, radiotherapy, rehabilitation, surgery and transplantation.
 * @param qualifier - a qualifier of {@link MESH_QUALIFIERS}
 */
export function narrowerSubheadings(qualifier: MeshQualifier): MeshQualifier[] {
  const prefixes = qualifier.treeNumbers.map((tree) => `${tree}.`)
  return MESH_QUALIFIERS.filter(
    (other) =>
      other !== qualifier &&
      other.treeNumbers.some((tree) => prefixes.some((prefix) => tree.startsWith(prefix))),
  )
}

/**
 * The subheading values a `[sh]` term searches, as a keyword field holds them
 * (`normalizeKeyword` of MeSH's name: `administration dosage`): the qualifier the text names
 * and, unless `noExplode`, every qualifier below it (PubMed's `therapy[sh]` includes drug
 * therapy, surgery, …; `therapy[sh:noexp]` does not). A text that names no MeSH 2014 qualifier
 * is searched as itself. Distinct values, in table order.
 * @param text - the term's text (no `*`)
 * @param noExplode - `[sh:noexp]`
 */
export function subheadingValues(text: string, noExplode: boolean): string[] {
  const qualifier = lookupSubheading(text)
  if (qualifier === undefined) {
    const value = normalizeKeyword(text)
    return value === '' ? [] : [value]
  }
  const qualifiers = noExplode ? [qualifier] : [qualifier, ...narrowerSubheadings(qualifier)]
  return [...new Set(qualifiers.map((q) => normalizeKeyword(q.name)))]
}
