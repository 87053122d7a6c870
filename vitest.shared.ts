import { existsSync } from 'node:fs'
import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ViteUserConfig } from 'vitest/config'
import type { Reporter, TestModule } from 'vitest/node'

/** Conditions that make workspace packages resolve to their TypeScript sources in tests. */
const conditions = ['@pubmatch/source', 'node', 'import', 'module', 'default']

const repositoryRoot = fileURLToPath(new URL('./', import.meta.url))

/** The real data set (`$PUBMATCH_SHARED`, else `../shared/data` beside the checkout), as `@pubmatch/core/testing` finds it. */
const sharedData = process.env['PUBMATCH_SHARED'] || fileURLToPath(new URL('../shared/data/', import.meta.url))
const hasSharedData = existsSync(sharedData)

/**
 * A hang detector, not a speed budget: a test asserts behaviour, and one that is merely slow on a
 * busy machine passes (CONTRIBUTING.md, "Tests"). Only a test stuck for this long fails.
 */
const HANG_MS = 30 * 60 * 1000

/**
 * Lists, after the run, the suites tagged `real-data` that were skipped because the real data set
 * is missing, so a clone without it says what it did not test.
 */
const realDataReporter: Reporter = {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    if (hasSharedData) {
      return
    }
    const skipped = new Set<string>()
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        if (test.tags.includes('real-data') && test.result().state === 'skipped') {
          let suite = test.parent
          while (suite.type === 'suite' && suite.parent.type === 'suite') {
            suite = suite.parent
          }
          skipped.add(`${relative(repositoryRoot, module.moduleId)} › ${suite.type === 'suite' ? suite.name : test.name}`)
        }
      }
    }
    if (skipped.size > 0) {
      process.stdout.write(
        `\nreal data not found at ${sharedData} (set PUBMATCH_SHARED): skipped ${skipped.size} real-data suite${skipped.size === 1 ? '' : 's'}\n` +
          [...skipped].sort().map((name) => `  - ${name}\n`).join(''),
      )
    }
  },
}

/** The vitest settings every package uses (CONTRIBUTING.md, "Tests"). */
export const sharedConfig: ViteUserConfig = {
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@pubmatch/source'] } },
  environments: { ssr: { resolve: { conditions } } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    restoreMocks: true,
    clearMocks: true,
    testTimeout: HANG_MS,
    hookTimeout: HANG_MS,
    teardownTimeout: HANG_MS,
    tags: [
      {
        name: 'real-data',
        description: 'reads the real data set at ../shared/data (or $PUBMATCH_SHARED); skipped, and listed, when it is missing',
        skip: !hasSharedData,
      },
    ],
    reporters: ['default', realDataReporter],
  },
}
