import type { Article } from '@pubmatch/core'
import { round6 } from '../distributions.ts'
import type { TopicModel, VocabularyModel } from '../model.ts'
import { createRng, hashString } from '../random.ts'
import { FUNCTION_WORDS, surfaceTerms, tokenTerms } from '../text.ts'
import {
  createVocabularySampler,
  FUNCTION_TOPIC,
  GENERAL_TOPIC,
  isNumericTail,
} from '../vocabulary.ts'
import { fitHeaps, fitZipfMandelbrot, type RankLaw } from '../zipf.ts'
import { sphericalKMeans, type SparseVector } from './kmeans.ts'

/** An article with its title and abstract split into terms. */
export interface PreparedArticle {
  article: Article
  title: string[]
  /** Terms of the whole abstract (sections joined). */
  abstract: string[]
  /** Terms per abstract section. */
  sectionTokens: number[]
}

/**
 * Tokenizes an article's title and abstract sections.
 * @param article - the article
 */
export function prepareArticle(article: Article): PreparedArticle {
  const sectionTokens = article.abstract.map((s) => tokenTerms(s.text).length)
  return {
    article,
    title: tokenTerms(article.title),
    abstract:
      article.abstract.length > 0 ? tokenTerms(article.abstract.map((s) => s.text).join(' ')) : [],
    sectionTokens,
  }
}

/** The largest rank the law may draw (2^30). */
export const MAX_RANK: number = 2 ** 30

/** Options of {@link fitVocabulary}. */
export interface VocabularyFitOptions {
  /** Number of topics. */
  topics: number
  /** Seed of the clustering. */
  seed: number
  /** Copying rate ρ assumed when calibrating the tail on Heaps' law (copies add no new types). */
  repeatShare: number
  /** Share of title content tokens copied from the abstract. */
  titleFromAbstract: number
  /** Content-word vocabulary growth of a larger real corpus (see {@link contentGrowth}). */
  growth?: ContentGrowth
}

/** Vocabulary growth of content words (no function words, no tokens with digits) in a real corpus. */
export interface ContentGrowth {
  /** What the corpus is, for the model's provenance. */
  source: string
  /** `[content tokens, distinct content terms]`. */
  points: [number, number][]
}

/** Whether a term counts as a content word for {@link contentGrowth}: not a function word, no digit. */
export function isGrowthTerm(term: string): boolean {
  return !FUNCTION_WORDS.has(term) && !/\d/.test(term)
}

/**
 * The content-word vocabulary growth of texts: after every `step` content tokens, the number of
 * distinct content terms. Tokens are {@link tokenTerms}; function words and tokens with a digit
 * are left out, and so are the terms in `ignore` (e.g. NFCorpus's number placeholder `num`).
 * @param texts - the documents, in order
 * @param source - a description for the model's provenance
 * @param options - `step` defaults to `5000`; `ignore` to none
 */
export function contentGrowth(
  texts: Iterable<string>,
  source: string,
  options: { step?: number; ignore?: readonly string[] } = {},
): ContentGrowth {
  const step = options.step ?? 5000
  const ignore = new Set(options.ignore ?? [])
  const seen = new Set<string>()
  const points: [number, number][] = []
  let n = 0
  for (const text of texts) {
    for (const term of tokenTerms(text)) {
      if (!isGrowthTerm(term) || ignore.has(term)) {
        continue
      }
      n++
      seen.add(term)
      if (n % step === 0) {
        points.push([n, seen.size])
      }
    }
  }
  return { source, points }
}

/** The vocabulary fit and what the rest of the fit needs from it. */
export interface VocabularyFit {
  vocabulary: VocabularyModel
  /** Cluster of each prepared article with an abstract (`-1` for the others). */
  clusters: Int32Array
  /** Number of clusters. */
  clusterCount: number
  /** Real words whose surface form could not be kept as one token (left out). */
  dropped: number
}

/** Most frequent surface form of a term, when it is not just the lower-case or sentence-case spelling. */
function displayForm(term: string, forms: Map<string, number> | undefined): string {
  if (forms === undefined) {
    return term
  }
  let best = term
  let bestCount = 0
  let total = 0
  for (const [form, count] of forms) {
    total += count
    if (count > bestCount || (count === bestCount && form < best)) {
      best = form
      bestCount = count
    }
  }
  if (best === term) {
    return term
  }
  const sentenceCase = best === best[0]!.toUpperCase() + best.slice(1).toLowerCase()
  // `The` is sentence case because sentences start with it; `Alzheimer` nearly always is.
  if (sentenceCase && bestCount < 0.9 * total) {
    return term
  }
  return best
}

