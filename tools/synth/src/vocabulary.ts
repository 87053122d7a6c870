import { PubmatchError } from '@pubmatch/core'
import { createAliasTable, type AliasTable } from './alias.ts'
import type { VocabularyModel } from './model.ts'
import type { Rng } from './random.ts'
import { mix32 } from './random.ts'
import { syntheticNumber, syntheticWord } from './words.ts'
import { createRankSampler, type RankSampler } from './zipf.ts'

/** Topic code of function words. */
export const FUNCTION_TOPIC = -1
/** Topic code of content words spread over all topics (never drawn as topical). */
export const GENERAL_TOPIC = -2

/**
 * Draws word ranks from a {@link VocabularyModel}. Rank `r ≤ realWords` is the real word
 * `words[r − 1]`; higher ranks are synthetic words. Topical draws keep the marginal law
 * exact: an article's topics are chosen in proportion to the topics' mass `M_t` over the
 * topical content words, and a topical draw takes a word of topic `t` with probability
 * `p(w) / M_t`, so that on average over articles every word keeps its probability `p(w)`.
 */
export interface VocabularySampler {
  /** Number of real words. */
  readonly realWords: number
  /** Number of topics. */
  readonly topicCount: number
  /** The rank law, normalised. */
  readonly law: RankSampler
  /** Mass `M_t` of each topic: its head words' probabilities plus its `1/T` share of the tail. */
  readonly topicMasses: Float64Array
  /**
   * The surface form of a rank.
   * @param rank - 1-based
   */
  word(rank: number): string
  /**
   * The surface form of a rank after a space (`' ' + word(rank)`), cached: text is built with
   * one concatenation per word.
   * @param rank - 1-based
   */
  spacedWord(rank: number): string
  /**
   * Whether a rank is a function word.
   * @param rank - 1-based
   */
  isFunction(rank: number): boolean
  /**
   * The topic of a rank: `≥ 0`, {@link FUNCTION_TOPIC} or {@link GENERAL_TOPIC}.
   * @param rank - 1-based
   */
  topicOf(rank: number): number
  /**
   * A rank from the whole law.
   * @param rng - the random stream
   */
  any(rng: Rng): number
  /**
   * A function word's rank, in proportion to the law.
   * @param rng - the random stream
   */
  functionWord(rng: Rng): number
  /**
   * A content word's rank, in proportion to the law.
   * @param rng - the random stream
   */
  contentWord(rng: Rng): number
  /**
   * A topic, in proportion to its mass (how articles choose their topics).
   * @param rng - the random stream
   */
  topic(rng: Rng): number
  /**
   * A rank of a topic's words, in proportion to the law.
   * @param topic - a topic in [0, topicCount)
   * @param rng - the random stream
   */
  topical(topic: number, rng: Rng): number
  /**
   * Fills `ranks` with an abstract's words: each draw from the law; a content word is, with
   * probability `repeatShare`, replaced by a copy of an earlier content word of the same text,
   * else (if it has a topic) with probability `topicalShare` by a draw from one of `topics`.
   * Content words are appended to `content`.
   * @param rng - the random stream
   * @param ranks - the output buffer
   * @param length - the number of words to draw (≤ `ranks.length`)
   * @param topics - the article's topics (at least one)
   * @param repeatShare - ρ
   * @param topicalShare - λ
   * @param content - receives the content words' ranks
   */
  fillText(
    rng: Rng,
    ranks: Int32Array,
    length: number,
    topics: readonly number[],
    repeatShare: number,
    topicalShare: number,
    content: number[],
  ): void
}

const SYNTHETIC_CACHE = 1 << 20

/**
 * Whether the synthetic word at a 0-based tail index is a number: a hash of the index below
 * `share` (the share of numbers among the real rare types).
 * @param index - the index after the real words (`rank − realWords − 1`)
 * @param share - the share of numbers, in [0, 1]
 */
export function isNumericTail(index: number, share: number): boolean {
  return mix32(index ^ 0x5bd1e995) / 4294967296 < share
}

