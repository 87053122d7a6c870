import { childElement, childElements } from '../xml/tree.ts'
import { answerText, childAnswerText, readXmlAnswer } from './parse-common.ts'
import { upstreamError } from './upstream-error.ts'

/** A parsed EPost answer: where the posted UIDs are stored on the history server. */
export interface EPostResult {
  /** The Web environment holding the UIDs. */
  readonly webEnv: string
  /** The query key of the posted set within {@link EPostResult.webEnv}. */
  readonly queryKey: string
  /** UIDs NCBI rejected (`<InvalidIdList>`). */
  readonly invalidIds: readonly string[]
  /** Error messages that came alongside a stored set (e.g. some ids omitted). */
  readonly warnings: readonly string[]
}

/**
 * Parses an EPost answer (`ePostResult`; EPost answers in XML only).
 * @param body - the answer body
 * @param source - the request URL or file, for messages. Defaults to `'epost'`.
 * @throws PubmatchError `UPSTREAM_ERROR` when nothing was stored (`<ERROR>` without a
 *   `WebEnv`), `MALFORMED_XML` for unreadable or wrongly shaped bodies
 */
export function parseEPost(body: string, source = 'epost'): EPostResult {
  const { root, errors } = readXmlAnswer(body, source, 'ePostResult')
  const webEnv = childAnswerText(root, 'WebEnv')
  const queryKey = childAnswerText(root, 'QueryKey')
  if (webEnv === undefined || webEnv === '' || queryKey === undefined || queryKey === '') {
    throw upstreamError(
      'EPost',
      source,
      errors.length > 0 ? errors : ['no WebEnv/QueryKey in the answer'],
    )
  }
  return {
    webEnv,
    queryKey,
    invalidIds: childElements(childElement(root, 'InvalidIdList'), 'Id').map(answerText),
    warnings: errors,
  }
}
