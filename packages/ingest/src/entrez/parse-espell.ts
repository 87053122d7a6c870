import { parseXmlTree, child, childText, children, textContent } from './xml-tree.ts'
import { wrongRoot } from './parse-common.ts'
import { upstreamError } from './upstream-error.ts'

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
  const root = parseXmlTree(body, source)
  if (root.name !== 'eSpellResult') {
    throw wrongRoot(source, 'eSpellResult', root.name, body)
  }
  const errors = children(root, 'ERROR')
    .map(textContent)
    .filter((m) => m !== '')
  if (errors.length > 0) {
    throw upstreamError('ESpell', source, errors)
  }
  const query = childText(root, 'Query') ?? ''
  const correctedQuery = childText(root, 'CorrectedQuery') ?? ''
  const spelled = child(root, 'SpelledQuery')
  const pieces =
    spelled === undefined
      ? []
      : spelled.children
          .filter((c) => c.name === 'Original' || c.name === 'Replaced')
          .map((c) => ({
            kind: c.name === 'Original' ? ('original' as const) : ('replaced' as const),
            text: c.text,
          }))
          .filter((p) => p.text !== '')
  return {
    database: childText(root, 'Database') ?? '',
    query,
    correctedQuery,
    changed: correctedQuery !== '' && correctedQuery !== query,
    pieces,
  }
}
