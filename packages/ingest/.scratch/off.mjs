import { readBiocFile } from './bioc/read-bioc.js'
import { readdirSync } from 'node:fs'
const files = ['/work/shared/data/pmc/jats-bioc-pairs/PMC1790863.bioc.xml', ...readdirSync('/work/shared/data/pmc/bioc-json').filter(f=>f.endsWith('.json')).map(f=>'/work/shared/data/pmc/bioc-json/'+f)]
let total=0, bad=0
for (const f of files) for await (const r of readBiocFile(f)) {
  if (r.kind!=='fulltext') continue
  const ps=r.document.passages
  for (let k=1;k<ps.length;k++){ total++; const exp=ps[k-1].offset+Buffer.byteLength(ps[k-1].text)+1; if (ps[k].offset!==exp){ bad++; if (f.includes('PMC1790863')||bad<5) console.log(f.split('/').pop(), k, ps[k].offset-exp, ps[k-1].passageType, JSON.stringify(ps[k-1].text.slice(-30)), ps[k].passageType) } }
}
console.log({total,bad})
