import { describe, expect, it } from 'vitest'
import { summarizeSolrLog } from './scale-solr.ts'

describe('summarizeSolrLog', () => {
  it('counts WARN and ERROR entries by level, logger and message start, ignoring stack lines', () => {
    const log = [
      '2026-11-26 06:54:15.521 ERROR (qtp1286683648-43-null-348) [synth shard2 core_node7 synth_shard2_replica_n4] o.a.s.u.SolrCmdDistributor Exception making request',
      'java.io.IOException: Request processing has stalled for 20015ms with 100 remaining elements in the queue.',
      '\tat org.eclipse.jetty.server.Server.handle(Server.java:563)',
      '2026-11-26 06:54:20.547 ERROR (qtp1286683648-43-null-348) [synth shard2 core_node7 synth_shard2_replica_n4] o.a.s.u.p.DistributedZkUpdateProcessor Setting up to try to start recovery on replica core_node5',
      '2026-11-26 06:55:15.521 ERROR (qtp1-44) [synth shard1 core_node2 synth_shard1_replica_n1] o.a.s.u.SolrCmdDistributor Exception making request',
      '2026-11-26 06:49:01.000 WARN  (main) o.a.z.s.ZooKeeperServer Using an unsafe setting',
    ].join('\n')
    const summary = summarizeSolrLog(log)
    expect([summary.errors, summary.warnings]).toEqual([3, 1])
    expect(summary.top).toEqual([
      { kind: 'ERROR o.a.s.u.SolrCmdDistributor Exception making request', count: 2 },
      {
        kind: 'ERROR o.a.s.u.p.DistributedZkUpdateProcessor Setting up to try to start recovery on replica core_node5',
        count: 1,
      },
      { kind: 'WARN o.a.z.s.ZooKeeperServer Using an unsafe setting', count: 1 },
    ])
  })

  it('is empty for a quiet log', () => {
    expect(summarizeSolrLog('')).toEqual({ errors: 0, warnings: 0, top: [] })
  })
})
