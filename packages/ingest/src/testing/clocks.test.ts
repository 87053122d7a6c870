import { describe, expect, it } from 'vitest'
import { createInstantClock, createManualClock } from './clocks.ts'

describe('createManualClock', () => {
  it('fires timers in time order only as time is advanced', async () => {
    const clock = createManualClock(100)
    const fired: Array<[string, number]> = []
    void clock.sleep(50).then(() => fired.push(['b', clock.now()]))
    void clock.sleep(10).then(() => fired.push(['a', clock.now()]))
    await clock.advance(20)
    expect(fired).toEqual([['a', 110]])
    expect(clock.now()).toBe(120)
    await clock.runAll()
    expect(fired).toEqual([
      ['a', 110],
      ['b', 150],
    ])
  })
})

describe('createInstantClock', () => {
  it('returns from sleeps at once, moving time forward and recording them', async () => {
    const clock = createInstantClock(5)
    await clock.sleep(100)
    await clock.sleep(20)
    expect([clock.now(), clock.sleeps]).toEqual([125, [100, 20]])
  })
})
