import {
  PubmatchError,
  type AbstractSection,
  type Article,
  type ArticleId,
  type Author,
  type Chemical,
  type HistoryDate,
  type Journal,
  type Keyword,
  type MeshHeading,
  type MeshQualifier,
  type PartialDate,
} from '@pubmatch/core'
import { createAliasTable, type AliasTable } from './alias.ts'
import { sampleCount } from './distributions.ts'
import { loadCorpusModel, type CorpusModel, type JournalEntry, type Weighted } from './model.ts'
import { createRng, mix32, type Rng } from './random.ts'
import { createVocabularySampler, type VocabularySampler } from './vocabulary.ts'
import { capitalize, syntheticWord } from './words.ts'

/** Options of {@link generateCorpus}. */
export interface GenerateOptions {
  /** Number of articles. */
  size: number
  /** The seed: the same seed, model and options give the same articles, byte for byte. */
  seed: number
  /** The model. Defaults to the committed model (`model/pubmed-model.json`). */
  model?: CorpusModel
  /** Index of the first article, to produce a slice of a larger corpus. Defaults to `0`. */
  start?: number
  /** PMID base: article `i` has PMID `firstPmid + 3i + {0, 1, 2}`. Defaults to `10000000`. */
  firstPmid?: number
}

/** Makes articles of one model; article `i` of seed `s` is a pure function of `(model, s, i)`. */
export interface ArticleGenerator {
  /** The model. */
  readonly model: CorpusModel
  /** The vocabulary sampler (ranks ↔ words, topics). */
  readonly vocabulary: VocabularySampler
  /**
   * The article at an index.
   * @param seed - the corpus seed
   * @param index - the article's 0-based index in the corpus
   * @param firstPmid - PMID base. Defaults to `10000000`.
   */
  article(seed: number, index: number, firstPmid?: number): Article
}

const NUMBERS: readonly string[] = Array.from({ length: 400 }, (_, i) => String(i))
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const SEASONS = ['Winter', 'Spring', 'Summer', 'Fall']
const JOURNAL_NOUNS = [
  'Journal',
  'Research',
  'Reports',
  'Letters',
  'Review',
  'Medicine',
  'Science',
  'Archives',
]
const JOURNAL_ABBREVIATIONS: Record<string, string> = {
  Journal: 'J',
  Research: 'Res',
  Reports: 'Rep',
  Letters: 'Lett',
  Review: 'Rev',
  Medicine: 'Med',
  Science: 'Sci',
  Archives: 'Arch',
}

/** An alias table over a model's frequencies; an empty table (a small sample) draws `fallback`. */
function weighted<T>(table: Weighted<T>, fallback: T): { values: T[]; alias: AliasTable } {
  return table.values.length === 0
    ? { values: [fallback], alias: createAliasTable([1]) }
    : { values: table.values, alias: createAliasTable(table.weights) }
}

function pick<T>(table: { values: T[]; alias: AliasTable }, rng: Rng): T {
  return table.values[table.alias.sample(rng)]!
}

/** ISSN check digit (weights 8 … 2, mod 11, `X` for 10). */
function issn(seed: number): string {
  const digits = String(1000000 + (seed % 9000000)).slice(-7)
  let sum = 0
  for (let i = 0; i < 7; i++) {
    sum += Number(digits[i]) * (8 - i)
  }
  const check = (11 - (sum % 11)) % 11
  return `${digits.slice(0, 4)}-${digits.slice(4)}${check === 10 ? 'X' : String(check)}`
}

/** An ORCID iD with a valid ISO 7064 11,2 check character. */
function orcid(rng: Rng): string {
  let base = '000'
  base += String(rng.int(4))
  for (let i = 0; i < 11; i++) {
    base += String(rng.int(10))
  }
  let total = 0
  for (const c of base) {
    total = (total + Number(c)) * 2
  }
  const check = (12 - (total % 11)) % 11
  const all = base + (check === 10 ? 'X' : String(check))
  return `${all.slice(0, 4)}-${all.slice(4, 8)}-${all.slice(8, 12)}-${all.slice(12)}`
}

function initialsOf(foreName: string): string {
  return foreName
    .split(/[\s-]+/)
    .filter((part) => part.length > 0)
    .map((part) => part[0]!.toUpperCase())
    .join('')
}

