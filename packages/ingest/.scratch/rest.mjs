import { readJatsXml } from './jats/reader.js'
import { readBiocFile } from './bioc/read-bioc.js'
const dir = '/work/shared/data/pmc/jats-bioc-pairs/'
const collect = async (it) => { const out = []; for await (const r of it) out.push(r); return out }
const [j] = await collect(readJatsXml(dir + 'PMC1790863.nxml'))
const [b] = await collect(readBiocFile(dir + 'PMC1790863.bioc.xml'))
const rest = (d) => d.passages.filter((p) => p.sectionType === null).map((p) => `${p.role} ${p.rawSectionType}/${p.passageType} ${p.offset} ${p.text.slice(0, 50)}`)
const a = rest(j.document), c = rest(b.document)
for (let i = 0; i < Math.max(a.length, c.length); i++) console.log((a[i] ?? '').padEnd(90), '|', c[i] ?? '')
console.log(JSON.stringify(j.document.passages[0].infons), '\n', JSON.stringify(b.document.passages[0].infons))
const jr = j.document.passages.filter(p=>p.role==='reference'), br = b.document.passages.filter(p=>p.role==='reference')
console.log(jr.length, br.length, jr.every((p,i)=>p.text===br[i].text))
console.log(j.document.passages.at(-1).offset, b.document.passages.at(-1).offset)