class Vocabulary implements VocabularySampler {
  readonly realWords: number
  readonly topicCount: number
  readonly law: RankSampler
  readonly topicMasses: Float64Array
  private readonly words: readonly string[]
  private readonly realSet: ReadonlySet<string>
  private cache: (string | undefined)[] | undefined
  private readonly spaced: string[]
  private spacedCache: (string | undefined)[] | undefined
  private readonly headAlias: AliasTable
  private readonly tailMass: number
  private readonly breakRank: number
  private readonly covered: number
  private readonly topics: Int16Array
  private readonly functionRanks: Int32Array
  private readonly functionAlias: AliasTable
  private readonly topicRanks: Int32Array[]
  private readonly topicAliases: (AliasTable | undefined)[]
  private readonly topicHeadMass: Float64Array
  private readonly tailShare: number
  private readonly topicAlias: AliasTable
  private readonly numericShare: number
  /** `1 / (1 − tailMass)`. */
  private readonly headScale: number

  constructor(model: VocabularyModel) {
    const { words, law: lawModel } = model
    const realWords = words.length
    const T = model.topics.count
    if (model.topics.wordTopics.length !== realWords || T < 1) {
      throw new PubmatchError(
        'INVALID_ARGUMENT',
        `@pubmatch/synth: vocabulary model is inconsistent (${realWords} words, ${model.topics.wordTopics.length} word topics, ${T} topics)`,
      )
    }
    this.words = words
    this.realWords = realWords
    this.topicCount = T
    const law = createRankSampler(lawModel)
    this.law = law
    this.headAlias = createAliasTable(law.head)
    this.tailMass = law.tailMass
    const breakRank = lawModel.breakRank
    this.breakRank = breakRank
    // Topic of every rank up to the break or the last real word; above, `rank mod T`. The fit
    // gives real words above the break their `rank mod T` topic too, so that tail draws snapped
    // to a topic's residue class land on words of that topic.
    const covered = Math.max(breakRank, realWords)
    this.covered = covered
    const topics = new Int16Array(covered + 1)
    for (let r = 1; r <= covered; r++) {
      topics[r] = r <= realWords ? model.topics.wordTopics[r - 1]! : r % T
    }
    for (const r of model.functionRanks) {
      topics[r] = FUNCTION_TOPIC
    }
    this.topics = topics
    this.functionRanks = Int32Array.from(model.functionRanks)
    this.functionAlias = createAliasTable(model.functionRanks.map((r) => law.probability(r)))
    const topicRanks: number[][] = Array.from({ length: T }, () => [])
    for (let r = 1; r <= breakRank; r++) {
      const t = topics[r]!
      if (t >= 0) {
        topicRanks[t]!.push(r)
      }
    }
    this.tailShare = law.tailMass / T
    this.topicHeadMass = new Float64Array(T)
    this.topicRanks = topicRanks.map((ranks) => Int32Array.from(ranks))
    this.topicAliases = topicRanks.map((ranks, t) => {
      if (ranks.length === 0) {
        return undefined
      }
      const alias = createAliasTable(ranks.map((r) => law.head[r - 1]!))
      this.topicHeadMass[t] = alias.total
      return alias
    })
    this.topicMasses = Float64Array.from(this.topicHeadMass, (m) => m + this.tailShare)
    this.topicAlias = createAliasTable(this.topicMasses)
    this.realSet = new Set(words.map((w) => w.toLowerCase()))
    this.spaced = words.map((w) => ` ${w}`)
    this.numericShare = model.numericTailShare
    this.headScale = 1 / (1 - this.tailMass)
  }

  spacedWord(rank: number): string {
    if (rank <= this.realWords) {
      return this.spaced[rank - 1]!
    }
    const index = rank - this.realWords - 1
    if (index < SYNTHETIC_CACHE) {
      // Allocated on first use, filled (packed elements) so that lookups stay fast.
      this.spacedCache ??= new Array<string | undefined>(SYNTHETIC_CACHE).fill(undefined)
      let cached = this.spacedCache[index]
      if (cached === undefined) {
        cached = ` ${this.word(rank)}`
        this.spacedCache[index] = cached
      }
      return cached
    }
    return ` ${this.word(rank)}`
  }

