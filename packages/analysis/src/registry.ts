import { PubmatchError, truncateForMessage } from '@pubmatch/core'
import type { Analyzer } from './analyzer.ts'
import { biomedicalAnalyzer } from './analyzers/biomedical.ts'
import { whitespaceAnalyzer } from './analyzers/whitespace.ts'

/** Looks analyzers up by the name an index recorded. */
export interface AnalyzerRegistry {
  /**
   * The analyzer registered under `name` (created on first use, then shared).
   * @param name - an analyzer name, e.g. `'biomedical'`
   * @throws PubmatchError `NOT_FOUND` for an unknown name
   */
  get(name: string): Analyzer
  /**
   * Whether `name` is registered.
   * @param name - an analyzer name
   */
  has(name: string): boolean
  /** All registered names, built-ins first. */
  names(): string[]
}

const BUILTIN_FACTORIES: Readonly<Record<string, () => Analyzer>> = {
  biomedical: () => biomedicalAnalyzer(),
  'biomedical:nostem': () => biomedicalAnalyzer({ stem: false }),
  'biomedical:nostop': () => biomedicalAnalyzer({ stopwords: false }),
  'biomedical:nostem:nostop': () => biomedicalAnalyzer({ stem: false, stopwords: false }),
  whitespace: () => whitespaceAnalyzer(),
  'whitespace:stem': () => whitespaceAnalyzer({ stem: true }),
}

/**
 * The names `getAnalyzer` knows: `biomedical` (Porter2 + PubMed stop words), `biomedical:nostem`,
 * `biomedical:nostop`, `biomedical:nostem:nostop`, `whitespace` and `whitespace:stem`.
 */
export const BUILTIN_ANALYZER_NAMES: readonly string[] = Object.freeze(
  Object.keys(BUILTIN_FACTORIES),
)

/**
 * Creates a registry with the built-in analyzers plus `factories`. Each factory runs at most
 * once; the analyzer it returns must carry the name it is registered under.
 * @param factories - extra analyzers by name; may not reuse a built-in name. Defaults to none.
 */
export function createAnalyzerRegistry(
  factories: Readonly<Record<string, () => Analyzer>> = {},
): AnalyzerRegistry {
  for (const name of Object.keys(factories)) {
    if (Object.hasOwn(BUILTIN_FACTORIES, name)) {
      throw new PubmatchError(
        'INVALID_ARGUMENT',
        `analyzer name "${truncateForMessage(name)}" is built in and cannot be registered again`,
      )
    }
  }
  const all: Readonly<Record<string, () => Analyzer>> = { ...BUILTIN_FACTORIES, ...factories }
  const created = new Map<string, Analyzer>()
  const has = (name: string): boolean => Object.hasOwn(all, name)
  return {
    has,
    names: () => Object.keys(all),
    get(name: string): Analyzer {
      const existing = created.get(name)
      if (existing !== undefined) {
        return existing
      }
      if (!has(name)) {
        throw new PubmatchError(
          'NOT_FOUND',
          `unknown analyzer "${truncateForMessage(name)}" (known: ${Object.keys(all).join(', ')})`,
        )
      }
      const analyzer = all[name]!()
      if (analyzer.name !== name) {
        throw new PubmatchError(
          'INVALID_ARGUMENT',
          `the factory registered as "${truncateForMessage(name)}" made an analyzer named "${truncateForMessage(analyzer.name)}"`,
        )
      }
      created.set(name, analyzer)
      return analyzer
    },
  }
}

const builtins: AnalyzerRegistry = createAnalyzerRegistry()

/**
 * A built-in analyzer by name, shared per process (see {@link BUILTIN_ANALYZER_NAMES}). An index
 * stores `analyzer.name`; queries call `getAnalyzer(name)` to analyze the same way.
 * @param name - an analyzer name, e.g. `'biomedical'`
 * @throws PubmatchError `NOT_FOUND` for an unknown name
 */
export function getAnalyzer(name: string): Analyzer {
  return builtins.get(name)
}
