import { describe, expect, it } from 'vitest'
import { readEutilsFixture as read } from '../../test/eutils-fixtures.ts'
import { parseESpell } from './parse-espell.ts'

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
