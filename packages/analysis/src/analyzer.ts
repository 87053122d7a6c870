import { PubmatchError, type Token } from '@pubmatch/core'

/**
 * A token as analysis produces it: a {@link Token} plus how many positions it spans.
 *
 * Position scheme (see README "Positions"): every part of a word gets its own position, one
 * after the other. A joined compound form (`cox2` for `COX-2`) is an extra token placed at the
 * position of its first part, with `positionLength` = the number of parts it covers. Tokens
 * that span one position leave `positionLength` unset. Dropped tokens (stop words) leave a gap.
 */
export interface AnalyzedToken extends Token {
  /** How many positions the token covers; unset means `1`. Set (≥ 2) only on joined compound forms. */
  positionLength?: number
}

/**
 * One analysis step, applied to each token in turn. Return `null` to drop the token (e.g. a stop
 * word). A filter must not mutate its input: return the same object when nothing changes, or a
 * new one (see {@link withTerm}).
 */
export type TokenFilter = (token: AnalyzedToken) => AnalyzedToken | null

/** Splits text into tokens with positions; the first stage of an {@link Analyzer}. */
export type Tokenizer = (text: string) => AnalyzedToken[]

/** A named tokenizer + filter chain. Indexes record `name` so that queries use the same chain. */
export interface Analyzer {
  /** The name under which the analyzer is registered (see `getAnalyzer`). */
  readonly name: string
  /**
   * Analyzes one field value.
   * @param text - the raw text
   * @returns the surviving tokens in tokenizer order
   */
  analyze(text: string): AnalyzedToken[]
}

/**
 * Builds an analyzer from a tokenizer and token filters applied in order (a factory:
 * CONTRIBUTING.md, "Code style").
 * @param name - the analyzer's name; must be non-empty
 * @param tokenize - the tokenizer
 * @param filters - filters applied left to right; a `null` result drops the token
 */
export function createAnalyzer(
  name: string,
  tokenize: Tokenizer,
  filters: readonly TokenFilter[],
): Analyzer {
  if (name.length === 0) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      'an analyzer needs a non-empty name',
    )
  }
  const chain = [...filters]
  const count = chain.length
  return {
    name,
    analyze(text: string): AnalyzedToken[] {
      const tokens = tokenize(text)
      if (count === 0) {
        return tokens
      }
      const out: AnalyzedToken[] = []
      for (const raw of tokens) {
        let token: AnalyzedToken | null = raw
        for (let f = 0; f < count && token !== null; f++) {
          token = chain[f]!(token)
        }
        if (token !== null) {
          out.push(token)
        }
      }
      return out
    },
  }
}

/**
 * A copy of `token` with a new term; keeps `position`, `original` and `positionLength`.
 * @param token - the token to copy
 * @param term - the new term
 */
export function withTerm(token: AnalyzedToken, term: string): AnalyzedToken {
  const original = token.original ?? token.term
  return token.positionLength === undefined
    ? { term, position: token.position, original }
    : { term, position: token.position, original, positionLength: token.positionLength }
}

/**
 * Whether a token is a joined compound form (spans more than one position).
 * @param token - an analyzed token
 */
export function isJoinedToken(token: AnalyzedToken): boolean {
  return token.positionLength !== undefined && token.positionLength > 1
}

/**
 * The terms of a text as a term vector counts them: the analyzer's terms in order, duplicates kept
 * (they are the term frequencies), joined compound forms left out (their parts are there). What
 * `@pubmatch/ltr`'s query memory compares queries by, and what `@pubmatch/solr` sends a collection
 * as a model's analysed memory, so both read a remembered query alike.
 * @param analyzer - the analyzer (the index's text analyzer)
 * @param text - the text
 */
export function textTerms(analyzer: Analyzer, text: string): string[] {
  const out: string[] = []
  for (const token of analyzer.analyze(text)) {
    if (!isJoinedToken(token)) {
      out.push(token.term)
    }
  }
  return out
}

/**
 * The tokens a phrase matcher should use: every token that covers exactly one position, i.e.
 * the parts without their joined forms. `"COX-2"`, `"cox2"` and `"cox 2"` all give `cox`, `2`
 * at consecutive positions this way.
 * @param tokens - analyzed tokens
 */
export function phraseTokens(tokens: readonly AnalyzedToken[]): AnalyzedToken[] {
  return tokens.filter((token) => !isJoinedToken(token))
}
