import { readdirSync, readFileSync } from 'node:fs'
import { sectionTypeOfTitle } from './jats/section-rules.js'
const dir = '/work/shared/data/pmc/bioc-json/'
let total = 0, agree = 0, byRule = 0, inherited = 0
const bad = []
for (const f of readdirSync(dir).filter((n) => n.endsWith('.json')).sort()) {
  let d = JSON.parse(readFileSync(dir + f, 'utf8')); d = Array.isArray(d) ? d[0] : d
  for (const doc of d.documents) {
    let previous = 'INTRO'
    for (const p of doc.passages) {
      const st = p.infons.section_type, t = p.infons.type
      if (t !== 'title_1' && t !== 'title') continue
      if (st === 'REF' || st === 'REVIEW_INFO') { previous = st; continue }
      const rule = sectionTypeOfTitle(p.text)
      const predicted = rule ?? previous
      total++; if (rule) byRule++; else inherited++
      if (predicted === st) agree++; else bad.push([f, t, p.text, st, predicted, rule ? 'rule' : 'inherit'])
      previous = process.argv[2] === "own" ? predicted : st
    }
  }
}
console.log({ total, agree, byRule, inherited })
for (const b of bad) console.log(JSON.stringify(b))
