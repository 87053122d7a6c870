import { PubmatchError, truncateForMessage } from '@pubmatch/core'
import { bitpackCodec } from './bitpack.ts'
import type { BlockCodec, CodecName } from './block-codec.ts'
import { vbyteCodec } from './vbyte.ts'

/**
 * The block codec with a given name.
 * @param name - `vbyte` or `bitpack`
 * @throws PubmatchError `INDEX_CORRUPTED` for an unknown name (a manifest names the codec)
 */
export function codecByName(name: CodecName): BlockCodec {
  if (name === 'vbyte') {
    return vbyteCodec
  }
  if (name === 'bitpack') {
    return bitpackCodec
  }
  throw new PubmatchError('INDEX_CORRUPTED', `unknown block codec "${truncateForMessage(String(name))}"`)
}
