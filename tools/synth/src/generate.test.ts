import { abstractText, type Article } from '@pubmatch/core'
import { beforeAll, describe, expect, it } from 'vitest'
import { createArticleGenerator, generateCorpus } from './generate.ts'
import { loadCorpusModel } from './model.ts'
import { tokenTerms } from './text.ts'

const model = loadCorpusModel()

function orcidValid(value: string): boolean {
  // ISO 7064 11,2 over the first 15 digits (ORCID's documented check-digit algorithm).
  const digits = value.replace(/-/g, '')
  let total = 0
  for (const c of digits.slice(0, 15)) {
    total = (total + Number(c)) * 2
  }
  const check = (12 - (total % 11)) % 11
  return digits[15] === (check === 10 ? 'X' : String(check))
}

function issnValid(value: string): boolean {
  const digits = value.replace('-', '')
  let sum = 0
  for (let i = 0; i < 7; i++) {
    sum += Number(digits[i]) * (8 - i)
  }
  const check = (11 - (sum % 11)) % 11
  return digits[7] === (check === 10 ? 'X' : String(check))
}

describe('generateCorpus', () => {
  it('is deterministic: the same seed gives byte-identical articles, another seed others', () => {
    const a = JSON.stringify([...generateCorpus({ size: 300, seed: 1, model })])
    const b = JSON.stringify([...generateCorpus({ size: 300, seed: 1, model })])
    const c = JSON.stringify([...generateCorpus({ size: 300, seed: 2, model })])
    expect(a).toBe(b)
    expect(c).not.toBe(a)
  })

  it('produces any slice on its own: article i does not depend on the ones before it', () => {
    const all = [...generateCorpus({ size: 120, seed: 9, model })]
    const slice = [...generateCorpus({ size: 20, seed: 9, start: 100, model })]
    expect(JSON.stringify(slice)).toBe(JSON.stringify(all.slice(100)))
    const generator = createArticleGenerator(model)
    expect(JSON.stringify(generator.article(9, 57))).toBe(JSON.stringify(all[57]))
  })

  it('rejects a bad size, start or seed at once', () => {
    expect(() => generateCorpus({ size: -1, seed: 1, model })).toThrow(/integer size ≥ 0/)
    expect(() => generateCorpus({ size: 1, seed: 1.5, model })).toThrow(/integer size ≥ 0/)
  })
})

