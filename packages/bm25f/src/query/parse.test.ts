import { PubmatchError, isPubmatchError } from '@pubmatch/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { QueryNode, TermNode } from './ast.ts'
import type { PubmedField } from './fields.ts'
import { parseQuery, type ParseQueryOptions } from './parse.ts'
import type { QueryWarning } from './problems.ts'

const term = (
  text: string,
  field: PubmedField | null = null,
  quoted = false,
  noExplode = false,
): TermNode => ({
  kind: 'term',
  text,
  quoted,
  field,
  noExplode,
  wildcard: text.includes('*'),
})
const and = (...children: QueryNode[]): QueryNode => ({ kind: 'and', children })
const or = (...children: QueryNode[]): QueryNode => ({ kind: 'or', children })
const not = (include: QueryNode, exclude: QueryNode): QueryNode => ({
  kind: 'not',
  include,
  exclude,
})

/** The error `parseQuery` throws for `text`. */
const failure = (text: string, options: ParseQueryOptions = {}): PubmatchError => {
  try {
    parseQuery(text, options)
  } catch (error) {
    if (error instanceof PubmatchError) {
      return error
    }
    throw error
  }
  throw new Error(`expected ${JSON.stringify(text)} to fail`)
}

/** Parses with `recover: true` and returns the tree and the warnings. */
const recovered = (text: string): { node: QueryNode; warnings: QueryWarning[] } => {
  const warnings: QueryWarning[] = []
  const node = parseQuery(text, { recover: true, onWarning: (warning) => warnings.push(warning) })
  return { node, warnings }
}

