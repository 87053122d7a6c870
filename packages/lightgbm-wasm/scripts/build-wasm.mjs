#!/usr/bin/env node
// Compiles LightGBM's C++ (the sources shipped in the registry package `lightgbm` under
// dependencies/LightGBM) to WebAssembly with Emscripten's emcc. Installs nothing.
//
//   node scripts/build-wasm.mjs                  the shipped builds: wasm/ (single-threaded) and
//                                                wasm/threaded/ (OpenMP on pthreads)
//   node scripts/build-wasm.mjs --only release   one shipped build (release or threaded)
//   node scripts/build-wasm.mjs --variant NAME   another configuration, into build/variants/NAME/
//   node scripts/build-wasm.mjs --list           the configurations and their flags
//
// Object files go to build/<variant>/obj/ and are reused while their flags and sources are
// unchanged; the final loader and binary are lightgbm.cjs + lightgbm.wasm + build-info.json
// (+ lightgbm.worker.cjs, the pthread worker script, for threaded builds).
// The output is skipped when build-info.json already records the same inputs.
import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const tag = 'lightgbm-wasm build'
const APT_HINT = 'apt-get install -y --no-install-recommends emscripten'

/**
 * Two post-MVP WebAssembly features that Node ≥ 16 runs unflagged: saturating float-to-int
 * conversions (one instruction instead of a range check and a branch around each trapping
 * conversion) and sign-extension operators. (Bulk memory cannot be added alone: wasm-ld 14 then
 * refuses LightGBM's thread_local variables without atomics; -pthread brings it to threaded builds.)
 */
const FEATURES = ['-mnontrapping-fptoint', '-msign-ext']

/**
 * Build configurations. RELEASE and THREADED below are what the package ships (see
 * BENCHMARKS.md for why); the others exist to be measured by tools/bench-lightgbm.
 */
const VARIANTS = {
  // The configuration of issue 4: JavaScript-based C++ exceptions (invoke_* trampolines).
  'js-eh': { cxx: ['-O3', '-fexceptions'], link: ['-O3', '-fexceptions'] },
  // Native WebAssembly exception handling: no JS trampolines around calls that may throw.
  'wasm-eh': { cxx: ['-O3', '-fwasm-exceptions'], link: ['-O3', '-fwasm-exceptions'] },
  // …plus 128-bit SIMD (auto-vectorisation; Node 16.4+ runs it unflagged).
  'wasm-eh-simd': {
    cxx: ['-O3', '-fwasm-exceptions', '-msimd128'],
    link: ['-O3', '-fwasm-exceptions', '-msimd128'],
  },
  // …plus link-time optimisation across LightGBM's translation units.
  'wasm-eh-simd-lto': {
    cxx: ['-O3', '-fwasm-exceptions', '-msimd128', '-flto'],
    link: ['-O3', '-fwasm-exceptions', '-msimd128', '-flto'],
  },
  // …plus the FEATURES above (the shipped single-threaded build).
  'wasm-eh-simd-fx': {
    cxx: ['-O3', '-fwasm-exceptions', '-msimd128', ...FEATURES],
    link: ['-O3', '-fwasm-exceptions', '-msimd128', ...FEATURES],
  },
  // -O2 instead of -O3, to see what -O3 buys.
  'wasm-eh-simd-o2': {
    cxx: ['-O2', '-fwasm-exceptions', '-msimd128'],
    link: ['-O2', '-fwasm-exceptions', '-msimd128'],
  },
  // The release flags plus OpenMP: clang lowers LightGBM's `#pragma omp` to __kmpc_* calls, which
  // csrc/omp/pubmatch_omp.c implements over Emscripten pthreads (Node worker_threads sharing one
  // SharedArrayBuffer memory). The pool holds `Module.pubmatchWorkers` workers (threads - 1).
  'wasm-eh-simd-mt': {
    cxx: ['-O3', '-fwasm-exceptions', '-msimd128', '-pthread', '-fopenmp'],
    link: ['-O3', '-fwasm-exceptions', '-msimd128', '-pthread'],
    threaded: true,
  },
  // The threaded build plus the FEATURES above (the shipped threaded build).
  'wasm-eh-simd-mt-fx': {
    cxx: ['-O3', '-fwasm-exceptions', '-msimd128', ...FEATURES, '-pthread', '-fopenmp'],
    link: ['-O3', '-fwasm-exceptions', '-msimd128', ...FEATURES, '-pthread'],
    threaded: true,
  },
  // The threaded build plus link-time optimisation (as wasm-eh-simd-lto is to the release build),
  // except for the translation units with OpenMP reductions: clang puts the reductions' lock word
  // `.gomp_critical_user_.reduction.var` in each of them as a common symbol, which wasm-ld 14
  // takes from bitcode as a strong definition ("duplicate symbol"); compiled to ordinary objects,
  // they leave it undefined (as in the threaded build) for csrc/omp/pubmatch_omp.c to define.
  'wasm-eh-simd-mt-lto': {
    cxx: ['-O3', '-fwasm-exceptions', '-msimd128', '-pthread', '-fopenmp', '-flto'],
    link: ['-O3', '-fwasm-exceptions', '-msimd128', '-pthread', '-flto'],
    threaded: true,
    withoutLto: [
      'io/metadata.cpp',
      'metric/metric.cpp',
      'objective/objective_function.cpp',
      'treelearner/gradient_discretizer.cpp',
      'treelearner/serial_tree_learner.cpp',
      'treelearner/voting_parallel_tree_learner.cpp',
    ],
  },
  // The threaded build with LTO over every translation unit: LightGBM's bitcode objects are
  // first merged into one module by llvm-link (clang 14's version), which folds the reductions'
  // common lock words into one definition, so wasm-ld 14 sees no duplicate; the runtime's own
  // definition of that word is weak (csrc/omp/pubmatch_omp.c). Measured: the same model, no
  // faster than the threaded build (BENCHMARKS.md), so it is not shipped.
  'wasm-eh-simd-mt-lto-all': {
    cxx: ['-O3', '-fwasm-exceptions', '-msimd128', '-pthread', '-fopenmp', '-flto'],
    link: ['-O3', '-fwasm-exceptions', '-msimd128', '-pthread', '-flto'],
    threaded: true,
    mergeBitcode: true,
  },
}
const RELEASE = 'wasm-eh-simd-fx'
const THREADED = 'wasm-eh-simd-mt-fx'
/** The builds `pnpm build` makes and the package ships, and where they go. */
const SHIPPED = { release: { variant: RELEASE, out: 'wasm' }, threaded: { variant: THREADED, out: join('wasm', 'threaded') } }
const OMP_DIR = join(packageDir, 'csrc', 'omp')

