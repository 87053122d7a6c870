import { defineConfig, type ViteUserConfig } from 'vitest/config'

/** `pnpm exec vitest` at the root: every package as one vitest workspace, in watch mode. */
const config: ViteUserConfig = defineConfig({
  test: { projects: ['packages/*', 'apps/*', 'tools/*'] },
})
export default config
