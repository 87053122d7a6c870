import { childElement, childElements, ownText } from '../xml/tree.ts'
import { childAnswerText, readXmlAnswer, rootWithoutErrors } from './parse-common.ts'

/** A parsed ESpell answer. ESpell answers in XML only. */
export interface ESpellResult {
  /** The database the query was checked against. */
  readonly database: string
  /** The query as sent. */
  readonly query: string
  /** The suggested spelling; the empty string when ESpell has no suggestion. */
  readonly correctedQuery: string
  /** Whether ESpell suggested a different query. */
  readonly changed: boolean
  /** The corrected query in pieces: text kept (`original`) and text replaced (`replaced`), in order. */
  readonly pieces: ReadonlyArray<{ readonly kind: 'original' | 'replaced'; readonly text: string }>
}

/**
 * Parses an ESpell answer (`eSpellResult`). An empty `<ERROR/>` is normal and ignored.
 * @param body - the answer body
 * @param source - the request URL or file, for messages. Defaults to `'espell'`.
 * @throws PubmatchError `UPSTREAM_ERROR` when `<ERROR>` has text, `MALFORMED_XML` for
 *   unreadable or wrongly shaped bodies
 */
export function parseESpell(body: string, source = 'espell'): ESpellResult {
  const root = rootWithoutErrors(readXmlAnswer(body, source, 'eSpellResult'), 'ESpell', source)
  const query = childAnswerText(root, 'Query') ?? ''
  const correctedQuery = childAnswerText(root, 'CorrectedQuery') ?? ''
  const pieces = childElements(childElement(root, 'SpelledQuery'))
    .filter((c) => c.name === 'Original' || c.name === 'Replaced')
    .map((c) => ({
      kind: c.name === 'Original' ? ('original' as const) : ('replaced' as const),
      // The piece as written, spaces included.
      text: ownText(c),
    }))
    .filter((p) => p.text !== '')
  return {
    database: childAnswerText(root, 'Database') ?? '',
    query,
    correctedQuery,
    changed: correctedQuery !== '' && correctedQuery !== query,
    pieces,
  }
}
