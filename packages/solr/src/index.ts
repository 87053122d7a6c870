// a local SolrCloud (ZooKeeper and Solr nodes on loopback, in their own JVM)
export { javaBuilt, readLocalCluster, startLocalCluster, stopLocalCluster } from './cluster.ts'
export type { LocalCluster, LocalClusterOptions, LocalClusterState } from './cluster.ts'
// the HTTP client, with retries and failover across nodes
export { createSolrClient } from './client.ts'
export type { SolrClient, SolrClientOptions, SolrParams, SolrRequest, SolrResponse } from './client.ts'
// a corpus store indexed into a collection, committed per corpus segment
export { indexCorpus } from './indexer.ts'
export type { IndexCorpusOptions, IndexCorpusResult } from './indexer.ts'
// the first stage in Solr
export { createSolrFirstStage } from './search.ts'
export type { SolrFirstStage, SolrFirstStageOptions, SolrHit, SolrSearchOptions, SolrSearchResult } from './search.ts'
// what a serving process without a local index reads: pages with records, facets, explanations
export { createSolrServing } from './serving.ts'
export type { FacetCount, SearchFacets, SolrDocumentRank, SolrPage, SolrPageHit, SolrPageOptions, SolrServing } from './serving.ts'
export { createSolrReranker, queryTokens } from './rerank.ts'
export type {
  SolrQueryToken,
  SolrRerankedHit,
  SolrRerankFallback,
  SolrReranker,
  SolrRerankerOptions,
  SolrRerankOptions,
  SolrRerankResult,
  SolrRerankStatistics,
} from './rerank.ts'
export { solrFields } from './configset.ts'
export type { SolrFields, SolrFieldSet } from './configset.ts'
// models deployed into a collection (ZooKeeper), for the second stage on the shards
export { deployModel, listModels, loadModelOnReplicas, removeModel } from './models.ts'
export type { DeployedFile, DeployedModel, DeployModelOptions, ModelListing, ModelsOptions, ReplicaModel } from './models.ts'
// past usage (F2–F3) from a click log, written in place into the collection
export { pushUsage } from './usage.ts'
export type { LogUsage, PushUsageOptions, PushUsageResult } from './usage.ts'