describe('parseQuery', () => {
  describe('terms and implicit AND', () => {
    it('keeps a run of bare words between operators as one untagged term', () => {
      expect(parseQuery('estrogen receptor alpha, gene regulation')).toEqual(
        term('estrogen receptor alpha, gene regulation'),
      )
    })

    it('collapses whitespace, newlines included', () => {
      expect(parseQuery('  heart \n\t attack  ')).toEqual(term('heart attack'))
    })

    it('ANDs adjacent items that no operator joins', () => {
      expect(parseQuery('"Wrana JL"[Author] smurf1')).toEqual(
        and(term('Wrana JL', 'au', true), term('smurf1')),
      )
      expect(parseQuery('oger[au] venous')).toEqual(and(term('oger', 'au'), term('venous')))
    })

    it('treats lower-case and/or/not as words, as PubMed does (wit and humor[mh])', () => {
      expect(parseQuery('wit and humor[mh]')).toEqual(term('wit and humor', 'mh'))
      expect(parseQuery('cancer or tumour not benign')).toEqual(term('cancer or tumour not benign'))
      expect(parseQuery('Cancer And Tumour')).toEqual(term('Cancer And Tumour'))
    })

    it('recognises operators glued to parentheses', () => {
      expect(parseQuery('(1999)AND(Rimm)AND(meta-analysis)')).toEqual(
        and(term('1999'), term('Rimm'), term('meta-analysis')),
      )
    })

    it('reads a colon inside a word or outside a range as text', () => {
      expect(parseQuery('Diseases of unstable repeat expansion: Mechanisms')).toEqual(
        term('Diseases of unstable repeat expansion: Mechanisms'),
      )
      expect(parseQuery('a : b')).toEqual(term('a : b'))
    })
  })

  describe('Boolean operators', () => {
    it('evaluates left to right, not AND before OR', () => {
      expect(parseQuery('a OR b AND c')).toEqual(and(or(term('a'), term('b')), term('c')))
      expect(parseQuery('a AND b OR c')).toEqual(or(and(term('a'), term('b')), term('c')))
      expect(parseQuery('a NOT b OR c')).toEqual(or(not(term('a'), term('b')), term('c')))
    })

    it('treats NOT as binary and left-associative', () => {
      expect(parseQuery('a NOT b NOT c')).toEqual(not(not(term('a'), term('b')), term('c')))
      expect(parseQuery('a NOT (b NOT c)')).toEqual(not(term('a'), not(term('b'), term('c'))))
    })

    it('groups with parentheses', () => {
      expect(parseQuery('a OR (b AND c)')).toEqual(or(term('a'), and(term('b'), term('c'))))
      expect(parseQuery('(((a)))')).toEqual(term('a'))
    })

    it('flattens chains of the same operator, whatever the parentheses', () => {
      expect(parseQuery('a AND b AND c')).toEqual(and(term('a'), term('b'), term('c')))
      expect(parseQuery('(a OR b) OR (c OR d)')).toEqual(
        or(term('a'), term('b'), term('c'), term('d')),
      )
      expect(parseQuery('a AND (b AND c) d')).toEqual(
        and(term('a'), term('b'), term('c'), term('d')),
      )
    })

    it('gives implicit AND the same left-to-right precedence', () => {
      expect(parseQuery('a OR "b" c')).toEqual(and(or(term('a'), term('b', null, true)), term('c')))
    })
  })

  describe('phrases', () => {
    it('reads straight and curly quotes, in any pairing', () => {
      expect(parseQuery('"back pain"')).toEqual(term('back pain', null, true))
      expect(parseQuery('\u201CReflex, stretch\u201D[mesh]')).toEqual(
        term('Reflex, stretch', 'mh', true),
      )
      expect(parseQuery('\u201CAspergillus"[MeSH]')).toEqual(term('Aspergillus', 'mh', true))
    })

    it('trims and collapses the inside of quotes', () => {
      expect(parseQuery('"Common Bile Duct Calculi "[MESH]')).toEqual(
        term('Common Bile Duct Calculi', 'mh', true),
      )
    })

    it('keeps brackets, slashes and operators inside quotes as text', () => {
      expect(parseQuery('"insulin/history"[All Fields]')).toEqual(
        term('insulin/history', 'all', true),
      )
      expect(parseQuery('"a AND (b)"')).toEqual(term('a AND (b)', null, true))
    })
  })

  describe('field tags', () => {
    it.each([
      ['[ti]', 'ti'],
      ['[ab]', 'ab'],
      ['[tiab]', 'tiab'],
      ['[Title/Abstract]', 'tiab'],
      ['[mh]', 'mh'],
      ['[mesh]', 'mh'],
      ['[MeSH Terms]', 'mh'],
      ['[mesh terms]', 'mh'],
      ['[majr]', 'majr'],
      ['[sh]', 'sh'],
      ['[au]', 'au'],
      ['[Author]', 'au'],
      ['[1au]', '1au'],
      ['[lastau]', 'lastau'],
      ['[ta]', 'ta'],
      ['[jour]', 'ta'],
      ['[Journal]', 'ta'],
      ['[pt]', 'pt'],
      ['[Publication Type]', 'pt'],
      ['[ Publication Type]', 'pt'],
      ['[ptyp]', 'pt'],
      ['[la]', 'la'],
      ['[Language]', 'la'],
      ['[dp]', 'dp'],
      ['[pdat]', 'dp'],
      ['[Date - Publication]', 'dp'],
      ['[tw]', 'tw'],
      ['[Text Word]', 'tw'],
      ['[all]', 'all'],
      ['[pmid]', 'pmid'],
      ['[uid]', 'pmid'],
      ['[TIAB]', 'tiab'],
    ] as const)('reads %s as [%s]', (tag, field) => {
      expect(parseQuery(`x${tag}`)).toEqual(term('x', field))
    })

    it('applies a tag to the whole run of words before it, which PubMed searches as a phrase', () => {
      expect(parseQuery('heart attack[tiab] therapy')).toEqual(
        and(term('heart attack', 'tiab'), term('therapy')),
      )
      expect(parseQuery('antiphopholipid syndrome [mesh] review [pt] english [la]')).toEqual(
        and(term('antiphopholipid syndrome', 'mh'), term('review', 'pt'), term('english', 'la')),
      )
    })

    it('reads :noexp on MeSH fields', () => {
      expect(parseQuery('Rupture [mh:noexp]')).toEqual(term('Rupture', 'mh', false, true))
      expect(parseQuery('diagnosis[MESH:NOEXP]')).toEqual(term('diagnosis', 'mh', false, true))
      expect(parseQuery('x[majr:noexp] y[sh:noexp]')).toEqual(
        and(term('x', 'majr', false, true), term('y', 'sh', false, true)),
      )
    })

    it('searches a term with an unknown tag untagged, with an UNKNOWN_FIELD warning at "["', () => {
      // as NCBI's ESearch does: the term in all fields, the tag in its ErrorList (FieldNotFound)
      const warnings: QueryWarning[] = []
      const node = parseQuery('"therapeutic listening"[tm]', { onWarning: (w) => warnings.push(w) })
      expect(node).toEqual(term('therapeutic listening', null, true))
      expect(warnings).toEqual([
        {
          problem: 'UNKNOWN_FIELD',
          message: 'unknown field tag [tm] was ignored: the term is searched in all fields, as PubMed does',
          position: 23,
        },
      ])
    })

    it('rejects a tag with no term before it, after ")" or after another tag', () => {
      expect(failure('parkinson [ti] OR [au]').details).toMatchObject({
        position: 18,
        problem: 'MISPLACED_FIELD_TAG',
      })
      expect(failure('(a OR b)[tiab]').details).toMatchObject({
        position: 8,
        problem: 'MISPLACED_FIELD_TAG',
      })
      expect(failure('a[ti][ab]').details).toMatchObject({
        position: 5,
        problem: 'MISPLACED_FIELD_TAG',
      })
      expect(failure('#3[ti]').details).toMatchObject({
        position: 2,
        problem: 'MISPLACED_FIELD_TAG',
      })
    })

    it('rejects :noexp outside MeSH fields and unknown suffixes', () => {
      expect(failure('x[tiab:noexp]').details).toMatchObject({
        position: 6,
        problem: 'BAD_FIELD_MODIFIER',
      })
      expect(failure('x[mh:exp]').message).toMatchInlineSnapshot(`
        "unknown field tag suffix ":exp" (PubMed has ":noexp" and ":~N") at position 4
          x[mh:exp]
              ^"
      `)
    })
  })

  describe('date ranges', () => {
    it('reads year, full-date and quoted forms', () => {
      expect(parseQuery('2015:2020[dp]')).toEqual({
        kind: 'range',
        field: 'dp',
        from: '2015',
        to: '2020',
      })
      expect(parseQuery('2015/01/01:2020/12/31[dp]')).toEqual({
        kind: 'range',
        field: 'dp',
        from: '2015/01/01',
        to: '2020/12/31',
      })
      expect(parseQuery('2015 : 2020[dp]')).toEqual({
        kind: 'range',
        field: 'dp',
        from: '2015',
        to: '2020',
      })
      expect(parseQuery('"2015"[dp] : "2020"[dp]')).toEqual({
        kind: 'range',
        field: 'dp',
        from: '2015',
        to: '2020',
      })
      expect(parseQuery('2003[PDat]:2005[Date - Publication]')).toEqual({
        kind: 'range',
        field: 'dp',
        from: '2003',
        to: '2005',
      })
    })

    it('accepts other date fields and PubMed idioms such as 00 months and 3000', () => {
      expect(parseQuery('2005/09/05:2005/10/05[edat]')).toEqual({
        kind: 'range',
        field: 'edat',
        from: '2005/09/05',
        to: '2005/10/05',
      })
      expect(parseQuery('2002/00/00:3000[dp]')).toEqual({
        kind: 'range',
        field: 'dp',
        from: '2002/00/00',
        to: '3000',
      })
    })

    it('keeps single dates, relative dates and non-date fields as terms', () => {
      expect(parseQuery('2001[pdat]')).toEqual(term('2001', 'dp'))
      expect(parseQuery('"last 5 years"[dp]')).toEqual(term('last 5 years', 'dp', true))
      expect(parseQuery('100:200[pg]')).toEqual(term('100:200', 'pg'))
    })

    it('does not join tagged dates of different fields', () => {
      expect(parseQuery('2003[dp] : 2005[edat]')).toEqual(
        and(term('2003', 'dp'), term(': 2005', 'edat')),
      )
    })
  })

  describe('wildcards', () => {
    it('accepts 4 or more characters before the first "*", in words, phrases and tagged runs', () => {
      expect(parseQuery('colo*')).toEqual(term('colo*'))
      expect(parseQuery('organi*ation*')).toEqual(term('organi*ation*'))
      expect(parseQuery('"colo* cancer*"')).toEqual(term('colo* cancer*', null, true))
      expect(parseQuery('breast feed*[tiab]')).toEqual(term('breast feed*', 'tiab'))
    })

    it('rejects fewer than 4 characters before "*" at the position of the "*"', () => {
      const error = failure('lung ca*')
      expect(error.code).toBe('QUERY_SYNTAX')
      expect(error.details).toMatchObject({ position: 7, problem: 'SHORT_WILDCARD' })
      expect(failure('"breast ca* screening"').details.position).toBe(10)
      expect(failure('*').details.position).toBe(0)
    })

    it('takes the minimum from the options', () => {
      expect(parseQuery('ca*', { minWildcardPrefix: 2 })).toEqual(term('ca*'))
      expect(failure('colo*', { minWildcardPrefix: 5 }).details.problem).toBe('SHORT_WILDCARD')
    })
  })

  describe('proximity', () => {
    it('reads "a b"[field:~N] for title, title/abstract, abstract and affiliation', () => {
      expect(parseQuery('"hip pain"[tiab:~2]')).toEqual({
        kind: 'proximity',
        text: 'hip pain',
        field: 'tiab',
        distance: 2,
      })
      expect(parseQuery('"drug addiction methadone"[Title/Abstract:~3]')).toEqual({
        kind: 'proximity',
        text: 'drug addiction methadone',
        field: 'tiab',
        distance: 3,
      })
      expect(parseQuery('"a b"[ti:~0]')).toEqual({
        kind: 'proximity',
        text: 'a b',
        field: 'ti',
        distance: 0,
      })
    })

    it('rejects unquoted, one-word and wrong-field proximity searches', () => {
      expect(failure('hip pain[tiab:~2]').details.problem).toBe('BAD_PROXIMITY')
      expect(failure('"hip"[tiab:~2]').details.problem).toBe('BAD_PROXIMITY')
      expect(failure('"hip pain"[mh:~2]').message).toMatchInlineSnapshot(`
        "proximity search needs [ti], [tiab], [ab] or [ad], not [mh] at position 10
          "hip pain"[mh:~2]
                    ^"
      `)
    })
  })

  describe('history references', () => {
    it('reads #N anywhere a term may stand', () => {
      expect(parseQuery('#8 AND bell*')).toEqual(and({ kind: 'history', index: 8 }, term('bell*')))
      expect(parseQuery('(((#7)) OR (#6)) OR (#9)')).toEqual(
        or(
          { kind: 'history', index: 7 },
          { kind: 'history', index: 6 },
          { kind: 'history', index: 9 },
        ),
      )
    })

    it('rejects #0', () => {
      expect(failure('#0').details.problem).toBe('BAD_HISTORY_REFERENCE')
    })
  })

  describe('errors', () => {
    it('reports an unclosed "(" at its position, with a caret excerpt', () => {
      const error = failure('dtxR(E175K')
      expect(error.code).toBe('QUERY_SYNTAX')
      expect(error.details).toEqual({ position: 4, problem: 'UNBALANCED_PARENTHESIS' })
      expect(error.message).toMatchInlineSnapshot(`
        ""(" is never closed with ")" at position 4
          dtxR(E175K
              ^"
      `)
    })

    it('reports a stray ")", a stray "]" and an unclosed "["', () => {
      expect(failure('a) OR b').details).toEqual({ position: 1, problem: 'UNBALANCED_PARENTHESIS' })
      expect(failure('a] b').details).toEqual({ position: 1, problem: 'UNEXPECTED_BRACKET' })
      expect(failure('a[ti OR b').details).toEqual({ position: 1, problem: 'UNTERMINATED_TAG' })
    })

    it('reports an unclosed quote', () => {
      expect(failure('"cytomegalievirus diagnosis in renal').message).toMatchInlineSnapshot(`
        "quote is never closed: "\\"cytomegalievirus diagnosis in renal" at position 0
          "cytomegalievirus diagnosis in renal
          ^"
      `)
    })

    it('reports operators with a missing operand', () => {
      expect(failure('AND cancer').details).toEqual({ position: 0, problem: 'MISSING_OPERAND' })
      expect(failure('cancer OR').details).toEqual({ position: 7, problem: 'MISSING_OPERAND' })
      expect(failure('a AND NOT b').details).toEqual({ position: 6, problem: 'MISSING_OPERAND' })
      expect(failure('(a OR) b').details).toEqual({ position: 3, problem: 'MISSING_OPERAND' })
    })

    it('reports empty queries, quotes and groups', () => {
      expect(failure('   ').details).toEqual({ position: 0, problem: 'EMPTY_QUERY' })
      expect(failure('a ""').details).toEqual({ position: 2, problem: 'EMPTY_PHRASE' })
      expect(failure('a () b').details).toEqual({ position: 2, problem: 'EMPTY_GROUP' })
    })

    it('refuses nesting deeper than maxDepth instead of overflowing the stack', () => {
      expect(failure(`${'('.repeat(101)}a${')'.repeat(101)}`).details).toEqual({
        position: 100,
        problem: 'TOO_DEEP',
      })
      expect(parseQuery(`${'('.repeat(100)}a${')'.repeat(100)}`)).toEqual(term('a'))
      expect(failure(`${'('.repeat(100_000)}a`, { recover: true }).details.problem).toBe('TOO_DEEP')
      expect(failure('a NOT b NOT c NOT d', { maxDepth: 3 }).details).toEqual({
        position: 14,
        problem: 'TOO_DEEP',
      })
      expect(parseQuery('a NOT b NOT c', { maxDepth: 3 })).toEqual(
        not(not(term('a'), term('b')), term('c')),
      )
      // Flattened chains do not nest: depth 2 whatever their length.
      expect(parseQuery(`a${' OR a'.repeat(10_000)}`, { maxDepth: 2 }).kind).toBe('or')
      expect(failure(`a${' NOT a'.repeat(10_000)}`).details.problem).toBe('TOO_DEEP')
    })

    it('names the source in the message and in details.record', () => {
      const error = failure('a OR', { source: 'qid0001' })
      expect(error.details).toEqual({ position: 2, problem: 'MISSING_OPERAND', record: 'qid0001' })
      expect(error.message).toMatchInlineSnapshot(`
        "OR has no search term after it at position 2 in qid0001
          a OR
            ^"
      `)
    })

    it('shows a window of a long line around the position, never more than ~100 characters', () => {
      const text = `${'alpha '.repeat(40)}) ${'omega '.repeat(40)}`
      const error = failure(text)
      expect(error.details.position).toBe(240)
      const excerpt = error.message.split('\n').slice(1)
      expect(excerpt[0]).toMatchInlineSnapshot(
        `"  …alpha alpha alpha alpha alpha alpha alpha alpha ) omega omega omega omega omega omega omega omeg…"`,
      )
      expect(excerpt[1]?.indexOf('^')).toBe(excerpt[0]?.indexOf(')'))
      expect(excerpt[0]!.length).toBeLessThanOrEqual(2 + 2 + 96)
    })

    it('rejects Ovid MEDLINE text, naming the line', () => {
      const error = failure('exp Glaucoma/\nglaucoma$.tw.\n1 or 2')
      expect(error.code).toBe('QUERY_SYNTAX')
      expect(error.details).toEqual({
        position: 12,
        problem: 'OVID_SYNTAX',
        line: 1,
        signal: 'subject-heading',
      })
      expect(error.message).toMatchInlineSnapshot(`
        "query looks like Ovid MEDLINE syntax, not PubMed (subject heading "Glaucoma/" on line 1) at position 12
          exp Glaucoma/
                      ^"
      `)
      expect(failure('(optic adj2 nerve$ adj2 head).tw.', { recover: true }).details.problem).toBe(
        'OVID_SYNTAX',
      )
    })

    it('parses Ovid-looking text as PubMed when detection is off', () => {
      expect(parseQuery('1 or 2', { detectOvid: false })).toEqual(term('1 or 2'))
    })

    it('throws only PubmatchErrors, whatever the input', () => {
      const alphabet = fc.constantFrom(
        ...'ab c*"\u201C()[]:#1 AND OR NOT ti] [tiab [mh:noexp] [tiab:~2] 2015:2020[dp] / .tw. adj3 \n'.split(
          '',
        ),
        ' AND ',
        ' OR ',
        ' NOT ',
        '[tiab]',
        '[dp]',
        '[xx]',
        '[ti:~3]',
        '#12',
        '"a b"',
      )
      fc.assert(
        fc.property(fc.array(alphabet, { maxLength: 30 }), fc.boolean(), (parts, recover) => {
          try {
            parseQuery(parts.join(''), { recover })
          } catch (error) {
            expect(isPubmatchError(error)).toBe(true)
            if (recover) {
              expect(['EMPTY_QUERY', 'OVID_SYNTAX', 'TOO_DEEP']).toContain(
                (error as PubmatchError).details.problem,
              )
            }
          }
        }),
        { numRuns: 2000 },
      )
    })
  })

  describe('recover', () => {
    it('drops an unmatched quote and reports it', () => {
      expect(recovered('"cytomegalievirus diagnosis in renal and bone')).toEqual({
        node: term('cytomegalievirus diagnosis in renal and bone'),
        warnings: [
          {
            problem: 'UNTERMINATED_QUOTE',
            message: 'quote is never closed: "\\"cytomegalievirus diagnosis in renal an…"',
            position: 0,
          },
        ],
      })
    })

    it('closes an unclosed "(" at the end and drops a stray ")"', () => {
      expect(recovered('dtxR(E175K').node).toEqual(and(term('dtxR'), term('E175K')))
      expect(recovered('a) OR b').node).toEqual(or(term('a'), term('b')))
    })

    it('drops a misplaced tag and the operator left dangling', () => {
      const { node, warnings } = recovered('parkinson [ti] OR [au]')
      expect(node).toEqual(term('parkinson', 'ti'))
      expect(warnings.map((warning) => [warning.problem, warning.position])).toEqual([
        ['MISPLACED_FIELD_TAG', 18],
        ['MISSING_OPERAND', 15],
      ])
    })

    it('searches a term with an unknown tag untagged, as PubMed does', () => {
      const { node, warnings } = recovered('"therapeutic listening"[tm]')
      expect(node).toEqual(term('therapeutic listening', null, true))
      expect(warnings).toEqual([
        {
          problem: 'UNKNOWN_FIELD',
          message: 'unknown field tag [tm] was ignored: the term is searched in all fields, as PubMed does',
          position: 23,
        },
      ])
    })

    it('keeps the last of two operators in a row', () => {
      expect(recovered('a AND NOT b').node).toEqual(not(term('a'), term('b')))
    })

    it('removes a too-short wildcard, and drops a term that was only "*"', () => {
      expect(recovered('lung ca*').node).toEqual(term('lung ca'))
      expect(recovered('a AND * OR b').node).toEqual(or(term('a'), term('b')))
    })

    it('turns a malformed proximity search into a tagged term', () => {
      expect(recovered('hip pain[tiab:~2]').node).toEqual(term('hip pain', 'tiab'))
    })

    it('still rejects a query with nothing left', () => {
      expect(failure('[au] AND ()', { recover: true }).details.problem).toBe('EMPTY_QUERY')
    })
  })
})
