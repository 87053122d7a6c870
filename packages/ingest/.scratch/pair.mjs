import { readJatsXml } from './jats/reader.js'
import { readBiocFile } from './bioc/read-bioc.js'
const dir = '/work/shared/data/pmc/jats-bioc-pairs/'
const collect = async (it) => { const out = []; for await (const r of it) out.push(r); return out }
const [j] = await collect(readJatsXml(dir + 'PMC1790863.nxml'))
const [b] = await collect(readBiocFile(dir + 'PMC1790863.bioc.xml'))
if (j.kind !== 'fulltext') { console.log(j); process.exit(1) }
const norm = (t) => t.normalize('NFKC').replace(/\s+/g, '')
const scored = (d) => d.passages.filter((p) => p.sectionType !== null).map((p) => [p.sectionType, norm(p.text), p.passageType, p.rawSectionType, p.offset])
const js = scored(j.document), bs = scored(b.document)
console.log('jats', js.length, 'bioc', bs.length, j.document.pmcid, j.document.pmid, j.document.doi, j.document.license, j.document.title)
const n = Math.max(js.length, bs.length)
for (let i = 0; i < n; i++) {
  const a = js[i], c = bs[i]
  if (!a || !c || a[0] !== c[0] || a[1] !== c[1]) {
    console.log(i, 'J', a && [a[0], a[2], a[4], a[1]?.slice(0, 300)])
    console.log(i, 'B', c && [c[0], c[2], c[4], c[1]?.slice(0, 300)])
  }
}
console.log('all jats passages', j.document.passages.length, 'bioc', b.document.passages.length)
