package org.pubmatch.solr.ltr;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A LightGBM tree model read from LightGBM's text format ({@code model.txt}), scored in Java with
 * the semantics of pubmatch's TypeScript scorer ({@code packages/lightgbm-wasm/src/scorer}: {@code
 * parseLightGbmModel}, {@code scoreRows}, {@code explainRow}), which in turn follows LightGBM's
 * predictor.
 *
 * <p>Scoring a row walks every tree from its root to a leaf. At an internal node the row's value of
 * the node's feature is first read as 0 when it lies within ±{@link #ZERO_THRESHOLD}. Then, by the
 * node's {@code decision_type} (bit 0 categorical, bit 1 default left, bits 2–3 the missing type:
 * 0 none, 1 zero, 2 NaN):
 *
 * <ul>
 *   <li>numerical, missing type none: NaN is read as 0; {@code value <= threshold} goes left;
 *   <li>missing type zero: NaN is read as 0, and 0 goes to the default side;
 *   <li>missing type NaN: NaN goes to the default side;
 *   <li>categorical: NaN and negative values go right; otherwise the value, truncated to a whole
 *       category, goes left when its bit is set in the node's bitset ({@code cat_threshold} words
 *       {@code cat_boundaries[c] … cat_boundaries[c + 1] − 1}, where c is the node's {@code
 *       threshold}) and right when it is not set or lies beyond the bitset.
 * </ul>
 *
 * <p>A tree's output is its leaf's value or, for linear trees ({@code is_linear=1}), the leaf's
 * constant plus its coefficients times the row's values (the plain leaf value when one of those
 * values is NaN). The raw score is the sum of the tree outputs in model order, starting from 0, in
 * double: the same additions in the same order as LightGBM and {@code scoreRows}, so raw scores
 * are the same doubles. {@link #predict(double[])} then divides by the number of iterations for
 * averaged models ({@code average_output}, random forests) and applies the objective's
 * transformation: sigmoid for {@code binary} and {@code multiclassova} (with the model's {@code
 * sigmoid:} option), {@code cross_entropy}; {@code log1p(exp(x))} for {@code
 * cross_entropy_lambda}; {@code exp} for {@code poisson}, {@code gamma}, {@code tweedie}; softmax
 * for {@code multiclass}; {@code sign(x)·x²} for {@code regression sqrt}; none for {@code
 * lambdarank}, {@code rank_xendcg}, {@code regression} and the other regressions. The
 * transformations use {@link StrictMath} (fdlibm), the same algorithms as JavaScript's {@code
 * Math.exp} and {@code Math.log1p} in V8; LightGBM itself uses the C library, which may differ in
 * the last bit.
 *
 * <p>A model is immutable and safe to share between threads. Scoring allocates nothing (except
 * {@link #explain(double[])}).
 */
public final class LightGbmModel {

  /** LightGBM's {@code kZeroThreshold}: the float {@code 1e-35f} widened to double. */
  public static final double ZERO_THRESHOLD = 1e-35f;

  /** The model file of a pubmatch model folder, beside its {@code manifest.json}. */
  public static final String MODEL_FILE = "model.txt";

  /** {@code decision_type} bits that leave the plain {@code value <= threshold} test. */
  private static final int SLOW_DECISION = 0b1101;

  private static final int MISSING_ZERO = 1;
  private static final int MISSING_NAN = 2;

  private final String version;
  private final int numClass;
  private final int treesPerIteration;
  private final int numFeatures;
  private final List<String> featureNames;
  private final String objective;
  private final boolean averageOutput;
  private final Transform transform;
  private final int numTrees;

  // Trees: per tree, its root (a node, or ~leaf for a one-leaf tree) and where its nodes and
  // leaves start in the arrays below. Children are global: >= 0 a node, < 0 the leaf ~child.
  private final int[] root;
  private final int[] nodeBase;
  private final int[] leafBase;
  private final boolean[] linearTree;

  // Internal nodes of all trees, back to back.
  private final int[] splitFeature;
  private final double[] threshold;
  private final int[] leftChild;
  private final int[] rightChild;
  private final byte[] decisionType;
  private final boolean[] plain;
  private final int[] catStart;
  private final int[] catWords;
  private final int[] catBits;
  // Per internal node: the training rows' mean output below it (internal_value); per tree whether
  // its text had them (trees without them put their whole output into the bias).
  private final double[] internalValue;
  private final boolean[] hasInternal;

  // Leaves of all trees, back to back; linear models per leaf (empty without linear trees).
  private final double[] leafValue;
  private final double[] leafConst;
  private final int[] linearStart;
  private final int[] linearFeature;
  private final double[] linearCoeff;

  /** How one tree scored a row, in an {@link Explanation}. */
  public record TreeContribution(int tree, int leaf, double value, List<Integer> path) {
    /**
     * One tree's part of a score.
     *
     * @param tree the tree's index in the model
     * @param leaf the leaf the row reached (its index within the tree)
     * @param value the tree's output for the row (the leaf's value, or its linear model's)
     * @param path the internal nodes visited (indexes within the tree), root first
     */
    public TreeContribution {
      path = List.copyOf(path);
    }
  }

  /**
   * A row's score with the trees that made it, as {@code explainRow} of the TypeScript scorer
   * gives it: for a model with several outputs per row, the trees of the first output only.
   *
   * @param value the sum of the trees' values in model order (equal to {@link
   *     #predictRaw(double[])}), divided by the number of iterations for averaged models; no
   *     objective transformation
   * @param trees one entry per tree used, in model order
   */
  public record Explanation(double value, List<TreeContribution> trees) {
    /**
     * A row's explanation.
     *
     * @param value the explained score
     * @param trees the trees' parts
     */
    public Explanation {
      trees = List.copyOf(trees);
    }
  }

  /**
   * A row's raw score attributed to its features along its paths (Saabas' method), as {@code
   * explainScore} of {@code @pubmatch/ltr} computes it.
   *
   * @param bias the roots' expected outputs ({@code internal_value} of each tree's root; the whole
   *     output of a one-leaf tree or of a tree whose text has no {@code internal_value})
   * @param contributions per feature column, the sum over the trees of the changes of expected
   *     output at the splits on that feature, from each node to the child the row took
   */
  public record Contributions(double bias, double[] contributions) {}

  private LightGbmModel(Header header, List<ParsedTree> trees, Transform transform) {
    this.version = header.version;
    this.numClass = header.numClass;
    this.treesPerIteration = header.treesPerIteration;
    this.numFeatures = header.numFeatures;
    this.featureNames = header.featureNames;
    this.objective = header.objective;
    this.averageOutput = header.averageOutput;
    this.transform = transform;
    this.numTrees = trees.size();
    int nodes = 0;
    int leaves = 0;
    int cats = 0;
    int linearTerms = 0;
    for (ParsedTree tree : trees) {
      nodes += tree.numLeaves - 1;
      leaves += tree.numLeaves;
      cats += tree.catThreshold.length;
      if (tree.linearFeatures != null) {
        linearTerms += tree.linearFeatures.length;
      }
    }
    root = new int[numTrees];
    nodeBase = new int[numTrees];
    leafBase = new int[numTrees];
    linearTree = new boolean[numTrees];
    splitFeature = new int[nodes];
    threshold = new double[nodes];
    leftChild = new int[nodes];
    rightChild = new int[nodes];
    decisionType = new byte[nodes];
    plain = new boolean[nodes];
    catStart = new int[nodes];
    catWords = new int[nodes];
    catBits = new int[cats];
    internalValue = new double[nodes];
    hasInternal = new boolean[numTrees];
    leafValue = new double[leaves];
    boolean anyLinear = trees.stream().anyMatch(t -> t.leafConst != null);
    leafConst = anyLinear ? new double[leaves] : new double[0];
    linearStart = anyLinear ? new int[leaves + 1] : new int[0];
    linearFeature = new int[linearTerms];
    linearCoeff = new double[linearTerms];
    int nb = 0;
    int lb = 0;
    int cb = 0;
    int tb = 0;
    for (int t = 0; t < numTrees; t++) {
      ParsedTree tree = trees.get(t);
      int inner = tree.numLeaves - 1;
      nodeBase[t] = nb;
      leafBase[t] = lb;
      root[t] = inner > 0 ? nb : ~lb;
      for (int i = 0; i < inner; i++) {
        int type = tree.decisionType[i];
        splitFeature[nb + i] = tree.splitFeature[i];
        threshold[nb + i] = tree.threshold[i];
        leftChild[nb + i] = global(tree.leftChild[i], nb, lb);
        rightChild[nb + i] = global(tree.rightChild[i], nb, lb);
        decisionType[nb + i] = (byte) type;
        plain[nb + i] = (type & SLOW_DECISION) == 0;
        if ((type & 1) != 0) {
          int c = (int) tree.threshold[i];
          catStart[nb + i] = cb + tree.catBoundaries[c];
          catWords[nb + i] = tree.catBoundaries[c + 1] - tree.catBoundaries[c];
        }
      }
      System.arraycopy(tree.leafValue, 0, leafValue, lb, tree.numLeaves);
      if (tree.internalValue != null) {
        hasInternal[t] = true;
        System.arraycopy(tree.internalValue, 0, internalValue, nb, inner);
      }
      System.arraycopy(tree.catThreshold, 0, catBits, cb, tree.catThreshold.length);
      if (anyLinear) {
        linearTree[t] = tree.leafConst != null;
        for (int leaf = 0; leaf < tree.numLeaves; leaf++) {
          linearStart[lb + leaf] = tb;
          if (tree.leafConst != null) {
            leafConst[lb + leaf] = tree.leafConst[leaf];
            int from = tree.linearStart[leaf];
            int count = tree.linearStart[leaf + 1] - from;
            System.arraycopy(tree.linearFeatures, from, linearFeature, tb, count);
            System.arraycopy(tree.linearCoeff, from, linearCoeff, tb, count);
            tb += count;
          }
        }
      }
      nb += inner;
      lb += tree.numLeaves;
      cb += tree.catThreshold.length;
    }
    if (anyLinear) {
      linearStart[leaves] = tb;
    }
  }

  private static int global(int child, int nodeBase, int leafBase) {
    return child >= 0 ? nodeBase + child : ~(leafBase + ~child);
  }

  /**
   * Reads a model from LightGBM's text format.
   *
   * @param text the model text (what LightGBM's {@code SaveModel} writes)
   * @param source what the text is, for messages (a file name, {@code model.txt})
   * @return the model
   * @throws LightGbmModelException when the text is not a LightGBM v3/v4 tree model or a tree
   *     contradicts itself; the message names the source, the line and the key
   */
  public static LightGbmModel parse(String text, String source) {
    return new Parser(text, source).parse();
  }

  /**
   * Reads a model file, or the {@value #MODEL_FILE} of a model folder (pubmatch saves a model as
   * a folder holding {@value #MODEL_FILE} and {@code manifest.json}; the manifest is not read).
   *
   * @param path a model text file, or a folder holding {@value #MODEL_FILE}
   * @return the model
   * @throws IOException when the file cannot be read (or is not UTF-8)
   * @throws LightGbmModelException when it is not a LightGBM model (see {@link #parse})
   */
  public static LightGbmModel load(Path path) throws IOException {
    Path file = Files.isDirectory(path) ? path.resolve(MODEL_FILE) : path;
    return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
  }

  /**
   * The features a row must have ({@code max_feature_idx + 1}).
   *
   * @return the row length
   */
  public int numFeatures() {
    return numFeatures;
  }

  /**
   * The feature names in column order ({@code feature_names}).
   *
   * @return the names, empty when the model text has none
   */
  public List<String> featureNames() {
    return featureNames;
  }

  /**
   * The outputs per row: {@code num_tree_per_iteration}, 1 except for multiclass models.
   *
   * @return the number of scores {@link #predictRaw(double[], double[])} writes per row
   */
  public int numOutputs() {
    return treesPerIteration;
  }

  /**
   * The classes ({@code num_class}): 1 except for multiclass models.
   *
   * @return the class count
   */
  public int numClass() {
    return numClass;
  }

  /**
   * The trees, over all iterations and outputs.
   *
   * @return the tree count
   */
  public int numTrees() {
    return numTrees;
  }

  /**
   * The boosting iterations: trees divided by {@link #numOutputs()}.
   *
   * @return the iteration count
   */
  public int numIterations() {
    return numTrees / treesPerIteration;
  }

  /**
   * The model format version.
   *
   * @return {@code v3} or {@code v4}
   */
  public String version() {
    return version;
  }

  /**
   * The {@code objective=} line.
   *
   * @return e.g. {@code lambdarank} or {@code binary sigmoid:1}; empty when the text has none
   */
  public String objective() {
    return objective;
  }

  /**
   * Whether the trees are averaged rather than summed ({@code average_output}, random forests).
   *
   * @return true for averaged models
   */
  public boolean averageOutput() {
    return averageOutput;
  }

  /**
   * Whether {@link #predict(double[])} can transform scores: false when the objective is not one
   * this class knows (then only raw scores are available).
   *
   * @return true when the objective is known
   */
  public boolean canTransform() {
    return transform.kind != TransformKind.UNKNOWN;
  }

  /**
   * The raw score of a row: the sum of all trees' outputs in model order, without averaging or
   * transformation (LightGBM's {@code predict_raw_score}).
   *
   * @param row the feature values, {@link #numFeatures()} of them; NaN for a missing value
   * @return the raw score
   * @throws IllegalArgumentException when the row has another length
   * @throws IllegalStateException when the model has several outputs per row (use {@link
   *     #predictRaw(double[], double[])})
   */
  public double predictRaw(double[] row) {
    checkRow(row);
    checkSingleOutput();
    double score = 0.0;
    for (int t = 0; t < numTrees; t++) {
      score += treeOutput(t, row);
    }
    return score;
  }

  /**
   * The raw scores of a row for every output: tree {@code t} adds to output {@code t %
   * numOutputs()}, in model order.
   *
   * @param row the feature values, {@link #numFeatures()} of them; NaN for a missing value
   * @param out receives the scores in {@code out[0 … numOutputs() − 1]}
   * @throws IllegalArgumentException when the row has another length or {@code out} is too short
   */
  public void predictRaw(double[] row, double[] out) {
    checkRow(row);
    checkOut(out);
    int k = treesPerIteration;
    Arrays.fill(out, 0, k, 0.0);
    for (int t = 0; t < numTrees; t++) {
      out[t % k] += treeOutput(t, row);
    }
  }

  /**
   * The score of a row: the raw score, divided by the number of iterations for averaged models,
   * then transformed by the objective (sigmoid for binary, none for lambdarank, …).
   *
   * @param row the feature values, {@link #numFeatures()} of them; NaN for a missing value
   * @return the score
   * @throws IllegalArgumentException when the row has another length
   * @throws IllegalStateException when the model has several outputs per row (use {@link
   *     #predict(double[], double[])})
   * @throws UnsupportedOperationException when the objective is unknown (see {@link
   *     #canTransform()})
   */
  public double predict(double[] row) {
    checkTransform();
    double score = predictRaw(row);
    if (averageOutput) {
      score /= numIterations();
    }
    return transform.apply(score);
  }

  /**
   * The scores of a row for every output (softmax over the classes of a multiclass model).
   *
   * @param row the feature values, {@link #numFeatures()} of them; NaN for a missing value
   * @param out receives the scores in {@code out[0 … numOutputs() − 1]}
   * @throws IllegalArgumentException when the row has another length or {@code out} is too short
   * @throws UnsupportedOperationException when the objective is unknown (see {@link
   *     #canTransform()})
   */
  public void predict(double[] row, double[] out) {
    checkTransform();
    predictRaw(row, out);
    int k = treesPerIteration;
    if (averageOutput) {
      int iterations = numIterations();
      for (int c = 0; c < k; c++) {
        out[c] /= iterations;
      }
    }
    transform.apply(out, k);
  }

  /**
   * Explains a row's raw score: the leaf each tree sent it to, that tree's output and the nodes on
   * the way (for several outputs per row, the trees of the first output).
   *
   * @param row the feature values, {@link #numFeatures()} of them; NaN for a missing value
   * @return the explanation, whose value equals {@link #predictRaw(double[])} for a summed
   *     single-output model
   * @throws IllegalArgumentException when the row has another length
   */
  public Explanation explain(double[] row) {
    checkRow(row);
    int iterations = numIterations();
    List<TreeContribution> trees = new ArrayList<>(iterations);
    double value = 0.0;
    for (int i = 0; i < iterations; i++) {
      int t = i * treesPerIteration;
      List<Integer> path = new ArrayList<>();
      int node = root[t];
      while (node >= 0) {
        path.add(node - nodeBase[t]);
        node = next(node, row[splitFeature[node]]);
      }
      int leaf = ~node;
      double output = leafOutput(t, leaf, row);
      value += output;
      trees.add(new TreeContribution(t, leaf - leafBase[t], output, path));
    }
    return new Explanation(averageOutput ? value / iterations : value, trees);
  }

  /**
   * Attributes a row's raw score to its features (Saabas' method), exactly as {@code explainScore}
   * of {@code @pubmatch/ltr} does over {@code explainRow}: for each tree of the first output, in
   * model order, the root's {@code internal_value} goes to the bias, and at every split on the
   * row's path the change from the node's {@code internal_value} to the child's (the leaf's output
   * for the last split) goes to the split's feature; a tree without a split or without {@code
   * internal_value}s puts its output into the bias. The same additions in the same order, so the
   * same doubles. The bias plus the contributions equals {@link #predictRaw(double[])} up to
   * rounding.
   *
   * @param row the feature values, {@link #numFeatures()} of them; NaN for a missing value
   * @return the bias and one contribution per feature column
   * @throws IllegalArgumentException when the row has another length
   */
  public Contributions explainContributions(double[] row) {
    checkRow(row);
    double[] byFeature = new double[numFeatures];
    double bias = 0.0;
    int iterations = numIterations();
    for (int i = 0; i < iterations; i++) {
      int t = i * treesPerIteration;
      int node = root[t];
      if (node < 0 || !hasInternal[t]) {
        bias += treeOutput(t, row);
        continue;
      }
      bias += internalValue[node];
      while (node >= 0) {
        int child = next(node, row[splitFeature[node]]);
        double childValue = child >= 0 ? internalValue[child] : leafOutput(t, ~child, row);
        byFeature[splitFeature[node]] += childValue - internalValue[node];
        node = child;
      }
    }
    return new Contributions(bias, byFeature);
  }

  @Override
  public String toString() {
    return "LightGbmModel("
        + version
        + ", "
        + numTrees
        + " trees, "
        + numFeatures
        + " features, objective \""
        + objective
        + "\")";
  }

  private void checkRow(double[] row) {
    if (row.length != numFeatures) {
      throw new IllegalArgumentException(
          "the row has " + row.length + " features, the model expects " + numFeatures);
    }
  }

  private void checkOut(double[] out) {
    if (out.length < treesPerIteration) {
      throw new IllegalArgumentException(
          "the output array holds "
              + out.length
              + " scores, the model gives "
              + treesPerIteration
              + " per row");
    }
  }

  private void checkSingleOutput() {
    if (treesPerIteration != 1) {
      throw new IllegalStateException(
          "the model gives "
              + treesPerIteration
              + " scores per row; use predictRaw(row, out) or predict(row, out)");
    }
  }

  private void checkTransform() {
    if (transform.kind == TransformKind.UNKNOWN) {
      throw new UnsupportedOperationException(
          "the scorer does not know objective \"" + objective + "\"; score with predictRaw");
    }
  }

  /** Tree {@code t}'s output for the row. */
  private double treeOutput(int t, double[] row) {
    int node = root[t];
    while (node >= 0) {
      node = next(node, row[splitFeature[node]]);
    }
    return leafOutput(t, ~node, row);
  }

  /** The output of global leaf {@code leaf} of tree {@code t}: its value or its linear model. */
  private double leafOutput(int t, int leaf, double[] row) {
    if (!linearTree[t]) {
      return leafValue[leaf];
    }
    double output = leafConst[leaf];
    for (int i = linearStart[leaf], end = linearStart[leaf + 1]; i < end; i++) {
      double value = row[linearFeature[i]];
      if (value <= ZERO_THRESHOLD && value >= -ZERO_THRESHOLD) {
        value = 0.0;
      }
      if (Double.isNaN(value)) {
        return leafValue[leaf];
      }
      output += linearCoeff[i] * value;
    }
    return output;
  }

  /** The child (global) the row's value {@code raw} of the node's feature goes to. */
  private int next(int node, double raw) {
    double value = raw;
    if (value <= ZERO_THRESHOLD && value >= -ZERO_THRESHOLD) {
      value = 0.0;
    }
    if (plain[node]) {
      if (Double.isNaN(value)) {
        value = 0.0;
      }
      return value <= threshold[node] ? leftChild[node] : rightChild[node];
    }
    int type = decisionType[node];
    if ((type & 1) != 0) {
      return categorical(node, value);
    }
    int missingType = (type >> 2) & 3;
    if (Double.isNaN(value) && missingType != MISSING_NAN) {
      value = 0.0;
    }
    if ((missingType == MISSING_ZERO && value == 0.0)
        || (missingType == MISSING_NAN && Double.isNaN(value))) {
      return (type & 2) != 0 ? leftChild[node] : rightChild[node];
    }
    return value <= threshold[node] ? leftChild[node] : rightChild[node];
  }

  private int categorical(int node, double value) {
    if (Double.isNaN(value)) {
      return rightChild[node];
    }
    // (long) truncates toward zero and saturates, so -0.5 is category 0 and 1e300 lies beyond
    // every bitset, as Math.trunc gives in the TypeScript scorer.
    long category = (long) value;
    if (category < 0) {
      return rightChild[node];
    }
    long word = category >>> 5;
    if (word >= catWords[node]) {
      return rightChild[node];
    }
    int bits = catBits[catStart[node] + (int) word];
    return ((bits >>> (int) (category & 31)) & 1) != 0 ? leftChild[node] : rightChild[node];
  }

  // ---------------------------------------------------------------------------------------------
  // Objective transformations

  private enum TransformKind {
    IDENTITY,
    SIGMOID,
    SIGNED_SQUARE,
    LOG1P_EXP,
    EXP,
    SOFTMAX,
    UNKNOWN
  }

  /** The objective's output transformation (LightGBM's {@code ConvertOutput}). */
  private static final class Transform {
    private static final Set<String> IDENTITY =
        Set.of(
            "lambdarank",
            "rank_xendcg",
            "regression_l1",
            "huber",
            "fair",
            "quantile",
            "mape",
            "custom");

    final TransformKind kind;
    final double sigmoid;

    private Transform(TransformKind kind, double sigmoid) {
      this.kind = kind;
      this.sigmoid = sigmoid;
    }

    /**
     * The transformation an {@code objective=} line names, or {@code null} when its {@code
     * sigmoid:} option is not a number.
     */
    static Transform of(String objective) {
      String[] tokens = objective.split(" ", -1);
      String name = tokens[0];
      if (name.isEmpty() || IDENTITY.contains(name)) {
        return new Transform(TransformKind.IDENTITY, 1);
      }
      switch (name) {
        case "regression":
          boolean sqrt = Arrays.asList(tokens).subList(1, tokens.length).contains("sqrt");
          return new Transform(sqrt ? TransformKind.SIGNED_SQUARE : TransformKind.IDENTITY, 1);
        case "binary":
        case "multiclassova":
          double sigmoid = 1;
          for (int i = 1; i < tokens.length; i++) {
            if (tokens[i].startsWith("sigmoid:")) {
              sigmoid = number(tokens[i].substring("sigmoid:".length()));
              if (Double.isNaN(sigmoid)) {
                return null;
              }
              break;
            }
          }
          return new Transform(TransformKind.SIGMOID, sigmoid);
        case "cross_entropy":
          return new Transform(TransformKind.SIGMOID, 1);
        case "cross_entropy_lambda":
          return new Transform(TransformKind.LOG1P_EXP, 1);
        case "poisson":
        case "gamma":
        case "tweedie":
          return new Transform(TransformKind.EXP, 1);
        case "multiclass":
          return new Transform(TransformKind.SOFTMAX, 1);
        default:
          return new Transform(TransformKind.UNKNOWN, 1);
      }
    }

    /** The transformation of a single output. */
    double apply(double x) {
      switch (kind) {
        case SIGMOID:
          return 1 / (1 + StrictMath.exp(-sigmoid * x));
        case SIGNED_SQUARE:
          return Math.signum(x) * x * x;
        case LOG1P_EXP:
          return StrictMath.log1p(StrictMath.exp(x));
        case EXP:
          return StrictMath.exp(x);
        case SOFTMAX:
          // softmax over one class, computed as for several
          double e = StrictMath.exp(x - x);
          return e / e;
        default:
          return x;
      }
    }

    /** The transformation of outputs {@code 0 … k − 1}, in place. */
    void apply(double[] scores, int k) {
      if (kind == TransformKind.SOFTMAX) {
        double max = scores[0];
        for (int c = 1; c < k; c++) {
          max = Math.max(scores[c], max);
        }
        double sum = 0;
        for (int c = 0; c < k; c++) {
          double e = StrictMath.exp(scores[c] - max);
          scores[c] = e;
          sum += e;
        }
        for (int c = 0; c < k; c++) {
          scores[c] = scores[c] / sum;
        }
        return;
      }
      if (kind == TransformKind.SIGNED_SQUARE) {
        // like the TypeScript scorer, only the first output (regression has one)
        scores[0] = apply(scores[0]);
        return;
      }
      for (int c = 0; c < k; c++) {
        scores[c] = apply(scores[c]);
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Parsing

  private static final Pattern DECIMAL =
      Pattern.compile("[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?");
  private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");
  private static final Pattern SPACES = Pattern.compile(" +");

  /**
   * A number as LightGBM writes it (and the TypeScript scorer reads it): a decimal, {@code inf},
   * {@code -inf}, {@code nan}, {@code -nan} (any case), or JavaScript's {@code Infinity}; NaN for
   * anything else, which the callers reject unless the token is a NaN spelling.
   */
  private static double number(String token) {
    switch (token.toLowerCase(Locale.ROOT)) {
      case "inf":
      case "+inf":
      case "infinity":
      case "+infinity":
        return Double.POSITIVE_INFINITY;
      case "-inf":
      case "-infinity":
        return Double.NEGATIVE_INFINITY;
      default:
        return DECIMAL.matcher(token).matches() ? Double.parseDouble(token) : Double.NaN;
    }
  }

  private static boolean isNanSpelling(String token) {
    String lower = token.toLowerCase(Locale.ROOT);
    return lower.equals("nan") || lower.equals("-nan") || lower.equals("+nan");
  }

  /** A {@code key=value} line of the model text. */
  private record Field(String value, int line) {}

  /** The header's values, checked. */
  private static final class Header {
    String version;
    int numClass;
    int treesPerIteration;
    int numFeatures;
    List<String> featureNames;
    String objective;
    boolean averageOutput;
  }

  /** One tree as written in the text, checked, with indexes local to the tree. */
  private static final class ParsedTree {
    int numLeaves;
    int[] splitFeature;
    double[] threshold;
    int[] decisionType;
    int[] leftChild;
    int[] rightChild;
    double[] leafValue;
    int[] catBoundaries;
    int[] catThreshold;
    double[] leafConst;
    int[] linearStart;
    int[] linearFeatures;
    double[] linearCoeff;
    double[] internalValue;
  }

  /** Reads LightGBM's text format line by line, keeping line numbers for messages. */
  private static final class Parser {
    private final String source;
    private final String[] lines;
    private int at;

    Parser(String text, String source) {
      this.source = source;
      this.lines = text.split("\n", -1);
    }

    private LightGbmModelException error(int line, String key, String problem) {
      return new LightGbmModelException(source, line, key, problem);
    }

    private String line(int index) {
      return lines[index].strip();
    }

    LightGbmModel parse() {
      String first = line(0);
      if (!first.equals("tree")) {
        throw error(1, null, "the first line is not \"tree\": \"" + truncate(first) + "\"");
      }
      Map<String, Field> fields = new HashMap<>();
      Set<String> flags = new HashSet<>();
      for (at = 1; at < lines.length; at++) {
        String line = line(at);
        if (line.startsWith("Tree=") || line.equals("end of trees")) {
          break;
        }
        if (line.isEmpty()) {
          continue;
        }
        int eq = line.indexOf('=');
        if (eq < 0) {
          flags.add(line);
        } else {
          fields.put(line.substring(0, eq), new Field(line.substring(eq + 1), at + 1));
        }
      }
      Header header = header(fields, flags);
      Transform transform = Transform.of(header.objective);
      if (transform == null) {
        Field objective = fields.get("objective");
        throw error(
            objective.line(),
            "objective",
            "objective \"" + truncate(header.objective) + "\" has a sigmoid: that is not a number");
      }
      List<ParsedTree> trees = new ArrayList<>();
      while (at < lines.length) {
        String line = line(at);
        if (line.equals("end of trees")) {
          break;
        }
        if (!line.startsWith("Tree=")) {
          at++;
          continue;
        }
        int treeLine = at + 1;
        Map<String, Field> treeFields = new HashMap<>();
        for (at++; at < lines.length; at++) {
          String field = line(at);
          if (field.isEmpty() || field.startsWith("Tree=") || field.equals("end of trees")) {
            break;
          }
          int eq = field.indexOf('=');
          if (eq > 0) {
            treeFields.put(field.substring(0, eq), new Field(field.substring(eq + 1), at + 1));
          }
        }
        trees.add(new TreeParser(trees.size(), treeLine, treeFields, header.numFeatures).parse());
      }
      if (trees.size() % header.treesPerIteration != 0) {
        throw error(
            Math.min(at + 1, lines.length),
            "num_tree_per_iteration",
            trees.size()
                + " trees is not a multiple of num_tree_per_iteration "
                + header.treesPerIteration);
      }
      return new LightGbmModel(header, trees, transform);
    }

    private Header header(Map<String, Field> fields, Set<String> flags) {
      Header header = new Header();
      Field version = fields.get("version");
      header.version = version == null ? "" : version.value();
      if (!header.version.equals("v3") && !header.version.equals("v4")) {
        throw error(
            version == null ? 2 : version.line(),
            "version",
            version == null
                ? "the header has no version="
                : "model version \"" + truncate(header.version) + "\" is not v3 or v4");
      }
      header.numClass = headerInt(fields, "num_class", 1);
      header.treesPerIteration = headerInt(fields, "num_tree_per_iteration", header.numClass);
      Field maxFeature = fields.get("max_feature_idx");
      if (maxFeature == null) {
        throw error(2, "max_feature_idx", "the header has no max_feature_idx=");
      }
      int maxFeatureIdx = headerInt(fields, "max_feature_idx", 0);
      if (maxFeatureIdx < 0 || maxFeatureIdx == Integer.MAX_VALUE) {
        throw error(
            maxFeature.line(),
            "max_feature_idx",
            "max_feature_idx " + maxFeatureIdx + " is not a feature index");
      }
      header.numFeatures = maxFeatureIdx + 1;
      Field names = fields.get("feature_names");
      header.featureNames =
          names == null ? List.of() : List.of(names.value().split(" ", -1));
      if (names != null && header.featureNames.size() != header.numFeatures) {
        throw error(
            names.line(),
            "feature_names",
            "feature_names lists "
                + header.featureNames.size()
                + " names, max_feature_idx says "
                + header.numFeatures
                + " features");
      }
      Field objective = fields.get("objective");
      header.objective = objective == null ? "" : objective.value();
      header.averageOutput = flags.contains("average_output");
      return header;
    }

    /** A whole number of the header, at least 1 ({@code max_feature_idx}: at least 0). */
    private int headerInt(Map<String, Field> fields, String key, int fallback) {
      Field field = fields.get(key);
      if (field == null) {
        return fallback;
      }
      String value = field.value().strip();
      int min = key.equals("max_feature_idx") ? 0 : 1;
      if (INTEGER.matcher(value).matches()) {
        try {
          int n = Integer.parseInt(value);
          if (n >= min) {
            return n;
          }
        } catch (NumberFormatException e) {
          // too large: reported below
        }
      }
      throw error(
          field.line(),
          key,
          key
              + " is \""
              + truncate(value)
              + "\", not a whole number of at least "
              + min);
    }

    /** Reads and checks one tree block. */
    private final class TreeParser {
      private final int index;
      private final int treeLine;
      private final Map<String, Field> fields;
      private final int numFeatures;

      TreeParser(int index, int treeLine, Map<String, Field> fields, int numFeatures) {
        this.index = index;
        this.treeLine = treeLine;
        this.fields = fields;
        this.numFeatures = numFeatures;
      }

      private LightGbmModelException treeError(String key, String problem) {
        Field field = key == null ? null : fields.get(key);
        int line = field == null ? treeLine : field.line();
        return error(line, key, "tree " + index + ": " + problem);
      }

      /** The tokens of {@code key}, exactly {@code expected} of them. */
      private String[] tokens(String key, int expected, String what) {
        Field field = fields.get(key);
        if (field == null) {
          if (expected == 0) {
            return new String[0];
          }
          throw treeError(
              key, "the tree has no " + key + "= (expected " + expected + " " + what + ")");
        }
        String value = field.value().strip();
        String[] parts = value.isEmpty() ? new String[0] : SPACES.split(value);
        if (parts.length != expected) {
          throw treeError(
              key, key + " has " + parts.length + " values, expected " + expected + " " + what);
        }
        return parts;
      }

      private double[] doubles(String key, int expected, String what) {
        String[] parts = tokens(key, expected, what);
        double[] out = new double[parts.length];
        for (int i = 0; i < parts.length; i++) {
          out[i] = number(parts[i]);
          if (Double.isNaN(out[i]) && !isNanSpelling(parts[i])) {
            throw treeError(key, key + " holds \"" + truncate(parts[i]) + "\", not a number");
          }
        }
        return out;
      }

      private long[] longs(String key, int expected, String what, long min, long max) {
        String[] parts = tokens(key, expected, what);
        long[] out = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
          long n;
          try {
            n = INTEGER.matcher(parts[i]).matches() ? Long.parseLong(parts[i]) : Long.MIN_VALUE;
          } catch (NumberFormatException e) {
            n = Long.MIN_VALUE;
          }
          if (n < min || n > max) {
            throw treeError(
                key,
                key
                    + " holds \""
                    + truncate(parts[i])
                    + "\", not a whole number from "
                    + min
                    + " to "
                    + max);
          }
          out[i] = n;
        }
        return out;
      }

      private int[] ints(String key, int expected, String what, long min, long max) {
        long[] values = longs(key, expected, what, min, max);
        int[] out = new int[values.length];
        for (int i = 0; i < values.length; i++) {
          out[i] = (int) values[i];
        }
        return out;
      }

      private int count(String key, int min) {
        Field field = fields.get(key);
        String value = field == null ? null : field.value().strip();
        if (value != null && INTEGER.matcher(value).matches()) {
          try {
            int n = Integer.parseInt(value);
            if (n >= min) {
              return n;
            }
          } catch (NumberFormatException e) {
            // too large: reported below
          }
        }
        throw treeError(
            key,
            value == null
                ? "the tree has no " + key + "="
                : key + " is \"" + truncate(value) + "\", not a whole number of at least " + min);
      }

      ParsedTree parse() {
        ParsedTree tree = new ParsedTree();
        tree.numLeaves = count("num_leaves", 1);
        int numCat = fields.containsKey("num_cat") ? count("num_cat", 0) : 0;
        int inner = tree.numLeaves - 1;
        String perNode = "(one per internal node; num_leaves=" + tree.numLeaves + ")";
        String perLeaf = "(one per leaf; num_leaves=" + tree.numLeaves + ")";
        tree.leafValue = doubles("leaf_value", tree.numLeaves, perLeaf);
        tree.splitFeature = ints("split_feature", inner, perNode, 0, numFeatures - 1);
        tree.threshold = doubles("threshold", inner, perNode);
        tree.decisionType =
            fields.containsKey("decision_type")
                ? ints("decision_type", inner, perNode, 0, 15)
                : new int[inner];
        tree.leftChild = ints("left_child", inner, perNode, -tree.numLeaves, inner - 1);
        tree.rightChild = ints("right_child", inner, perNode, -tree.numLeaves, inner - 1);
        tree.catBoundaries = new int[0];
        tree.catThreshold = new int[0];
        if (numCat > 0) {
          tree.catBoundaries =
              ints(
                  "cat_boundaries",
                  numCat + 1,
                  "(num_cat + 1; num_cat=" + numCat + ")",
                  0,
                  Integer.MAX_VALUE);
          for (int c = 0; c < numCat; c++) {
            if (tree.catBoundaries[c + 1] < tree.catBoundaries[c]) {
              throw treeError("cat_boundaries", "cat_boundaries decrease at position " + (c + 1));
            }
          }
          long[] words =
              longs(
                  "cat_threshold",
                  tree.catBoundaries[numCat],
                  "(the last of cat_boundaries)",
                  0,
                  0xFFFFFFFFL);
          tree.catThreshold = new int[words.length];
          for (int i = 0; i < words.length; i++) {
            tree.catThreshold[i] = (int) words[i];
          }
        }
        for (int node = 0; node < inner; node++) {
          int type = tree.decisionType[node];
          if (((type >> 2) & 3) == 3) {
            throw treeError(
                "decision_type",
                "node " + node + " has decision_type " + type + ", missing type 3");
          }
          if ((type & 1) != 0) {
            double c = tree.threshold[node];
            if (!(c >= 0 && c < numCat && c == Math.rint(c))) {
              throw treeError(
                  "threshold",
                  "categorical node "
                      + node
                      + " has threshold "
                      + c
                      + ", not a bitset index below num_cat="
                      + numCat);
            }
          }
        }
        checkStructure(tree, inner);
        tree.internalValue =
            inner > 0 && fields.containsKey("internal_value")
                ? doubles("internal_value", inner, perNode)
                : null;
        Field isLinear = fields.get("is_linear");
        if (isLinear != null && isLinear.value().strip().equals("1")) {
          linear(tree, perLeaf);
        }
        return tree;
      }

      /** Every node and leaf is reached exactly once from the root: no cycle, nothing stray. */
      private void checkStructure(ParsedTree tree, int inner) {
        if (inner == 0) {
          return;
        }
        boolean[] nodeSeen = new boolean[inner];
        boolean[] leafSeen = new boolean[tree.numLeaves];
        int[] stack = new int[inner];
        int top = 0;
        stack[top++] = 0;
        nodeSeen[0] = true;
        while (top > 0) {
          int node = stack[--top];
          for (int side = 0; side < 2; side++) {
            int child = side == 0 ? tree.leftChild[node] : tree.rightChild[node];
            String key = side == 0 ? "left_child" : "right_child";
            if (child >= 0) {
              if (nodeSeen[child]) {
                throw treeError(
                    key, "node " + child + " is reached twice (from node " + node + ")");
              }
              nodeSeen[child] = true;
              stack[top++] = child;
            } else {
              if (leafSeen[~child]) {
                throw treeError(
                    key, "leaf " + ~child + " is reached twice (from node " + node + ")");
              }
              leafSeen[~child] = true;
            }
          }
        }
        for (int node = 0; node < inner; node++) {
          if (!nodeSeen[node]) {
            throw treeError("left_child", "node " + node + " cannot be reached from the root");
          }
        }
        for (int leaf = 0; leaf < tree.numLeaves; leaf++) {
          if (!leafSeen[leaf]) {
            throw treeError("left_child", "leaf " + leaf + " cannot be reached from the root");
          }
        }
      }

      /** The leaves' linear models ({@code is_linear=1}). */
      private void linear(ParsedTree tree, String perLeaf) {
        tree.leafConst = doubles("leaf_const", tree.numLeaves, perLeaf);
        int[] counts =
            fields.containsKey("num_features")
                ? ints("num_features", tree.numLeaves, perLeaf, 0, numFeatures)
                : new int[tree.numLeaves];
        tree.linearStart = new int[tree.numLeaves + 1];
        int total = 0;
        for (int leaf = 0; leaf < tree.numLeaves; leaf++) {
          tree.linearStart[leaf] = total;
          total += counts[leaf];
        }
        tree.linearStart[tree.numLeaves] = total;
        String perTerm = "(the sum of num_features, " + total + ")";
        tree.linearFeatures = ints("leaf_features", total, perTerm, 0, numFeatures - 1);
        tree.linearCoeff = doubles("leaf_coeff", total, perTerm);
      }
    }
  }

  /** At most 200 characters of input, for messages. */
  private static String truncate(String text) {
    return text.length() <= 200 ? text : text.substring(0, 200) + "…";
  }
}
