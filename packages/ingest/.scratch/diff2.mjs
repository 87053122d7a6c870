import { readJatsXml } from './jats/reader.js'
import { readBiocFile } from './bioc/read-bioc.js'
const dir = '/work/shared/data/pmc/jats-bioc-pairs/'
const collect = async (it) => { const out = []; for await (const r of it) out.push(r); return out }
const [j] = await collect(readJatsXml(dir + 'PMC1790863.nxml'))
const [b] = await collect(readBiocFile(dir + 'PMC1790863.bioc.xml'))
const norm = (t) => t.normalize('NFKC').replace(/\s+/g, ' ').trim()
const scored = (d) => d.passages.filter((p) => p.sectionType !== null)
const js = scored(j.document), bs = scored(b.document)
for (const i of process.argv.slice(2).map(Number)) {
  const a = norm(js[i].text), c = norm(bs[i].text)
  let k = 0; while (k < a.length && a[k] === c[k]) k++
  const show = (s) => [...s.slice(k - 15, k + 15)].map((ch) => ch.charCodeAt(0) > 126 ? `<${ch.charCodeAt(0).toString(16)}>` : ch).join('')
  console.log(i, k, show(a), '\n   ', show(c))
}
