#!/usr/bin/env node
// Builds the Maven module (packages/solr/java): the Bm25f query parser plugin, the local cluster
// runner and the LightGBM model evaluator, plus target/classpath.txt (their dependencies,
// resolved by Maven from Maven Central into ~/.m2). Skipped when the jar is newer than every
// source file; without Maven on the PATH it says so and exits 0, unless PUBMATCH_REQUIRE_JAVA=1
// (CI), where that is an error.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

const java = join(dirname(fileURLToPath(import.meta.url)), '..', 'java')
const jar = join(java, 'target', 'pubmatch-solr-0.1.0.jar')
const classpath = join(java, 'target', 'classpath.txt')

function newest(path) {
  const stat = statSync(path)
  if (!stat.isDirectory()) {
    return stat.mtimeMs
  }
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))))
}

if (existsSync(jar) && existsSync(classpath)) {
  const built = statSync(jar).mtimeMs
  if (newest(join(java, 'src')) <= built && statSync(join(java, 'pom.xml')).mtimeMs <= built) {
    process.exit(0)
  }
}
const which = spawnSync('mvn', ['-v'], { stdio: 'ignore' })
if (which.error !== undefined || which.status !== 0) {
  const message = '@pubmatch/solr: Maven (mvn) is not on the PATH; the Solr module (packages/solr/java) was not built, so `pubmatch solr up` and the Solr tests cannot run'
  if (process.env.PUBMATCH_REQUIRE_JAVA === '1') {
    console.error(`error: ${message}`)
    process.exit(1)
  }
  console.warn(`warning: ${message}`)
  process.exit(0)
}
const started = Date.now()
const result = spawnSync('mvn', ['-q', '-B', '-f', join(java, 'pom.xml'), 'package', '-DskipTests'], { stdio: 'inherit' })
if (result.status !== 0) {
  console.error('error: @pubmatch/solr: the Maven build of packages/solr/java failed')
  process.exit(result.status ?? 1)
}
console.log(`@pubmatch/solr: built ${jar} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
