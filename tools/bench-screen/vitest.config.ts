import { mergeConfig, type ViteUserConfig } from 'vitest/config'
import { sharedConfig } from '../../vitest.shared.ts'

const config: ViteUserConfig = mergeConfig(sharedConfig, { test: { name: 'bench-screen' } })
export default config
