import { readdirSync } from 'node:fs'
import { readJatsXml } from './jats/reader.js'
const dir = '/work/shared/data/pmc/jats/'
const re = new RegExp(process.argv[2])
for (const f of readdirSync(dir).sort()) {
  for await (const r of readJatsXml(dir + f)) {
    if (r.kind !== 'fulltext') continue
    for (const p of r.document.passages) if (p.role !== 'reference') { let m; const g = new RegExp(re, 'g'); while ((m = g.exec(p.text))) console.log(f, p.rawSectionType, p.passageType, JSON.stringify(p.text.slice(Math.max(0, m.index - 50), m.index + 50))) }
  }
}
