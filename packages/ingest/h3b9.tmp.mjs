import { readdirSync, readFileSync } from 'node:fs'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
const dir = '/work/shared/data/pmc/bioc-json/'
const files = readdirSync(dir).filter((f) => f.endsWith('.json'))
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
const inf = (o) => Object.entries(o).filter(([, v]) => typeof v === 'string').map(([k, v]) => `<infon key="${esc(k)}">${esc(v)}</infon>`).join('')
const xmls = files.map((f) => { const cs = [JSON.parse(readFileSync(dir + f, 'utf8'))].flat(); return `<collection><source>PMC</source>${cs.flatMap((c) => c.documents).map((d) => `<document><id>${d.id}</id>${d.passages.map((p) => `<passage>${inf(p.infons)}<offset>${p.offset}</offset><text>${esc(p.text)}</text></passage>`).join('')}</document>`).join('')}</collection>` })
let xb = 0; for (const x of xmls) xb += x.length
const base = { preserveOrder: true, jPath: false, ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false, trimValues: false, ignoreDeclaration: true, ignorePiTags: true }
const ent = { enabled: true, maxEntityCount: 100, maxEntitySize: 10000, maxTotalExpansions: 10000, maxExpandedLength: 1000000, appliesTo: 'external' }
const variants = { mine: { ...base, processEntities: ent, htmlEntities: true }, xmlOnly: { ...base, processEntities: ent }, obj: { ...base, processEntities: ent, htmlEntities: { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } }, none: { ...base, processEntities: false } }
const which = process.argv[2]
const p = which === 'validate' ? null : new XMLParser(variants[which])
const t0 = performance.now()
for (const x of xmls) p ? p.parse(x) : XMLValidator.validate(x)
const ms = performance.now() - t0
console.log(which, ms.toFixed(0), 'ms', (xb / 1e6 / (ms / 1000)).toFixed(1), 'M chars/s')
