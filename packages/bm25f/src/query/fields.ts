import { PubmatchError } from '@pubmatch/core'

/**
 * The PubMed search fields a query may name in a field tag (`term[tiab]`), with every
 * spelling PubMed accepts for them: the short tag of the PubMed User Guide (`tiab`), the
 * long name (`Title/Abstract`), the E-utilities field name from EInfo (`TIAB`) and the
 * full names older EInfo builds used (`Entrez Date`, `First Author`, …).
 */

/**
 * A PubMed search field, named by its canonical short tag (the one the PubMed User Guide
 * prints). `ab` is a pubmatch extension: PubMed has no abstract-only field, but the
 * pubmatch index has one.
 */
export type PubmedField =
  | 'all'
  | 'ad'
  | 'aid'
  | 'au'
  | 'fau'
  | '1au'
  | 'lastau'
  | 'cn'
  | 'auid'
  | 'aucl'
  | 'book'
  | 'cois'
  | 'rn'
  | 'ed'
  | 'filter'
  | 'gr'
  | 'ir'
  | 'fir'
  | 'isbn'
  | 'ip'
  | 'jid'
  | 'ta'
  | 'la'
  | 'lid'
  | 'majr'
  | 'sh'
  | 'mh'
  | 'ot'
  | 'pg'
  | 'pa'
  | 'pl'
  | 'pt'
  | 'pubn'
  | 'pid'
  | 'si'
  | 'ps'
  | 'nm'
  | 'tw'
  | 'ti'
  | 'tiab'
  | 'ab'
  | 'tt'
  | 'vi'
  | 'pmid'
  | 'pmcid'
  | 'eid'
  | 'dso'
  | 'dp'
  | 'edat'
  | 'crdt'
  | 'mhda'
  | 'lr'
  | 'dcom'
  | 'ppdat'
  | 'epdat'
  | 'p1dat'

/** The date fields: the only ones that take a range (`2015:2020[dp]`). */
export type PubmedDateField =
  'dp' | 'edat' | 'crdt' | 'mhda' | 'lr' | 'dcom' | 'ppdat' | 'epdat' | 'p1dat'

/** The fields PubMed allows in a proximity search (`"hip pain"[tiab:~2]`), plus `ab`. */
export type ProximityField = 'ti' | 'tiab' | 'ad' | 'ab'

/** What pubmatch knows about one PubMed search field. */
export interface PubmedFieldInfo {
  /** The canonical short tag, used by {@link formatQuery}. */
  readonly tag: PubmedField
  /** The long name PubMed shows in Search Details, e.g. `Title/Abstract`. */
  readonly name: string
  /** The E-utilities (EInfo) field name, e.g. `TIAB`; `null` when EInfo lists none. */
  readonly entrez: string | null
  /** Every other accepted spelling (compared case-insensitively, spaces collapsed). */
  readonly aliases: readonly string[]
  /** Whether the field holds dates (and so accepts ranges). */
  readonly date: boolean
  /** Whether `[tag:noexp]` is allowed (MeSH fields that PubMed explodes by default). */
  readonly explodable: boolean
}

const field = (
  tag: PubmedField,
  name: string,
  entrez: string | null,
  aliases: readonly string[] = [],
  flags: { date?: boolean; explodable?: boolean } = {},
): PubmedFieldInfo => ({
  tag,
  name,
  entrez,
  aliases,
  date: flags.date ?? false,
  explodable: flags.explodable ?? false,
})

/**
 * Every field tag pubmatch understands. Sources: the PubMed User Guide's "Search Field
 * Descriptions and Tags", and the EInfo field lists of three real PubMed builds (2014,
 * 2017, 2025) in `shared/data/eutils` (their `Name` and `FullName` all resolve here).
 */
