import { parseJson, type JsonShape } from '@pubmatch/core'

/**
 * What a benchmark case run in a child process reports: the JSON object on the last non-empty
 * line of its standard output (whatever it logged before), checked against its shape. Anything
 * after that line (a traceback) makes it fail.
 * @param stdout - the process's whole standard output
 * @param shape - the shape of its result
 * @param what - names the process in messages (`case build nfcorpus`)
 * @throws PubmatchError `MALFORMED_JSON` naming the process when the last line is not JSON or not of the shape
 */
export function lastJsonLine<T>(stdout: string, shape: JsonShape<T>, what: string): T {
  const last = stdout.trimEnd().split('\n').at(-1) ?? ''
  return parseJson(last, shape, { file: `the last line of ${what}` })
}
