/**
 * The parser against real queries: the Boolean strategies of the CLEF eHealth TAR 2017
 * topics (PubMed and Ovid MEDLINE syntax; four of them committed in test/fixtures) and the
 * 1,000 PubMed log queries of NCBI's Best Match sample.
 */
import { PubmatchError } from '@pubmatch/core'
import { sharedDataPath } from '@pubmatch/core/testing'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import type { QueryNode, TermNode } from './ast.ts'
import type { PubmedField } from './fields.ts'
import { formatQuery } from './format.ts'
import { detectOvidSyntax } from './ovid.ts'
import { parseQuery } from './parse.ts'
import type { QueryProblem, QueryWarning } from './problems.ts'
import { isSimpleQuery } from './simple.ts'

/** Four CLEF TAR 2017 strategies committed with the tests (see their SOURCE.md). */
const committed = fileURLToPath(new URL('../../test/fixtures/clef-tar-2017/', import.meta.url))

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
const history = (index: number): QueryNode => ({ kind: 'history', index })

/** The problem of a query that fails, or `null` when it parses. */
const problemOf = (text: string): QueryProblem | null => {
  try {
    parseQuery(text)
    return null
  } catch (error) {
    if (error instanceof PubmatchError) {
      return error.details.problem as QueryProblem
    }
    throw error
  }
}

interface Strategy {
  /** `testing/10`, `training/55`. */
  readonly id: string
  /** The lines of the `Query:` section. */
  readonly lines: readonly string[]
}

/** The `Query:` section of a topic file. */
const queryLines = (path: string): string[] => {
  const lines = readFileSync(path, 'utf8').split('\n')
  const start = lines.findIndex((line) => line.startsWith('Query:'))
  const end = lines.findIndex((line) => line.startsWith('Pids:'))
  return lines.slice(start + 1, end)
}

/** The 50 strategies of the real data set, testing then training, each by topic number. */
const loadStrategies = (): Strategy[] => {
  const strategies: Strategy[] = []
  for (const [split, dir] of [
    ['testing', ['2017-TAR', 'testing', 'topics']],
    ['training', ['2017-TAR', 'training', 'topics_train']],
  ] as const) {
    const folder = sharedDataPath('clef-tar', ...dir)
    for (const name of readdirSync(folder).sort((a, b) => Number(a) - Number(b))) {
      strategies.push({ id: `${split}/${name}`, lines: queryLines(join(folder, name)) })
    }
  }
  return strategies
}

/** The committed strategies: testing/10, testing/18 (Ovid), testing/32 and training/55. */
const loadCommittedStrategies = (): Strategy[] =>
  ['testing-10', 'testing-18', 'testing-32', 'training-55'].map((file) => ({
    id: file.replace('-', '/'),
    lines: queryLines(join(committed, file)),
  }))

/**
 * The search statements of a PubMed-syntax strategy document: lines with a tag, a quote, an
 * upper-case operator or a history reference. A line that starts with an operator continues
 * the previous one. Other lines are headings ("2a", "1 Index test: …") or the authors'
 * lower-case combinations of block labels ("A. 1a and (2a or 3) and 2b not 5").
 */
