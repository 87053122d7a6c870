import type { ViteUserConfig } from 'vitest/config'

/** Conditions that make workspace packages resolve to their TypeScript sources in tests. */
const conditions = ['@pubmatch/source', 'node', 'import', 'module', 'default']

/** The vitest settings every package uses (§3, §7 of STYLE.md). */
export const sharedConfig: ViteUserConfig = {
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@pubmatch/source'] } },
  environments: { ssr: { resolve: { conditions } } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    restoreMocks: true,
    clearMocks: true,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
}
