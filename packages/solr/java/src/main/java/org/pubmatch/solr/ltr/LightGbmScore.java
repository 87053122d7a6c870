package org.pubmatch.solr.ltr;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Scores rows with a LightGBM text model from the command line, for tests and for trying a model
 * out:
 *
 * <pre>
 * java -cp target/pubmatch-solr-0.1.0.jar:$(cat target/classpath.txt) \
 *   org.pubmatch.solr.ltr.LightGbmScore [--raw] [--hex] [--explain | --contributions] MODEL ROWS.json
 * </pre>
 *
 * <p>{@code MODEL} is a {@code model.txt} file or a model folder holding one. {@code ROWS.json} is
 * a JSON array of rows, each an array of {@link LightGbmModel#numFeatures()} numbers, with {@code
 * null} (or the strings {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}) for values JSON
 * cannot hold; {@code -} reads standard input. It prints one line per row: the score ({@link
 * LightGbmModel#predict(double[])}, or {@link LightGbmModel#predictRaw(double[])} with {@code
 * --raw}), the outputs separated by spaces for a model with several per row. Numbers are printed
 * with {@link Double#toString(double)}, or exactly with {@link Double#toHexString(double)} with
 * {@code --hex}. With {@code --explain}, each line is instead a JSON object {@code {"value": …,
 * "trees": [{"tree": 0, "leaf": 2, "value": …, "path": [0, 1]}, …]}} (see {@link
 * LightGbmModel#explain(double[])}); with {@code --contributions}, {@code {"bias": …,
 * "contributions": [one per feature]}} (Saabas' attribution, {@link
 * LightGbmModel#explainContributions(double[])}); with {@code --hex} their numbers are
 * hexadecimal strings.
 *
 * <p>Exit status 0 when every row was scored, 1 when the model or the rows cannot be read (the
 * message goes to stderr as {@code lightgbm-score: …}), 2 for bad arguments.
 */
public final class LightGbmScore {

  private static final String USAGE =
      "usage: LightGbmScore [--raw] [--hex] [--explain | --contributions] MODEL ROWS.json"
          + " (MODEL: model.txt or a model folder; ROWS.json: a JSON array of rows, - for stdin)";

  private LightGbmScore() {}

  /**
   * Runs the command.
   *
   * @param args the flags, the model and the rows (see the class description)
   */
  public static void main(String[] args) {
    boolean raw = false;
    boolean hex = false;
    boolean explain = false;
    boolean contributions = false;
    String model = null;
    String rows = null;
    for (String arg : args) {
      switch (arg) {
        case "--raw":
          raw = true;
          break;
        case "--hex":
          hex = true;
          break;
        case "--explain":
          explain = true;
          break;
        case "--contributions":
          contributions = true;
          break;
        default:
          if (arg.startsWith("--")) {
            usage("unknown option " + arg);
          } else if (model == null) {
            model = arg;
          } else if (rows == null) {
            rows = arg;
          } else {
            usage("one model and one rows file, not more");
          }
      }
    }
    if (model == null || rows == null) {
      usage("a model and a rows file are required");
    }
    try {
      LightGbmModel lightGbm = LightGbmModel.load(Path.of(model));
      double[][] data = readRows(rows);
      PrintWriter out =
          new PrintWriter(
              new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8)));
      score(lightGbm, data, new Format(raw, hex, explain, contributions), out);
      out.flush();
      if (out.checkError()) {
        fail("cannot write the scores to stdout");
      }
    } catch (NoSuchFileException e) {
      fail(e.getFile() + ": no such file");
    } catch (AccessDeniedException e) {
      fail(e.getFile() + ": permission denied");
    } catch (IOException | IllegalArgumentException | UnsupportedOperationException e) {
      fail(e.getMessage());
    }
  }

  /** How to print. */
  private record Format(boolean raw, boolean hex, boolean explain, boolean contributions) {}

  private static void score(LightGbmModel model, double[][] rows, Format format, PrintWriter out)
      throws IOException {
    ObjectMapper mapper = new ObjectMapper();
    double[] scores = new double[model.numOutputs()];
    StringBuilder line = new StringBuilder();
    for (int r = 0; r < rows.length; r++) {
      double[] row = rows[r];
      if (row.length != model.numFeatures()) {
        throw new IllegalArgumentException(
            "rows["
                + r
                + "] has "
                + row.length
                + " values, the model expects "
                + model.numFeatures());
      }
      if (format.explain()) {
        out.println(mapper.writeValueAsString(explanationJson(mapper, model.explain(row), format)));
        continue;
      }
      if (format.contributions()) {
        LightGbmModel.Contributions c = model.explainContributions(row);
        ObjectNode node = mapper.createObjectNode();
        putNumber(node, "bias", c.bias(), format);
        ArrayNode values = node.putArray("contributions");
        for (double v : c.contributions()) {
          if (format.hex()) {
            values.add(Double.toHexString(v));
          } else {
            values.add(v);
          }
        }
        out.println(mapper.writeValueAsString(node));
        continue;
      }
      if (format.raw()) {
        model.predictRaw(row, scores);
      } else {
        model.predict(row, scores);
      }
      line.setLength(0);
      for (int c = 0; c < scores.length; c++) {
        if (c > 0) {
          line.append(' ');
        }
        line.append(format.hex() ? Double.toHexString(scores[c]) : Double.toString(scores[c]));
      }
      out.println(line);
    }
  }

  private static ObjectNode explanationJson(
      ObjectMapper mapper, LightGbmModel.Explanation explanation, Format format) {
    ObjectNode node = mapper.createObjectNode();
    putNumber(node, "value", explanation.value(), format);
    ArrayNode trees = node.putArray("trees");
    for (LightGbmModel.TreeContribution tree : explanation.trees()) {
      ObjectNode entry = trees.addObject();
      entry.put("tree", tree.tree());
      entry.put("leaf", tree.leaf());
      putNumber(entry, "value", tree.value(), format);
      ArrayNode path = entry.putArray("path");
      tree.path().forEach(path::add);
    }
    return node;
  }

  private static void putNumber(ObjectNode node, String key, double value, Format format) {
    if (format.hex()) {
      node.put(key, Double.toHexString(value));
    } else if (Double.isFinite(value)) {
      node.put(key, value);
    } else {
      node.put(key, Double.toString(value));
    }
  }

  /** The rows of a JSON file (or stdin for {@code -}): arrays of numbers, null for NaN. */
  static double[][] readRows(String path) throws IOException {
    JsonNode json;
    ObjectMapper mapper = new ObjectMapper();
    String name = path.equals("-") ? "stdin" : path;
    try (InputStream in = path.equals("-") ? System.in : Files.newInputStream(Path.of(path))) {
      json = mapper.readTree(in);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          name + ": not JSON: " + e.getOriginalMessage().lines().findFirst().orElse(""));
    }
    if (json == null || !json.isArray()) {
      throw new IllegalArgumentException(name + ": expected a JSON array of rows");
    }
    double[][] rows = new double[json.size()][];
    for (int r = 0; r < rows.length; r++) {
      JsonNode row = json.get(r);
      if (!row.isArray()) {
        throw new IllegalArgumentException(name + ": rows[" + r + "] is not an array");
      }
      rows[r] = new double[row.size()];
      for (int f = 0; f < rows[r].length; f++) {
        rows[r][f] = value(row.get(f), name, r, f);
      }
    }
    return rows;
  }

  private static double value(JsonNode value, String name, int r, int f) {
    if (value.isNumber()) {
      return value.doubleValue();
    }
    if (value.isNull()) {
      return Double.NaN;
    }
    if (value.isTextual()) {
      switch (value.textValue()) {
        case "NaN":
          return Double.NaN;
        case "Infinity":
          return Double.POSITIVE_INFINITY;
        case "-Infinity":
          return Double.NEGATIVE_INFINITY;
        default:
          break;
      }
    }
    String text = value.toString();
    throw new IllegalArgumentException(
        name
            + ": rows["
            + r
            + "]["
            + f
            + "] is "
            + (text.length() > 200 ? text.substring(0, 200) + "…" : text)
            + ", not a number or null");
  }

  private static void usage(String problem) {
    System.err.println("lightgbm-score: " + problem);
    System.err.println(USAGE);
    System.exit(2);
  }

  private static void fail(String message) {
    System.err.println("lightgbm-score: " + message);
    System.exit(1);
  }
}
