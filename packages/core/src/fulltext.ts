/**
 * Full texts (PMC articles from the BioC API) split into passages whose section types are
 * normalised to the 13 types of Yeganova et al. (2021).
 */

/** The 13 section types of Yeganova et al., in their order. */
export const SECTION_TYPES = [
  'ABSTRACT',
  'ABBR',
  'CAPTION',
  'DISCUSS',
  'CASE',
  'KEYWORD',
  'CONCL',
  'RESULTS',
  'METHODS',
  'INTRO',
  'TITLE',
  'SUPPL',
  'APPENDIX',
] as const

/** One of the 13 normalised section types. */
export type SectionType = (typeof SECTION_TYPES)[number]

/**
 * What a passage is besides its section: body text, the article's own title, a section
 * heading, a reference-list entry, or boilerplate (acknowledgements, competing interests,
 * funding, author contributions, …). References and boilerplate are kept but marked so
 * scoring can skip them.
 */
export type PassageRole = 'body' | 'front' | 'heading' | 'reference' | 'boilerplate'

/** One BioC passage. */
export interface Passage {
  /** Offset in the BioC document as the BioC API gives it: a count of UTF-8 bytes, not characters. */
  offset: number
  text: string
  /**
   * The normalised section type, or `null` for passages outside the 13 types (the
   * article title in front matter, references, boilerplate).
   */
  sectionType: SectionType | null
  /** The BioC `section_type` infon as given (e.g. `FIG`, `REF`, `COMP_INT`), if any. */
  rawSectionType?: string
  /** The BioC `type` infon (e.g. `paragraph`, `title_1`, `fig_caption`, `ref`). */
  passageType?: string
  role: PassageRole
  /** The other infons, verbatim. */
  infons: Record<string, string>
}

/** A PMC full text with the ids that link it to its PubMed record. */
export interface FullTextDocument {
  /** `PMC1234567`. */
  pmcid: string
  pmid?: string
  doi?: string
  /** The BioC document id as given. */
  sourceId: string
  /** `CC BY`, … from the front-matter infons. */
  license?: string
  title?: string
  passages: Passage[]
}
