package org.pubmatch.solr;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermState;
import org.apache.lucene.index.TermStates;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.SmallFloat;

/**
 * BM25F (Robertson–Zaragoza form) for ONE term over several weighted fields, as computed by
 * pubmatch's embedded BM25F.
 *
 * <p>For the term {@code t} and a document {@code d}:
 *
 * <pre>
 *   tf~   = sum_f  w(f) * tf(t,f,d) / (1 - b(f) + b(f) * len(f,d) / avgl(f))
 *   score = boost * idf(t) * tf~ / (k1 + tf~)
 *   idf   = ln(1 + (N - n + 0.5) / (n + 0.5))
 *   avgl(f) = sumTotalTermFreq(f) / N
 * </pre>
 *
 * <ul>
 *   <li>{@code N}: the largest {@code maxDoc} of the fields' {@link CollectionStatistics} (documents
 *       without a field count as length 0 in {@code avgl}).
 *   <li>{@code n}: the largest per-field document frequency of {@code t}. The true "documents with
 *       {@code t} in any field" is not available from per-field statistics; the maximum is its
 *       lower bound (the same choice as Lucene's {@code CombinedFieldQuery}).
 *   <li>{@code len(f,d)}: the field length stored in the one-byte norm ({@link
 *       SmallFloat#intToByte4(int)} of the number of tokens, minus overlapping tokens when the
 *       similarity discounts overlaps), decoded with {@link SmallFloat#byte4ToInt(byte)}. Lengths
 *       up to 40 are exact, longer ones are rounded down (error up to 11 %), exactly as Lucene's
 *       own BM25 sees them. A decoded length of 0 is treated as 1.
 *   <li>A field whose {@code sumTotalTermFreq} is 0 (empty in the whole collection) or that has no
 *       collection statistics adds nothing.
 *   <li>A field indexed without norms (refused by {@link Bm25fQParserPlugin}) is scored with b = 0.
 * </ul>
 *
 * <p>Statistics: {@link IndexSearcher#collectionStatistics(String)} and {@link
 * IndexSearcher#termStatistics(Term, int, long)} are asked for EVERY field, including fields where
 * the term does not occur in the local index, so that a distributed statistics source (Solr's
 * {@code ExactStatsCache} through {@code SolrIndexSearcher}) can supply global values. Lucene's
 * {@link TermStatistics} cannot represent docFreq 0: when the local docFreq is 0 and no global
 * value exists, the searcher throws {@link IllegalArgumentException}; this is caught and the field
 * contributes no statistics. A term absent everywhere matches nothing and never throws.
 *
 * <p>Matching: a document matches when the term occurs in at least one of the fields (a
 * disjunction of the fields' postings). Scores are computed in double and cast to float at the
 * end.
 */
public final class Bm25fQuery extends Query {

  /** Decoded field lengths of the 256 norm bytes. */
  private static final int[] LENGTH_TABLE = new int[256];

  static {
    for (int i = 0; i < 256; i++) {
      LENGTH_TABLE[i] = SmallFloat.byte4ToInt((byte) i);
    }
  }

  /** Field length stored in a one-byte norm (the low 8 bits of {@code norm}). */
  public static int decodeLength(long norm) {
    return LENGTH_TABLE[(int) (norm & 0xFF)];
  }

  private final BytesRef term;
  private final String[] fields;
  private final float[] weights;
  private final float[] bs;
  private final float k1;

