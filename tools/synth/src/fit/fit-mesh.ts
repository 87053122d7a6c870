import type { Article, MeshDescriptor, MeshQualifierRecord } from '@pubmatch/core'
import { fitCountDistribution, round6 } from '../distributions.ts'
import type { DescriptorEntry, MeshModel } from '../model.ts'
import { hashString } from '../random.ts'
import { GENERAL_TOPIC } from '../vocabulary.ts'
import { fitZipfMandelbrot } from '../zipf.ts'

/** Real MeSH records used to complete the sample's descriptors and qualifiers. */
export interface MeshVocabularyInput {
  /** Descriptors (from MeSH descriptor XML): UIs for names the articles give without one, and extra real descriptors for the tail. */
  descriptors: readonly Pick<MeshDescriptor, 'ui' | 'name'>[]
  /** All qualifiers (from the MeSH qualifier XML) with their UIs. */
  qualifiers: readonly Pick<MeshQualifierRecord, 'ui' | 'name'>[]
}

/** Prior weight of the smoothing of per-descriptor shares toward the global share. */
const PRIOR = 2

/**
 * Fits MeSH assignment: headings per article, descriptor popularity (Zipf–Mandelbrot over the
 * descriptors' rank), per-descriptor qualifier and major-topic shares (smoothed toward the
 * global shares), qualifier frequencies (add-one over all qualifiers), and descriptor topics
 * (the cluster where a descriptor is over-represented, by lift ≥ 2; otherwise general).
 * @param articles - the real articles
 * @param clusters - cluster of each article (`-1` when it has none)
 * @param clusterCount - number of clusters
 * @param vocabulary - real MeSH records
 */