/** `start-end` with the end's leading digits shared with the start dropped, as MEDLINE writes it. */
function pagination(start: number, pages: number): string {
  const end = start + Math.max(0, pages - 1)
  if (end === start) {
    return String(start)
  }
  const a = String(start)
  const b = String(end)
  let i = 0
  if (a.length === b.length) {
    while (i < b.length - 1 && a[i] === b[i]) {
      i++
    }
  }
  return `${a}-${b.slice(i)}`
}

/**
 * Builds the generator of a model (alias tables for every distribution; tens of milliseconds).
 * Reuse it:
 * {@link generateCorpus} makes one per call.
 * @param model - the corpus model. Defaults to the committed model.
 */
export function createArticleGenerator(model: CorpusModel = loadCorpusModel()): ArticleGenerator {
  const { text, mesh, metadata: meta } = model
  const vocab = createVocabularySampler(text.vocabulary)
  const { topics } = text.vocabulary
  const T = topics.count

  const statuses = weighted(meta.statuses, { status: 'MEDLINE', owner: 'NLM', meshShare: 1 })
  const languages = weighted(meta.languages, ['eng'])
  const publicationTypes = weighted<[string, string][]>(meta.publicationTypes, [
    ['D016428', 'Journal Article'],
  ])
  const years = weighted(meta.years, 2015)
  const dateShapes = weighted(meta.dateShapes, 'ym')
  const layouts = weighted(text.layouts, [{ share: 1 }])
  const topicsPerArticle = createAliasTable(topics.perArticle)
  const lastNames = weighted(meta.authors.lastNames, 'Smith')
  const foreNames = weighted(meta.authors.foreNames, 'J')
  const foreNameInitials = foreNames.values.map(initialsOf)
  const departments = weighted(meta.authors.departments, 'Department of Medicine')
  const sites = weighted(meta.authors.sites, 'University Hospital, Uppsala, Sweden.')
  const qualifiers = weighted<[string, string]>(mesh.qualifiers, ['Q000378', 'metabolism'])
  const chemicals = weighted<[string, string, string]>(meta.chemicals.entries, [
    '0',
    'D010455',
    'Peptides',
  ])

  // Journals: real ones by popularity, then synthetic ones, Zipf–Mandelbrot over all of them.
  const journalCount = Math.max(meta.journals.total, meta.journals.entries.length)
  const journalWeights = new Float64Array(journalCount)
  for (let r = 1; r <= journalCount; r++) {
    journalWeights[r - 1] = (r + meta.journals.q) ** -meta.journals.s
  }
  const journalAlias = createAliasTable(journalWeights)
  const countries = meta.journals.entries
    .map((j) => j.country)
    .filter((c): c is string => c !== undefined)
  const journalCache = new Map<number, JournalEntry>()
  const slugs = new Map<JournalEntry, string>()
  const doiSlug = (entry: JournalEntry): string => {
    let slug = slugs.get(entry)
    if (slug === undefined) {
      slug = entry.medlineTa.toLowerCase().replace(/[^a-z0-9]+/g, '')
      slugs.set(entry, slug)
    }
    return slug
  }
  const journalEntry = (rank: number): JournalEntry => {
    const real = meta.journals.entries[rank - 1]
    if (real !== undefined) {
      return real
    }
    let entry = journalCache.get(rank)
    if (entry === undefined) {
      const h = mix32(rank * 0x9e3779b1)
      const word = capitalize(syntheticWord(h % 1_000_000))
      const noun = JOURNAL_NOUNS[h % JOURNAL_NOUNS.length]!
      const abbreviation = `${JOURNAL_ABBREVIATIONS[noun]!} ${word.slice(0, 6)}`
      entry = {
        title: `${noun} of ${word}`,
        isoAbbreviation: `${abbreviation.replace(' ', '. ')}.`,
        medlineTa: abbreviation,
        issn: issn(h),
        issnType: (h & 1) === 0 ? 'Print' : 'Electronic',
        nlmUniqueId: String(100000000 + (h % 900000000)),
        ...(countries.length > 0 ? { country: countries[h % countries.length]! } : {}),
      }
      journalCache.set(rank, entry)
    }
    return entry
  }

  // MeSH: global popularity, per-topic tables, acceptance that keeps the marginal law exact.
  const descriptors = mesh.descriptors
  const descriptorWeights = descriptors.map(
    (_, i) => (i + 1 + mesh.popularity.q) ** -mesh.popularity.s,
  )
  const descriptorAlias = createAliasTable(descriptorWeights)
  const topicDescriptors: number[][] = Array.from({ length: T }, () => [])
  descriptors.forEach((d, i) => {
    if (d[4] >= 0 && d[4] < T) {
      topicDescriptors[d[4]]!.push(i)
    }
  })
  const topicDescriptorAlias = topicDescriptors.map((list) =>
    list.length === 0 ? undefined : createAliasTable(list.map((i) => descriptorWeights[i]!)),
  )
  const topicalDescriptorMass = topicDescriptorAlias.reduce((s, a) => s + (a?.total ?? 0), 0)
  // Article topics are drawn in proportion to word-topic mass M_t; a topical descriptor draw for
  // topic t is accepted with probability a_t = c·D_t / (M_t/ΣM), c the largest value keeping
  // a_t ≤ 1, which keeps every descriptor's marginal probability exact (README, "MeSH").
  const wordTopicTotal = vocab.topicMasses.reduce((s, m) => s + m, 0)
  const ratio = Array.from({ length: T }, (_, t) => {
    const d = (topicDescriptorAlias[t]?.total ?? 0) / (topicalDescriptorMass || 1)
    return d > 0 ? d / (vocab.topicMasses[t]! / wordTopicTotal) : 0
  })
  const maxRatio = Math.max(0, ...ratio)
  const acceptance = ratio.map((r) => (maxRatio > 0 ? r / maxRatio : 0))

  // Commas: the gap to the next one is geometric with the real rate (one draw per comma).
  const commaLog = Math.log1p(-Math.min(0.999, Math.max(1e-9, text.commaRate)))
  const commaGap = (rng: Rng): number => 1 + Math.floor(Math.log(1 - rng.float()) / commaLog)
  const renderSentence = (ranks: Int32Array, from: number, to: number, rng: Rng): string => {
    let out = capitalize(vocab.word(ranks[from]!))
    let comma = from + 1 + commaGap(rng)
    for (let i = from + 1; i < to; i++) {
      if (i === comma) {
        out += ','
        comma += commaGap(rng)
      }
      out += vocab.spacedWord(ranks[i]!)
    }
    return `${out}.`
  }

  // Scratch buffers of word ranks, reused across articles (generation is synchronous).
  let abstractBuffer = new Int32Array(4096)
  let titleBuffer = new Int32Array(256)

  const article = (seed: number, index: number, firstPmid = 10_000_000): Article => {
    const rng = createRng(seed, index)
    const pmid = firstPmid + 3 * index + rng.int(3)
    const status = pick(statuses, rng)
    const language = pick(languages, rng)
    const year = pick(years, rng)

    // Topics of the article.
    const k = topicsPerArticle.sample(rng) + 1
    const articleTopics: number[] = []
    for (let i = 0; i < k; i++) {
      articleTopics.push(vocab.topic(rng))
    }
    const topicalDraw = (rng: Rng): number => vocab.topical(articleTopics[rng.int(k)]!, rng)

    // Abstract.
    const abstract: AbstractSection[] = []
    const content: number[] = []
    if (rng.float() < text.abstractShare) {
      const structured = rng.float() < text.structuredShare
      const length = Math.max(
        1,
        sampleCount(structured ? text.structuredTokens : text.unstructuredTokens, rng),
      )
      if (length > abstractBuffer.length) {
        abstractBuffer = new Int32Array(length * 2)
      }
      const ranks = abstractBuffer
      vocab.fillText(
        rng,
        ranks,
        length,
        articleTopics,
        text.vocabulary.repeatShare,
        topics.abstractShare,
        content,
      )
      const layout = structured ? pick(layouts, rng) : [{ share: 1 }]
      let cumulative = 0
      let from = 0
      for (const section of layout) {
        cumulative += section.share
        const to =
          section === layout[layout.length - 1]
            ? length
            : Math.min(length, Math.round(length * cumulative))
        if (to <= from) {
          continue
        }
        let body = ''
        let i = from
        while (i < to) {
          let n = Math.max(3, sampleCount(text.sentenceTokens, rng))
          if (to - (i + n) < 3) {
            n = to - i
          }
          body =
            body === ''
              ? renderSentence(ranks, i, i + n, rng)
              : `${body} ${renderSentence(ranks, i, i + n, rng)}`
          i += n
        }
        const out: AbstractSection = { text: body }
        if (section.label !== undefined) {
          out.label = section.label
        }
        if (section.nlmCategory !== undefined) {
          out.nlmCategory = section.nlmCategory
        }
        abstract.push(out)
        from = to
      }
    }

    // Title: fewer function words; content words partly copied from the abstract.
    const titleLength = Math.max(1, sampleCount(text.titleTokens, rng))
    if (titleLength > titleBuffer.length) {
      titleBuffer = new Int32Array(titleLength * 2)
    }
    const titleRanks = titleBuffer
    const titleWord = (): number => {
      if (rng.float() < text.vocabulary.titleFunctionShare) {
        return vocab.functionWord(rng)
      }
      if (content.length > 0 && rng.float() < text.vocabulary.titleFromAbstract) {
        return content[rng.int(content.length)]!
      }
      const r = vocab.contentWord(rng)
      return vocab.topicOf(r) >= 0 && rng.float() < topics.titleShare ? topicalDraw(rng) : r
    }
    for (let i = 0; i < titleLength; i++) {
      let r = titleWord()
      // A title does not start with a number.
      for (let tries = 0; i === 0 && tries < 20 && /^\d/.test(vocab.word(r)); tries++) {
        r = titleWord()
      }
      titleRanks[i] = r
    }
    let title = capitalize(vocab.word(titleRanks[0]!))
    for (let i = 1; i < titleLength; i++) {
      title += vocab.spacedWord(titleRanks[i]!)
    }
    title = language.includes('eng') ? `${title}.` : `[${title}].`

    // Journal, dates, pages.
    const journalRank = journalAlias.sample(rng) + 1
    const entry = journalEntry(journalRank)
    const founded = 1900 + (mix32(journalRank) % 110)
    const journal: Journal = {
      title: entry.title,
      isoAbbreviation: entry.isoAbbreviation,
      medlineTa: entry.medlineTa,
      issn: entry.issn,
      issnType: entry.issnType,
      nlmUniqueId: entry.nlmUniqueId,
      country: entry.country,
      volume: NUMBERS[Math.max(1, year - founded)] ?? String(Math.max(1, year - founded)),
      issue: NUMBERS[1 + rng.int(12)]!,
    }
    const month = 1 + rng.int(12)
    const day = 1 + rng.int(28)
    const shape = pick(dateShapes, rng)
    const pubDate: PartialDate =
      shape === 'y'
        ? { year }
        : shape === 'ym'
          ? { year, month }
          : shape === 'ymd'
            ? { year, month, day }
            : shape === 'season'
              ? { year, season: SEASONS[Math.floor((month % 12) / 3)]! }
              : {
                  medlineDate: `${year} ${MONTHS[month - 1]!}-${MONTHS[Math.min(11, month)]!}`,
                  year,
                  month,
                }
    const history: HistoryDate[] = []
    const before = (months: number): PartialDate => {
      const total = year * 12 + (month - 1) - months
      return { year: Math.floor(total / 12), month: (total % 12) + 1, day: 1 + rng.int(28) }
    }
    if (rng.float() < meta.history.received) {
      history.push({ status: 'received', date: before(4 + rng.int(8)) })
    }
    if (rng.float() < meta.history.revised) {
      history.push({ status: 'revised', date: before(2 + rng.int(2)) })
    }
    if (rng.float() < meta.history.accepted) {
      history.push({ status: 'accepted', date: before(1 + rng.int(2)) })
    }
    if (rng.float() < meta.history.pubmed) {
      const d = before(1)
      for (const s of ['pubmed', 'medline', 'entrez']) {
        history.push({ status: s, date: d })
      }
    }

    // Authors.
    const authorCount = sampleCount(meta.authors.count, rng)
    const authors: Author[] = []
    let lastAffiliation: string | undefined
    for (let i = 0; i < authorCount; i++) {
      if (rng.float() < meta.authors.collectiveShare) {
        authors.push({
          collectiveName: `${capitalize(syntheticWord(rng.int(1_000_000)))} Study Group`,
          affiliations: [],
          identifiers: [],
          valid: true,
        })
        continue
      }
      const lastName =
        rng.float() < meta.authors.realNameShare
          ? pick(lastNames, rng)
          : capitalize(syntheticWord(Math.floor(Math.exp(rng.float() * Math.log(2_000_000))) - 1))
      const f = foreNames.alias.sample(rng)
      const author: Author = {
        lastName,
        foreName: foreNames.values[f]!,
        initials: foreNameInitials[f]!,
        affiliations: [],
        identifiers: [],
        valid: true,
      }
      if (
        rng.float() <
        (i === 0 ? meta.authors.affiliationShare.first : meta.authors.affiliationShare.other)
      ) {
        if (lastAffiliation === undefined || rng.float() >= meta.authors.sameAffiliationShare) {
          const site = pick(sites, rng)
          lastAffiliation =
            rng.float() < meta.authors.departmentShare ? `${pick(departments, rng)}, ${site}` : site
        }
        author.affiliations.push(lastAffiliation)
      }
      if (rng.float() < meta.authors.orcidShare) {
        author.identifiers.push({ source: 'ORCID', value: orcid(rng) })
      }
      authors.push(author)
    }

    // MeSH headings and chemicals (MEDLINE-indexed citations only).
    const headings: MeshHeading[] = []
    const chemicalList: Chemical[] = []
    if (descriptors.length > 0 && rng.float() < status.meshShare) {
      const count = Math.min(descriptors.length, Math.max(1, sampleCount(mesh.headingCount, rng)))
      const chosen = new Set<number>()
      for (let attempt = 0; chosen.size < count && attempt < count * 20; attempt++) {
        let d = descriptorAlias.sample(rng)
        if (descriptors[d]![4] >= 0 && rng.float() < topics.meshShare) {
          const t = articleTopics[rng.int(k)]!
          const table = topicDescriptorAlias[t]
          if (table !== undefined && rng.float() < acceptance[t]!) {
            d = topicDescriptors[t]![table.sample(rng)]!
          }
        }
        if (chosen.has(d)) {
          continue
        }
        chosen.add(d)
        const [ui, name, qualifierShare, majorShare] = descriptors[d]!
        const heading: MeshHeading = {
          descriptorName: name,
          majorTopic: false,
          qualifiers: [],
          descriptorUi: ui,
        }
        if (rng.float() < qualifierShare) {
          const n = Math.max(1, sampleCount(mesh.qualifierCount, rng))
          const names = new Set<string>()
          for (let j = 0; j < n * 5 && heading.qualifiers.length < n; j++) {
            const [qui, qname] = pick(qualifiers, rng)
            if (!names.has(qname)) {
              names.add(qname)
              const q: MeshQualifier = { name: qname, majorTopic: false, ui: qui }
              heading.qualifiers.push(q)
            }
          }
        }
        if (rng.float() < majorShare) {
          if (heading.qualifiers.length > 0) {
            for (const q of heading.qualifiers) {
              q.majorTopic = rng.float() < mesh.qualifierMajorShare
            }
            if (!heading.qualifiers.some((q) => q.majorTopic)) {
              heading.qualifiers[rng.int(heading.qualifiers.length)]!.majorTopic = true
            }
          } else {
            heading.majorTopic = true
          }
        }
        headings.push(heading)
      }
      headings.sort((a, b) =>
        a.descriptorName < b.descriptorName ? -1 : a.descriptorName > b.descriptorName ? 1 : 0,
      )
      if (meta.chemicals.entries.values.length > 0 && rng.float() < meta.chemicals.share) {
        const n = Math.max(1, sampleCount(meta.chemicals.count, rng))
        const seen = new Set<string>()
        for (let j = 0; j < n * 5 && chemicalList.length < n; j++) {
          const [registryNumber, ui, name] = pick(chemicals, rng)
          if (!seen.has(ui)) {
            seen.add(ui)
            chemicalList.push({ registryNumber, ui, name })
          }
        }
      }
    }

    // Keywords: runs of the article's own content words.
    const keywords: Keyword[] = []
    const source =
      content.length > 0
        ? content
        : Array.from(titleRanks.subarray(0, titleLength)).filter((r) => !vocab.isFunction(r))
    if (source.length > 0 && rng.float() < meta.keywords.share) {
      const n = Math.max(1, sampleCount(meta.keywords.count, rng))
      const seen = new Set<string>()
      for (let j = 0; j < n * 3 && keywords.length < n; j++) {
        const w = Math.max(1, Math.min(source.length, sampleCount(meta.keywords.words, rng)))
        const at = rng.int(source.length - w + 1)
        if (/^\d/.test(vocab.word(source[at]!))) {
          continue
        }
        let phrase = vocab.word(source[at]!)
        for (let m = 1; m < w; m++) {
          phrase += ` ${vocab.word(source[at + m]!)}`
        }
        if (!seen.has(phrase)) {
          seen.add(phrase)
          keywords.push({ text: phrase, owner: 'NOTNLM', majorTopic: false })
        }
      }
    }

    // Identifiers.
    const articleIds: ArticleId[] = []
    if (rng.float() < meta.articleIds.pii && entry.issn !== undefined) {
      articleIds.push({
        type: 'pii',
        value: `S${entry.issn}(${String(year % 100).padStart(2, '0')})${String(pmid % 100000).padStart(5, '0')}-${pmid % 10}`,
      })
    }
    if (rng.float() < meta.articleIds.doi) {
      const prefix = 1000 + (mix32(journalRank + 7) % 9000)
      articleIds.push({
        type: 'doi',
        value: `10.${prefix}/${doiSlug(entry)}.${year}.${pmid}`,
      })
    }
    if (rng.float() < meta.articleIds.pmc) {
      articleIds.push({ type: 'pmc', value: `PMC${pmid - 6_000_000}` })
    }
    if (rng.float() < meta.articleIds.mid) {
      articleIds.push({ type: 'mid', value: `NIHMS${pmid - 9_000_000}` })
    }

    const result: Article = {
      id: String(pmid),
      version: 1,
      source: 'pubmed',
      title,
      abstract,
      otherAbstracts: [],
      languages: [...language],
      journal,
      pubDate,
      history,
      authors,
      authorListComplete: true,
      mesh: headings,
      supplementaryConcepts: [],
      chemicals: chemicalList,
      keywords,
      publicationTypes: pick(publicationTypes, rng).map(([ui, name]) =>
        ui === '' ? { name } : { ui, name },
      ),
      articleIds,
      citationStatus: status.status,
      owner: status.owner,
      commentsCorrections: [],
    }
    if (abstract.length > 0 && rng.float() < meta.copyrightShare) {
      result.copyright = `© ${year} The Authors.`
    }
    if (rng.float() < meta.electronicDateShare) {
      result.electronicDate = before(0)
    }
    if (status.status === 'MEDLINE' || status.status === 'OLDMEDLINE') {
      result.dateCompleted = {
        year: year + rng.int(2),
        month: 1 + rng.int(12),
        day: 1 + rng.int(28),
      }
    }
    if (rng.float() < meta.dateRevisedShare) {
      result.dateRevised = {
        year: year + 1 + rng.int(3),
        month: 1 + rng.int(12),
        day: 1 + rng.int(28),
      }
    }
    if (rng.float() < meta.pagination.share) {
      result.pagination = pagination(
        1 + rng.int(2000),
        Math.max(1, sampleCount(meta.pagination.pages, rng)),
      )
    }
    return result
  }
  return { model, vocabulary: vocab, article }
}