const EXPORTED_FUNCTIONS = [
  'malloc',
  'free',
  'pubmatch_heap_in_use',
  'LGBM_GetLastError',
  'LGBM_DatasetCreateFromMat',
  'LGBM_DatasetSetField',
  'LGBM_DatasetSetFeatureNames',
  'LGBM_DatasetGetNumData',
  'LGBM_DatasetGetNumFeature',
  'LGBM_DatasetFree',
  'LGBM_BoosterCreate',
  'LGBM_BoosterCreateFromModelfile',
  'LGBM_BoosterLoadModelFromString',
  'LGBM_BoosterFree',
  'LGBM_BoosterAddValidData',
  'LGBM_BoosterUpdateOneIter',
  'LGBM_BoosterRollbackOneIter',
  'LGBM_BoosterGetCurrentIteration',
  'LGBM_BoosterNumModelPerIteration',
  'LGBM_BoosterNumberOfTotalModel',
  'LGBM_BoosterGetEvalCounts',
  'LGBM_BoosterGetEvalNames',
  'LGBM_BoosterGetEval',
  'LGBM_BoosterGetNumFeature',
  'LGBM_BoosterGetFeatureNames',
  'LGBM_BoosterPredictForMat',
  'LGBM_BoosterSaveModelToString',
  'LGBM_BoosterFeatureImportance',
].map((name) => `_${name}`)

/** Extra exports of threaded builds (csrc/omp/omp.h). */
const THREADED_EXPORTS = ['pubmatch_omp_set_thread_limit', 'pubmatch_omp_set_spin', 'pubmatch_omp_stat'].map(
  (name) => `_${name}`,
)

const RUNTIME_METHODS = ['UTF8ToString', 'stringToUTF8', 'lengthBytesUTF8']

function fail(message) {
  console.error(`${tag}: ${message}`)
  process.exit(1)
}

function parseArgs(argv) {
  const args = { variant: undefined, only: undefined, out: undefined, list: false, jobs: availableParallelism() }
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]
    if (arg === '--variant') {
      args.variant = argv[++i]
    } else if (arg === '--only') {
      args.only = argv[++i]
    } else if (arg === '--out') {
      args.out = argv[++i]
    } else if (arg === '--jobs') {
      args.jobs = Number(argv[++i])
    } else if (arg === '--list') {
      args.list = true
    } else {
      fail(`unknown argument "${arg}" (expected --variant NAME, --only release|threaded, --out DIR, --jobs N or --list)`)
    }
  }
  return args
}

