import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isPubmatchError } from '@pubmatch/core'
import { openCorpus } from '@pubmatch/ingest'
import { buildIndex, defaultNumericDocValues, defaultPubmedFields } from '@pubmatch/index'
import { samplePath } from '@pubmatch/sample-data'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ingest } from '../test/sample.ts'
import { openSearch } from './search-engine.ts'
import { readIndexSettings, writeIndexSettings } from './settings.ts'
import { updateIndex } from './update-index.ts'

describe('an index built before the PubMed tag-only fields existed (bundled sample)', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'engine-old-index-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('is searched with a warning for the new tags, refuses an update with a typed error, and a rebuild adds them', async () => {
    const corpus = join(dir, 'corpus')
    const index = join(dir, 'index')
    await ingest(corpus, [samplePath('pubmed', 'medsamp2006.xml')])
    await updateIndex({ corpus, index })
    const settings = await readIndexSettings(index)
    // the same corpus indexed with the 11 fields and 15 numeric doc values of earlier versions
    const store = await openCorpus(corpus, { readOnly: true })
    await rm(index, { recursive: true })
    await buildIndex(store.articles(), index, {
      fields: defaultPubmedFields().slice(0, 11),
      numericDocValues: defaultNumericDocValues().slice(0, 15),
    })
    await store.close()
    await writeIndexSettings(index, settings)

    const old = await openSearch({ index })
    const result = old.search('18[vi]')
    expect(result.total).toBe(0)
    expect(result.warnings.map((w) => w.code)).toEqual(['FIELD_NOT_INDEXED'])
    expect(old.search('2002/09[dcom]').warnings.map((w) => w.code)).toEqual(['FIELD_NOT_INDEXED'])

    await ingest(corpus, [samplePath('pubmed', 'pmid_9500320.xml')])
    const error: unknown = await updateIndex({ corpus, index }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    )
    expect(isPubmatchError(error, 'SCHEMA_MISMATCH')).toBe(true)
    expect((error as Error).message).toMatch(
      /was built before this version of pubmatch indexed affiliation, .*; rebuild it \(`pubmatch index --rebuild`\)/,
    )

    await updateIndex({ corpus, index, rebuild: true })
    const rebuilt = await openSearch({ index })
    // JournalIssue/Volume 18 in medsamp2006.xml: 11524736, 11748851, 11748856
    const found = rebuilt.search('18[vi]', { limit: 10 })
    expect(found.hits.map((hit) => hit.id).sort()).toEqual(['11524736', '11748851', '11748856'])
    expect(found.warnings).toEqual([])
  })
})
