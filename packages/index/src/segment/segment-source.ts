import type { TermPostingsInput } from '../postings/postings-writer.ts'
import type { ByteWriter } from '../io/byte-writer.ts'
import type { IndexSchema } from '../schema/schema.ts'

/** One term's postings, as a segment source hands them to the segment writer. */
export interface TermPostings extends TermPostingsInput {
  readonly term: string
}

/**
 * Everything a segment holds, in local document order — what the segment writer turns
 * into files. Implemented by the in-memory builder (new documents) and by the merger
 * (live documents of existing segments).
 */
export interface SegmentSource {
  readonly schema: IndexSchema
  /** Documents in the segment. */
  readonly docCount: number
  /**
   * A field's terms in UTF-8 byte order with their postings. Each yielded value may be
   * reused by the next iteration step.
   * @param field - the field's index in the schema
   */
  terms(field: number): Iterable<TermPostings>
  /**
   * The length (token count) of the field in each document.
   * @param field - the field's index in the schema
   */
  fieldLengths(field: number): Uint32Array
  /**
   * A numeric doc value per document, `NaN` when missing.
   * @param index - the doc value's index in the schema
   */
  numericValues(index: number): Float64Array
  /**
   * A sorted-set doc value per document.
   * @param index - the doc value's index in the schema
   */
  setValues(index: number): readonly (readonly string[])[]
  /**
   * Writes the `.sto` body: the stored records in document order (see `StoredFieldsWriter`).
   * Called once, when the segment is written.
   * @param out - the `.sto` file after its header
   */
  writeStored(out: ByteWriter): void
  /**
   * Finishes what `writeStored` needs asynchronously (stored blocks deflated on the thread
   * pool); the segment writer awaits it before encoding. Optional.
   */
  prepareStored?(): Promise<void>
  /** The external ids, in document order. */
  ids(): readonly string[]
}
