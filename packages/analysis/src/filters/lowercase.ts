import { withTerm, withTermStep, type TokenFilter } from '../analyzer.ts'

/**
 * Lower-cases the term (`String#toLowerCase`, locale-independent). The biomedical tokenizer
 * already lower-cases while normalising, so this filter is for other tokenizers (e.g. the
 * whitespace one) or a tokenizer run with `normalize: false`.
 * @param token - the token
 */
export const lowercaseFilter: TokenFilter = withTermStep(
  (token) => {
    const term = token.term.toLowerCase()
    return term === token.term ? token : withTerm(token, term)
  },
  (term) => term.toLowerCase(),
)
