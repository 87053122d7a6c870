import { readJatsXml } from './jats/reader.js'
import { readBiocFile } from './bioc/read-bioc.js'
const dir = '/work/shared/data/pmc/jats-bioc-pairs/'
const collect = async (it) => { const out = []; for await (const r of it) out.push(r); return out }
const [j] = await collect(readJatsXml(dir + 'PMC1790863.nxml'))
const [b] = await collect(readBiocFile(dir + 'PMC1790863.bioc.xml'))
const scored = (d) => d.passages.filter((p) => p.sectionType !== null)
const js = scored(j.document), bs = scored(b.document)
for (const i of process.argv.slice(2).map(Number)) {
  const a = js[i].text, c = bs[i].text
  let k = 0; while (k < a.length && a[k] === c[k]) k++
  console.log(i, JSON.stringify(a.slice(k - 60, k + 80)), '\n   ', JSON.stringify(c.slice(k - 60, k + 80)))
}
