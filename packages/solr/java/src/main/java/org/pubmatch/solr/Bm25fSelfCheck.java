package org.pubmatch.solr;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.analysis.core.WhitespaceAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.sandbox.search.CombinedFieldQuery;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.SmallFloat;

/**
 * A self-check of {@link Bm25fQuery} without JUnit and without Solr: builds small in-memory
 * indexes, compares every score with a direct computation of the formula, checks explain, the
 * visitor, equality, non-scoring use, absent terms, and shard independence with a searcher that
 * serves "global" statistics the way Solr's ExactStatsCache does (global when known, else local,
 * which throws for docFreq 0).
 *
 * <p>Run: {@code java -cp target/pubmatch-solr-0.1.0.jar:$(cat target/classpath.txt)
 * org.pubmatch.solr.Bm25fSelfCheck}. Exit code 0 when every check passes, 1 otherwise.
 */
public final class Bm25fSelfCheck {

  private static final String[] FIELDS = {"title", "abstract"};
  private static final float[] WEIGHTS = {5f, 1f};
  private static final float K1 = 1.2f;
  private static final float B = 0.75f;

  private static int failures = 0;

  /** id, title, abstract (whitespace-separated lowercase tokens). */
  private static final String[][] SHARD_A = {
    {"a1", "heart disease", "the heart and the lungs in heart disease"},
    {"a2", "lung cancer screening", "zeta appears in abstracts only here zeta"},
    {"a3", "kidney", "zeta renal function"},
    {"a4", "renal", "zeta zeta zeta"},
    {"a!probe", "zeta study", "a study of nothing in particular"},
  };

  private static final String[][] SHARD_B = {
    {"b1", "diabetes", "insulin resistance and diabetes"},
    {"b2", "heart failure", "cardiac output " + repeat("filler ", 39).trim()},
    {"b!probe", "zeta study", "a study of nothing in particular"},
  };

  private Bm25fSelfCheck() {}

