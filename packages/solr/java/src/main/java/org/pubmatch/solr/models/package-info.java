/**
 * pubmatch models deployed into a collection: {@link org.pubmatch.solr.models.ModelStore} (the
 * ZooKeeper layout, gzip-compressed chunks, a {@code complete} node written last), {@link
 * org.pubmatch.solr.models.ModelValidator} (manifest, LightGBM text, feature count, query memory,
 * the collection's first stage), {@link org.pubmatch.solr.models.ModelHandler} ({@code
 * /pubmatch/models}) and {@link org.pubmatch.solr.models.ModelCache} (a node's loaded models, for
 * the rerank query).
 */
package org.pubmatch.solr.models;