/** Debian's emcc finds `acorn` only through NODE_PATH. */
function emscriptenEnv() {
  const env = { ...process.env }
  const debianNodePath = '/usr/share/nodejs'
  if (existsSync(debianNodePath)) {
    const parts = (env.NODE_PATH ?? '').split(':').filter(Boolean)
    if (!parts.includes(debianNodePath)) {
      env.NODE_PATH = [...parts, debianNodePath].join(':')
    }
  }
  return env
}

function checkEmcc(env) {
  const probe = spawnSync('emcc', ['--version'], { env, encoding: 'utf8' })
  if (probe.error !== undefined || probe.status !== 0) {
    const why = probe.error !== undefined ? probe.error.message : (probe.stderr || probe.stdout).trim()
    fail(
      `Emscripten's emcc is required to compile LightGBM to WebAssembly and was not found or does not run (${why.slice(0, 200)}).\n` +
        `  Install it (Debian/Ubuntu, as root): apt-get update && ${APT_HINT}\n` +
        `  Debian's emcc also needs NODE_PATH=/usr/share/nodejs (this script sets it).`,
    )
  }
  return probe.stdout.split('\n')[0].trim()
}

function lightgbmSourceDir() {
  const require = createRequire(join(packageDir, 'package.json'))
  let pkgJson
  try {
    pkgJson = require.resolve('lightgbm/package.json')
  } catch {
    fail('the devDependency "lightgbm" (its dependencies/LightGBM holds the C++ sources) is not installed; run pnpm install')
  }
  const dir = join(dirname(pkgJson), 'dependencies', 'LightGBM')
  if (!existsSync(join(dir, 'include', 'LightGBM', 'c_api.h'))) {
    fail(`no LightGBM sources under ${dir}`)
  }
  const version = JSON.parse(readFileSync(pkgJson, 'utf8')).version
  const lightgbmVersion = readFileSync(join(dir, 'VERSION.txt'), 'utf8').trim()
  return { dir, version, lightgbmVersion }
}

/** The translation units LightGBM's CMakeLists compiles for a CPU build without CLI, plus ours. */
function sourceFiles(lgbDir, threaded) {
  const groups = ['boosting', 'io', 'metric', 'objective', 'network', 'treelearner']
  const files = []
  for (const group of groups) {
    const dir = join(lgbDir, 'src', group)
    for (const name of readdirSync(dir).sort()) {
      if (name.endsWith('.cpp')) {
        files.push(join(dir, name))
      }
    }
  }
  files.push(join(lgbDir, 'src', 'c_api.cpp'))
  files.push(join(packageDir, 'csrc', 'pubmatch_heap.c'))
  if (threaded) {
    files.push(join(OMP_DIR, 'pubmatch_omp.c'))
  }
  return files
}

function hash(...parts) {
  const h = createHash('sha256')
  for (const part of parts) {
    h.update(typeof part === 'string' ? part : JSON.stringify(part))
    h.update('\0')
  }
  return h.digest('hex').slice(0, 16)
}

/** Emscripten's LLVM_ROOT (the folder of the clang/llvm tools it uses). */
function llvmRoot(env) {
  const result = spawnSync('em-config', ['LLVM_ROOT'], { env, encoding: 'utf8' })
  const root = result.stdout?.trim()
  if (result.status !== 0 || !root) {
    fail(`em-config LLVM_ROOT failed: ${result.stderr ?? ''}`)
  }
  return root
}

function run(command, args, env) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'inherit', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    child.on('error', reject)
    child.on('close', (code) => {
      if (code === 0) {
        resolvePromise(stderr)
      } else {
        reject(new Error(`${command} ${args.slice(-3).join(' ')} exited with ${code}\n${stderr.slice(-4000)}`))
      }
    })
  })
}

