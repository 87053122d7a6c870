import { assertWellFormedXml, children, parseXmlTree, textContent } from './xml-tree.ts'
import { upstreamError } from './upstream-error.ts'

/**
 * Checks an EFetch answer before it is handed to the caller (and cached): an XML answer must
 * be well-formed (which catches truncated and garbled bodies), and an `<eFetchResult>` with
 * `<ERROR>` is an upstream error. Text answers (`retmode=text`) pass unchecked.
 * @param body - the answer body
 * @param retmode - the requested `retmode`; only `xml` is checked
 * @param source - the request URL, for messages
 * @throws PubmatchError `MALFORMED_XML` or `UPSTREAM_ERROR`
 */
export function checkEFetchBody(body: string, retmode: string, source: string): void {
  if (retmode !== 'xml') {
    return
  }
  assertWellFormedXml(body, source)
  // Only the small error answer is parsed in full; article sets are merely validated.
  if (body.length < 4096 && /<eFetchResult[\s>]/.test(body)) {
    const root = parseXmlTree(body, source)
    const errors = children(root, 'ERROR')
      .map(textContent)
      .filter((m) => m !== '')
    if (errors.length > 0) {
      throw upstreamError('EFetch', source, errors)
    }
  }
}
