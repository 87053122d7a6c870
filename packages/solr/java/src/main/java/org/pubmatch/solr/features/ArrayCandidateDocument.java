package org.pubmatch.solr.features;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A {@link CandidateDocument} held in arrays: each field's tokens given as term strings ({@code
 * null} for a token without an index term) and flag bytes, interned into the document's term
 * table on construction. Immutable. For tests, the parity check, and any caller that has the
 * streams as strings; a Solr shard would rather read its binary docValues directly.
 */
public final class ArrayCandidateDocument implements CandidateDocument {

  private final String[] table;
  private final int[][] ordinals = new int[FeatureField.values().length][];
  private final byte[][] flags = new byte[FeatureField.values().length][];
  private final double year;
  private final String[] publicationTypes;
  private final String[] languages;
  private final double firstStageScore;

  /**
   * Creates a document.
   *
   * @param title the title's tokens: terms ({@code null}: no index term)
   * @param titleFlags the title tokens' flag bits, same length
   * @param abstractTerms the abstract's tokens
   * @param abstractFlags their flags
   * @param mesh the MeSH headings' tokens, heading after heading
   * @param meshFlags their flags
   * @param year the year, {@link Double#NaN} when absent
   * @param publicationTypes publication types as indexed
   * @param languages language codes as indexed
   * @param firstStageScore the first-stage score
   * @throws IllegalArgumentException when a field's terms and flags differ in length
   */
  public ArrayCandidateDocument(
      String[] title,
      byte[] titleFlags,
      String[] abstractTerms,
      byte[] abstractFlags,
      String[] mesh,
      byte[] meshFlags,
      double year,
      List<String> publicationTypes,
      List<String> languages,
      double firstStageScore) {
    Map<String, Integer> ids = new HashMap<>();
    List<String> terms = new ArrayList<>();
    set(FeatureField.TITLE, title, titleFlags, ids, terms);
    set(FeatureField.ABSTRACT, abstractTerms, abstractFlags, ids, terms);
    set(FeatureField.MESH, mesh, meshFlags, ids, terms);
    this.table = terms.toArray(new String[0]);
    this.year = year;
    this.publicationTypes = publicationTypes.toArray(new String[0]);
    this.languages = languages.toArray(new String[0]);
    this.firstStageScore = firstStageScore;
  }

  private void set(FeatureField field, String[] terms, byte[] fieldFlags, Map<String, Integer> ids, List<String> table) {
    Objects.requireNonNull(terms, field + " terms");
    Objects.requireNonNull(fieldFlags, field + " flags");
    if (terms.length != fieldFlags.length) {
      throw new IllegalArgumentException(
          field + ": " + terms.length + " terms but " + fieldFlags.length + " flags");
    }
    int[] ords = new int[terms.length];
    for (int i = 0; i < terms.length; i++) {
      String term = terms[i];
      if (term == null) {
        ords[i] = -1;
        continue;
      }
      Integer id = ids.get(term);
      if (id == null) {
        id = table.size();
        table.add(term);
        ids.put(term, id);
      }
      ords[i] = id;
    }
    ordinals[field.ordinal()] = ords;
    flags[field.ordinal()] = fieldFlags.clone();
  }

  @Override
  public int termCount() {
    return table.length;
  }

  @Override
  public String term(int ordinal) {
    return table[ordinal];
  }

  @Override
  public int tokenCount(FeatureField field) {
    return ordinals[field.ordinal()].length;
  }

  @Override
  public int termOrdinal(FeatureField field, int position) {
    return ordinals[field.ordinal()][position];
  }

  @Override
  public int flags(FeatureField field, int position) {
    return flags[field.ordinal()][position];
  }

  @Override
  public double year() {
    return year;
  }

  @Override
  public int publicationTypeCount() {
    return publicationTypes.length;
  }

  @Override
  public String publicationType(int index) {
    return publicationTypes[index];
  }

  @Override
  public int languageCount() {
    return languages.length;
  }

  @Override
  public String language(int index) {
    return languages[index];
  }

  @Override
  public double firstStageScore() {
    return firstStageScore;
  }
}
