package org.pubmatch.solr.features;

/**
 * An inverse document frequency from a document frequency and the collection size ({@code
 * IdfFunction} of {@code extract.ts}).
 */
@FunctionalInterface
public interface IdfFunction {

  /**
   * The default IDF, {@code logIdf} of {@code extract.ts}: {@code ln(N / max(df, 1))}, floored at 0
   * (and 0 for an empty collection). {@link StrictMath#log} is fdlibm's {@code log}, the function
   * V8 computes {@code Math.log} with, so the values are bit-identical to the TypeScript ones.
   */
  IdfFunction LOG_IDF =
      (docFreq, docCount) ->
          docCount <= 0
              ? 0
              : Math.max(0, StrictMath.log((double) docCount / (double) Math.max(docFreq, 1)));

  /**
   * The IDF of a term.
   *
   * @param docFreq documents holding the term (in the field, or in either field)
   * @param docCount documents in the collection
   * @return the IDF
   */
  double idf(long docFreq, long docCount);
}
