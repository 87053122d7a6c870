import type { AnalyzedToken } from '../src/analyzer.ts'

/**
 * Compact form of a token list for assertions: `term@position`, with `/length` for joined forms.
 * @param tokens - analyzed tokens
 */
export function render(tokens: readonly AnalyzedToken[]): string[] {
  return tokens.map((t) =>
    t.positionLength === undefined
      ? `${t.term}@${t.position}`
      : `${t.term}@${t.position}/${t.positionLength}`,
  )
}
