import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** `/work/shared/data` (from packages/solr/test/), or `$PUBMATCH_SHARED` when set. */
export const SHARED_DATA: string =
  process.env.PUBMATCH_SHARED ?? fileURLToPath(new URL('../../../../shared/data/', import.meta.url))

/** Whether the shared data folder is present. */
export const HAS_SHARED_DATA: boolean = existsSync(`${SHARED_DATA}/pubmed-xml/medsamp2006.xml`)