async function main() {
  const args = parseArgs(process.argv.slice(2))
  if (args.list) {
    for (const [name, flags] of Object.entries(VARIANTS)) {
      const shipped = Object.entries(SHIPPED).find(([, target]) => target.variant === name)
      console.log(
        `${name}${shipped === undefined ? '' : ` (shipped: ${shipped[0]}, ${shipped[1].out}/)`}: compile ${flags.cxx.join(' ')}; link ${flags.link.join(' ')}`,
      )
    }
    return
  }
  if (args.variant !== undefined) {
    if (VARIANTS[args.variant] === undefined) {
      fail(`unknown variant "${args.variant}" (one of ${Object.keys(VARIANTS).join(', ')})`)
    }
    const shipped = Object.values(SHIPPED).find((target) => target.variant === args.variant)
    await buildVariant(args, args.variant, args.out ?? shipped?.out ?? join('build', 'variants', args.variant))
    return
  }
  const targets = args.only === undefined ? Object.keys(SHIPPED) : [args.only]
  for (const name of targets) {
    const target = SHIPPED[name]
    if (target === undefined) {
      fail(`unknown shipped build "${name}" (one of ${Object.keys(SHIPPED).join(', ')})`)
    }
    await buildVariant(args, target.variant, target.out)
  }
}

