import { mergeConfig, type ViteUserConfig } from 'vitest/config'
import { sharedConfig } from '../../vitest.shared.ts'

const config: ViteUserConfig = mergeConfig(sharedConfig, { test: { name: 'screen' } })
export default config
