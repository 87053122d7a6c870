import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isPubmatchError } from '@pubmatch/core'
import { loadSectionModel, saveSectionModel } from './model.ts'
import type { SectionModel } from './scoring.ts'

// two monotone step functions, as PAV fits them
const MODEL: SectionModel = {
  prior: 0.25,
  sections: {
    TITLE: { xs: [0, 2, 5], ys: [0.1, 0.3, 0.8], points: 12, weight: 12, prior: 0.25 },
    ABSTRACT: { xs: [1], ys: [0.2], points: 4, weight: 4, prior: 0.2 },
  },
}

describe('saved section models', () => {
  let dir: string
  let file: string
  let good: Record<string, unknown>
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fulltext-model-'))
    file = join(dir, 'sections.json')
    await saveSectionModel(file, MODEL, { queries: 'hand-made' })
    good = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  /** Loads `value` written as the model file, expecting the code; the message with `<dir>`. */
  const refused = async (value: unknown, code: string): Promise<string> => {
    await writeFile(file, typeof value === 'string' ? value : JSON.stringify(value))
    const error = await loadSectionModel(file).catch((e: unknown) => e)
    expect(isPubmatchError(error) && error.code).toBe(code)
    return (error as Error).message.replace(dir, '<dir>')
  }

  it('reads back what was saved', async () => {
    await writeFile(file, JSON.stringify(good))
    const loaded = await loadSectionModel(file)
    expect(loaded).toMatchObject({ format: 'pubmatch-section-model/1', prior: 0.25, sections: MODEL.sections, training: { queries: 'hand-made' } })
  })

  it('refuses a file that is not JSON or not of a saved model’s shape, naming the file and the field', async () => {
    expect(await refused('{"format": ', 'UNSUPPORTED_FORMAT')).toMatchInlineSnapshot(`"<dir>/sections.json is not valid JSON (it ends too early): "{"format":""`)
    expect(await refused({ ...good, prior: 1 }, 'UNSUPPORTED_FORMAT')).toMatchInlineSnapshot(
      `"<dir>/sections.json: prior is 1, expected a number between 0 and 1 (both excluded)"`,
    )
    expect(await refused({ ...good, sections: { TITLE: { ...MODEL.sections.TITLE, ys: [0.1, '0.3', 0.8] } } }, 'UNSUPPORTED_FORMAT')).toMatchInlineSnapshot(
      `"<dir>/sections.json: sections.TITLE.ys[1] is "0.3", expected a number"`,
    )
  })

  it('refuses an unknown section type or a function that is not monotone as SCHEMA_MISMATCH', async () => {
    expect(await refused({ ...good, sections: { TITEL: MODEL.sections.TITLE } }, 'SCHEMA_MISMATCH')).toMatchInlineSnapshot(
      `"<dir>/sections.json: unknown section type "TITEL""`,
    )
    expect(await refused({ ...good, sections: { TITLE: { ...MODEL.sections.TITLE, ys: [0.3, 0.1, 0.8] } } }, 'SCHEMA_MISMATCH')).toMatchInlineSnapshot(
      `"<dir>/sections.json: TITLE is not a monotone PAV function ({xs increasing, ys non-decreasing, prior})"`,
    )
  })
})