  private synthetic(index: number): string {
    if (isNumericTail(index, this.numericShare)) {
      let number = syntheticNumber(index)
      // A number that is also a real word gets a 5 more: no other synthetic number has 4 decimals.
      while (this.realSet.has(number)) {
        number += '5'
      }
      return number
    }
    let word = syntheticWord(index)
    // A synthetic word that happens to spell a real word gets a `q`, a letter no syllable uses.
    while (this.realSet.has(word)) {
      word += 'q'
    }
    return word
  }

  word(rank: number): string {
    if (rank <= this.realWords) {
      return this.words[rank - 1]!
    }
    const index = rank - this.realWords - 1
    if (index < SYNTHETIC_CACHE) {
      this.cache ??= new Array<string | undefined>(SYNTHETIC_CACHE).fill(undefined)
      let cached = this.cache[index]
      if (cached === undefined) {
        cached = this.synthetic(index)
        this.cache[index] = cached
      }
      return cached
    }
    return this.synthetic(index)
  }

  isFunction(rank: number): boolean {
    return rank <= this.covered && this.topics[rank] === FUNCTION_TOPIC
  }

  topicOf(rank: number): number {
    return rank <= this.covered ? this.topics[rank]! : rank % this.topicCount
  }

  any(rng: Rng): number {
    const u = rng.float()
    const tail = this.tailMass
    if (u >= tail) {
      return this.headAlias.pick((u - tail) * this.headScale) + 1
    }
    return this.law.tailRank(u / tail)
  }

  functionWord(rng: Rng): number {
    return this.functionRanks[this.functionAlias.sample(rng)]!
  }

  contentWord(rng: Rng): number {
    for (;;) {
      const r = this.any(rng)
      if (r > this.covered || this.topics[r] !== FUNCTION_TOPIC) {
        return r
      }
    }
  }

  topic(rng: Rng): number {
    return this.topicAlias.sample(rng)
  }

  topical(topic: number, rng: Rng): number {
    const headMass = this.topicHeadMass[topic]!
    const u = rng.float() * (headMass + this.tailShare)
    if (u < headMass) {
      return this.topicRanks[topic]![this.topicAliases[topic]!.pick(u / headMass)]!
    }
    // A tail rank moved to the nearest rank of this topic (ranks above the break have topic r mod T).
    const T = this.topicCount
    const r = this.law.tailRank((u - headMass) / this.tailShare)
    let snapped = r - ((((r - topic) % T) + T) % T)
    if (snapped <= this.breakRank) {
      snapped += T * Math.ceil((this.breakRank + 1 - snapped) / T)
    }
    return snapped
  }

  fillText(
    rng: Rng,
    ranks: Int32Array,
    length: number,
    topics: readonly number[],
    repeatShare: number,
    topicalShare: number,
    content: number[],
  ): void {
    const covered = this.covered
    const topicsOf = this.topics
    const k = topics.length
    for (let i = 0; i < length; i++) {
      let r = this.any(rng)
      const t = r <= covered ? topicsOf[r]! : 0
      if (t !== FUNCTION_TOPIC) {
        // One uniform decides copy / topical / keep, and its rescaled rest picks within the case.
        const u = rng.float()
        if (u < repeatShare && content.length > 0) {
          r = content[((u / repeatShare) * content.length) | 0]!
        } else if (t >= 0 && u >= repeatShare) {
          const v = (u - repeatShare) / (1 - repeatShare)
          if (v < topicalShare) {
            r = this.topical(topics[((v / topicalShare) * k) | 0]!, rng)
          }
        }
        content.push(r)
      }
      ranks[i] = r
    }
  }
}

/**
 * Builds the sampler of a vocabulary model (alias tables over the head of the law and per
 * topic; a few milliseconds for a 16k-word head).
 * @param model - the vocabulary part of a corpus model
 * @throws PubmatchError `INVALID_ARGUMENT` for an inconsistent model
 */
export function createVocabularySampler(model: VocabularyModel): VocabularySampler {
  return new Vocabulary(model)
}