describe('generated articles', () => {
  let articles: Article[] = []
  beforeAll(() => {
    articles = [...generateCorpus({ size: 3000, seed: 3, model })]
  })

  it('have unique, increasing PMIDs', () => {
    const ids = articles.map((a) => Number(a.id))
    expect(ids.every((id, i) => Number.isInteger(id) && (i === 0 || id > ids[i - 1]!))).toBe(true)
    expect(ids[0]).toBeGreaterThanOrEqual(10_000_000)
    expect(ids[0]).toBeLessThan(10_000_003)
  })

  it('have titles and abstracts whose every word is one token of the tokenizer', () => {
    let words = 0
    let tokens = 0
    for (const a of articles) {
      expect(a.title).toMatch(/^\[?\p{L}.*\.$/u)
      for (const section of a.abstract) {
        expect(section.text.endsWith('.')).toBe(true)
        words += section.text.split(' ').length
        tokens += tokenTerms(section.text).length
      }
    }
    expect(tokens).toBe(words)
    expect(tokens).toBeGreaterThan(300_000)
  })

  it('label structured abstracts with real labels and NLM categories', () => {
    const categories = new Set([
      'BACKGROUND',
      'OBJECTIVE',
      'METHODS',
      'RESULTS',
      'CONCLUSIONS',
      'UNASSIGNED',
    ])
    const structured = articles.filter((a) => a.abstract.some((s) => s.label !== undefined))
    expect(structured.length).toBeGreaterThan(0)
    for (const a of structured) {
      for (const s of a.abstract) {
        if (s.nlmCategory !== undefined) {
          expect(categories.has(s.nlmCategory)).toBe(true)
        }
      }
    }
  })

  it('carry real MeSH descriptors and qualifiers with their UIs', () => {
    const descriptorUi = new Map(model.mesh.descriptors.map(([ui, name]) => [name, ui]))
    const qualifierUi = new Map(model.mesh.qualifiers.values.map(([ui, name]) => [name, ui]))
    const withMesh = articles.filter((a) => a.mesh.length > 0)
    expect(withMesh.length).toBeGreaterThan(500)
    for (const a of withMesh) {
      expect(new Set(a.mesh.map((h) => h.descriptorName)).size).toBe(a.mesh.length)
      for (const h of a.mesh) {
        expect(h.descriptorUi).toMatch(/^D\d{6,9}$/)
        expect(descriptorUi.get(h.descriptorName)).toBe(h.descriptorUi)
        for (const q of h.qualifiers) {
          expect(q.ui).toMatch(/^Q\d{6,9}$/)
          expect(qualifierUi.get(q.name)).toBe(q.ui)
        }
      }
    }
  })

  it('have plausible authors, journals, dates, types, languages, keywords and ids', () => {
    const years = model.metadata.years.values
    const dois = new Set<string>()
    for (const a of articles) {
      for (const author of a.authors) {
        if (author.collectiveName === undefined) {
          // Real names include particles (`da Silva Guimarães`); synthetic ones are capitalised.
          expect(author.lastName).toMatch(/^\p{L}/u)
          expect(author.initials).toMatch(/^\p{Lu}*$/u)
        }
        for (const affiliation of author.affiliations) {
          expect(affiliation.endsWith('.')).toBe(true)
        }
        for (const id of author.identifiers) {
          expect(id.source).toBe('ORCID')
          expect(orcidValid(id.value)).toBe(true)
        }
      }
      expect(a.journal?.title).toBeTruthy()
      expect(a.journal?.medlineTa).toBeTruthy()
      expect(a.journal?.volume).toMatch(/^\d+$/)
      expect(a.journal?.issue).toMatch(/^\d+$/)
      if (a.journal?.issn !== undefined && Number(a.id) % 7 === 0) {
        // Synthetic journals get valid ISSNs; the real ones are as NLM gives them.
        if (!model.metadata.journals.entries.some((j) => j.issn === a.journal?.issn)) {
          expect(issnValid(a.journal.issn)).toBe(true)
        }
      }
      expect(a.pubDate?.year).toBeGreaterThanOrEqual(years[0]!)
      expect(a.pubDate?.year).toBeLessThanOrEqual(years[years.length - 1]!)
      expect(a.publicationTypes.length).toBeGreaterThan(0)
      expect(a.languages.every((l) => /^[a-z]{3}$/.test(l))).toBe(true)
      expect(new Set(a.keywords.map((k) => k.text)).size).toBe(a.keywords.length)
      const doi = a.articleIds.find((id) => id.type === 'doi')?.value
      if (doi !== undefined) {
        expect(doi).toMatch(/^10\.\d{4}\/[a-z0-9]+\.\d{4}\.\d+$/)
        expect(dois.has(doi)).toBe(false)
        dois.add(doi)
      }
      if (!a.languages.includes('eng')) {
        expect(a.title).toMatch(/^\[.*\]\.$/)
      }
    }
    expect(dois.size).toBeGreaterThan(2000)
  })

  it('copy title words from their own abstract and reuse topic words', () => {
    // A title content word occurs in the article's own abstract far more often than in another's.
    let own = 0
    let other = 0
    let n = 0
    for (let i = 1; i < articles.length; i++) {
      const a = articles[i]!
      const b = articles[i - 1]!
      if (a.abstract.length === 0 || b.abstract.length === 0) {
        continue
      }
      const mine = new Set(tokenTerms(abstractText(a)))
      const theirs = new Set(tokenTerms(abstractText(b)))
      for (const term of tokenTerms(a.title)) {
        n++
        own += mine.has(term) ? 1 : 0
        other += theirs.has(term) ? 1 : 0
      }
    }
    expect(own / n).toBeGreaterThan(2 * (other / n))
  })
})
