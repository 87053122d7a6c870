package org.pubmatch.solr.rerank;

import org.apache.lucene.util.BytesRef;
import org.pubmatch.solr.features.BestMatchQuery;
import org.pubmatch.solr.features.CandidateDocument;
import org.pubmatch.solr.features.FeatureField;
import org.pubmatch.solr.shard.ShardDocument;

/**
 * A {@link CandidateDocument} over a {@link ShardDocument} (what {@link
 * org.pubmatch.solr.shard.ShardDocumentReader} read of a shard's document) and the candidate's
 * first-stage score: the one decoder of {@code pubmatch_fwd} on the shard path. Terms are matched
 * against the query by their UTF-8 bytes ({@link BestMatchQuery#slotOf(byte[], int, int)}), so no
 * term string is created. Reused across candidates; not thread-safe.
 */
public final class ShardCandidate implements CandidateDocument {
  private final ShardDocument doc;
  private final BytesRef scratch = new BytesRef();
  private double firstStageScore;

  /**
   * A candidate over a reused document.
   *
   * @param doc the document {@link org.pubmatch.solr.shard.ShardDocumentReader#read} fills
   */
  public ShardCandidate(ShardDocument doc) {
    this.doc = doc;
  }

  /**
   * Sets the first-stage score of the document currently read (F143).
   *
   * @param score the score
   */
  public void setFirstStageScore(double score) {
    this.firstStageScore = score;
  }

  private static int stream(FeatureField field) {
    switch (field) {
      case TITLE:
        return ShardDocument.TITLE;
      case ABSTRACT:
        return ShardDocument.ABSTRACT;
      default:
        return ShardDocument.MESH;
    }
  }

  @Override
  public int termCount() {
    return doc.termCount();
  }

  @Override
  public String term(int ordinal) {
    return doc.term(ordinal);
  }

  @Override
  public int querySlot(BestMatchQuery query, int ordinal) {
    BytesRef term = doc.termBytes(ordinal, scratch);
    return query.slotOf(term.bytes, term.offset, term.length);
  }

  @Override
  public int tokenCount(FeatureField field) {
    return doc.tokenCount(stream(field));
  }

  @Override
  public int termOrdinal(FeatureField field, int position) {
    return doc.tokenTermArray(stream(field))[position];
  }

  @Override
  public int flags(FeatureField field, int position) {
    return doc.tokenFlagArray(stream(field))[position];
  }

  @Override
  public double year() {
    return doc.hasYear() ? doc.year() : Double.NaN;
  }

  @Override
  public int publicationTypeCount() {
    return doc.publicationTypeCount();
  }

  @Override
  public String publicationType(int index) {
    return doc.publicationType(index);
  }

  @Override
  public int languageCount() {
    return doc.languageCount();
  }

  @Override
  public String language(int index) {
    return doc.language(index);
  }

  @Override
  public double firstStageScore() {
    return firstStageScore;
  }

  @Override
  public double abstractClicks() {
    return doc.abstractClicks();
  }

  @Override
  public double fullTextRequests() {
    return doc.fullTextRequests();
  }
}