  /**
   * @param term the (analysed) term
   * @param fields distinct field names, at least one
   * @param weights one weight per field, finite and &gt; 0
   * @param k1 finite, &gt;= 0
   * @param bs one length normalisation per field, each in [0, 1]
   */
  public Bm25fQuery(BytesRef term, String[] fields, float[] weights, float k1, float[] bs) {
    this.term = BytesRef.deepCopyOf(Objects.requireNonNull(term, "term"));
    Objects.requireNonNull(fields, "fields");
    Objects.requireNonNull(weights, "weights");
    Objects.requireNonNull(bs, "bs");
    if (fields.length == 0) {
      throw new IllegalArgumentException("Bm25fQuery needs at least one field");
    }
    if (weights.length != fields.length || bs.length != fields.length) {
      throw new IllegalArgumentException("fields, weights and bs must have the same length");
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < fields.length; i++) {
      if (fields[i] == null || !seen.add(fields[i])) {
        throw new IllegalArgumentException("null or duplicate field: " + fields[i]);
      }
      if (!Float.isFinite(weights[i]) || weights[i] <= 0f) {
        throw new IllegalArgumentException(
            "weight of field " + fields[i] + " must be finite and > 0, got " + weights[i]);
      }
      if (!Float.isFinite(bs[i]) || bs[i] < 0f || bs[i] > 1f) {
        throw new IllegalArgumentException(
            "b of field " + fields[i] + " must be in [0, 1], got " + bs[i]);
      }
    }
    if (!Float.isFinite(k1) || k1 < 0f) {
      throw new IllegalArgumentException("k1 must be finite and >= 0, got " + k1);
    }
    this.fields = fields.clone();
    this.weights = weights.clone();
    this.bs = bs.clone();
    this.k1 = k1;
  }

  /** Same b for every field. */
  public Bm25fQuery(BytesRef term, String[] fields, float[] weights, float k1, float b) {
    this(term, fields, weights, k1, filled(fields == null ? 0 : fields.length, b));
  }

  private static float[] filled(int n, float v) {
    float[] a = new float[n];
    Arrays.fill(a, v);
    return a;
  }

  public BytesRef getTerm() {
    return BytesRef.deepCopyOf(term);
  }

  public String[] getFields() {
    return fields.clone();
  }

  public float[] getWeights() {
    return weights.clone();
  }

  public float[] getBs() {
    return bs.clone();
  }

  public float getK1() {
    return k1;
  }

  @Override
  public String toString(String defaultField) {
    StringBuilder sb = new StringBuilder("bm25f(");
    for (int i = 0; i < fields.length; i++) {
      if (i > 0) {
        sb.append(' ');
      }
      sb.append(fields[i]).append('^').append(weights[i]).append("/b=").append(bs[i]);
    }
    sb.append(" : ").append(term.utf8ToString()).append(", k1=").append(k1).append(')');
    return sb.toString();
  }

  @Override
  public boolean equals(Object other) {
    if (!sameClassAs(other)) {
      return false;
    }
    Bm25fQuery o = (Bm25fQuery) other;
    return term.equals(o.term)
        && Arrays.equals(fields, o.fields)
        && Arrays.equals(weights, o.weights)
        && Arrays.equals(bs, o.bs)
        && Float.compare(k1, o.k1) == 0;
  }

  @Override
  public int hashCode() {
    int h = classHash();
    h = 31 * h + term.hashCode();
    h = 31 * h + Arrays.hashCode(fields);
    h = 31 * h + Arrays.hashCode(weights);
    h = 31 * h + Arrays.hashCode(bs);
    h = 31 * h + Float.floatToIntBits(k1);
    return h;
  }

  /** Exposes the term of every accepted field, each as an optional (SHOULD) clause. */
  @Override
  public void visit(QueryVisitor visitor) {
    List<Term> accepted = new ArrayList<>(fields.length);
    for (String f : fields) {
      if (visitor.acceptField(f)) {
        accepted.add(new Term(f, term));
      }
    }
    if (accepted.isEmpty()) {
      return;
    }
    QueryVisitor v = visitor.getSubVisitor(BooleanClause.Occur.SHOULD, this);
    for (Term t : accepted) {
      v.consumeTerms(this, t);
    }
  }

