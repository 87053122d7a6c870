import type { Article } from '@pubmatch/core'
import { fitCountDistribution, round6 } from '../distributions.ts'
import type { JournalEntry, MetadataModel, Weighted } from '../model.ts'
import { hashString } from '../random.ts'
import { tokenTerms } from '../text.ts'
import { fitZipfMandelbrot } from '../zipf.ts'

/** Options of {@link fitMetadata}. */
export interface MetadataFitOptions {
  /**
   * Journals in the synthetic corpus (real ones of the sample, then synthetic ones). Defaults to
   * `5200`, about the number of journals MEDLINE indexes.
   */
  journals?: number
}

/**
 * Empirical frequencies, most frequent first, ties by the key's hash.
 * @param items - values with a string key
 * @param key - the key that identifies equal values
 */
export function tally<T>(
  items: Iterable<T>,
  key: (item: T) => string,
): Weighted<T> & { keys: string[] } {
  const counts = new Map<string, { item: T; n: number }>()
  for (const item of items) {
    const k = key(item)
    const entry = counts.get(k)
    if (entry === undefined) {
      counts.set(k, { item, n: 1 })
    } else {
      entry.n++
    }
  }
  const sorted = [...counts.entries()].sort(
    (a, b) => b[1].n - a[1].n || hashString(a[0]) - hashString(b[0]) || (a[0] < b[0] ? -1 : 1),
  )
  return {
    keys: sorted.map(([k]) => k),
    values: sorted.map(([, e]) => e.item),
    weights: sorted.map(([, e]) => e.n),
  }
}

function share(count: number, total: number): number {
  return total > 0 ? round6(count / total) : 0
}

const DEPARTMENT =
  /^(?:Department|Dept\.?|Division|School|Faculty|Laboratory|Laboratories|Unit|Section|Service|Program|Programme|Centre|Center) (?:of|for)\b/

/**
 * An affiliation without e-mail addresses, split into its department (when it starts with one)
 * and the rest (institution and place).
 * @param affiliation - a real affiliation string
 */
export function splitAffiliation(affiliation: string): { department?: string; site: string } {
  const cleaned = affiliation
    .replace(/Electronic address:?/gi, ' ')
    .replace(/\S+@\S+/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/[\s.;,]+$/, '')
    .trim()
  const parts = cleaned.split(', ')
  if (parts.length >= 3 && DEPARTMENT.test(parts[0]!) && !/\d/.test(parts[0]!)) {
    return { department: parts[0]!, site: `${parts.slice(1).join(', ')}.` }
  }
  return { site: `${cleaned}.` }
}

/** Pages of a MEDLINE pagination (`332-40` → 9), or undefined when it is not `start-end` in digits. */
export function pageCount(pagination: string): number | undefined {
  const m = /^(\d+)-(\d+)$/.exec(pagination.trim())
  if (m === null) {
    return /^\d+$/.test(pagination.trim()) ? 1 : undefined
  }
  const start = m[1]!
  const short = m[2]!
  const end = Number(start.slice(0, Math.max(0, start.length - short.length)) + short)
  const pages = end - Number(start) + 1
  return pages >= 1 && pages <= 500 ? pages : undefined
}

/**
 * Fits bibliographic metadata: statuses (with their MeSH shares), languages, publication-type
 * sets, journals (Zipf–Mandelbrot over real journals, extended with synthetic ones), years
 * (smoothed with a Gaussian kernel of one year), date shapes, authors and affiliations,
 * keywords, identifiers, chemicals, copyright and pagination.
 * @param articles - the real articles
 * @param options - see {@link MetadataFitOptions}
 */
