import { withTerm, withTermStep, type TokenFilter } from '../analyzer.ts'
import { normalizeText } from '../normalize.ts'

/**
 * Applies {@link normalizeText} to the term: NFKC, lower-casing, diacritic folding. The
 * biomedical tokenizer does this on the whole text already (cheaper, and needed to find word
 * boundaries); this filter is for other tokenizers.
 * @param token - the token
 */
export const unicodeNormalizeFilter: TokenFilter = withTermStep((token) => {
  const term = normalizeText(token.term)
  return term === token.term ? token : withTerm(token, term)
}, normalizeText)
