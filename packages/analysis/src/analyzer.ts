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
 * What a filter does to a term alone: the new term, or `null` to drop the token. A pure function
 * of the term (the same term always gives the same answer), so that an analyzer may remember
 * its answers.
 */
export type TermStep = (term: string) => string | null

/**
 * One analysis step, applied to each token in turn. Return `null` to drop the token (e.g. a stop
 * word). A filter must not mutate its input: return the same object when nothing changes, or a
 * new one (see {@link withTerm}). A filter whose outcome depends on the term alone says so with
 * `termStep` (see {@link withTermStep}): when every filter of an analyzer has one, the analyzer
 * runs the chain once per distinct term and remembers the result ({@link Analyzer.termStream}).
 */
export interface TokenFilter {
  (token: AnalyzedToken): AnalyzedToken | null
  /** The filter's effect on the term alone: `termStep(t)` is the term the filter leaves, or `null` when it drops the token. */
  readonly termStep?: TermStep
}

/**
 * Receives one analysed token without a token object.
 * @param term - the term
 * @param position - its position
 * @param positionLength - the positions it covers: `1`, or ≥ 2 for a joined compound form
 */
export type TermSink = (term: string, position: number, positionLength: number) => void

/**
 * Splits text into tokens with positions; the first stage of an {@link Analyzer}. A tokenizer
 * may also offer `stream`: the same terms, positions and spans, in the same order, handed to a
 * sink one by one instead of as token objects.
 */
export interface Tokenizer {
  (text: string): AnalyzedToken[]
  /** The tokens of `text` (as the call gives them) sent to `sink` in order, without token objects. */
  readonly stream?: (text: string, sink: TermSink) => void
}

/**
 * Marks a token filter as depending on the term alone (see {@link TokenFilter}).
 * @param filter - the token filter
 * @param termStep - its effect on a term: must give `filter`'s term (or `null` when it drops
 *   the token) for every token, whatever its position and original
 * @returns `filter`, with `termStep` set
 */
export function withTermStep(
  filter: (token: AnalyzedToken) => AnalyzedToken | null,
  termStep: TermStep,
): TokenFilter {
  return Object.assign(filter, { termStep })
}

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
  /**
   * The analyzer split in two, when its filters depend on the term alone (see
   * {@link TermStream}): what an index uses to analyse documents without token objects and to
   * run the filters once per distinct term. Optional: {@link analyzeTerms} falls back to
   * `analyze`.
   */
  readonly termStream?: TermStream
}

/**
 * An analyzer as a token stream plus a term step: `analyze(text)` is, in order, the tokens that
 * `tokens(text)` sends whose `term(surface)` is not `null`, with that term in place of the
 * surface term (same positions and spans).
 */
export interface TermStream {
  /**
   * Sends the tokenizer's tokens of `text` (before the filters) to `sink`, in order.
   * @param text - the raw text
   * @param sink - called once per token, with its surface term
   */
  tokens(text: string, sink: TermSink): void
  /** What the filter chain makes of a surface term: the term, or `null` when the token is dropped. Pure, and remembered. */
  readonly term: TermStep
}

/**
 * Sends the term, position and span of each token of `analyzer.analyze(text)` to `sink`, in
 * order; through the analyzer's `termStream` when it has one (no token objects).
 * @param analyzer - the analyzer
 * @param text - the raw text
 * @param sink - called once per token
 */
export function analyzeTerms(analyzer: Analyzer, text: string, sink: TermSink): void {
  const stream = analyzer.termStream
  if (stream === undefined) {
    for (const token of analyzer.analyze(text)) {
      sink(token.term, token.position, token.positionLength ?? 1)
    }
    return
  }
  const step = stream.term
  stream.tokens(text, (surface, position, positionLength) => {
    const term = step(surface)
    if (term !== null) {
      sink(term, position, positionLength)
    }
  })
}

/** Options of {@link createAnalyzer}. */
export interface AnalyzerOptions {
  /**
   * Distinct terms whose outcome through the filter chain `termStream.term` remembers, when every
   * filter has a `termStep`; when full, the oldest is forgotten. `0` remembers none. Defaults
   * to `100_000`.
   */
  termCacheSize?: number
}

/**
 * Builds an analyzer from a tokenizer and token filters applied in order (a factory:
 * CONTRIBUTING.md, "Code style").
 * @param name - the analyzer's name; must be non-empty
 * @param tokenize - the tokenizer
 * @param filters - filters applied left to right; a `null` result drops the token
 * @param options - see {@link AnalyzerOptions}
 */
export function createAnalyzer(
  name: string,
  tokenize: Tokenizer,
  filters: readonly TokenFilter[],
  options: AnalyzerOptions = {},
): Analyzer {
  if (name.length === 0) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      'an analyzer needs a non-empty name',
    )
  }
  const cacheSize = options.termCacheSize ?? 100_000
  if (!Number.isInteger(cacheSize) || cacheSize < 0) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `termCacheSize must be a non-negative integer, got ${String(cacheSize)}`,
    )
  }
  const chain = [...filters]
  const count = chain.length
  const steps = chain.every((filter) => filter.termStep !== undefined)
    ? chain.map((filter) => filter.termStep!)
    : null
  const analyzer: Analyzer = {
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
  return steps === null ? analyzer : { ...analyzer, termStream: termStream(tokenize, steps, cacheSize) }
}

/** The chain of term steps, run once per distinct term (bounded memo, oldest forgotten first). */
function termChain(steps: readonly TermStep[], capacity: number): TermStep {
  const count = steps.length
  const run = (term: string): string | null => {
    let out: string | null = term
    for (let f = 0; f < count && out !== null; f++) {
      out = steps[f]!(out)
    }
    return out
  }
  if (capacity === 0 || count === 0) {
    return run
  }
  const memo = new Map<string, string | null>()
  return (term) => {
    let out = memo.get(term)
    if (out === undefined) {
      out = run(term)
      if (memo.size >= capacity) {
        memo.delete(memo.keys().next().value!)
      }
      memo.set(term, out)
    }
    return out
  }
}

/** The term stream of an analyzer whose filters all have a term step. */
function termStream(tokenize: Tokenizer, steps: readonly TermStep[], capacity: number): TermStream {
  const stream = tokenize.stream
  return {
    tokens:
      stream ??
      ((text, sink) => {
        for (const token of tokenize(text)) {
          sink(token.term, token.position, token.positionLength ?? 1)
        }
      }),
    term: termChain(steps, capacity),
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
