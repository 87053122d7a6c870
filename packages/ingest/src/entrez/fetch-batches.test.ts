import { describe, expect, it } from 'vitest'
import { planBatches, runOrdered } from './fetch-batches.ts'

describe('planBatches', () => {
  it('cuts 604 ids into batches of 200: 200, 200, 200, 4', () => {
    const ids = Array.from({ length: 604 }, (_, i) => String(1000 + i))
    const batches = planBatches({ ids }, { rettype: 'abstract' })
    expect(batches.map((b) => [b.retstart, b.retmax])).toEqual([
      [0, 200],
      [200, 200],
      [400, 200],
      [600, 4],
    ])
    expect(batches[3]!.ids).toEqual(['1600', '1601', '1602', '1603'])
    expect(batches[0]!.params).toMatchObject({ db: 'pubmed', rettype: 'abstract', retmode: 'xml' })
    expect(batches.flatMap((b) => b.ids)).toEqual(ids)
  })

  it('pages a history set with retstart/retmax', () => {
    const batches = planBatches(
      { webEnv: 'W', queryKey: 1, count: 604, retstart: 4 },
      { batchSize: 250 },
    )
    expect(batches.map((b) => [b.params.retstart, b.params.retmax])).toEqual([
      [4, 250],
      [254, 250],
      [504, 100],
    ])
    expect(batches[0]!.params.history).toEqual({ webEnv: 'W', queryKey: 1 })
    expect(batches[0]!.ids).toBeUndefined()
  })

  it('rejects a batch size below 1', () => {
    expect(() => planBatches({ ids: ['1'] }, { batchSize: 0 })).toThrow(/positive integer/)
  })
})

describe('runOrdered', () => {
  it('yields results in task order even when later tasks finish first', async () => {
    const resolvers: Array<(value: number) => void> = []
    const tasks = [0, 1, 2, 3].map(
      () => () => new Promise<number>((resolve) => resolvers.push(resolve)),
    )
    const generator = runOrdered(tasks, 4)
    const first = generator.next()
    await new Promise((resolve) => setImmediate(resolve))
    expect(resolvers).toHaveLength(4) // all four started
    for (const i of [3, 2, 1, 0]) {
      resolvers[i]!(i) // finish in reverse order
    }
    const seen = [(await first).value]
    for await (const value of generator) {
      seen.push(value)
    }
    expect(seen).toEqual([0, 1, 2, 3])
  })

  it('keeps at most `concurrency` tasks in flight', async () => {
    let running = 0
    let peak = 0
    const tasks = Array.from({ length: 8 }, (_, i) => async () => {
      running += 1
      peak = Math.max(peak, running)
      await new Promise((resolve) => setImmediate(resolve))
      running -= 1
      return i
    })
    const values: number[] = []
    for await (const value of runOrdered(tasks, 3)) {
      values.push(value)
    }
    expect(values).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
    expect(peak).toBe(3)
  })

  it('calls onStop when the consumer stops early', async () => {
    let stopped = false
    const tasks = [1, 2, 3].map((i) => () => Promise.resolve(i))
    for await (const value of runOrdered(tasks, 2, () => (stopped = true))) {
      if (value === 1) {
        break
      }
    }
    expect(stopped).toBe(true)
  })
})
