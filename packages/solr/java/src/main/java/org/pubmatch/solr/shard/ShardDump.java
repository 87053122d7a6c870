package org.pubmatch.solr.shard;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.MultiReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.Bits;

/**
 * A main class that reads Lucene index directories of a pubmatch collection (one per shard, e.g. a
 * replica's {@code data/index} of each shard) with {@link ShardDocumentReader} and {@link
 * CollectionTermStats}, and prints what they read as JSON lines: one line per document with
 * forward data, then {@code {"docCount": n}}, then one line per term of {@code --terms}. Over
 * several directories it reads a {@code MultiReader}, so the statistics are the sums over the
 * shards, as {@code ExactStatsCache} serves them. Used by the round-trip test; also handy to look
 * at a shard.
 *
 * <pre>
 * java -cp ... org.pubmatch.solr.shard.ShardDump --index DIR [--index DIR ...] [--terms FILE]
 * </pre>
 *
 * <p>Document lines: {@code {"id": …, "year": n|null, "publicationTypes": […], "languages": […],
 * "title": [[term|null, flags], …], "abstract": …, "mesh": …}}. Term lines: {@code {"term": …,
 * "title": df, "abstract": df, "mesh": df, "any": df, "titleTerms": df, "abstractTerms": df}}. Exit code 2 for bad arguments, 1 for an
 * error.
 */
public final class ShardDump {
  private ShardDump() {}

  /**
   * Runs the dump.
   *
   * @param args see the class comment
   */
  public static void main(String[] args) {
    List<Path> dirs = new ArrayList<>();
    Path terms = null;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if ((arg.equals("--index") || arg.equals("--terms")) && i + 1 < args.length) {
        Path value = Path.of(args[++i]);
        if (arg.equals("--index")) {
          dirs.add(value);
        } else {
          terms = value;
        }
      } else {
        System.err.println("ShardDump: unknown or incomplete argument " + arg);
        System.exit(2);
      }
    }
    if (dirs.isEmpty()) {
      System.err.println("ShardDump: usage: --index DIR [--index DIR ...] [--terms FILE]");
      System.exit(2);
    }
    try {
      dump(dirs, terms);
    } catch (IOException | RuntimeException e) {
      System.err.println("ShardDump: " + e);
      System.exit(1);
    }
  }

  private static void dump(List<Path> dirs, Path termsFile) throws IOException {
    List<DirectoryReader> readers = new ArrayList<>();
    try {
      for (Path dir : dirs) {
        readers.add(DirectoryReader.open(FSDirectory.open(dir)));
      }
      IndexReader reader = new MultiReader(readers.toArray(new IndexReader[0]), false);
      Writer out =
          new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
      ShardDocumentReader documents = new ShardDocumentReader(reader);
      ShardDocument doc = new ShardDocument();
      StringBuilder line = new StringBuilder();
      for (LeafReaderContext leaf : reader.leaves()) {
        Bits live = leaf.reader().getLiveDocs();
        for (int d = 0; d < leaf.reader().maxDoc(); d++) {
          if ((live != null && !live.get(d)) || !documents.read(leaf.docBase + d, doc)) {
            continue;
          }
          line.setLength(0);
          line.append("{\"id\":");
          string(line, doc.id());
          line.append(",\"year\":").append(doc.hasYear() ? Integer.toString(doc.year()) : "null");
          line.append(",\"publicationTypes\":[");
          for (int i = 0; i < doc.publicationTypeCount(); i++) {
            if (i > 0) {
              line.append(',');
            }
            string(line, doc.publicationType(i));
          }
          line.append("],\"languages\":[");
          for (int i = 0; i < doc.languageCount(); i++) {
            if (i > 0) {
              line.append(',');
            }
            string(line, doc.language(i));
          }
          line.append(']');
          String[] names = {"title", "abstract", "mesh"};
          for (int s = 0; s < ShardDocument.STREAMS; s++) {
            line.append(",\"").append(names[s]).append("\":[");
            for (int i = 0; i < doc.tokenCount(s); i++) {
              if (i > 0) {
                line.append(',');
              }
              int term = doc.tokenTerm(s, i);
              line.append('[');
              string(line, term == ShardDocument.NO_TERM ? null : doc.term(term));
              line.append(',').append(doc.tokenFlags(s, i)).append(']');
            }
            line.append(']');
          }
          out.append(line).append("}\n");
        }
      }
      CollectionTermStats stats = new CollectionTermStats(new IndexSearcher(reader));
      out.append("{\"docCount\":").append(Long.toString(stats.docCount())).append("}\n");
      if (termsFile != null) {
        for (String term : Files.readAllLines(termsFile, StandardCharsets.UTF_8)) {
          if (term.isEmpty()) {
            continue;
          }
          line.setLength(0);
          line.append("{\"term\":");
          string(line, term);
          line.append(",\"title\":").append(stats.docFreq(ShardFields.TITLE, term));
          line.append(",\"abstract\":").append(stats.docFreq(ShardFields.ABSTRACT, term));
          line.append(",\"mesh\":").append(stats.docFreq(ShardFields.MESH, term));
          line.append(",\"any\":").append(stats.docFreq(ShardFields.TITLE_ABSTRACT, term));
          line.append(",\"titleTerms\":").append(stats.docFreq(ShardFields.TITLE_TERMS, term));
          line.append(",\"abstractTerms\":").append(stats.docFreq(ShardFields.ABSTRACT_TERMS, term));
          out.append(line.append("}\n"));
        }
      }
      out.flush();
    } finally {
      for (DirectoryReader r : readers) {
        r.close();
      }
    }
  }

  /** Appends a JSON string (or null). */
  private static void string(StringBuilder out, String s) {
    if (s == null) {
      out.append("null");
      return;
    }
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"':
          out.append("\\\"");
          break;
        case '\\':
          out.append("\\\\");
          break;
        default:
          if (c < 0x20 || c == 0x2028 || c == 0x2029) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
      }
    }
    out.append('"');
  }
}