/**
 * Fits the vocabulary: real words in rank order with their surface forms, the Zipf–Mandelbrot
 * head (maximum likelihood on abstract term counts), Heaps' law, the tail calibrated on it,
 * topics (spherical k-means over the abstracts) and the topical shares (held-out estimate).
 * @param prepared - the real articles, tokenized
 * @param options - see {@link VocabularyFitOptions}
 */
export function fitVocabulary(
  prepared: readonly PreparedArticle[],
  options: VocabularyFitOptions,
): VocabularyFit {
  const abstractCounts = new Map<string, number>()
  const allCounts = new Map<string, number>()
  const heapsPoints: [number, number][] = []
  let abstractTokens = 0
  let titleTokens = 0
  let titleFunction = 0
  for (const p of prepared) {
    for (const term of p.abstract) {
      abstractCounts.set(term, (abstractCounts.get(term) ?? 0) + 1)
      allCounts.set(term, (allCounts.get(term) ?? 0) + 1)
      abstractTokens++
      if (abstractTokens % 2000 === 0) {
        heapsPoints.push([abstractTokens, abstractCounts.size])
      }
    }
    for (const term of p.title) {
      allCounts.set(term, (allCounts.get(term) ?? 0) + 1)
      titleTokens++
      if (FUNCTION_WORDS.has(term)) {
        titleFunction++
      }
    }
  }

  // Surface forms: each case-kept token that normalises to exactly one term.
  const forms = new Map<string, Map<string, number>>()
  for (const p of prepared) {
    const texts = [p.article.title, ...p.article.abstract.map((s) => s.text)]
    for (const text of texts) {
      for (const surface of surfaceTerms(text)) {
        const terms = tokenTerms(surface)
        if (terms.length === 1) {
          let m = forms.get(terms[0]!)
          if (m === undefined) {
            m = new Map()
            forms.set(terms[0]!, m)
          }
          m.set(surface, (m.get(surface) ?? 0) + 1)
        }
      }
    }
  }

  // Real words by count over titles and abstracts, ties by hash; keep only words that
  // tokenize back to themselves.
  let dropped = 0
  const ordered = [...allCounts.entries()]
    .sort((a, b) => b[1] - a[1] || hashString(a[0]) - hashString(b[0]) || (a[0] < b[0] ? -1 : 1))
    .map(([term]) => term)
    .filter((term) => {
      const back = tokenTerms(term)
      const ok = back.length === 1 && back[0] === term
      if (!ok) {
        dropped++
      }
      return ok
    })
  const words = ordered.map((term) => {
    const form = displayForm(term, forms.get(term))
    const back = tokenTerms(form)
    return back.length === 1 && back[0] === term ? form : term
  })
  const functionRanks = ordered.flatMap((term, i) => (FUNCTION_WORDS.has(term) ? [i + 1] : []))

  // Head law and Heaps' law.
  const ranked = [...abstractCounts.values()].sort((a, b) => b - a)
  const zipf = fitZipfMandelbrot(ranked, { minCount: 5 })
  const rare = [...abstractCounts.entries()].filter(([, n]) => n < 5)
  const numericTailShare =
    rare.filter(([term]) => /\d/.test(term)).length / Math.max(1, rare.length)
  const heaps = fitHeaps(heapsPoints)
  const tail = calibrateTail({
    s: zipf.s,
    q: zipf.q,
    fitRanks: zipf.ranks,
    words: ordered,
    functionRanks,
    counted: ordered.map(isGrowthTerm),
    lengths: prepared.filter((p) => p.abstract.length > 0).map((p) => p.abstract.length),
    points: heapsPoints,
    growth: options.growth?.points ?? [],
    repeatShare: options.repeatShare,
    numericTailShare,
    seed: options.seed,
  })

  // Topics.
  const { clusters, clusterCount, topics } = fitTopics(prepared, ordered, tail.breakRank, options)

  const vocabulary: VocabularyModel = {
    words,
    functionRanks,
    numericTailShare: round6(numericTailShare),
    law: {
      s: round6(zipf.s),
      q: round6(zipf.q),
      breakRank: tail.breakRank,
      tailExponent: round6(tail.tailExponent),
      maxRank: MAX_RANK,
      fitRanks: zipf.ranks,
    },
    heaps: {
      k: round6(heaps.k),
      beta: round6(heaps.beta),
      points: heapsPoints,
      ...(options.growth === undefined ? {} : { growth: options.growth }),
    },
    titleFunctionShare: round6(titleFunction / titleTokens),
    titleFromAbstract: round6(options.titleFromAbstract),
    repeatShare: round6(options.repeatShare),
    topics,
  }
  return { vocabulary, clusters, clusterCount, dropped }
}