export function fitMesh(
  articles: readonly Article[],
  clusters: Int32Array,
  clusterCount: number,
  vocabulary: MeshVocabularyInput,
): MeshModel {
  const uiByName = new Map<string, string>()
  for (const d of vocabulary.descriptors) {
    uiByName.set(d.name, d.ui)
  }
  for (const a of articles) {
    for (const h of a.mesh) {
      if (h.descriptorUi !== undefined) {
        uiByName.set(h.descriptorName, h.descriptorUi)
      }
    }
  }
  const qualifierUi = new Map<string, string>()
  for (const q of vocabulary.qualifiers) {
    qualifierUi.set(q.name, q.ui)
  }
  for (const a of articles) {
    for (const h of a.mesh) {
      for (const q of h.qualifiers) {
        if (q.ui !== undefined && !qualifierUi.has(q.name)) {
          qualifierUi.set(q.name, q.ui)
        }
      }
    }
  }

  interface Tally {
    n: number
    withQualifiers: number
    major: number
    clusters: Float64Array
  }
  const tallies = new Map<string, Tally>()
  const headingCounts: number[] = []
  const qualifierCounts: number[] = []
  const qualifierTally = new Map<string, number>()
  const clusterArticles = new Float64Array(clusterCount)
  let clustered = 0
  let headings = 0
  let withQualifiers = 0
  let major = 0
  let majorQualifiers = 0
  let qualifiersOfMajor = 0
  articles.forEach((a, i) => {
    if (a.mesh.length === 0) {
      return
    }
    headingCounts.push(a.mesh.length)
    const c = clusters[i]!
    if (c >= 0) {
      clusterArticles[c] = clusterArticles[c]! + 1
      clustered++
    }
    for (const h of a.mesh) {
      let t = tallies.get(h.descriptorName)
      if (t === undefined) {
        t = { n: 0, withQualifiers: 0, major: 0, clusters: new Float64Array(clusterCount) }
        tallies.set(h.descriptorName, t)
      }
      const isMajor = h.majorTopic || h.qualifiers.some((q) => q.majorTopic)
      t.n++
      headings++
      if (c >= 0) {
        t.clusters[c] = t.clusters[c]! + 1
      }
      if (h.qualifiers.length > 0) {
        t.withQualifiers++
        withQualifiers++
        qualifierCounts.push(h.qualifiers.length)
        if (isMajor) {
          qualifiersOfMajor += h.qualifiers.length
          majorQualifiers += h.qualifiers.filter((q) => q.majorTopic).length
        }
      }
      if (isMajor) {
        t.major++
        major++
      }
      for (const q of h.qualifiers) {
        qualifierTally.set(q.name, (qualifierTally.get(q.name) ?? 0) + 1)
      }
    }
  })
  const qualifierShare = headings > 0 ? withQualifiers / headings : 0
  const majorShare = headings > 0 ? major / headings : 0

  // Descriptors with a known UI, by count then hash; then unseen real descriptors of the MeSH files.
  const seen = [...tallies.entries()]
    .filter(([name]) => uiByName.has(name))
    .sort((a, b) => b[1].n - a[1].n || hashString(a[0]) - hashString(b[0]))
  const unseen = vocabulary.descriptors
    .filter((d) => !tallies.has(d.name))
    .sort((a, b) => hashString(a.name) - hashString(b.name) || (a.ui < b.ui ? -1 : 1))
  const descriptors: DescriptorEntry[] = [
    ...seen.map(([name, t]): DescriptorEntry => {
      let topic = GENERAL_TOPIC
      let bestLift = 0
      let inClusters = 0
      for (const v of t.clusters) {
        inClusters += v
      }
      if (inClusters > 0) {
        for (let c = 0; c < clusterCount; c++) {
          const lift =
            clusterArticles[c]! > 0
              ? t.clusters[c]! / clusterArticles[c]! / (inClusters / clustered)
              : 0
          if (lift > bestLift) {
            bestLift = lift
            topic = c
          }
        }
        // Same rule as for words: lift ≥ 2 and at least half of the occurrences in that cluster.
        if (bestLift < 2 || t.clusters[topic]! < inClusters / 2) {
          topic = GENERAL_TOPIC
        }
      }
      return [
        uiByName.get(name)!,
        name,
        round6((t.withQualifiers + PRIOR * qualifierShare) / (t.n + PRIOR)),
        round6((t.major + PRIOR * majorShare) / (t.n + PRIOR)),
        topic,
      ]
    }),
    ...unseen.map((d): DescriptorEntry => [
      d.ui,
      d.name,
      round6(qualifierShare),
      round6(majorShare),
      GENERAL_TOPIC,
    ]),
  ]
  const popularity = fitZipfMandelbrot(
    seen.map(([, t]) => t.n),
    { minCount: 2 },
  )
  // Popularity follows the fitted law rather than the raw counts, which changes the heading-level
  // qualifier and major-topic shares; rescale the per-descriptor shares so those match the sample.
  const weights = descriptors.map((_, i) => (i + 1 + popularity.q) ** -popularity.s)
  const totalWeight = weights.reduce((s, w) => s + w, 0)
  for (const column of [2, 3] as const) {
    const target = column === 2 ? qualifierShare : majorShare
    const current = descriptors.reduce((s, d, i) => s + weights[i]! * d[column], 0) / totalWeight
    const factor = current > 0 ? target / current : 1
    for (const d of descriptors) {
      d[column] = round6(Math.min(1, d[column] * factor))
    }
  }
  const qualifierNames = [...qualifierUi.keys()].sort()
  return {
    headingCount: fitCountDistribution(headingCounts, { min: 1 }),
    descriptors,
    popularity: { s: round6(popularity.s), q: round6(popularity.q) },
    qualifiers: {
      values: qualifierNames.map((name): [string, string] => [qualifierUi.get(name)!, name]),
      weights: qualifierNames.map((name) => (qualifierTally.get(name) ?? 0) + 1),
    },
    qualifierCount: fitCountDistribution(qualifierCounts.length > 0 ? qualifierCounts : [1], {
      min: 1,
    }),
    qualifierMajorShare: round6(qualifiersOfMajor > 0 ? majorQualifiers / qualifiersOfMajor : 0),
  }
}
