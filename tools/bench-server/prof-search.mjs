import { readFileSync } from 'node:fs'
import { openSearch } from '@pubmatch/engine'
const setup = JSON.parse(readFileSync('.cache/setup-any.json', 'utf8'))
const e = await openSearch({ index: '.cache/synth-100000/index', model: '.cache/models/any-A', ranking: { match: 'any' } })
const qs = setup.accepted
for (const q of qs.slice(0, 200)) e.search(q, { limit: 20 })
const t0 = performance.now()
for (const q of qs) { const r = e.search(q, { limit: 20 }); for (const h of r.hits) e.highlights(h.document, q) }
console.log('ms/query', ((performance.now() - t0) / qs.length).toFixed(2))