export const PUBMED_FIELDS: readonly PubmedFieldInfo[] = [
  field('all', 'All Fields', 'ALL'),
  field('ad', 'Affiliation', 'AFFL'),
  field('aid', 'Article Identifier', null),
  field('au', 'Author', 'AUTH', ['author name']),
  field('fau', 'Author - Full', 'FULL', ['full author name']),
  field('1au', 'Author - First', 'FAUT', ['first author', 'first author name']),
  field('lastau', 'Author - Last', 'LAUT', ['last author', 'last author name']),
  field('cn', 'Author - Corporate', 'COLN', ['corporate author']),
  field('auid', 'Author - Identifier', 'AUID'),
  field('aucl', 'Author Cluster ID', 'AUCL'),
  field('book', 'Book', 'BOOK'),
  field('cois', 'Conflict of Interest Statements', 'COIS'),
  field('rn', 'EC/RN Number', 'ECNO'),
  field('ed', 'Editor', 'ED'),
  field('filter', 'Filter', 'FILT', ['sb', 'subset']),
  field('gr', 'Grants and Funding', 'GRNT', ['grant number']),
  field('ir', 'Investigator', 'INVR'),
  field('fir', 'Investigator - Full', 'FINV', ['full investigator name']),
  field('isbn', 'ISBN', 'ISBN'),
  field('ip', 'Issue', 'ISS'),
  field('jid', 'NLM Unique ID', 'JID', ['nlm unique id', 'nlmid']),
  field('ta', 'Journal', 'JOUR', ['jour', 'journal title abbreviation']),
  field('la', 'Language', 'LANG'),
  field('lid', 'Location ID', 'LID'),
  field('majr', 'MeSH Major Topic', 'MAJR', [], { explodable: true }),
  field('sh', 'MeSH Subheading', 'SUBH', ['subheading'], { explodable: true }),
  field('mh', 'MeSH Terms', 'MESH', ['mesh', 'mesh term'], { explodable: true }),
  field('ot', 'Other Term', 'OTRM'),
  field('pg', 'Pagination', 'PAGE'),
  field('pa', 'Pharmacological Action', 'PAPX'),
  field('pl', 'Place of Publication', 'CNTY'),
  field('pt', 'Publication Type', 'PTYP'),
  field('pubn', 'Publisher', 'PUBN'),
  field('pid', 'Publisher ID', 'PID'),
  field('si', 'Secondary Source ID', 'SI'),
  field('ps', 'Subject - Personal Name', 'PS'),
  field('nm', 'Supplementary Concept', 'SUBS', ['substance name']),
  field('tw', 'Text Word', 'WORD', ['text words']),
  field('ti', 'Title', 'TITL'),
  field('tiab', 'Title/Abstract', 'TIAB'),
  field('ab', 'Abstract', null),
  field('tt', 'Transliterated Title', 'TT'),
  field('vi', 'Volume', 'VOL'),
  field('pmid', 'PMID', 'UID'),
  field('pmcid', 'PMCID', null),
  field('eid', 'Extended PMID', 'EID'),
  field('dso', 'DSO', 'DSO'),
  field('dp', 'Date - Publication', 'PDAT', ['publication date'], { date: true }),
  field('edat', 'Date - Entry', 'EDAT', ['date - entrez', 'entrez date'], { date: true }),
  field('crdt', 'Date - Create', 'CRDT', ['create date'], { date: true }),
  field('mhda', 'Date - MeSH', 'MHDA', ['mesh date'], { date: true }),
  field('lr', 'Date - Modification', 'MDAT', ['modification date'], { date: true }),
  field('dcom', 'Date - Completion', 'CDAT', ['completion date'], { date: true }),
  field('ppdat', 'Print Publication Date', 'PPDT', [], { date: true }),
  field('epdat', 'Electronic Publication Date', 'EPDT', [], { date: true }),
  field('p1dat', 'P1DAT', 'P1DAT', [], { date: true }),
]

const normalizeTagName = (name: string): string => name.trim().replace(/\s+/g, ' ').toLowerCase()

const FIELD_BY_NAME: ReadonlyMap<string, PubmedFieldInfo> = (() => {
  const map = new Map<string, PubmedFieldInfo>()
  for (const info of PUBMED_FIELDS) {
    const names = [
      info.tag,
      info.name,
      ...(info.entrez === null ? [] : [info.entrez]),
      ...info.aliases,
    ]
    for (const name of names) {
      const key = normalizeTagName(name)
      const previous = map.get(key)
      if (previous !== undefined && previous !== info) {
        throw new PubmatchError(
          'INTERNAL',
          `field name "${name}" is ambiguous (fields.ts)`,
        )
      }
      map.set(key, info)
    }
  }
  return map
})()

/**
 * Looks up a field by any accepted spelling, case-insensitively and with runs of spaces
 * collapsed: `tiab`, `Title/Abstract`, `TIAB`, ` Publication Type`.
 * @param name - the text between the brackets, without a `:noexp` / `:~N` suffix
 * @returns the field, or `undefined` when PubMed has no such field
 */
export function lookupField(name: string): PubmedFieldInfo | undefined {
  return FIELD_BY_NAME.get(normalizeTagName(name))
}

/**
 * The description of a canonical field tag.
 * @param tag - a canonical tag such as `tiab`
 */
export function fieldInfo(tag: PubmedField): PubmedFieldInfo {
  const info = FIELD_BY_NAME.get(tag)
  if (info === undefined) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `no field "${String(tag)}" (fields.ts)`,
    )
  }
  return info
}

/**
 * Whether `tag` is a date field (and so accepts ranges like `2015:2020[dp]`).
 * @param tag - a canonical tag
 */
export function isDateField(tag: PubmedField): tag is PubmedDateField {
  return fieldInfo(tag).date
}

/**
 * Whether PubMed allows a proximity search (`"a b"[tiab:~3]`) in `tag`: Title,
 * Title/Abstract and Affiliation, plus pubmatch's Abstract.
 * @param tag - a canonical tag
 */
export function isProximityField(tag: PubmedField): tag is ProximityField {
  return tag === 'ti' || tag === 'tiab' || tag === 'ad' || tag === 'ab'
}