/**
 * Generates a synthetic PubMed-like corpus: `size` articles with unique, increasing PMIDs.
 * Deterministic: the same seed and model give byte-identical articles, and article `i` does not
 * depend on the articles before it (`start` produces any slice, e.g. one per worker). A sync
 * generator (it never waits), so `for … of` and `for await … of` both work.
 * @param options - see {@link GenerateOptions}
 * @throws PubmatchError `INVALID_ARGUMENT` for a size or start that is not a non-negative integer
 */
export function generateCorpus(options: GenerateOptions): Generator<Article, void, undefined> {
  const { size, seed } = options
  const start = options.start ?? 0
  if (
    !Number.isInteger(size) ||
    size < 0 ||
    !Number.isInteger(start) ||
    start < 0 ||
    !Number.isInteger(seed)
  ) {
    throw new PubmatchError(
      'INVALID_ARGUMENT',
      `@pubmatch/synth: generateCorpus needs integer size ≥ 0, start ≥ 0 and seed (got size ${size}, start ${start}, seed ${seed})`,
    )
  }
  const generator = createArticleGenerator(options.model ?? loadCorpusModel())
  return articlesOf(generator, seed, start, size, options.firstPmid)
}

function* articlesOf(
  generator: ArticleGenerator,
  seed: number,
  start: number,
  size: number,
  firstPmid: number | undefined,
): Generator<Article, void, undefined> {
  for (let i = start; i < start + size; i++) {
    yield generator.article(seed, i, firstPmid)
  }
}
