import { defineConfig, type ViteUserConfig } from 'vitest/config'

/** `pnpm test:watch`: every package as one vitest workspace. */
const config: ViteUserConfig = defineConfig({
  test: { projects: ['packages/*', 'apps/*', 'tools/*'] },
})
export default config
