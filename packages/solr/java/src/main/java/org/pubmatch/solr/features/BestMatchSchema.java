package org.pubmatch.solr.features;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The 179 columns of PubMed Best Match (F1–F179) in NCBI's order: the Java copy of
 * {@code packages/ltr/src/features/registry.ts} (schema {@value #VERSION}).
 *
 * <p>Column {@code c} holds feature {@code F(c + 1)}. The constants name the first column of each
 * feature as {@code COLUMNS} does in {@code registry.ts}; {@link #names()} and {@link #neutral(int)}
 * give every column's name and neutral value, so a caller can check this copy against the
 * TypeScript schema ({@code FeatureParityCheck} prints both, and the parity test compares them).
 *
 * <p>The one-hot vocabularies {@link #PUBLICATION_TYPES} (74) and {@link #LANGUAGES} (61) are
 * copied verbatim from {@code packages/ltr/src/features/one-hot-values.json} (itself copied from
 * NCBI's {@code FeatureCalculator.pubTypes} / {@code .languages}).
 */
public final class BestMatchSchema {

  /** The schema version a model records ({@code BEST_MATCH_SCHEMA.version}). */
  public static final String VERSION = "bestmatch-179/1";

  /** The number of Best Match features. */
  public static final int FEATURE_COUNT = 179;

  /** Value of F1 (year) when a document has no year: NCBI writes 0 for a missing DateCompleted. */
  public static final double NEUTRAL_YEAR = 0;

  /** Value of F147/F148 (average match position) when the field has no match or is absent. */
  public static final double NO_POSITION = -1;

  /** F1: publication year. */
  public static final int YEAR = 0;
  /** F2: past usage, abstract views. */
  public static final int ABSTRACT_CLICKS = 1;
  /** F3: past usage, full-text requests. */
  public static final int FULL_TEXT_REQUESTS = 2;
  /** F4: the first of the 74 publication-type columns. */
  public static final int PUBTYPE_FIRST = 3;
  /** F78: title tokens, stop words included. */
  public static final int TITLE_TOKENS = 77;
  /** F79: abstract tokens, stop words included. */
  public static final int ABSTRACT_TOKENS = 78;
  /** F80: the first of the 61 language columns. */
  public static final int LANGUAGE_FIRST = 79;
  /** F141: stop words / tokens in the title. */
  public static final int TITLE_STOPWORD_RATIO = 140;
  /** F142: stop words / tokens in the abstract. */
  public static final int ABSTRACT_STOPWORD_RATIO = 141;
  /** F143: the first-stage score. */
  public static final int FIRST_STAGE_SCORE = 142;
  /** F144: distinct query terms matched in the title / distinct query terms. */
  public static final int TITLE_COVERAGE = 143;
  /** F145: the same in the abstract. */
  public static final int ABSTRACT_COVERAGE = 144;
  /** F146: the same in the MeSH headings. */
  public static final int MESH_COVERAGE = 145;
  /** F147: mean 0-based position of title matches ({@link #NO_POSITION} when none). */
  public static final int TITLE_AVG_POSITION = 146;
  /** F148: the same in the abstract. */
  public static final int ABSTRACT_AVG_POSITION = 147;
  /** F149: the first of the 19 span columns ({@link SpanFeatures}). */
  public static final int SPAN_FIRST = 148;
  /** F168: query-term occurrences in the title. */
  public static final int TITLE_MATCHES = 167;
  /** F169: query-term occurrences in the abstract. */
  public static final int ABSTRACT_MATCHES = 168;
  /** F170: query-term occurrences in the MeSH headings. */
  public static final int MESH_MATCHES = 169;
  /** F171: sum over title matches of the title+abstract IDF. */
  public static final int TITLE_IDF_TIAB = 170;
  /** F172: sum over abstract matches of the title+abstract IDF. */
  public static final int ABSTRACT_IDF_TIAB = 171;
  /** F173: sum over title matches of the title IDF. */
  public static final int TITLE_IDF_TITLE = 172;
  /** F174: sum over abstract matches of the abstract IDF. */
  public static final int ABSTRACT_IDF_ABSTRACT = 173;
  /** F175: sum over MeSH matches of the title+abstract IDF. */
  public static final int MESH_IDF_TIAB = 174;
  /** F176: documents the first stage matched, collection-wide. */
  public static final int RESULT_COUNT = 175;
  /** F177: non-alphanumeric characters of the query, white space excluded. */
  public static final int QUERY_NON_ALPHANUMERIC = 176;
  /** F178: white-space separated words of the query. */
  public static final int QUERY_TOKENS = 177;
  /** F179: distinct (case-folded) words of the query. */
  public static final int QUERY_UNIQUE_TOKENS = 178;

  /** The 74 publication types of the one-hot block F4–F77, in column order. */
  public static final List<String> PUBLICATION_TYPES =
      List.of(
          "Addresses",
          "Autobiography",
          "Bibliography",
          "Biography",
          "Case Reports",
          "Classical Article",
          "Clinical Conference",
          "Clinical Study",
          "Clinical Trial",
          "Clinical Trial, Phase I",
          "Clinical Trial, Phase II",
          "Clinical Trial, Phase III",
          "Clinical Trial, Phase IV",
          "Collected Works",
          "Comment",
          "Comparative Study",
          "Congresses",
          "Consensus Development Conference",
          "Consensus Development Conference, NIH",
          "Controlled Clinical Trial",
          "Corrected and Republished Article",
          "Dataset",
          "Dictionary",
          "Directory",
          "Duplicate Publication",
          "Editorial",
          "English Abstract",
          "Evaluation Studies",
          "Festschrift",
          "Government Publications",
          "Guideline",
          "Historical Article",
          "Interactive Tutorial",
          "Interview",
          "Introductory Journal Article",
          "Journal Article",
          "Lectures",
          "Legal Cases",
          "Legislation",
          "Letter",
          "Meta-Analysis",
          "Multicenter Study",
          "News",
          "Newspaper Article",
          "Observational Study",
          "Overall",
          "Patient Education Handout",
          "Periodical Index",
          "Personal Narratives",
          "Portraits",
          "Practice Guideline",
          "Pragmatic Clinical Trial",
          "Publication Components",
          "Publication Formats",
          "Publication Type Category",
          "Published Erratum",
          "Randomized Controlled Trial",
          "Research Support, American Recovery and Reinvestment Act",
          "Research Support, N.I.H., Extramural",
          "Research Support, N.I.H., Intramural",
          "Research Support, Non-U.S. Gov't",
          "Research Support, U.S. Gov't, P.H.S.",
          "Retracted Publication",
          "Retraction of Publication",
          "Review",
          "Scientific Integrity Review",
          "Study Characteristics",
          "Support of Research",
          "Technical Report",
          "Twin Study",
          "Validation Studies",
          "Video-Audio Media",
          "Webcasts",
          "book");

  /** The 61 language codes (ISO 639-2/B as MEDLINE writes them) of F80–F140, in column order. */
  public static final List<String> LANGUAGES =
      List.of(
          "afr",
          "alb",
          "amh",
          "ara",
          "arm",
          "aze",
          "ben",
          "bos",
          "bul",
          "cat",
          "chi",
          "cze",
          "dan",
          "dut",
          "eng",
          "epo",
          "est",
          "fin",
          "fre",
          "geo",
          "ger",
          "gla",
          "gre",
          "heb",
          "hin",
          "hrv",
          "hun",
          "ice",
          "ind",
          "ita",
          "jpn",
          "kin",
          "kor",
          "lat",
          "lav",
          "lit",
          "mac",
          "mal",
          "mao",
          "may",
          "mul",
          "nor",
          "per",
          "pol",
          "por",
          "pus",
          "rum",
          "rus",
          "san",
          "slo",
          "slv",
          "spa",
          "srp",
          "swe",
          "tha",
          "tur",
          "ukr",
          "und",
          "urd",
          "vie",
          "wel");

  /** Name suffixes of the 19 span features F149–F167, in order. */
  static final List<String> SPAN_NAMES =
      List.of(
          "multi_term_spans",
          "rich_spans",
          "length_sum",
          "term_sum",
          "density_sum",
          "indefinite_articles",
          "definite_articles",
          "stopwords",
          "stopword_only_spans",
          "cubed_terms_per_length",
          "count",
          "max_length",
          "mean_length",
          "max_terms",
          "mean_terms",
          "max_density",
          "mean_density",
          "densest_length",
          "longest_running_density");

  private static final List<String> NAMES = Collections.unmodifiableList(buildNames());

  private BestMatchSchema() {}

  /**
   * Every column's feature name, as {@code BEST_MATCH_SCHEMA.features[c].name} in TypeScript.
   *
   * @return 179 names, column order
   */
  public static List<String> names() {
    return NAMES;
  }

  /**
   * The value a column takes when its data is absent ({@code FeatureDefinition.neutral}):
   * {@link #NO_POSITION} for F147/F148, {@link #NEUTRAL_YEAR} for F1, 0 elsewhere.
   *
   * @param column a 0-based column
   * @return the neutral value
   */
  public static double neutral(int column) {
    if (column == TITLE_AVG_POSITION || column == ABSTRACT_AVG_POSITION) {
      return NO_POSITION;
    }
    return column == YEAR ? NEUTRAL_YEAR : 0;
  }

  /**
   * Whether a column holds a count (an integer by definition: year, usage, one-hot flags, token,
   * match and span counts, span lengths, the query counts) rather than a real (ratios, means,
   * densities, IDF sums, the first-stage score).
   *
   * @param column a 0-based column
   * @return true for integer-valued columns
   */
  public static boolean isCount(int column) {
    switch (column) {
      case TITLE_STOPWORD_RATIO:
      case ABSTRACT_STOPWORD_RATIO:
      case FIRST_STAGE_SCORE:
      case TITLE_COVERAGE:
      case ABSTRACT_COVERAGE:
      case MESH_COVERAGE:
      case TITLE_AVG_POSITION:
      case ABSTRACT_AVG_POSITION:
      case SPAN_FIRST + SpanFeatures.DENSITY_SUM:
      case SPAN_FIRST + SpanFeatures.CUBED_TERMS_PER_LENGTH:
      case SPAN_FIRST + SpanFeatures.MEAN_LENGTH:
      case SPAN_FIRST + SpanFeatures.MEAN_TERMS:
      case SPAN_FIRST + SpanFeatures.MAX_DENSITY:
      case SPAN_FIRST + SpanFeatures.MEAN_DENSITY:
      case SPAN_FIRST + SpanFeatures.LONGEST_RUNNING_DENSITY:
      case TITLE_IDF_TIAB:
      case ABSTRACT_IDF_TIAB:
      case TITLE_IDF_TITLE:
      case ABSTRACT_IDF_ABSTRACT:
      case MESH_IDF_TIAB:
        return false;
      default:
        return true;
    }
  }

  /**
   * A feature name fragment as {@code slug} in {@code registry.ts}: lower case, runs of characters
   * other than {@code a-z0-9} become {@code _}, no leading or trailing {@code _}.
   *
   * @param value a publication type or language code
   * @return the fragment
   */
  static String slug(String value) {
    return value
        .toLowerCase(Locale.ROOT)
        .replaceAll("[^a-z0-9]+", "_")
        .replaceAll("^_+|_+$", "");
  }

  private static List<String> buildNames() {
    List<String> out = new ArrayList<>(FEATURE_COUNT);
    out.add("year");
    out.add("abstract_clicks");
    out.add("fulltext_requests");
    for (String type : PUBLICATION_TYPES) {
      out.add("pubtype_" + slug(type));
    }
    out.add("title_tokens");
    out.add("abstract_tokens");
    for (String code : LANGUAGES) {
      out.add("language_" + slug(code));
    }
    out.add("title_stopword_ratio");
    out.add("abstract_stopword_ratio");
    out.add("first_stage_score");
    out.add("title_coverage");
    out.add("abstract_coverage");
    out.add("mesh_coverage");
    out.add("title_avg_match_position");
    out.add("abstract_avg_match_position");
    for (String span : SPAN_NAMES) {
      out.add("span_" + span);
    }
    out.add("title_matches");
    out.add("abstract_matches");
    out.add("mesh_matches");
    out.add("title_idf_sum_tiab");
    out.add("abstract_idf_sum_tiab");
    out.add("title_idf_sum_title");
    out.add("abstract_idf_sum_abstract");
    out.add("mesh_idf_sum_tiab");
    out.add("result_count");
    out.add("query_non_alphanumeric");
    out.add("query_tokens");
    out.add("query_unique_tokens");
    if (out.size() != FEATURE_COUNT) {
      throw new AssertionError("Best Match schema has " + out.size() + " columns");
    }
    return out;
  }
}
