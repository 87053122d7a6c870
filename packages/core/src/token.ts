/** A token produced by analysis. */
export interface Token {
  /** The normalised term that is indexed and searched. */
  term: string
  /** 0-based position in the field, for phrases. */
  position: number
  /** The surface form before normalisation (lower-cased), for phrases and expansion. */
  original?: string
}