  private static String repeat(String s, int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append(s);
    }
    return sb.toString();
  }

  public static void main(String[] args) throws Exception {
    List<String[]> all = new ArrayList<>();
    all.addAll(List.of(SHARD_A));
    all.addAll(List.of(SHARD_B));
    try (Directory full = index(all);
        Directory da = index(List.of(SHARD_A));
        Directory db = index(List.of(SHARD_B));
        DirectoryReader rFull = DirectoryReader.open(full);
        DirectoryReader ra = DirectoryReader.open(da);
        DirectoryReader rb = DirectoryReader.open(db)) {
      IndexSearcher sFull = new IndexSearcher(rFull);
      sFull.setSimilarity(new BM25Similarity(K1, B));

      // 1. scores equal the formula, explain equals the score
      for (String term : new String[] {"heart", "zeta", "study", "filler", "cardiac"}) {
        checkScores(sFull, all, term);
      }

      // 2. a term absent everywhere: no hit, no exception
      TopDocs none = sFull.search(q("nosuchterm"), 10);
      check(none.totalHits.value == 0, "absent term matches nothing");

      // 3. mm=all (MUST) and mm=any (SHOULD)
      BooleanQuery all2 =
          new BooleanQuery.Builder()
              .add(q("heart"), BooleanClause.Occur.MUST)
              .add(q("disease"), BooleanClause.Occur.MUST)
              .build();
      check(sFull.count(all2) == 1, "mm=all: heart AND disease matches 1 doc");
      BooleanQuery any2 =
          new BooleanQuery.Builder()
              .add(q("heart"), BooleanClause.Occur.SHOULD)
              .add(q("diabetes"), BooleanClause.Occur.SHOULD)
              .build();
      check(sFull.count(any2) == 3, "mm=any: heart OR diabetes matches 3 docs");

      // 4. non-scoring use (count) and union matching
      check(sFull.count(q("zeta")) == 5, "zeta matches 5 docs (title or abstract)");

      // 5. visitor exposes every (field, term)
      Set<Term> terms = new HashSet<>();
      q("zeta").visit(QueryVisitor.termCollector(terms));
      check(
          terms.equals(Set.of(new Term("title", "zeta"), new Term("abstract", "zeta"))),
          "visit exposes title:zeta and abstract:zeta, got " + terms);

      // 6. equals / hashCode
      check(q("zeta").equals(q("zeta")) && q("zeta").hashCode() == q("zeta").hashCode(), "equals");
      check(!q("zeta").equals(q("heart")), "not equals (term)");
      check(
          !q("zeta").equals(new Bm25fQuery(new BytesRef("zeta"), FIELDS, WEIGHTS, K1, 0.5f)),
          "not equals (b)");

      // 7. shard independence with global statistics
      IndexSearcher ga = new GlobalStatsSearcher(ra, sFull);
      IndexSearcher gb = new GlobalStatsSearcher(rb, sFull);
      float fullProbe = scoreOf(sFull, q("zeta"), "a!probe");
      float pa = scoreOf(ga, q("zeta"), "a!probe");
      float pb = scoreOf(gb, q("zeta"), "b!probe");
      System.out.printf(
          Locale.ROOT,
          "bm25f    zeta probe: 1 index %.7f | shard A %.7f | shard B %.7f%n",
          fullProbe,
          pa,
          pb);
      check(pa == pb && pa == fullProbe, "bm25f: probe scores identical on both shards");
      CombinedFieldQuery cfq =
          new CombinedFieldQuery.Builder()
              .addField("title", 5f)
              .addField("abstract", 1f)
              .addTerm(new BytesRef("zeta"))
              .build();
      float ca = scoreOf(ga, cfq, "a!probe");
      float cb = scoreOf(gb, cfq, "b!probe");
      System.out.printf(
          Locale.ROOT, "combined zeta probe: shard A %.7f | shard B %.7f (differ)%n", ca, cb);
      check(ca != cb, "combined: probe scores differ across shards (the known defect)");

      // 8. quantised norms: a 41-token abstract is seen as byte4ToInt(intToByte4(41)) = 40
      int q40 = SmallFloat.byte4ToInt(SmallFloat.intToByte4(41));
      check(q40 == Bm25fQuery.decodeLength(SmallFloat.intToByte4(41)), "decodeLength");
      System.out.println("len 41 is stored as " + q40);
    }
    if (failures > 0) {
      System.out.println("Bm25fSelfCheck: " + failures + " check(s) FAILED");
      System.exit(1);
    }
    System.out.println("Bm25fSelfCheck: all checks passed");
  }

  private static Bm25fQuery q(String term) {
    return new Bm25fQuery(new BytesRef(term), FIELDS, WEIGHTS, K1, B);
  }

  private static Directory index(List<String[]> docs) throws IOException {
    Directory dir = new ByteBuffersDirectory();
    IndexWriterConfig cfg = new IndexWriterConfig(new WhitespaceAnalyzer());
    cfg.setSimilarity(new BM25Similarity(K1, B));
    try (IndexWriter w = new IndexWriter(dir, cfg)) {
      for (String[] d : docs) {
        Document doc = new Document();
        doc.add(new StringField("id", d[0], Field.Store.YES));
        doc.add(new TextField("title", d[1], Field.Store.NO));
        doc.add(new TextField("abstract", d[2], Field.Store.NO));
        w.addDocument(doc);
      }
      w.forceMerge(1);
    }
    return dir;
  }

  /** The formula, computed directly from the documents' tokens. */
  private static Map<String, Double> expected(List<String[]> docs, String term) {
    int nDocs = docs.size();
    long[] df = new long[FIELDS.length];
    long[] ttf = new long[FIELDS.length];
    for (String[] d : docs) {
      for (int f = 0; f < FIELDS.length; f++) {
        String[] toks = d[f + 1].split(" ");
        ttf[f] += toks.length;
        if (List.of(toks).contains(term)) {
          df[f]++;
        }
      }
    }
    long n = Math.max(df[0], df[1]);
    double idf = Math.log(1 + (nDocs - n + 0.5) / (n + 0.5));
    Map<String, Double> out = new HashMap<>();
    for (String[] d : docs) {
      double tfTilde = 0;
      for (int f = 0; f < FIELDS.length; f++) {
        String[] toks = d[f + 1].split(" ");
        int tf = 0;
        for (String t : toks) {
          if (t.equals(term)) {
            tf++;
          }
        }
        int len = SmallFloat.byte4ToInt(SmallFloat.intToByte4(toks.length));
        double avgl = ttf[f] / (double) nDocs;
        tfTilde += WEIGHTS[f] * tf / (1 - B + B * len / avgl);
      }
      if (tfTilde > 0) {
        out.put(d[0], idf * tfTilde / (K1 + tfTilde));
      }
    }
    return out;
  }

  private static void checkScores(IndexSearcher s, List<String[]> docs, String term)
      throws IOException {
    Map<String, Double> exp = expected(docs, term);
    Query query = q(term);
    TopDocs top = s.search(query, 100);
    check(top.totalHits.value == exp.size(), term + ": hit count " + exp.size());
    for (ScoreDoc sd : top.scoreDocs) {
      String id = s.storedFields().document(sd.doc).get("id");
      double e = exp.getOrDefault(id, Double.NaN);
      boolean ok = Math.abs(e - sd.score) <= 1e-6 * Math.max(1, e);
      check(ok, String.format(Locale.ROOT, "%s %s: score %.7f expected %.7f", term, id, sd.score, e));
      Explanation ex = s.explain(query, sd.doc);
      check(
          ex.isMatch() && ex.getValue().floatValue() == sd.score,
          term + " " + id + ": explain " + ex.getValue() + " == score " + sd.score);
    }
  }

  private static float scoreOf(IndexSearcher s, Query query, String id) throws IOException {
    for (ScoreDoc sd : s.search(query, 100).scoreDocs) {
      if (id.equals(s.storedFields().document(sd.doc).get("id"))) {
        return sd.score;
      }
    }
    return Float.NaN;
  }

  private static void check(boolean ok, String what) {
    if (!ok) {
      failures++;
      System.out.println("FAIL " + what);
    }
  }

  /**
   * Serves another searcher's statistics, like Solr's ExactStatsSource: the global value when the
   * term has one (docFreq &gt; 0), otherwise the local one (which throws for docFreq 0).
   */
  private static final class GlobalStatsSearcher extends IndexSearcher {
    private final IndexSearcher global;

    GlobalStatsSearcher(DirectoryReader local, IndexSearcher global) {
      super(local);
      this.global = global;
      setSimilarity(new BM25Similarity(K1, B));
    }

    @Override
    public TermStatistics termStatistics(Term term, int docFreq, long totalTermFreq)
        throws IOException {
      int gdf = global.getIndexReader().docFreq(term);
      if (gdf > 0) {
        return new TermStatistics(
            term.bytes(), gdf, global.getIndexReader().totalTermFreq(term));
      }
      return super.termStatistics(term, docFreq, totalTermFreq);
    }

    @Override
    public CollectionStatistics collectionStatistics(String field) throws IOException {
      CollectionStatistics cs = global.collectionStatistics(field);
      return cs != null ? cs : super.collectionStatistics(field);
    }
  }
}