/**
 * Growth below this many tokens (about 100 abstracts) is not used for the tail: it depends on
 * the few abstracts that happen to come first more than on the vocabulary.
 */
const MIN_CALIBRATION_TOKENS = 20_000

/** Up to 16 points of a curve from {@link MIN_CALIBRATION_TOKENS} on, log-spaced in tokens. */
function logSpaced(points: readonly [number, number][]): [number, number][] {
  const usable = points.filter(([n]) => n >= MIN_CALIBRATION_TOKENS)
  if (usable.length === 0) {
    return []
  }
  const lo = Math.log(usable[0]![0])
  const hi = Math.log(usable[usable.length - 1]![0])
  const chosen: [number, number][] = []
  for (let i = 0; i < 16; i++) {
    const target = Math.exp(lo + ((hi - lo) * i) / 15)
    let best = usable[0]!
    for (const point of usable) {
      if (Math.abs(Math.log(point[0] / target)) < Math.abs(Math.log(best[0] / target))) {
        best = point
      }
    }
    if (chosen.length === 0 || chosen[chosen.length - 1]![0] !== best[0]) {
      chosen.push(best)
    }
  }
  return chosen
}

/** What {@link calibrateTail} needs besides the head law. */
interface TailCalibration {
  s: number
  q: number
  fitRanks: number
  /** The real words (ranks 1 … n), to build a sampler. */
  words: readonly string[]
  functionRanks: readonly number[]
  /** Which real words are content words in the sense of {@link isGrowthTerm}. */
  counted: readonly boolean[]
  /** Real abstract lengths in corpus order (the simulated stream reuses them, cycling). */
  lengths: readonly number[]
  /** The sample's Heaps curve `[tokens, types]`. */
  points: readonly [number, number][]
  /** Content-word growth of a larger corpus `[content tokens, content types]`. */
  growth: readonly [number, number][]
  /** Copying rate ρ. */
  repeatShare: number
  /** Share of numbers among the synthetic tail words. */
  numericTailShare: number
  seed: number
}

/**
 * Chooses the break rank and tail exponent by simulation: abstracts of the real lengths are
 * drawn from the candidate law with the copying rate ρ (topics left out: they hardly change the
 * number of types), and the simulated growth is compared with the real growth, the Heaps curve of
 * the sample's abstracts (all tokens) and, when given, the content-word curve of a larger corpus.
 * Each curve contributes the mean squared log error at 16 log-spaced points. The same random
 * numbers are used for every candidate, so the error is a smooth function of the parameters.
 * (A closed-form expectation for independent draws overstates early growth: real and
 * synthetic abstracts repeat their words.)
 */