const searchStatements = (lines: readonly string[]): string[] => {
  const joined: string[] = []
  for (const line of lines) {
    const previous = joined.length - 1
    if (/^\s*(?:AND|OR|NOT)\s/.test(line) && previous >= 0) {
      joined[previous] = `${joined[previous] ?? ''} ${line}`
    } else {
      joined.push(line)
    }
  }
  return joined.filter((line) => /[[\]"\u201C\u201D#]|\b(?:AND|OR|NOT)\b/.test(line))
}

describe('CLEF eHealth TAR 2017 search strategies (the four committed)', () => {
  let pubmed: Strategy[] = []
  let ovid: Strategy[] = []

  beforeAll(() => {
    const strategies = loadCommittedStrategies()
    pubmed = strategies.filter((strategy) => detectOvidSyntax(strategy.lines.join('\n')) === null)
    ovid = strategies.filter((strategy) => detectOvidSyntax(strategy.lines.join('\n')) !== null)
  })

  it('tells the three PubMed strategies from the Ovid one', () => {
    expect(pubmed.map((strategy) => strategy.id)).toEqual([
      'testing/10',
      'testing/32',
      'training/55',
    ])
    expect(ovid.map((strategy) => strategy.id)).toEqual(['testing/18'])
  })

  it('parses every PubMed search statement but the unmatched quote of topic 55, and round-trips them', () => {
    const statements = pubmed.flatMap((strategy) =>
      searchStatements(strategy.lines).map((text) => ({
        id: strategy.id,
        text,
        problem: problemOf(text),
      })),
    )
    expect(statements.filter((statement) => statement.problem !== null)).toEqual([
      { id: 'training/55', text: 'Serology"[MeSH]', problem: 'UNTERMINATED_QUOTE' },
    ])
    for (const { text, problem } of statements) {
      if (problem === null) {
        const node = parseQuery(text)
        expect(parseQuery(formatQuery(node))).toEqual(node)
      }
    }
  })

  it('recovers the topic-55 statement the way PubMed would run it', () => {
    const warnings: QueryWarning[] = []
    expect(
      parseQuery('Serology"[MeSH]', {
        recover: true,
        onWarning: (warning) => warnings.push(warning),
      }),
    ).toEqual(term('Serology', 'mh'))
    expect(warnings.map((warning) => warning.problem)).toEqual(['UNTERMINATED_QUOTE'])
  })

  it('rejects every Ovid strategy with QUERY_SYNTAX naming the first Ovid line', () => {
    for (const strategy of ovid) {
      let error: unknown
      try {
        parseQuery(strategy.lines.join('\n'), { source: `clef-tar ${strategy.id}` })
      } catch (caught) {
        error = caught
      }
      expect(error, strategy.id).toBeInstanceOf(PubmatchError)
      const { code, details, message } = error as PubmatchError
      expect(code).toBe('QUERY_SYNTAX')
      expect(details).toMatchObject({
        problem: 'OVID_SYNTAX',
        line: 1,
        record: `clef-tar ${strategy.id}`,
      })
      expect(message).toMatch(
        /looks like Ovid MEDLINE syntax, not PubMed \(.* on line 1\) at position \d+ in clef-tar /,
      )
    }
  })

  it('recognises every line of the Ovid strategy on its own', () => {
    const lines = ovid.flatMap((strategy) => strategy.lines.filter((line) => line.trim() !== ''))
    expect(lines).toHaveLength(5)
    expect(lines.filter((line) => detectOvidSyntax(line) === null)).toEqual([])
  })

  it('reads hand-checked statements of topic 10', () => {
    const [topic10] = pubmed
    const statements = searchStatements(topic10?.lines ?? [])
    expect(statements.find((line) => line.startsWith('diagnosis[sh] OR diagnosis'))).toBe(
      'diagnosis[sh] OR diagnosis[mesh:noexp]',
    )
    expect(parseQuery('diagnosis[sh] OR diagnosis[mesh:noexp]')).toEqual({
      kind: 'or',
      children: [term('diagnosis', 'sh'), term('diagnosis', 'mh', false, true)],
    })
    const exclusion = statements.find((line) => line.startsWith('((child[mesh]'))
    expect(parseQuery(exclusion ?? '')).toEqual({
      kind: 'or',
      children: [
        {
          kind: 'not',
          include: { kind: 'or', children: [term('child', 'mh'), term('infant', 'mh')] },
          exclude: { kind: 'or', children: [term('adult', 'mh'), term('adolescent', 'mh')] },
        },
        term('Review', 'pt'),
        term('case reports', 'pt'),
        { kind: 'not', include: term('animals', 'mh'), exclude: term('humans', 'mh') },
      ],
    })
  })

  it('reads the lower-case "or" of topic 32 as a word, as PubMed does', () => {
    const text = pubmed
      .find((strategy) => strategy.id === 'testing/32')
      ?.lines.find((line) => line.includes('[tiab]'))
    const node = parseQuery(text ?? '')
    // (((bile duct[tiab] or biliary[tiab] OR CBD[tiab]) AND (stone[tiab] OR …)) OR …) AND (…)
    expect(node.kind).toBe('and')
    const firstConcept = node.kind === 'and' ? node.children[0] : undefined
    const stoneGroup = firstConcept?.kind === 'or' ? firstConcept.children[0] : undefined
    expect(stoneGroup).toEqual({
      kind: 'and',
      children: [
        {
          kind: 'or',
          children: [
            { kind: 'and', children: [term('bile duct', 'tiab'), term('or biliary', 'tiab')] },
            term('CBD', 'tiab'),
          ],
        },
        {
          kind: 'or',
          children: [
            term('stone', 'tiab'),
            term('stones', 'tiab'),
            term('calculus', 'tiab'),
            term('calculi', 'tiab'),
          ],
        },
      ],
    })
  })

  it('reads history references in topic 55, and a bare 6 as a term', () => {
    expect(parseQuery('#1 OR #2 OR #3 OR #4 OR #5 OR 6')).toEqual({
      kind: 'or',
      children: [history(1), history(2), history(3), history(4), history(5), term('6')],
    })
    expect(
      searchStatements(pubmed.find((strategy) => strategy.id === 'training/55')?.lines ?? []),
    ).toContain('#1 OR #2 OR #3 OR #4 OR #5 OR 6')
  })
})

describe('CLEF eHealth TAR 2017 search strategies', { tags: ['real-data'] }, () => {
  let strategies: Strategy[] = []
  let pubmed: Strategy[] = []
  let ovid: Strategy[] = []

  beforeAll(() => {
    strategies = loadStrategies()
    pubmed = strategies.filter((strategy) => detectOvidSyntax(strategy.lines.join('\n')) === null)
    ovid = strategies.filter((strategy) => detectOvidSyntax(strategy.lines.join('\n')) !== null)
  })

  it('has 50 strategies: 10 in PubMed syntax, 40 in Ovid MEDLINE syntax', () => {
    expect(strategies).toHaveLength(50)
    expect(pubmed.map((strategy) => strategy.id)).toEqual([
      'testing/10',
      'testing/32',
      'training/6',
      'training/19',
      'training/28',
      'training/35',
      'training/37',
      'training/38',
      'training/44',
      'training/55',
    ])
    expect(ovid).toHaveLength(40)
  })

  it('parses 47 of the 48 PubMed search statements; the one failure is an unmatched quote in topic 55', () => {
    const statements = pubmed.flatMap((strategy) =>
      searchStatements(strategy.lines).map((text) => ({
        id: strategy.id,
        text,
        problem: problemOf(text),
      })),
    )
    expect(statements).toHaveLength(48)
    expect(statements.filter((statement) => statement.problem !== null)).toEqual([
      { id: 'training/55', text: 'Serology"[MeSH]', problem: 'UNTERMINATED_QUOTE' },
    ])
    for (const { text, problem } of statements) {
      if (problem === null) {
        const node = parseQuery(text)
        expect(parseQuery(formatQuery(node))).toEqual(node)
      }
    }
  })

  it('rejects each of the 40 Ovid strategies with QUERY_SYNTAX naming the first Ovid line', () => {
    for (const strategy of ovid) {
      let error: unknown
      try {
        parseQuery(strategy.lines.join('\n'), { source: `clef-tar ${strategy.id}` })
      } catch (caught) {
        error = caught
      }
      expect(error, strategy.id).toBeInstanceOf(PubmatchError)
      const { code, details, message } = error as PubmatchError
      expect(code).toBe('QUERY_SYNTAX')
      expect(details).toMatchObject({
        problem: 'OVID_SYNTAX',
        line: 1,
        record: `clef-tar ${strategy.id}`,
      })
      expect(message).toMatch(
        /looks like Ovid MEDLINE syntax, not PubMed \(.* on line 1\) at position \d+ in clef-tar /,
      )
    }
  })

  it('recognises 1,338 of the 1,339 Ovid lines on their own; "7 AND 26" is also valid PubMed text', () => {
    const lines = ovid.flatMap((strategy) => strategy.lines.filter((line) => line.trim() !== ''))
    expect(lines).toHaveLength(1339)
    const missed = lines.filter((line) => detectOvidSyntax(line) === null)
    expect(missed).toEqual(['7 AND 26'])
    expect(parseQuery('7 AND 26')).toEqual({ kind: 'and', children: [term('7'), term('26')] })
  })
})

describe('PubMed Best Match log queries', { tags: ['real-data'] }, () => {
  let queries: { id: string; text: string }[] = []
  let byId = new Map<string, string>()
  const query = (id: string): string => byId.get(id) ?? ''

  beforeAll(() => {
    queries = readFileSync(
      sharedDataPath('pubmed-best-match', 'data', 'queries', 'queries.txt'),
      'utf8',
    )
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => ({
        id: line.slice(0, line.indexOf('|')),
        text: line.slice(line.indexOf('|') + 1),
      }))
    byId = new Map(queries.map((q) => [q.id, q.text]))
  })

  it('parses 997 of the 1,000 queries strictly; the 3 others are user typos', () => {
    expect(queries).toHaveLength(1000)
    const failures = queries
      .map(({ id, text }) => ({ id, problem: problemOf(text) }))
      .filter((result) => result.problem !== null)
    expect(failures).toEqual([
      { id: 'qid0361', problem: 'UNTERMINATED_QUOTE' }, // "cytomegalievirus diagnosis in renal and bone
      { id: 'qid0378', problem: 'MISPLACED_FIELD_TAG' }, // parkinson [ti] OR [au]
      { id: 'qid0617', problem: 'UNBALANCED_PARENTHESIS' }, //  dtxR(E175K
      // "therapeutic listening"[tm] parses: the unknown tag is dropped with a warning
    ])
  })

  it('parses all 1,000 with recover, with one or two warnings for each of the 4', () => {
    const warned: Record<string, QueryProblem[]> = {}
    for (const { id, text } of queries) {
      parseQuery(text, {
        recover: true,
        onWarning: (warning) => {
          warned[id] = [...(warned[id] ?? []), warning.problem]
        },
      })
    }
    expect(warned).toEqual({
      qid0361: ['UNTERMINATED_QUOTE'],
      qid0378: ['MISPLACED_FIELD_TAG', 'MISSING_OPERAND'],
      qid0617: ['UNBALANCED_PARENTHESIS'],
      qid0859: ['UNKNOWN_FIELD'],
    })
  })

  it('recovers the 3 malformed queries into what PubMed runs: the rest of the query, with a warning', () => {
    const recovered = (id: string): { query: string; problems: QueryProblem[] } => {
      const problems: QueryProblem[] = []
      const node = parseQuery(query(id), {
        recover: true,
        onWarning: (warning) => problems.push(warning.problem),
      })
      return { query: formatQuery(node), problems }
    }
    // the quote that is never closed is ignored and the words are searched as typed
    expect(recovered('qid0361')).toEqual({
      query: 'cytomegalievirus diagnosis in renal and bone',
      problems: ['UNTERMINATED_QUOTE'],
    })
    // a tag with no term and the operator left dangling by it are dropped
    expect(recovered('qid0378')).toEqual({
      query: 'parkinson[ti]',
      problems: ['MISPLACED_FIELD_TAG', 'MISSING_OPERAND'],
    })
    // the "(" is closed at the end. PubMed ran this query: NCBI's sample holds its 7 results
    // (data/results/qid0617.txt), which an error would not have had
    expect(recovered('qid0617')).toEqual({
      query: 'dtxR AND E175K',
      problems: ['UNBALANCED_PARENTHESIS'],
    })
    expect(
      readFileSync(sharedDataPath('pubmed-best-match', 'data', 'results', 'qid0617.txt'), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(7)
  })

  it('round-trips every query that parses', () => {
    for (const { text } of queries) {
      if (problemOf(text) === null) {
        const node = parseQuery(text)
        expect(parseQuery(formatQuery(node)), text).toEqual(node)
      }
    }
  })

  it('classifies 786 queries as simple', () => {
    expect(queries.filter(({ text }) => isSimpleQuery(text))).toHaveLength(786)
    expect(isSimpleQuery(query('qid0000'))).toBe(true) // ultrasound and chronic pancreatitis
    expect(isSimpleQuery(query('qid0186'))).toBe(false) // epithelial testosterone* prolif*
  })

  it('reads hand-checked queries', () => {
    // mammaplasty[majr] AND english[la] AND humans[mh] AND (consumerj[sb] OR review[pt] OR …)
    expect(parseQuery(query('qid0322'))).toEqual({
      kind: 'and',
      children: [
        term('mammaplasty', 'majr'),
        term('english', 'la'),
        term('humans', 'mh'),
        {
          kind: 'or',
          children: [
            term('consumerj', 'filter'),
            term('review', 'pt'),
            term('practice guideline', 'pt'),
            term('guideline', 'pt'),
            term('clinical trial', 'pt'),
            term('patient education handout', 'pt'),
          ],
        },
      ],
    })
    // exercise training AND 2003[PDat] : 2005[PDat] AND Review [ Publication Type]
    expect(parseQuery(query('qid0748'))).toEqual({
      kind: 'and',
      children: [
        term('exercise training'),
        { kind: 'range', field: 'dp', from: '2003', to: '2005' },
        term('Review', 'pt'),
      ],
    })
    // patient advocacy[majr] NOT letter[ptyp] AND humans[mh] AND english[la]: left to right
    expect(formatQuery(parseQuery(query('qid0703')))).toBe(
      '(patient advocacy[majr] NOT letter[pt]) AND humans[mh] AND english[la]',
    )
    // ((vitamin* ) )  AND (2005/09/05:2005/10/05[dp] OR 2005/09/05:2005/10/05[edat])
    expect(formatQuery(parseQuery(query('qid0514')))).toBe(
      'vitamin* AND (2005/09/05:2005/10/05[dp] OR 2005/09/05:2005/10/05[edat])',
    )
    // lau kw [au]and 15247232, 15964822, 12702559 [uid]: lower-case "and" is a word of the [uid] run
    expect(parseQuery(query('qid0189'))).toEqual({
      kind: 'and',
      children: [term('lau kw', 'au'), term('and 15247232, 15964822, 12702559', 'pmid')],
    })
    // #8 AND bell*
    expect(parseQuery(query('qid0021'))).toEqual({
      kind: 'and',
      children: [history(8), term('bell*')],
    })
    // Endoscopy[Jour] AND A237[page]
    expect(parseQuery(query('qid0004'))).toEqual({
      kind: 'and',
      children: [term('Endoscopy', 'ta'), term('A237', 'pg')],
    })
  })
})
