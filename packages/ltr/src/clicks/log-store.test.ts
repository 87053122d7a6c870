import { appendFile, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isPubmatchError } from '@pubmatch/core'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { formatLogEvent, type ActionEvent, type LogEvent, type SearchEvent } from './log-format.ts'
import { createLogStore } from './log-store.ts'

function search(n: number): SearchEvent {
  return {
    type: 'search',
    id: `s${n}`,
    time: '2026-01-05T10:00:00.000Z',
    session: `u${n}`,
    query: `query ${n}`,
    filters: [],
    total: 40,
    results: [
      { position: 1, id: `d${n}a` },
      { position: 2, id: `d${n}b` },
    ],
  }
}
function click(n: number): ActionEvent {
  return {
    type: 'action',
    time: '2026-01-05T10:00:05.000Z',
    session: `u${n}`,
    search: `s${n}`,
    id: `d${n}b`,
    position: 2,
    kind: 'abstract_click',
  }
}

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pubmatch-log-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('createLogStore', () => {
  it('appends batches and streams them back in order', async () => {
    const store = createLogStore(join(dir, 'log'))
    expect(await store.readAll()).toEqual({ events: [], problems: [] })
    const first: LogEvent[] = [search(1), click(1)]
    const second: LogEvent[] = [search(2), click(2), search(3)]
    await Promise.all([store.append(first), store.append(second)])
    await store.append([])
    await store.close()
    const files = await store.files()
    expect(files).toEqual([join(dir, 'log', 'log-000001.jsonl')])
    const text = await readFile(files[0]!, 'utf8')
    expect(text).toBe([...first, ...second].map((e) => `${formatLogEvent(e)}\n`).join(''))
    const streamed: LogEvent[] = []
    for await (const event of store.read()) {
      streamed.push(event)
    }
    expect(streamed).toEqual([...first, ...second])
    // A reopened store appends to the same file.
    const again = createLogStore(join(dir, 'log'))
    await again.append([click(3)])
    await again.close()
    expect((await again.readAll()).events).toEqual([...first, ...second, click(3)])
    expect(await again.files()).toHaveLength(1)
  })

  it('starts a new file when a batch would pass maxFileBytes, never splitting a batch', async () => {
    const lineBytes = formatLogEvent(search(1)).length + 1
    const store = createLogStore(dir, { maxFileBytes: lineBytes * 2 })
    await store.append([search(1)])
    await store.append([search(2)])
    await store.append([search(3), search(4), search(5)])
    await store.append([search(6)])
    await store.close()
    const files = await store.files()
    expect(files.map((f) => f.slice(dir.length + 1))).toEqual([
      'log-000001.jsonl',
      'log-000002.jsonl',
      'log-000003.jsonl',
    ])
    const lineCounts = await Promise.all(
      files.map(async (f) => (await readFile(f, 'utf8')).split('\n').length - 1),
    )
    expect(lineCounts).toEqual([2, 3, 1])
    expect((await store.readAll()).events.map((e) => (e as SearchEvent).id)).toEqual([
      's1',
      's2',
      's3',
      's4',
      's5',
      's6',
    ])
  })

  it('reports a partially written last line and bad lines, keeps the rest, and never appends after a partial line', async () => {
    const store = createLogStore(dir)
    await store.append([search(1), click(1)])
    await store.close()
    const path = join(dir, 'log-000001.jsonl')
    await appendFile(
      path,
      `this is not json\n${formatLogEvent(search(2))}\n${formatLogEvent(search(3)).slice(0, 40)}`,
    )
    const { events, problems } = await store.readAll()
    expect(events).toEqual([search(1), click(1), search(2)])
    expect(problems.map((p) => [p.file, p.line, p.error.code])).toEqual([
      [path, 3, 'MALFORMED_JSON'],
      [path, 5, 'TRUNCATED_INPUT'],
    ])
    expect(problems[0]!.error.message).toContain(`${path}:3`)

    const reopened = createLogStore(dir)
    await reopened.append([search(4)])
    await reopened.close()
    expect((await readdir(dir)).sort()).toEqual(['log-000001.jsonl', 'log-000002.jsonl'])
    const after = await reopened.readAll()
    expect(after.events).toEqual([search(1), click(1), search(2), search(4)])
    expect(after.problems).toHaveLength(2)
  })

  it('reads a complete last line even without a trailing newline only as truncated, and tolerates CRLF', async () => {
    await writeFile(
      join(dir, 'log-000001.jsonl'),
      `${formatLogEvent(search(1))}\r\n${formatLogEvent(search(2))}`,
    )
    const { events, problems } = await createLogStore(dir).readAll()
    expect(events).toEqual([search(1)])
    expect(problems.map((p) => [p.line, p.error.code])).toEqual([[2, 'TRUNCATED_INPUT']])
  })

  it('rejects an invalid event before writing anything', async () => {
    const store = createLogStore(dir)
    const bad = { ...click(1), position: 0 }
    const error: unknown = await store.append([search(1), bad]).catch((e: unknown) => e)
    expect(isPubmatchError(error, 'INVALID_ARGUMENT')).toBe(true)
    expect(String((error as Error).message)).toContain('record 1 of the batch')
    const shapeless = { type: 'search', id: 'x' } as unknown as LogEvent
    await expect(store.append([shapeless])).rejects.toThrow(/record 0 of the batch/)
    await store.append([search(2)])
    await store.close()
    expect((await store.readAll()).events).toEqual([search(2)])
    expect(() => createLogStore(dir, { maxFileBytes: 0 })).toThrow(/maxFileBytes/)
  })
})