async function buildVariant(args, variantName, out) {
  const variant = VARIANTS[variantName]
  const threaded = variant.threaded === true
  const outDir = resolve(packageDir, out)
  const env = emscriptenEnv()
  const emccVersion = checkEmcc(env)
  const lgb = lightgbmSourceDir()
  const sources = sourceFiles(lgb.dir, threaded)
  const ownSources = sources.filter((source) => !source.startsWith(lgb.dir))
  const ompHeader = join(OMP_DIR, 'omp.h')

  const defines = ['-DEIGEN_MPL2_ONLY', '-DEIGEN_DONT_PARALLELIZE', '-DUSE_SOCKET']
  const includes = [`-I${join(lgb.dir, 'include')}`, `-I${join(lgb.dir, 'external_libs', 'eigen')}`]
  if (threaded) {
    includes.push(`-I${OMP_DIR}`) // our omp.h: Emscripten has none
  }
  const cxxFlags = ['-std=c++11', '-funroll-loops', '-w', ...defines, ...includes, ...variant.cxx]
  const cFlags = ['-w', ...(threaded ? [`-I${OMP_DIR}`] : []), ...variant.cxx.filter((flag) => !flag.includes('exceptions'))]
  const linkFlags = [
    ...variant.link,
    '--no-entry',
    '-sMODULARIZE=1',
    '-sEXPORT_NAME=createLightGbmModule',
    '-sENVIRONMENT=node',
    '-sALLOW_MEMORY_GROWTH=1',
    '-sMAXIMUM_MEMORY=4GB',
    '-sWASM_BIGINT=1',
    '-sNODEJS_CATCH_EXIT=0',
    '-sNODEJS_CATCH_REJECTION=0',
    ...(threaded
      ? [
          // A JavaScript expression: src/module.ts passes the pool size (threads - 1) when it
          // instantiates the module. At least 1: with an empty pool Emscripten 3.1.6 never
          // resolves the module (it waits for "all" pool workers to load). STRICT=2:
          // pthread_create fails instead of waiting for a worker that could only start once
          // the (blocked) calling thread yields.
          "-sPTHREAD_POOL_SIZE=Math.max(1,Module['pubmatchWorkers']|0)",
          '-sPTHREAD_POOL_SIZE_STRICT=2',
        ]
      : []),
    `-sEXPORTED_FUNCTIONS=${JSON.stringify([...EXPORTED_FUNCTIONS, ...(threaded ? THREADED_EXPORTS : [])])}`,
    `-sEXPORTED_RUNTIME_METHODS=${JSON.stringify(RUNTIME_METHODS)}`,
  ]
  const script = readFileSync(fileURLToPath(import.meta.url), 'utf8')
  const ownText = [...ownSources, ...(threaded ? [ompHeader, join(OMP_DIR, 'pubmatch_omp.h')] : [])].map((file) =>
    readFileSync(file, 'utf8'),
  )
  const inputsHash = hash(emccVersion, lgb.version, cxxFlags, cFlags, linkFlags, script, ownText)

  const infoPath = join(outDir, 'build-info.json')
  const outputs = ['lightgbm.wasm', 'lightgbm.cjs', ...(threaded ? ['lightgbm.worker.cjs'] : [])]
  if (existsSync(infoPath) && outputs.every((file) => existsSync(join(outDir, file)))) {
    const previous = JSON.parse(readFileSync(infoPath, 'utf8'))
    if (previous.inputsHash === inputsHash) {
      console.log(`${tag}: ${relative(packageDir, outDir)}/lightgbm.wasm is up to date (${variantName})`)
      return
    }
  }

  const workDir = join(packageDir, 'build', variantName)
  const objDir = join(workDir, 'obj')
  mkdirSync(objDir, { recursive: true })
  mkdirSync(outDir, { recursive: true })
  console.log(`${tag}: ${emccVersion}; LightGBM ${lgb.lightgbmVersion} (npm lightgbm@${lgb.version}); variant ${variantName}`)

  const started = Date.now()
  const isOwn = (source) => !source.startsWith(lgb.dir)
  // Objects of a threaded build depend on our headers, which the mtime check misses: LightGBM's
  // on omp.h's declarations (comments stripped, so that editing them rebuilds nothing), ours
  // on both headers as written.
  const ompHeaders = [ompHeader, join(OMP_DIR, 'pubmatch_omp.h')]
  const lightgbmHeaderHash = threaded ? [hash(readFileSync(ompHeader, 'utf8').replace(/\/\*[\s\S]*?\*\//g, ''))] : []
  const ownHeaderHash = threaded ? [hash(...ompHeaders.map((file) => readFileSync(file, 'utf8')))] : []
  const jobs = sources.map((source) => {
    const isC = source.endsWith('.c')
    const withoutLto = !isC && (variant.withoutLto ?? []).includes(relative(join(lgb.dir, 'src'), source))
    const flags = isC ? cFlags : withoutLto ? cxxFlags.filter((flag) => flag !== '-flto') : cxxFlags
    const name = relative(isC ? packageDir : join(lgb.dir, 'src'), source).replaceAll('/', '__')
    const object = join(objDir, `${name}.o`)
    const stamp = `${object}.flags`
    const flagsHash = hash(flags, emccVersion, ...(isOwn(source) ? ownHeaderHash : lightgbmHeaderHash))
    const fresh =
      existsSync(object) &&
      existsSync(stamp) &&
      readFileSync(stamp, 'utf8') === flagsHash &&
      statSync(object).mtimeMs >= statSync(source).mtimeMs
    return { source, object, stamp, flagsHash, fresh, args: ['-c', ...flags, source, '-o', object], tool: isC ? 'emcc' : 'em++' }
  })
  const pending = jobs.filter((job) => !job.fresh)
  const total = pending.length
  let done = 0
  const worker = async () => {
    for (;;) {
      const job = pending.shift()
      if (job === undefined) {
        return
      }
      await run(job.tool, job.args, env)
      writeFileSync(job.stamp, job.flagsHash)
      done += 1
      console.log(`${tag}: [${done}/${total}] ${relative(isOwn(job.source) ? packageDir : lgb.dir, job.source)}`)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, args.jobs) }, worker))

  const jsOut = join(workDir, 'lightgbm.js')
  let objects = jobs.map((job) => job.object)
  if (variant.mergeBitcode === true) {
    const merged = join(workDir, 'lightgbm-merged.o')
    const lightgbmObjects = jobs.filter((job) => !isOwn(job.source)).map((job) => job.object)
    await run(join(llvmRoot(env), 'llvm-link'), [...lightgbmObjects, '-o', merged], env)
    objects = [merged, ...jobs.filter((job) => isOwn(job.source)).map((job) => job.object)]
  }
  await run('em++', [...objects, ...linkFlags, '-o', jsOut], env)
  copyFileSync(jsOut, join(outDir, 'lightgbm.cjs'))
  copyFileSync(join(workDir, 'lightgbm.wasm'), join(outDir, 'lightgbm.wasm'))
  if (threaded) {
    // The worker script is CommonJS; `.cjs` keeps Node from reading it as an ES module inside
    // this "type": "module" package. src/module.ts points Emscripten's locateFile at it.
    copyFileSync(join(workDir, 'lightgbm.worker.js'), join(outDir, 'lightgbm.worker.cjs'))
  }
  const info = {
    variant: variantName,
    threaded,
    emcc: emccVersion,
    lightgbm: lgb.lightgbmVersion,
    npmLightgbm: lgb.version,
    compileFlags: variant.cxx,
    ...(variant.withoutLto === undefined ? {} : { compiledWithoutLto: variant.withoutLto }),
    ...(variant.mergeBitcode === true ? { mergedBitcode: true } : {}),
    linkFlags,
    wasmBytes: statSync(join(outDir, 'lightgbm.wasm')).size,
    buildSeconds: Math.round((Date.now() - started) / 1000),
    inputsHash,
  }
  writeFileSync(infoPath, `${JSON.stringify(info, null, 2)}\n`)
  console.log(`${tag}: wrote ${relative(packageDir, outDir)}/lightgbm.{cjs,wasm} (${info.wasmBytes} bytes) in ${info.buildSeconds} s`)
}

main().catch((error) => {
  fail(error instanceof Error ? error.message : String(error))
})
