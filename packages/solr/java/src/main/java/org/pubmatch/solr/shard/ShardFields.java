package org.pubmatch.solr.shard;

/**
 * The names and constants of what pubmatch writes into each Solr document for the features
 * (schema version 4 of {@code @pubmatch/solr}: {@code SOLR_SCHEMA_VERSION}), as
 * {@code packages/solr/src/configset.ts} and {@code forward.ts} define them.
 */
public final class ShardFields {
  private ShardFields() {}

  /** Binary doc value: the title, abstract and MeSH token streams ({@link #FORWARD_FORMAT}). */
  public static final String FORWARD = "pubmatch_fwd";

  /** The format byte {@link ShardDocument#decodeForward} reads. */
  public static final int FORWARD_FORMAT = 1;

  /** Numeric doc value: the publication year (absent when the article has none). */
  public static final String YEAR = "year";

  /** Sorted-set doc values: the raw publication type names, as the embedded index's {@code pubtype}. */
  public static final String PUBLICATION_TYPES = "pubmatch_pubtype";

  /** Sorted-set doc values: the raw language codes, as the embedded index's {@code language}. */
  public static final String LANGUAGES = "pubmatch_language";

  /**
   * Numeric doc value (not indexed, not stored; updated in place): the document's abstract views in
   * a search log, past usage F2 (schema version 4; absent or 0 without usage data).
   */
  public static final String USAGE_ABSTRACT = "pubmatch_usage_abstract";

  /** As {@link #USAGE_ABSTRACT}: full-text requests, past usage F3. */
  public static final String USAGE_FULL_TEXT = "pubmatch_usage_fulltext";

  /** Sorted doc value: the document's external id (PMID or collection document id). */
  public static final String ID = "id";

  /** The indexed text fields whose document frequencies the features read. */
  public static final String TITLE = "title";

  /** See {@link #TITLE}. */
  public static final String ABSTRACT = "abstract";

  /** See {@link #TITLE}. */
  public static final String MESH = "mesh";

  /**
   * Indexed only (a multi-valued string field, documents only): pubmatch's own index terms of the
   * title, exactly those the embedded index holds (joined compound forms included), so that its
   * docFreq is the embedded {@code docFreq('title', term)} (schema version 3).
   */
  public static final String TITLE_TERMS = "pubmatch_ti_terms";

  /** As {@link #TITLE_TERMS}, for the abstract. */
  public static final String ABSTRACT_TERMS = "pubmatch_ab_terms";

  /**
   * Indexed only (a multi-valued string field, documents only): pubmatch's index terms of the
   * title and the abstract together, so that its docFreq is the number of documents holding a term
   * in the title or the abstract (the embedded {@code docFreqAny}).
   */
  public static final String TITLE_ABSTRACT = "pubmatch_tiab";

  /** Indexed only: the term {@code 1} in every article document; its docCount counts articles. */
  public static final String ARTICLE = "pubmatch_article";

  /** Token flag: the token is a stop word ({@code TOKEN_STOPWORD}). */
  public static final int TOKEN_STOPWORD = 1;

  /** Token flag: the token is {@code a} or {@code an} ({@code TOKEN_INDEFINITE}). */
  public static final int TOKEN_INDEFINITE = 2;

  /** Token flag: the token is {@code the} ({@code TOKEN_DEFINITE}). */
  public static final int TOKEN_DEFINITE = 4;
}
