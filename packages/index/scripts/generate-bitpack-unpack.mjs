// Writes src/codec/bitpack-unpack.ts, the bit-packing decoder's unpack routine per bit width, from
// src/codec/bitpack-unpack-source.ts (built: run `pnpm build` first, then `pnpm generate` in this
// package, then build again). src/codec/bitpack-unpack.test.ts checks that the committed file is
// the generator's output.
import { writeFileAtomic } from '@pubmatch/core/node'
import { fileURLToPath } from 'node:url'
import { bitpackUnpackSource } from '../dist/codec/bitpack-unpack-source.js'

const target = fileURLToPath(new URL('../src/codec/bitpack-unpack.ts', import.meta.url))
await writeFileAtomic(target, bitpackUnpackSource())
process.stdout.write(`wrote ${target}\n`)
