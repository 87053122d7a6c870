/**
 * The Java module's own self-check (`Bm25fSelfCheck`: every score of small in-memory indexes
 * against the BM25F formula, explain = score, norms, shard independence with served global
 * statistics), run from the test suite so that CI runs it.
 */
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { javaBuilt } from '../src/cluster.ts'

const target = fileURLToPath(new URL('../java/target/', import.meta.url))

describe.runIf(javaBuilt() || process.env.CI !== undefined)('Bm25fSelfCheck (Java)', () => {
  it('passes every check', async () => {
    const classpath = `${target}pubmatch-solr-0.1.0.jar:${readFileSync(`${target}classpath.txt`, 'utf8').trim()}`
    const { stdout } = await promisify(execFile)('java', ['-cp', classpath, 'org.pubmatch.solr.Bm25fSelfCheck'], { maxBuffer: 1 << 24 })
    // a failed check exits non-zero (execFile rejects); the last line says so too
    expect(stdout).toMatch(/Bm25fSelfCheck: all checks passed\s*$/)
  })
})
