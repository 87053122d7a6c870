export type { IngestRecord } from './records.ts'
