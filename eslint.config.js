// @ts-check
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import prettier from 'eslint-config-prettier'

/**
 * Allowed workspace imports per package (CONTRIBUTING.md, "Layers"; ARCHITECTURE.md has the table
 * and the layer diagram). A package may import only the packages listed here; anything else is a
 * lint error, which keeps the graph acyclic.
 */
const layers = {
  core: [],
  ingest: ['core'],
  analysis: ['core'],
  index: ['core', 'analysis'],
  bm25f: ['core', 'analysis', 'index'],
  'lightgbm-wasm': ['core'],
  ltr: ['core', 'analysis', 'index', 'bm25f', 'lightgbm-wasm', 'eval'],
  fulltext: ['core', 'index', 'bm25f'],
  feedback: ['core', 'analysis', 'index', 'bm25f', 'ingest'],
  eval: ['core'],
  solr: ['core', 'analysis', 'index', 'bm25f', 'ingest'],
  engine: ['core', 'ingest', 'analysis', 'index', 'bm25f', 'lightgbm-wasm', 'ltr', 'eval', 'fulltext', 'feedback', 'solr'],
  screen: ['core', 'analysis', 'eval', 'feedback', 'ingest'],
  'sample-data': [],
}
const all = Object.keys(layers)

/**
 * Packages a package's tests may import beyond its own layer, to read real data or to make a
 * reference (never a package above it, so no cycle): fulltext's tests read PMC BioC files with the
 * ingest package's reader; solr's tests train LightGBM models and score them with lightgbm-wasm, the
 * reference of the Java evaluator, and compute Best Match's features with ltr's extractor, the
 * reference of the Java features (ltr sits on solr's row and imports nothing of solr).
 */
const testOnly = {
  fulltext: ['ingest'],
  solr: ['lightgbm-wasm', 'ltr'],
}

/** The bundled real sample corpus: any package's tests may read it; no package's code does. */
const testData = ['sample-data']

const layerRule = (pkg, allowed, files) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          ...all
            .filter((other) => other !== pkg && !allowed.includes(other))
            .map((other) => ({
              group: [`@pubmatch/${other}`, `@pubmatch/${other}/*`],
              message: `packages/${pkg} may not import @pubmatch/${other} (see CONTRIBUTING.md, "Layers")`,
            })),
          { group: ['@pubmatch/cli', '@pubmatch/server'], message: 'apps are never imported' },
        ],
      },
    ],
  },
})

const layerRules = [
  ...Object.entries(layers).map(([pkg, allowed]) => layerRule(pkg, allowed, [`packages/${pkg}/**/*.ts`])),
  ...Object.keys(layers).map((pkg) =>
    layerRule(pkg, [...layers[pkg], ...(testOnly[pkg] ?? []), ...testData], [`packages/${pkg}/src/**/*.test.ts`, `packages/${pkg}/test/**/*.ts`]),
  ),
]

/**
 * `@pubmatch/<package>/internal` is unstable: for other pubmatch packages and for benchmarks that
 * measure internals (CONTRIBUTING.md, "Public API"); apps use public entry points only.
 */
const internalRule = {
  files: ['apps/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: [{ group: ['@pubmatch/*/internal'], message: 'apps use public entry points; @pubmatch/<package>/internal is for pubmatch packages and benchmarks' }] },
    ],
  },
}

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/.turbo/**',
      '**/.venv/**',
      '**/build/**',
      '**/test/fixtures/**',
      'packages/lightgbm-wasm/wasm/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      curly: ['error', 'all'],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/consistent-type-exports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportDefaultDeclaration', message: 'No default exports (CONTRIBUTING.md, "Code style"), except config files and *.worker.ts' },
      ],
    },
  },
  {
    files: ['**/*.worker.ts', '**/*.config.ts', '**/vitest.shared.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  ...layerRules,
  internalRule,
  prettier,
)
