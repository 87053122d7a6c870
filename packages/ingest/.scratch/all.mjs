import { readdirSync } from 'node:fs'
import { readJatsXml } from './jats/reader.js'
const dir = '/work/shared/data/pmc/jats/'
for (const f of readdirSync(dir).sort()) {
  const recs = []; for await (const r of readJatsXml(dir + f)) recs.push(r)
  for (const r of recs) {
    if (r.kind !== 'fulltext') { console.log(f, r); continue }
    const d = r.document
    const counts = {}
    for (const p of d.passages) { const k = `${p.sectionType ?? 'null'}/${p.role}`; counts[k] = (counts[k] ?? 0) + 1 }
    console.log('==', f, d.pmcid, d.pmid, d.doi, d.license, '|', d.title.slice(0, 60))
    console.log('  ', JSON.stringify(counts))
    if (process.argv[2] === f || process.argv[2] === 'all') for (const p of d.passages) if (p.role !== 'reference') console.log('     ', p.rawSectionType, p.passageType, p.sectionType, p.role, JSON.stringify(p.text.slice(0, 90)))
  }
}