function calibrateTail(input: TailCalibration): { breakRank: number; tailExponent: number } {
  const all = logSpaced(input.points)
  const content = logSpaced(input.growth)
  const realWords = input.words.length
  const maxTokens = all.length > 0 ? all[all.length - 1]![0] : 0
  const maxContent = content.length > 0 ? content[content.length - 1]![0] : 0
  const buffer = new Int32Array(Math.max(1, ...input.lengths))
  const error = (law: RankLaw): number => {
    const sampler = createVocabularySampler({
      words: [...input.words],
      functionRanks: [...input.functionRanks],
      numericTailShare: input.numericTailShare,
      law: { ...law, fitRanks: input.fitRanks },
      heaps: { k: 0, beta: 0, points: [] },
      titleFunctionShare: 0,
      titleFromAbstract: 0,
      repeatShare: input.repeatShare,
      topics: {
        count: 1,
        wordTopics: input.words.map(() => 0),
        perArticle: [1],
        abstractShare: 0,
        titleShare: 0,
        meshShare: 0,
      },
    })
    const seen = new Set<number>()
    const seenContent = new Set<number>()
    let tokens = 0
    let contentTokens = 0
    let nextAll = 0
    let nextContent = 0
    let sum = 0
    for (let doc = 0; nextAll < all.length || nextContent < content.length; doc++) {
      const length = input.lengths[doc % input.lengths.length]!
      const rng = createRng(input.seed, doc)
      const copies: number[] = []
      sampler.fillText(rng, buffer, length, [0], input.repeatShare, 0, copies)
      for (let i = 0; i < length; i++) {
        const r = buffer[i]!
        seen.add(r)
        tokens++
        if (nextAll < all.length && tokens === all[nextAll]![0]) {
          const d = Math.log(seen.size / all[nextAll]![1])
          sum += (d * d) / all.length
          nextAll++
        }
        if (
          r > realWords
            ? !isNumericTail(r - realWords - 1, input.numericTailShare)
            : input.counted[r - 1]!
        ) {
          seenContent.add(r)
          contentTokens++
          if (nextContent < content.length && contentTokens === content[nextContent]![0]) {
            const d = Math.log(seenContent.size / content[nextContent]![1])
            sum += (d * d) / content.length
            nextContent++
          }
        }
      }
      if (tokens > 50 * Math.max(maxTokens, maxContent)) {
        break
      }
    }
    return sum
  }
  let best = { breakRank: input.fitRanks, tailExponent: 2, error: Infinity }
  for (let j = 0; j <= 6; j++) {
    const breakRank = Math.round(input.fitRanks * 2 ** (j / 2))
    // Golden-section search on the tail exponent.
    let a = 1.05
    let b = 4
    const ratio = (Math.sqrt(5) - 1) / 2
    const at = (t: number): number =>
      error({ s: input.s, q: input.q, breakRank, tailExponent: t, maxRank: MAX_RANK })
    let c = b - ratio * (b - a)
    let d = a + ratio * (b - a)
    let fc = at(c)
    let fd = at(d)
    while (b - a > 0.005) {
      if (fc < fd) {
        b = d
        d = c
        fd = fc
        c = b - ratio * (b - a)
        fc = at(c)
      } else {
        a = c
        c = d
        fc = fd
        d = a + ratio * (b - a)
        fd = at(d)
      }
    }
    const t = (a + b) / 2
    const e = at(t)
    if (e < best.error) {
      best = { breakRank, tailExponent: t, error: e }
    }
  }
  return { breakRank: best.breakRank, tailExponent: best.tailExponent }
}

/** Word-topic assignment from clustered documents: argmax lift ≥ 2, else general. */
function assignWordTopics(
  prepared: readonly PreparedArticle[],
  clusters: Int32Array,
  k: number,
  include: (index: number) => boolean,
): Map<string, number> {
  const perCluster = new Map<string, Float64Array>()
  const clusterTokens = new Float64Array(k)
  let total = 0
  prepared.forEach((p, i) => {
    const c = clusters[i]!
    if (c < 0 || !include(i)) {
      return
    }
    for (const term of [...p.title, ...p.abstract]) {
      if (FUNCTION_WORDS.has(term)) {
        continue
      }
      let counts = perCluster.get(term)
      if (counts === undefined) {
        counts = new Float64Array(k)
        perCluster.set(term, counts)
      }
      counts[c] = counts[c]! + 1
      clusterTokens[c] = clusterTokens[c]! + 1
      total++
    }
  })
  const topics = new Map<string, number>()
  for (const [term, counts] of perCluster) {
    let sum = 0
    for (const v of counts) {
      sum += v
    }
    let best = 0
    let bestLift = -Infinity
    for (let c = 0; c < k; c++) {
      const lift = clusterTokens[c]! > 0 ? counts[c]! / clusterTokens[c]! / (sum / total) : 0
      if (lift > bestLift) {
        bestLift = lift
        best = c
      }
    }
    // A topic word is over-represented in one cluster (lift ≥ 2) and has at least half of its
    // occurrences there; words spread over many clusters are general.
    topics.set(term, bestLift >= 2 && counts[best]! >= sum / 2 ? best : GENERAL_TOPIC)
  }
  return topics
}

