import { runSegmentBuild, type SegmentBuildTask } from '../build/segment-build.ts'
import type { SegmentMeta } from '../segment/segment-meta.ts'

/**
 * The piscina worker entry (`@pubmatch/index/worker`): builds one segment from extracted
 * documents with the built-in analyzers and returns its manifest entry.
 * @param task - the segment to build
 */
export default function buildSegment(task: SegmentBuildTask): Promise<SegmentMeta> {
  return runSegmentBuild(task)
}
