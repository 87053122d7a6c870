import { describe, expect, it } from 'vitest'
import {
  planShards,
  powerLawExponent,
  projectLinear,
  projectPerDocLogLinear,
  projectPowerLaw,
  type ScalingInputs,
} from './projection.ts'

describe('powerLawExponent', () => {
  it('is 1 for a quantity that grows tenfold over a tenfold corpus', () => {
    expect(
      powerLawExponent([
        { docs: 1e5, value: 2 },
        { docs: 1e6, value: 20 },
      ]),
    ).toBeCloseTo(1, 12)
  })

  it('is log10(2) when the quantity doubles over a decade', () => {
    expect(
      powerLawExponent([
        { docs: 1e5, value: 4 },
        { docs: 1e6, value: 8 },
      ]),
    ).toBeCloseTo(0.30103, 5)
  })

  it('rejects a larger corpus first and non-positive values', () => {
    expect(() =>
      powerLawExponent([
        { docs: 1e6, value: 2 },
        { docs: 1e5, value: 20 },
      ]),
    ).toThrow(/smaller first/)
    expect(() =>
      powerLawExponent([
        { docs: 1e5, value: 0 },
        { docs: 1e6, value: 20 },
      ]),
    ).toThrow(/positive values/)
  })
})

describe('projectPowerLaw', () => {
  it('extrapolates from the larger measurement', () => {
    // α = 1: 20 ms at 1M → 20 · 36 = 720 ms at 36M
    expect(
      projectPowerLaw(
        [
          { docs: 1e5, value: 2 },
          { docs: 1e6, value: 20 },
        ],
        36e6,
      ),
    ).toBeCloseTo(720, 9)
    // α = log10 2: doubles per decade, 8 → 16 at 10M
    expect(
      projectPowerLaw(
        [
          { docs: 1e5, value: 4 },
          { docs: 1e6, value: 8 },
        ],
        1e7,
      ),
    ).toBeCloseTo(16, 9)
  })
})

describe('projectLinear', () => {
  it('keeps the fixed part and scales the per-document part', () => {
    // 150 MiB at 100k, 600 MiB at 1M: 0.0005 MiB/doc above 100 MiB; at 36M 100 + 18,000
    expect(
      projectLinear(
        [
          { docs: 1e5, value: 150 },
          { docs: 1e6, value: 600 },
        ],
        36e6,
      ),
    ).toBeCloseTo(18_100, 6)
  })
})

describe('projectPerDocLogLinear', () => {
  it('drifts by the measured change per decade', () => {
    const points = [
      { docs: 1e5, value: 700 },
      { docs: 1e6, value: 650 },
    ] as const
    expect(projectPerDocLogLinear(points, 1e7)).toBeCloseTo(600, 9)
    // 650 − 50 · log10(36) = 650 − 77.815
    expect(projectPerDocLogLinear(points, 36e6)).toBeCloseTo(572.185, 3)
  })
})

describe('planShards', () => {
  // 1,000 bytes/doc; RSS 50 MiB + 0.001 MiB/doc; p50 1 → 10 ms, p99 2 → 20 ms, CPU 1 → 10 ms (α = 1)
  const inputs: ScalingInputs = {
    bytesPerDoc: [
      { docs: 1e5, value: 1000 },
      { docs: 1e6, value: 1000 },
    ],
    servingRssMiB: [
      { docs: 1e5, value: 150 },
      { docs: 1e6, value: 1050 },
    ],
    p50Ms: [
      { docs: 1e5, value: 1 },
      { docs: 1e6, value: 10 },
    ],
    p99Ms: [
      { docs: 1e5, value: 2 },
      { docs: 1e6, value: 20 },
    ],
    cpuMsPerQuery: [
      { docs: 1e5, value: 1 },
      { docs: 1e6, value: 10 },
    ],
  }

  it('matches the hand-computed plan for 4M-document shards on a 24 GiB, 2-core machine', () => {
    const row = planShards(inputs, {
      totalDocs: 36e6,
      shardDocs: 4e6,
      machine: { name: 'small', ramGiB: 24, cores: 2, reserveGiB: 4 },
    })
    expect(row.shards).toBe(9)
    expect(row.indexGiBPerShard).toBeCloseTo(4e9 / 2 ** 30, 9) // 3.725 GiB
    expect(row.ramGiBPerShard).toBeCloseTo(4050 / 1024, 9) // 50 + 4,000 MiB
    expect(row.shardsPerMachine).toBe(2) // RAM would allow floor(20 / 3.955) = 5; 2 cores
    expect(row.machines).toBe(5) // ceil(9 / 2)
    expect(row.p50Ms).toBeCloseTo(41, 9) // 10 · 4 + 1 ms coordinator
    expect(row.p99Ms).toBeCloseTo(81, 9)
    expect(row.cpuMsPerQuery).toBeCloseTo(360, 9) // 9 shards × 40 ms
    expect(row.maxQps).toBeCloseTo((5 * 2 * 1000) / 360, 9)
  })

  it('reports a shard that does not fit in RAM as needing infinitely many machines', () => {
    const row = planShards(inputs, {
      totalDocs: 36e6,
      shardDocs: 36e6,
      machine: { name: 'small', ramGiB: 24, cores: 2 },
      coordinatorMs: 0,
    })
    expect(row.shards).toBe(1)
    expect(row.ramGiBPerShard).toBeCloseTo((50 + 36_000) / 1024, 9)
    expect(row.shardsPerMachine).toBe(0)
    expect(row.machines).toBe(Infinity)
    expect(row.p50Ms).toBeCloseTo(360, 9)
  })

  it('rejects shards larger than the collection', () => {
    expect(() =>
      planShards(inputs, {
        totalDocs: 1e6,
        shardDocs: 2e6,
        machine: { name: 'm', ramGiB: 8, cores: 1 },
      }),
    ).toThrow(/0 < shardDocs ≤ totalDocs/)
  })
})
