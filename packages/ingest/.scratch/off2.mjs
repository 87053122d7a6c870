import { readBiocFile } from './bioc/read-bioc.js'
for await (const r of readBiocFile('/work/shared/data/pmc/jats-bioc-pairs/PMC1790863.bioc.xml')) {
  const ps=r.document.passages
  for (let k=1;k<ps.length;k++){ const t=ps[k-1].text; const exp=ps[k-1].offset+Buffer.byteLength(t)+1; const nonascii=[...t].filter(c=>c.charCodeAt(0)>127); const phi=[...t].filter(c=>c==='Φ').length; if (ps[k].offset!==exp || phi) console.log(k, ps[k].offset-exp, phi, [...new Set(nonascii)].join('')) }
}