function fitTopics(
  prepared: readonly PreparedArticle[],
  ordered: readonly string[],
  breakRank: number,
  options: VocabularyFitOptions,
): { clusters: Int32Array; clusterCount: number; topics: TopicModel } {
  // Features: content terms (no numbers) in ≥ 2 abstracts, weight (1 + ln tf)·ln(N/df).
  const docs = prepared.map((p, i) => ({ p, i })).filter(({ p }) => p.abstract.length > 0)
  const df = new Map<string, number>()
  const bags = docs.map(({ p }) => {
    const bag = new Map<string, number>()
    for (const term of [...p.title, ...p.abstract]) {
      if (!FUNCTION_WORDS.has(term) && !/^\d/.test(term)) {
        bag.set(term, (bag.get(term) ?? 0) + 1)
      }
    }
    for (const term of bag.keys()) {
      df.set(term, (df.get(term) ?? 0) + 1)
    }
    return bag
  })
  const ids = new Map<string, number>()
  for (const [term, n] of [...df.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (n >= 2) {
      ids.set(term, ids.size)
    }
  }
  const vectors: SparseVector[] = bags.map((bag) => {
    const entries = [...bag.entries()]
      .filter(([term]) => ids.has(term))
      .map(([term, tf]): [number, number] => [
        ids.get(term)!,
        (1 + Math.log(tf)) * Math.log(docs.length / df.get(term)!),
      ])
      .sort((a, b) => a[0] - b[0])
    let norm = Math.sqrt(entries.reduce((s, [, w]) => s + w * w, 0))
    if (norm === 0) {
      norm = 1
    }
    return {
      ids: Int32Array.from(entries, ([id]) => id),
      weights: Float64Array.from(entries, ([, w]) => w / norm),
    }
  })
  const clustering = sphericalKMeans(vectors, ids.size, options.topics, options.seed)
  const k = clustering.k
  const clusters = new Int32Array(prepared.length).fill(-1)
  docs.forEach(({ i }, d) => {
    clusters[i] = clustering.assignment[d]!
  })

  // Topic of every real word from all clustered documents.
  const all = assignWordTopics(prepared, clusters, k, () => true)
  const wordTopics = ordered.map((term, index) => {
    const rank = index + 1
    if (FUNCTION_WORDS.has(term)) {
      return FUNCTION_TOPIC
    }
    if (rank > breakRank) {
      return rank % k
    }
    return all.get(term) ?? rank % k
  })

  // Topical shares, estimated on held-out documents: topics from the even documents, measured
  // on the odd ones. For an eligible token the chance its topic is the document's cluster c is
  // λ + (1 − λ)·m_c, m_c the share of eligible tokens in topic c; solve for λ.
  const even = assignWordTopics(prepared, clusters, k, (i) => i % 2 === 0)
  const heldOut = (field: 'title' | 'abstract'): number => {
    const topicTokens = new Float64Array(k)
    let eligible = 0
    const samples: { c: number; t: number }[] = []
    prepared.forEach((p, i) => {
      const c = clusters[i]!
      if (c < 0 || i % 2 === 0) {
        return
      }
      for (const term of p[field]) {
        const t = even.get(term)
        if (t !== undefined && t >= 0) {
          samples.push({ c, t })
          topicTokens[t] = topicTokens[t]! + 1
          eligible++
        }
      }
    })
    if (eligible === 0) {
      return 0
    }
    let hits = 0
    let chance = 0
    for (const { c, t } of samples) {
      if (c === t) {
        hits++
      }
      chance += topicTokens[c]! / eligible
    }
    const f = hits / samples.length
    const f0 = chance / samples.length
    return Math.min(0.9, Math.max(0, (f - f0) / (1 - f0)))
  }
  const abstractShare = round6(heldOut('abstract'))
  return {
    clusters,
    clusterCount: k,
    topics: {
      count: k,
      wordTopics,
      // Not identifiable from one cluster label per abstract: an assumption (README).
      perArticle: [0.5, 0.3, 0.2],
      abstractShare,
      titleShare: round6(heldOut('title')),
      meshShare: abstractShare,
    },
  }
}
