import { articleYear, type Article } from '@pubmatch/core'

/**
 * One line of the JSON Lines collection format that `@pubmatch/ingest`'s `readJsonlArticles`
 * (and so `pubmatch ingest file.jsonl`) reads.
 */
export interface JsonlArticle {
  id: string
  title: string
  abstract: { label?: string; text: string }[]
  mesh: {
    descriptorName: string
    ui?: string
    majorTopic: boolean
    qualifiers: { name: string; majorTopic: boolean }[]
  }[]
  keywords: string[]
  year?: number
  journal?: {
    title?: string
    isoAbbreviation?: string
    medlineTa?: string
    issn?: string
    volume?: string
    issue?: string
  }
  publicationTypes: { name: string; ui?: string }[]
}

/**
 * The JSON Lines record of an article: the fields the JSONL reader maps (`id`, `title`,
 * `abstract` sections with labels, `mesh`, `keywords` as strings, `year`, `journal`,
 * `publicationTypes`). Authors, dates other than the year, and identifiers are not part of
 * that format; write whole articles (`format: 'article'`) to keep them.
 * @param article - the article
 */
export function toJsonlRecord(article: Article): JsonlArticle {
  const record: JsonlArticle = {
    id: article.id,
    title: article.title,
    abstract: article.abstract.map((s) =>
      s.label === undefined ? { text: s.text } : { label: s.label, text: s.text },
    ),
    mesh: article.mesh.map((h) => ({
      descriptorName: h.descriptorName,
      ...(h.descriptorUi === undefined ? {} : { ui: h.descriptorUi }),
      majorTopic: h.majorTopic,
      qualifiers: h.qualifiers.map((q) => ({ name: q.name, majorTopic: q.majorTopic })),
    })),
    keywords: article.keywords.map((k) => k.text),
    publicationTypes: article.publicationTypes.map((p) =>
      p.ui === undefined || p.ui === '' ? { name: p.name } : { name: p.name, ui: p.ui },
    ),
  }
  const year = articleYear(article)
  if (year !== undefined) {
    record.year = year
  }
  if (article.journal !== undefined) {
    const { title, isoAbbreviation, medlineTa, issn, volume, issue } = article.journal
    record.journal = { title, isoAbbreviation, medlineTa, issn, volume, issue }
  }
  return record
}