  @Override
  public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost)
      throws IOException {
    return new Bm25fWeight(searcher, scoreMode.needsScores(), boost);
  }

  /**
   * The searcher's statistics for a term, or null when there are none (docFreq 0 both locally and
   * in the searcher's statistics source).
   */
  static TermStatistics termStatisticsOrNull(
      IndexSearcher searcher, Term t, int localDocFreq, long localTotalTermFreq)
      throws IOException {
    if (localDocFreq > 0) {
      return searcher.termStatistics(t, localDocFreq, localTotalTermFreq);
    }
    try {
      // Solr's SolrIndexSearcher returns the global statistics here when its StatsSource has them
      // (ExactStatsCache); otherwise it falls back to IndexSearcher#termStatistics, which
      // constructs a TermStatistics with docFreq 0 and throws IllegalArgumentException.
      return searcher.termStatistics(t, localDocFreq, localTotalTermFreq);
    } catch (IllegalArgumentException absent) {
      return null;
    }
  }

  /** Per-query statistics and per-field length tables (unused when scores are not needed). */
  private final class Bm25fWeight extends Weight {
    private final TermStates[] states;
    private final boolean scoring;
    private final float boost;
    private final long bigN;
    private final long smallN;
    private final long[] fieldDocFreq;
    private final double idf;
    /** boost * idf, the factor of every score and its upper bound. */
    private final double boostIdf;
    private final double[] avgl;
    /** Per field: w / (1 - b + b * len / avgl) for each norm byte; null for a field that adds nothing. */
    private final double[][] factors;

    Bm25fWeight(IndexSearcher searcher, boolean scoring, float boost) throws IOException {
      super(Bm25fQuery.this);
      this.scoring = scoring;
      this.boost = boost;
      int nf = fields.length;
      states = new TermStates[nf];
      for (int i = 0; i < nf; i++) {
        states[i] = TermStates.build(searcher, new Term(fields[i], term), scoring);
      }
      fieldDocFreq = new long[nf];
      avgl = new double[nf];
      factors = new double[nf][];
      if (!scoring) {
        bigN = 0;
        smallN = 0;
        idf = 0;
        boostIdf = 0;
        return;
      }
      CollectionStatistics[] cs = new CollectionStatistics[nf];
      long maxDoc = 0;
      long df = 0;
      for (int i = 0; i < nf; i++) {
        Term t = new Term(fields[i], term);
        cs[i] = searcher.collectionStatistics(fields[i]);
        int localDf = states[i].docFreq();
        TermStatistics ts = termStatisticsOrNull(searcher, t, localDf, states[i].totalTermFreq());
        // ts is null only when the term has no statistics for this field (docFreq 0 locally and
        // no global value); then the local docFreq (0) is used.
        fieldDocFreq[i] = ts != null ? ts.docFreq() : localDf;
        df = Math.max(df, fieldDocFreq[i]);
        if (cs[i] != null) {
          maxDoc = Math.max(maxDoc, cs[i].maxDoc());
        }
      }
      // N >= n always holds for consistent statistics; the clamp keeps idf > 0 otherwise.
      bigN = Math.max(maxDoc, df);
      smallN = df;
      idf = df > 0 ? Math.log(1.0 + (bigN - df + 0.5) / (df + 0.5)) : 0.0;
      boostIdf = (double) boost * idf;
      for (int i = 0; i < nf; i++) {
        if (cs[i] == null || cs[i].sumTotalTermFreq() <= 0 || bigN <= 0) {
          continue; // field empty in the whole collection: adds nothing
        }
        avgl[i] = cs[i].sumTotalTermFreq() / (double) bigN;
        double w = weights[i];
        double b = bs[i];
        double[] table = new double[256];
        for (int j = 0; j < 256; j++) {
          table[j] = w / (1.0 - b + b * effectiveLength(j) / avgl[i]);
        }
        factors[i] = table;
      }
    }

    @Override
    public boolean isCacheable(LeafReaderContext ctx) {
      return true;
    }

    @Override
    public Bm25fScorer scorer(LeafReaderContext context) throws IOException {
      if (scoring && idf <= 0) {
        return null; // the term has no statistics anywhere: it contributes nothing
      }
      LeafReader reader = context.reader();
      List<Integer> idx = new ArrayList<>(fields.length);
      List<PostingsEnum> postings = new ArrayList<>(fields.length);
      for (int i = 0; i < fields.length; i++) {
        TermState state = states[i].get(context);
        if (state == null) {
          continue;
        }
        Terms terms = reader.terms(fields[i]);
        if (terms == null) {
          continue;
        }
        TermsEnum te = terms.iterator();
        te.seekExact(term, state);
        postings.add(te.postings(null, scoring ? PostingsEnum.FREQS : PostingsEnum.NONE));
        idx.add(i);
      }
      if (postings.isEmpty()) {
        return null;
      }
      int m = postings.size();
      int[] fieldIndex = new int[m];
      PostingsEnum[] subs = new PostingsEnum[m];
      NumericDocValues[] norms = new NumericDocValues[m];
      for (int s = 0; s < m; s++) {
        fieldIndex[s] = idx.get(s);
        subs[s] = postings.get(s);
        norms[s] = scoring ? reader.getNormValues(fields[fieldIndex[s]]) : null;
      }
      return new Bm25fScorer(this, fieldIndex, subs, norms);
    }

    @Override
    public Explanation explain(LeafReaderContext context, int doc) throws IOException {
      Bm25fScorer s = scorer(context);
      if (s == null || s.iterator().advance(doc) != doc) {
        return Explanation.noMatch("no field of " + Bm25fQuery.this + " contains the term");
      }
      return s.explainCurrent();
    }
  }

  /** Lengths as used in scoring: a document containing the term has at least one token. */
  private static int effectiveLength(int normByte) {
    return Math.max(1, LENGTH_TABLE[normByte]);
  }

  private final class Bm25fScorer extends Scorer {
    private final Bm25fWeight w;
    private final int[] fieldIndex;
    private final PostingsEnum[] subs;
    private final NumericDocValues[] norms;
    private final DocIdSetIterator disi;
    private final int[] normDoc;
    private final int[] normValue;
    private int scoredDoc = -1;
    private float scoredValue;

    Bm25fScorer(Bm25fWeight w, int[] fieldIndex, PostingsEnum[] subs, NumericDocValues[] norms) {
      super(w);
      this.w = w;
      this.fieldIndex = fieldIndex;
      this.subs = subs;
      this.norms = norms;
      this.disi = subs.length == 1 ? subs[0] : new Disjunction(subs);
      this.normDoc = new int[subs.length];
      Arrays.fill(normDoc, -1);
      this.normValue = new int[subs.length];
    }

    @Override
    public int docID() {
      return disi.docID();
    }

    @Override
    public DocIdSetIterator iterator() {
      return disi;
    }

    @Override
    public float getMaxScore(int upTo) {
      // tf~ / (k1 + tf~) <= 1, so boost * idf bounds every score (the float cast is monotone).
      return w.scoring ? (float) w.boostIdf : 0f;
    }

    /**
     * Norm byte of document doc in sub s: 0 when the document has no norm, -1 when the field has
     * no norms at all. Cached per sub, since norms can only move forward.
     */
    private int normByte(int s, int doc) throws IOException {
      NumericDocValues nv = norms[s];
      if (nv == null) {
        return -1;
      }
      if (normDoc[s] != doc) {
        normValue[s] = nv.advanceExact(doc) ? (int) (nv.longValue() & 0xFF) : 0;
        normDoc[s] = doc;
      }
      return normValue[s];
    }

    /** One field's w * tf / (1 - b + b * len / avgl); b treated as 0 when the field has no norms. */
    private double contribution(int s, int doc, int freq) throws IOException {
      double[] table = w.factors[fieldIndex[s]];
      if (table == null) {
        return 0.0;
      }
      int nb = normByte(s, doc);
      double f = nb < 0 ? weights[fieldIndex[s]] : table[nb];
      return freq * f;
    }

    private float finalScore(double tfTilde) {
      if (!(tfTilde > 0)) {
        return 0f;
      }
      return (float) (w.boostIdf * (tfTilde / (k1 + tfTilde)));
    }

    @Override
    public float score() throws IOException {
      int doc = disi.docID();
      if (doc == scoredDoc) {
        return scoredValue;
      }
      float value = 0f;
      if (w.scoring) {
        double tfTilde = 0.0;
        for (int s = 0; s < subs.length; s++) {
          if (subs[s].docID() == doc) {
            tfTilde += contribution(s, doc, subs[s].freq());
          }
        }
        value = finalScore(tfTilde);
      }
      scoredDoc = doc;
      scoredValue = value;
      return value;
    }

    private List<Explanation> perFieldDf() {
      List<Explanation> out = new ArrayList<>(fields.length);
      for (int i = 0; i < fields.length; i++) {
        out.add(Explanation.match(w.fieldDocFreq[i], "docFreq in " + fields[i]));
      }
      return out;
    }

    Explanation explainCurrent() throws IOException {
      int doc = disi.docID();
      float value = score();
      if (!w.scoring) {
        return Explanation.match(value, "bm25f match (scores not needed)");
      }
      Explanation idfExpl =
          Explanation.match(
              (float) w.idf,
              "idf, computed as ln(1 + (N - n + 0.5) / (n + 0.5)) from:",
              Explanation.match(
                  w.smallN,
                  "n, largest per-field number of documents containing the term, from:",
                  perFieldDf()),
              Explanation.match(w.bigN, "N, number of documents (maxDoc)"));
      List<Explanation> fieldExpls = new ArrayList<>();
      double tfTilde = 0.0;
      for (int s = 0; s < subs.length; s++) {
        if (subs[s].docID() != doc) {
          continue;
        }
        int i = fieldIndex[s];
        int freq = subs[s].freq();
        double c = contribution(s, doc, freq);
        tfTilde += c;
        List<Explanation> d = new ArrayList<>();
        d.add(Explanation.match(freq, "tf, occurrences of the term in the field"));
        int nb = normByte(s, doc);
        if (w.factors[i] == null) {
          fieldExpls.add(
              Explanation.match(
                  (float) c,
                  String.format(
                      Locale.ROOT, "%s: adds nothing (field empty in the collection)", fields[i]),
                  d));
          continue;
        }
        if (nb >= 0) {
          d.add(Explanation.match(effectiveLength(nb), "len, field length (from the norm)"));
        } else {
          d.add(Explanation.match(0, "len unknown (no norms): b treated as 0"));
        }
        d.add(Explanation.match((float) w.avgl[i], "avgl, sumTotalTermFreq / N"));
        d.add(Explanation.match(weights[i], "w, field weight"));
        d.add(Explanation.match(bs[i], "b, length normalisation"));
        fieldExpls.add(
            Explanation.match(
                (float) c,
                String.format(
                    Locale.ROOT, "%s: w * tf / (1 - b + b * len / avgl) from:", fields[i]),
                d));
      }
      Explanation tfExpl =
          Explanation.match(
              (float) tfTilde, "tf~, sum over the fields containing the term of:", fieldExpls);
      List<Explanation> top = new ArrayList<>();
      if (w.boost != 1f) {
        top.add(Explanation.match(w.boost, "boost"));
      }
      top.add(idfExpl);
      top.add(tfExpl);
      top.add(Explanation.match(k1, "k1"));
      return Explanation.match(
          value,
          String.format(
              Locale.ROOT,
              "bm25f score(doc=%d) for term '%s', computed as %sidf * tf~ / (k1 + tf~) from:",
              doc,
              term.utf8ToString(),
              w.boost != 1f ? "boost * " : ""),
          top);
    }
  }

  /** Union of a few postings lists (a linear scan; qf lists are short). */
  private static final class Disjunction extends DocIdSetIterator {
    private final DocIdSetIterator[] subs;
    private final long cost;
    private int doc = -1;

    Disjunction(DocIdSetIterator[] subs) {
      this.subs = subs;
      long c = 0;
      for (DocIdSetIterator s : subs) {
        c += s.cost();
      }
      this.cost = c;
    }

    @Override
    public int docID() {
      return doc;
    }

    @Override
    public int nextDoc() throws IOException {
      return advance(doc + 1);
    }

    @Override
    public int advance(int target) throws IOException {
      if (doc == NO_MORE_DOCS) {
        return doc;
      }
      int min = NO_MORE_DOCS;
      for (DocIdSetIterator s : subs) {
        int d = s.docID();
        if (d < target) {
          d = s.advance(target);
        }
        if (d < min) {
          min = d;
        }
      }
      return doc = min;
    }

    @Override
    public long cost() {
      return cost;
    }
  }
}
