/**
 * The plain BioC data model both decoders (JSON and XML) produce, before any PMC-specific
 * interpretation: collections of documents of passages, each with its infons. Annotations,
 * relations and sentence-level structure are dropped (passages that carry their text only
 * in sentences get it back, see {@link joinSentences}).
 */

/** One BioC passage: its offset, text and infons (all values as strings). */
export interface BiocPassage {
  /** As given; in PMC BioC it counts UTF-8 bytes, not UTF-16 code units. */
  offset: number
  text: string
  infons: Record<string, string>
}

/** One BioC document. */
export interface BiocDocument {
  /** The `id` as given (a PMCID with or without `PMC`, a PMID, a DOI, …), if any. */
  id?: string
  infons: Record<string, string>
  passages: BiocPassage[]
  /**
   * Top-level `pmid` / `pmcid` fields that PubTator exports put next to the BioC document
   * (JSON only). `null` and empty values are left out.
   */
  pubtator?: { pmid?: string; pmcid?: string }
  /** Why the document cannot be used (shape errors found while decoding); empty when fine. */
  problems: string[]
}

/** The collection-level fields of BioC: where the documents come from. */
export interface BiocCollectionHeader {
  /** `PMC` for the PMC BioC API, `PubMed`, … */
  source?: string
  date?: string
  key?: string
  infons: Record<string, string>
}

/** One BioC collection. */
export interface BiocCollection extends BiocCollectionHeader {
  documents: BiocDocument[]
}

/**
 * Rebuilds a passage text from its sentences (BioC allows a passage to carry its text only
 * in `sentence` elements). Sentences are joined in the given order with one space where the
 * next sentence's offset leaves a gap or goes backwards, and nothing where it continues
 * exactly; offsets are not used for padding because they may count bytes or characters.
 * @param sentences - the sentences' offsets and texts
 */
export function joinSentences(sentences: readonly { offset: number; text: string }[]): string {
  let text = ''
  let end: number | undefined
  for (const sentence of sentences) {
    if (end !== undefined && sentence.offset !== end) {
      text += ' '
    }
    text += sentence.text
    end = sentence.offset + sentence.text.length
  }
  return text
}
