import type { AnalyzerRegistry } from '@pubmatch/analysis'
import type { CodecName } from '../codec/block-codec.ts'
import type { ExtractedDocument } from '../document/extract.ts'
import { fieldAnalyzer, type IndexSchema } from '../schema/schema.ts'
import { SegmentBuilder } from '../segment/segment-builder.ts'
import type { SegmentMeta } from '../segment/segment-meta.ts'
import { writeSegment } from '../segment/segment-writer.ts'

/** One flush: documents to invert into a new segment. Plain data (sent to workers). */
export interface SegmentBuildTask {
  /** The index directory. */
  readonly dir: string
  /** The new segment's name. */
  readonly name: string
  readonly schema: IndexSchema
  readonly codec: CodecName
  readonly docs: readonly ExtractedDocument[]
}

/** Runs a {@link SegmentBuildTask}: in this thread, or on a worker pool (`pool.run`). */
export type SegmentBuildRunner = (task: SegmentBuildTask) => Promise<SegmentMeta>

/**
 * Analyzes and inverts a task's documents and writes the segment's files.
 * @param task - the task
 * @param analyzers - where analyzer names are looked up. Defaults to the built-ins.
 */
export async function runSegmentBuild(
  task: SegmentBuildTask,
  analyzers?: AnalyzerRegistry,
): Promise<SegmentMeta> {
  const builder = createSegmentBuilder(task.schema, analyzers)
  for (const doc of task.docs) {
    builder.add(doc)
  }
  return writeSegment(task.dir, task.name, builder, task.codec)
}

/**
 * An empty in-memory segment with each field's analyzer.
 * @param schema - the index schema
 * @param analyzers - where analyzer names are looked up. Defaults to the built-ins.
 */
export function createSegmentBuilder(
  schema: IndexSchema,
  analyzers?: AnalyzerRegistry,
): SegmentBuilder {
  return new SegmentBuilder(
    schema,
    schema.fields.map((field) => (field.keyword ? null : fieldAnalyzer(field, analyzers))),
  )
}
