import { PubmatchError, truncateForMessage } from '@pubmatch/core'

/**
 * The error for an E-utility that answered (usually HTTP 200) with an error body, e.g.
 * ESearch `<ERROR>Invalid db name specified: fleegle</ERROR>`.
 * @param utility - the E-utility's name, e.g. `ESearch`
 * @param source - the request URL (without `api_key`) or file that was read
 * @param messages - the upstream error messages
 */
export function upstreamError(
  utility: string,
  source: string,
  messages: readonly string[],
): PubmatchError {
  const joined = messages.join('; ')
  return new PubmatchError(
    'UPSTREAM_ERROR',
    `${utility} returned an error for ${source}: "${truncateForMessage(joined)}"`,
    {
      details: {
        url: source,
        utility,
        upstreamMessages: [...messages],
        transient: isTransientUpstreamMessage(joined),
      },
    },
  )
}

/**
 * Whether an upstream error message describes a passing server-side condition rather than a
 * bad request, so that the request is worth retrying (e.g. ESearch's
 * `Search Backend failed: …` or `… temporarily unavailable`).
 * @param message - the upstream error message
 */
export function isTransientUpstreamMessage(message: string): boolean {
  return /backend failed|temporarily unavailable|please try again|service unavailable|internal server error/i.test(
    message,
  )
}
