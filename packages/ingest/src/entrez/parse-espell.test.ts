import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sharedDataPath } from '../testing/shared-data.ts'
import { parseESpell } from './parse-espell.ts'

const eutils = sharedDataPath('eutils')
const read = (file: string): string => readFileSync(join(eutils, file), 'utf8')

describe('parseESpell', () => {
  it('reads the corrected query of biopython espell', () => {
    expect(parseESpell(read('biopython/espell.xml'))).toEqual({
      database: 'pubmed',
      query: 'biopythooon',
      correctedQuery: 'biopython',
      changed: true,
      pieces: [{ kind: 'replaced', text: 'biopython' }],
    })
  })

  it('reports no change when ESpell has no suggestion', () => {
    const body =
      '<eSpellResult><Database>pubmed</Database><Query>cancer</Query><CorrectedQuery></CorrectedQuery><SpelledQuery/><ERROR/></eSpellResult>'
    expect(parseESpell(body)).toMatchObject({ correctedQuery: '', changed: false, pieces: [] })
  })
})
