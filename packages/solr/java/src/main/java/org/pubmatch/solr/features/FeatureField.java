package org.pubmatch.solr.features;

/**
 * The three token streams a candidate document gives the Best Match features: the fields of
 * pubmatch's forward store ({@code FORWARD_FIELDS} in {@code packages/ltr/src/features/forward.ts}),
 * in its storage order.
 */
public enum FeatureField {
  /** The article title. */
  TITLE,
  /** The abstract, its sections joined by spaces as one text. */
  ABSTRACT,
  /** The MeSH descriptor names, one heading after the other as one stream. */
  MESH
}
