package org.pubmatch.solr.ltr;

/**
 * A LightGBM text model that cannot be read: not a model, or a tree that contradicts itself. The
 * message names the source, the line and what is wrong, e.g. {@code model.txt line 14: tree 3:
 * threshold has 5 values, expected 4 (one per internal node; num_leaves=5)}.
 */
public final class LightGbmModelException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  /** What was read, named first in the message. */
  private final String source;

  /** The line (from 1) at fault, or 0. */
  private final int line;

  /** The key at fault, or {@code null}. */
  private final String key;

  /**
   * Creates the exception.
   *
   * @param source what was read (a file name, or a description of the text), named first in the
   *     message
   * @param line the line (from 1) at fault, or 0 when no line is
   * @param key the key at fault ({@code threshold}, {@code max_feature_idx}), or {@code null}
   * @param problem what is wrong, without the source or line
   */
  public LightGbmModelException(String source, int line, String key, String problem) {
    super(line > 0 ? source + " line " + line + ": " + problem : source + ": " + problem);
    this.source = source;
    this.line = line;
    this.key = key;
  }

  /**
   * The source named in the message.
   *
   * @return a file name or a description of the text
   */
  public String source() {
    return source;
  }

  /**
   * The line at fault.
   *
   * @return the line number (from 1), or 0 when the problem is not on one line
   */
  public int line() {
    return line;
  }

  /**
   * The key at fault.
   *
   * @return the key ({@code leaf_value}, {@code version}, …), or {@code null}
   */
  public String key() {
    return key;
  }
}
