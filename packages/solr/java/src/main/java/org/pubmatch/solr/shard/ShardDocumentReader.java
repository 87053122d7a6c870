package org.pubmatch.solr.shard;

import java.io.IOException;
import java.util.List;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.util.BytesRef;

/**
 * Reads the feature data of documents of one index (a shard's {@code IndexSearcher.getIndexReader()},
 * or any Lucene reader over a pubmatch collection) into a reused {@link ShardDocument}.
 *
 * <p>Doc values are forward-only iterators, so documents are cheapest read in ascending doc id
 * order within a segment (sort the candidates by doc id first); reading a smaller doc id than the
 * last one of its segment re-opens that segment's iterators. Publication type and language strings
 * are decoded once per segment and value, then shared. Not thread-safe: one reader per thread.
 */
public final class ShardDocumentReader {
  private final List<LeafReaderContext> leaves;
  private final Leaf[] opened;

  /**
   * A reader over an index.
   *
   * @param reader the index (top-level doc ids are what {@link #read} takes)
   */
  public ShardDocumentReader(IndexReader reader) {
    this.leaves = reader.leaves();
    this.opened = new Leaf[leaves.size()];
  }

  /**
   * Reads one document into {@code into}.
   *
   * @param doc a doc id of the reader given to the constructor
   * @param into the document to fill (its previous content is replaced)
   * @return false when the document has no forward value (the collection's state document), and
   *     then {@code into} holds no tokens; true otherwise
   * @throws IOException when the index cannot be read
   * @throws IllegalStateException when the document's segment has text fields but no forward field
   *     (a collection indexed by a pubmatch before schema version 2: index it again)
   * @throws IllegalArgumentException when the forward value is malformed or of another format
   */
  public boolean read(int doc, ShardDocument into) throws IOException {
    int index = ReaderUtil.subIndex(doc, leaves);
    LeafReaderContext context = leaves.get(index);
    int local = doc - context.docBase;
    Leaf leaf = opened[index];
    if (leaf == null || local <= leaf.last) {
      leaf = new Leaf(context.reader(), leaf);
      opened[index] = leaf;
    }
    leaf.last = local;
    into.clearDocValues();
    if (leaf.id.advanceExact(local)) {
      into.setId(leaf.id.lookupOrd(leaf.id.ordValue()));
    }
    if (leaf.year.advanceExact(local)) {
      into.hasYear = true;
      into.year = (int) leaf.year.longValue();
    }
    if (leaf.abstractClicks.advanceExact(local)) {
      into.abstractClicks = leaf.abstractClicks.longValue();
    }
    if (leaf.fullTextRequests.advanceExact(local)) {
      into.fullTextRequests = leaf.fullTextRequests.longValue();
    }
    if (leaf.publicationTypes.advanceExact(local)) {
      for (int i = 0, n = leaf.publicationTypes.docValueCount(); i < n; i++) {
        into.addPublicationType(leaf.string(leaf.publicationTypes, leaf.publicationTypeStrings, leaf.publicationTypes.nextOrd()));
      }
    }
    if (leaf.languages.advanceExact(local)) {
      for (int i = 0, n = leaf.languages.docValueCount(); i < n; i++) {
        into.addLanguage(leaf.string(leaf.languages, leaf.languageStrings, leaf.languages.nextOrd()));
      }
    }
    if (!leaf.forward.advanceExact(local)) {
      into.decodeForward(EMPTY);
      return false;
    }
    into.decodeForward(leaf.forward.binaryValue());
    return true;
  }

  /** An encoded document without tokens (format byte, no terms, three empty streams). */
  private static final BytesRef EMPTY =
      new BytesRef(new byte[] {(byte) ShardFields.FORWARD_FORMAT, 0, 0, 0, 0});

  /** One segment's iterators (re-opened to go backwards) and its decoded strings (kept). */
  private static final class Leaf {
    final BinaryDocValues forward;
    final NumericDocValues year;
    final NumericDocValues abstractClicks;
    final NumericDocValues fullTextRequests;
    final SortedSetDocValues publicationTypes;
    final SortedSetDocValues languages;
    final SortedDocValues id;
    final String[] publicationTypeStrings;
    final String[] languageStrings;
    int last = -1;

    Leaf(LeafReader reader, Leaf previous) throws IOException {
      FieldInfos infos = reader.getFieldInfos();
      if (infos.fieldInfo(ShardFields.FORWARD) == null
          && (infos.fieldInfo(ShardFields.TITLE) != null
              || infos.fieldInfo(ShardFields.ABSTRACT) != null)) {
        throw new IllegalStateException(
            "a segment of this index holds articles without the forward field "
                + ShardFields.FORWARD
                + ": the collection was indexed by an older pubmatch; delete it and index the corpus"
                + " again");
      }
      forward = DocValues.getBinary(reader, ShardFields.FORWARD);
      year = DocValues.getNumeric(reader, ShardFields.YEAR);
      abstractClicks = DocValues.getNumeric(reader, ShardFields.USAGE_ABSTRACT);
      fullTextRequests = DocValues.getNumeric(reader, ShardFields.USAGE_FULL_TEXT);
      publicationTypes = DocValues.getSortedSet(reader, ShardFields.PUBLICATION_TYPES);
      languages = DocValues.getSortedSet(reader, ShardFields.LANGUAGES);
      id = DocValues.getSorted(reader, ShardFields.ID);
      publicationTypeStrings =
          previous != null
              ? previous.publicationTypeStrings
              : new String[(int) Math.min(Integer.MAX_VALUE, publicationTypes.getValueCount())];
      languageStrings =
          previous != null
              ? previous.languageStrings
              : new String[(int) Math.min(Integer.MAX_VALUE, languages.getValueCount())];
    }

    String string(SortedSetDocValues values, String[] strings, long ord) throws IOException {
      String s = strings[(int) ord];
      if (s == null) {
        s = values.lookupOrd(ord).utf8ToString();
        strings[(int) ord] = s;
      }
      return s;
    }
  }
}
