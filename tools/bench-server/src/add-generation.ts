/**
 * `node dist/add-generation.js --corpus DIR --index DIR --xml FILE`: ingests a PubMed XML file
 * into the corpus store and applies it to the index incrementally (a new index generation), as
 * an administrator's `pubmatch ingest` + `pubmatch index` would, in a process of its own.
 * Prints what it did as JSON.
 */
import { parseArgs } from 'node:util'
import { addRealArticles } from './prepare.ts'

const { values } = parseArgs({ options: { corpus: { type: 'string' }, index: { type: 'string' }, xml: { type: 'string' } } })
const result = await addRealArticles({ corpus: values.corpus!, index: values.index! }, values.xml!)
process.stdout.write(`${JSON.stringify(result)}\n`)