export function fitMetadata(
  articles: readonly Article[],
  options: MetadataFitOptions = {},
): MetadataModel {
  const n = articles.length

  // Statuses.
  const statusTally = tally(
    articles.filter((a) => a.citationStatus !== undefined),
    (a) => a.citationStatus!,
  )
  const statuses = {
    values: statusTally.keys.map((status) => {
      const of = articles.filter((a) => a.citationStatus === status)
      const owners = tally(of, (a) => a.owner ?? 'NLM')
      return {
        status,
        owner: owners.keys[0]!,
        meshShare: share(of.filter((a) => a.mesh.length > 0).length, of.length),
      }
    }),
    weights: statusTally.weights,
  }

  // Languages and publication types (UIs by name across the sample).
  const languages = tally(
    articles.map((a) => (a.languages.length > 0 ? a.languages : ['eng'])),
    (l) => l.join('+'),
  )
  const ptUi = new Map<string, string>()
  for (const a of articles) {
    for (const p of a.publicationTypes) {
      if (p.ui !== undefined) {
        ptUi.set(p.name, p.ui)
      }
    }
  }
  const publicationTypes = tally(
    articles
      .filter((a) => a.publicationTypes.length > 0)
      .map((a) =>
        a.publicationTypes.map((p): [string, string] => [ptUi.get(p.name) ?? '', p.name]),
      ),
    (set) => set.map(([, name]) => name).join(' + '),
  )

  // Journals.
  const journalTally = tally(
    articles.filter((a) => a.journal?.medlineTa !== undefined || a.journal?.title !== undefined),
    (a) => a.journal!.medlineTa ?? a.journal!.title!,
  )
  const entries = journalTally.values.map((a, i): JournalEntry => {
    const j = a.journal!
    const entry: JournalEntry = {
      title: j.title ?? journalTally.keys[i]!,
      medlineTa: journalTally.keys[i]!,
    }
    if (j.isoAbbreviation !== undefined) {
      entry.isoAbbreviation = j.isoAbbreviation
    }
    if (j.issn !== undefined) {
      entry.issn = j.issn
    }
    if (j.issnType !== undefined) {
      entry.issnType = j.issnType
    }
    if (j.nlmUniqueId !== undefined) {
      entry.nlmUniqueId = j.nlmUniqueId
    }
    if (j.country !== undefined) {
      entry.country = j.country
    }
    return entry
  })
  // Zipf (q = 0) over every journal of the sample: its rank-frequency curve is short and bumpy
  // (a baseline file holds runs of one journal's PMIDs), too little to fit a Mandelbrot shift.
  const journalFit = fitZipfMandelbrot(journalTally.weights, { minCount: 1, maxQ: 0 })

  // Years, smoothed with a Gaussian kernel (σ = 1 year).
  const yearList = articles.flatMap((a) => {
    const y = a.pubDate?.year ?? a.electronicDate?.year
    return y === undefined ? [] : [y]
  })
  const lo = Math.min(...yearList) - 2
  const hi = Math.max(...yearList) + 2
  const yearValues: number[] = []
  const yearWeights: number[] = []
  for (let y = lo; y <= hi; y++) {
    let w = 0
    for (const v of yearList) {
      w += Math.exp(-((y - v) ** 2) / 2)
    }
    if (w > 1e-6) {
      yearValues.push(y)
      yearWeights.push(round6(w))
    }
  }

  const dateShapes = tally(
    articles.filter((a) => a.pubDate !== undefined),
    (a): 'y' | 'ym' | 'ymd' | 'season' | 'medline' => {
      const d = a.pubDate!
      return d.medlineDate !== undefined
        ? 'medline'
        : d.season !== undefined
          ? 'season'
          : d.day !== undefined
            ? 'ymd'
            : d.month !== undefined
              ? 'ym'
              : 'y'
    },
  )

  // Authors.
  const people = articles.flatMap((a) =>
    a.authors.filter((x) => x.collectiveName === undefined && x.lastName !== undefined),
  )
  const allAuthors = articles.flatMap((a) => a.authors)
  const lastNames = tally(people, (x) => x.lastName!)
  const foreNames = tally(
    people.filter((x) => x.foreName !== undefined && x.foreName !== ''),
    (x) => x.foreName!,
  )
  const repeatedNames = lastNames.weights.filter((w) => w >= 2).reduce((s, w) => s + w, 0)
  let firsts = 0
  let firstsWith = 0
  let others = 0
  let othersWith = 0
  let same = 0
  let sameOf = 0
  const affiliations: { department?: string; site: string }[] = []
  for (const a of articles) {
    let previous: string | undefined
    a.authors.forEach((x, i) => {
      const has = x.affiliations.length > 0
      if (i === 0) {
        firsts++
        firstsWith += has ? 1 : 0
      } else {
        others++
        othersWith += has ? 1 : 0
        if (has && previous !== undefined) {
          sameOf++
          same += x.affiliations[0] === previous ? 1 : 0
        }
      }
      if (has) {
        previous = x.affiliations[0]
        // Keep well-formed ones: capitalised, with at least a place after the institution.
        affiliations.push(
          ...x.affiliations
            .map(splitAffiliation)
            .filter((a) => /^[A-Z]/.test(a.site) && a.site.includes(', ')),
        )
      }
    })
  }
  const withDepartment = affiliations.filter((x) => x.department !== undefined)

  // Keywords, chemicals, pages.
  const withKeywords = articles.filter((a) => a.keywords.length > 0)
  const keywordWords = withKeywords.flatMap((a) =>
    a.keywords.map((k) => Math.max(1, tokenTerms(k.text).length)),
  )
  const withMesh = articles.filter((a) => a.mesh.length > 0)
  const withChemicals = withMesh.filter((a) => a.chemicals.length > 0)
  const chemicals = tally(
    articles.flatMap((a) =>
      a.chemicals
        .filter((c) => c.ui !== undefined)
        .map((c): [string, string, string] => [c.registryNumber ?? '0', c.ui!, c.name]),
    ),
    ([, ui]) => ui,
  )
  const pages = articles.flatMap((a) => {
    const p = a.pagination === undefined ? undefined : pageCount(a.pagination)
    return p === undefined ? [] : [p]
  })
  const hasId = (type: string): number =>
    share(articles.filter((a) => a.articleIds.some((id) => id.type === type)).length, n)
  const hasHistory = (status: string): number =>
    share(articles.filter((a) => a.history.some((h) => h.status === status)).length, n)
  const withAbstract = articles.filter((a) => a.abstract.length > 0)

  return {
    statuses,
    languages: { values: languages.values, weights: languages.weights },
    publicationTypes: { values: publicationTypes.values, weights: publicationTypes.weights },
    journals: {
      entries,
      s: round6(journalFit.s),
      q: round6(journalFit.q),
      total: Math.max(options.journals ?? 5200, entries.length),
    },
    years: { values: yearValues, weights: yearWeights },
    dateShapes: {
      values: dateShapes.keys as ('y' | 'ym' | 'ymd' | 'season' | 'medline')[],
      weights: dateShapes.weights,
    },
    electronicDateShare: share(articles.filter((a) => a.electronicDate !== undefined).length, n),
    history: {
      received: hasHistory('received'),
      revised: hasHistory('revised'),
      accepted: hasHistory('accepted'),
      pubmed: hasHistory('pubmed'),
    },
    dateRevisedShare: share(articles.filter((a) => a.dateRevised !== undefined).length, n),
    authors: {
      count: fitCountDistribution(articles.map((a) => a.authors.length)),
      lastNames: { values: lastNames.keys, weights: lastNames.weights },
      foreNames: { values: foreNames.keys, weights: foreNames.weights },
      realNameShare: share(repeatedNames, people.length),
      collectiveShare: share(allAuthors.length - people.length, allAuthors.length),
      affiliationShare: { first: share(firstsWith, firsts), other: share(othersWith, others) },
      sameAffiliationShare: share(same, sameOf),
      departmentShare: share(withDepartment.length, affiliations.length),
      departments: (() => {
        const t = tally(withDepartment, (x) => x.department!)
        return { values: t.keys, weights: t.weights }
      })(),
      sites: (() => {
        const t = tally(affiliations, (x) => x.site)
        return { values: t.keys, weights: t.weights }
      })(),
      orcidShare: share(
        people.filter((x) => x.identifiers.some((id) => id.source === 'ORCID')).length,
        people.length,
      ),
    },
    keywords: {
      share: share(withKeywords.length, n),
      count: fitCountDistribution(
        withKeywords.length > 0 ? withKeywords.map((a) => a.keywords.length) : [1],
        { min: 1 },
      ),
      words: fitCountDistribution(keywordWords.length > 0 ? keywordWords : [1], { min: 1 }),
    },
    articleIds: { doi: hasId('doi'), pmc: hasId('pmc'), pii: hasId('pii'), mid: hasId('mid') },
    chemicals: {
      share: share(withChemicals.length, withMesh.length),
      count: fitCountDistribution(
        withChemicals.length > 0 ? withChemicals.map((a) => a.chemicals.length) : [1],
        { min: 1 },
      ),
      entries: { values: chemicals.values, weights: chemicals.weights },
    },
    copyrightShare: share(
      withAbstract.filter((a) => a.copyright !== undefined).length,
      withAbstract.length,
    ),
    pagination: {
      share: share(articles.filter((a) => a.pagination !== undefined).length, n),
      pages: fitCountDistribution(pages.length > 0 ? pages : [1], { min: 1 }),
    },
  }
}
