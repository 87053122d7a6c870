#!/usr/bin/env node
// LightGBM's C++ (the sources shipped in the registry package `lightgbm` under
// dependencies/LightGBM) compiled to WebAssembly with Emscripten's emcc.
//
// The two shipped builds are committed (wasm/ and wasm/threaded/), each with a manifest,
// build-info.json, that records the build's inputs (the toolchain version, the lockfile integrity
// of the LightGBM sources, the SHA-256 of our own C sources, every compile and link flag) and
// the SHA-256 of each output file. Nobody needs emcc unless an input changes.
//
//   node scripts/build-wasm.mjs                  the shipped builds: reuses the committed files
//                                                when their manifest matches the inputs, else
//                                                compiles (needs emcc)
//   node scripts/build-wasm.mjs --force          compile the shipped builds even if up to date
//   node scripts/build-wasm.mjs --check          compile nothing: fail unless every committed
//                                                build matches its inputs and its output hashes
//   node scripts/build-wasm.mjs --verify         compile from scratch in build/verify/ and
//                                                compare byte for byte with the committed files
//   node scripts/build-wasm.mjs --changed-since REF
//                                                exit 3 (and name them) when shipped builds
//                                                differ from those at git commit REF, else 0
//   node scripts/build-wasm.mjs --check --root DIR
//                                                check the builds under DIR/wasm/ instead (tests)
//   node scripts/build-wasm.mjs --only release   one shipped build (release or threaded)
//   node scripts/build-wasm.mjs --variant NAME   another configuration, into build/variants/NAME/
//   node scripts/build-wasm.mjs --list           the configurations and their flags
//
// Object files go to build/<variant>/obj/ and are reused while their flags and sources are
// unchanged; the final loader and binary are lightgbm.cjs + lightgbm.wasm + build-info.json
// (+ lightgbm.worker.cjs, the pthread worker script, for threaded builds).
import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const repoDir = resolve(packageDir, '..', '..')
const tag = 'lightgbm-wasm build'
const APT_HINT = 'apt-get install -y --no-install-recommends emscripten'

/**
 * The toolchain the shipped builds are made with: Debian 12's `emscripten` package (3.1.6, on
 * Debian's clang/LLVM 14). A shipped build refuses another emcc, because another version makes
 * other bytes; `--variant` builds take whatever emcc there is.
 */
const EMSCRIPTEN_VERSION = '3.1.6'

/**
 * Bumped whenever this script changes what it makes in a way the recorded flags do not show
 * (the source list, the output names, post-processing), so that the manifests go stale.
 */
const RECIPE_VERSION = 2

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
  // The first configuration built: JavaScript-based C++ exceptions (invoke_* trampolines).
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

/** The builds `pnpm build` makes and the package ships, and where they go. */
const SHIPPED = {
  release: { variant: RELEASE, out: 'wasm' },
  threaded: { variant: THREADED, out: join('wasm', 'threaded') },
}
const OMP_DIR = join(packageDir, 'csrc', 'omp')

function fail(message, code = 1) {
  console.error(`${tag}: ${message}`)
  process.exit(code)
}

function parseArgs(argv) {
  const args = {
    variant: undefined,
    only: undefined,
    out: undefined,
    list: false,
    force: false,
    check: false,
    verify: false,
    changedSince: undefined,
    root: packageDir,
    jobs: availableParallelism(),
  }
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
    } else if (arg === '--force') {
      args.force = true
    } else if (arg === '--check') {
      args.check = true
    } else if (arg === '--verify') {
      args.verify = true
    } else if (arg === '--root') {
      args.root = resolve(argv[++i])
    } else if (arg === '--changed-since') {
      args.changedSince = argv[++i]
    } else {
      fail(
        `unknown argument "${arg}" (expected --check, --verify, --force, --changed-since REF, --only release|threaded, --variant NAME, --out DIR, --jobs N or --list)`,
        64,
      )
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

/** `emcc --version`'s first line, or a clear failure when there is no emcc. */
function checkEmcc(env, why) {
  const probe = spawnSync('emcc', ['--version'], { env, encoding: 'utf8' })
  if (probe.error !== undefined || probe.status !== 0) {
    const detail = probe.error !== undefined ? probe.error.message : (probe.stderr || probe.stdout).trim()
    fail(
      `${why}, which needs Emscripten's emcc, and emcc was not found or does not run (${detail.slice(0, 200)}).\n` +
        `  Install it (Debian 12, as root): apt-get update && ${APT_HINT}\n` +
        `  Debian's emcc also needs NODE_PATH=/usr/share/nodejs (this script sets it).`,
    )
  }
  return probe.stdout.split('\n')[0].trim()
}

/** What the toolchain is, for the record (not part of the inputs: EMSCRIPTEN_VERSION is). */
function toolchainRecord(env, emccVersion) {
  const record = { emcc: emccVersion }
  const dpkg = spawnSync('dpkg-query', ['-W', '-f', '${Version}', 'emscripten'], { encoding: 'utf8' })
  if (dpkg.status === 0 && dpkg.stdout.trim() !== '') {
    record.debianPackage = `emscripten ${dpkg.stdout.trim()}`
  }
  const clang = spawnSync(join(llvmRoot(env), 'clang'), ['--version'], { encoding: 'utf8' })
  if (clang.status === 0) {
    record.clang = clang.stdout.split('\n')[0].trim()
  }
  return record
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
  return { dir, version, lightgbmVersion, integrity: lockfileIntegrity('lightgbm', version) }
}

/**
 * The integrity (SHA-512 of the registry tarball) that pnpm-lock.yaml pins for a package: pnpm
 * refuses to install a tarball with another hash, so it identifies the LightGBM sources.
 */
function lockfileIntegrity(name, version) {
  const lockfile = join(repoDir, 'pnpm-lock.yaml')
  if (!existsSync(lockfile)) {
    fail(`no pnpm-lock.yaml at ${repoDir}: the build's inputs include the lockfile's integrity of ${name}@${version}`)
  }
  const text = readFileSync(lockfile, 'utf8')
  const match = new RegExp(`\\n  ${name}@${version.replaceAll('.', '\\.')}:\\n    resolution: \\{integrity: ([^,}\\s]+)`).exec(text)
  if (match === null) {
    fail(`pnpm-lock.yaml pins no integrity for ${name}@${version}`)
  }
  return match[1]
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

function sha256(data) {
  return createHash('sha256').update(data).digest('hex')
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

/** Writes a file crash-safely: a temporary file, fsync, rename. */
function writeFileAtomic(path, data) {
  const tmp = `${path}.tmp-${process.pid}`
  const fd = openSync(tmp, 'w')
  try {
    writeSync(fd, data)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(tmp, path)
}

function copyFileAtomic(from, to) {
  writeFileAtomic(to, readFileSync(from))
}

/**
 * Everything a build is made from, with no machine-specific path in it: the recipe's hash is
 * the build's identity (`inputsHash` in build-info.json).
 */
function plan(variantName) {
  const variant = VARIANTS[variantName]
  const threaded = variant.threaded === true
  const lgb = lightgbmSourceDir()
  const sources = sourceFiles(lgb.dir, threaded)
  const isOwn = (source) => !source.startsWith(lgb.dir)
  const ownSources = sources.filter(isOwn)
  const ompHeader = join(OMP_DIR, 'omp.h')
  const ompHeaders = [ompHeader, join(OMP_DIR, 'pubmatch_omp.h')]

  const defines = ['-DEIGEN_MPL2_ONLY', '-DEIGEN_DONT_PARALLELIZE', '-DUSE_SOCKET']
  const includes = [`-I${join(lgb.dir, 'include')}`, `-I${join(lgb.dir, 'external_libs', 'eigen')}`]
  if (threaded) {
    includes.push(`-I${OMP_DIR}`) // our omp.h: Emscripten has none
  }
  // __FILE__ (LightGBM's CHECK messages) must not carry where the checkout or the pnpm store is,
  // or two checkouts would build different bytes.
  const prefixMaps = [`-ffile-prefix-map=${lgb.dir}=lightgbm`, `-ffile-prefix-map=${packageDir}=lightgbm-wasm`]
  const cxxFlags = ['-std=c++11', '-funroll-loops', '-w', ...prefixMaps, ...defines, ...includes, ...variant.cxx]
  const cFlags = [
    '-w',
    ...prefixMaps,
    ...(threaded ? [`-I${OMP_DIR}`] : []),
    ...variant.cxx.filter((flag) => !flag.includes('exceptions')),
  ]
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
  const symbolic = (flags) =>
    flags.map((flag) => flag.replaceAll(lgb.dir, '<lightgbm>').replaceAll(packageDir, '<lightgbm-wasm>'))
  const ownFiles = [...ownSources, ...(threaded ? ompHeaders : [])]
  const inputs = {
    recipe: RECIPE_VERSION,
    variant: variantName,
    emscripten: EMSCRIPTEN_VERSION,
    lightgbm: { npm: `lightgbm@${lgb.version}`, integrity: lgb.integrity, version: lgb.lightgbmVersion },
    sources: sources.map((source) =>
      isOwn(source) ? `<lightgbm-wasm>/${relative(packageDir, source)}` : `<lightgbm>/${relative(lgb.dir, source)}`,
    ),
    ownFiles: Object.fromEntries(ownFiles.map((file) => [relative(packageDir, file), sha256(readFileSync(file))])),
    compileFlags: symbolic(cxxFlags),
    cFlags: symbolic(cFlags),
    linkFlags: symbolic(linkFlags),
    ...(variant.withoutLto === undefined ? {} : { compiledWithoutLto: variant.withoutLto }),
    ...(variant.mergeBitcode === true ? { mergedBitcode: true } : {}),
  }
  return {
    variantName,
    variant,
    threaded,
    lgb,
    sources,
    isOwn,
    ompHeader,
    ompHeaders,
    cxxFlags,
    cFlags,
    linkFlags,
    inputs,
    inputsHash: sha256(JSON.stringify(inputs)),
    outputs: ['lightgbm.wasm', 'lightgbm.cjs', ...(threaded ? ['lightgbm.worker.cjs'] : [])],
  }
}

function readInfo(outDir) {
  const infoPath = join(outDir, 'build-info.json')
  if (!existsSync(infoPath)) {
    return undefined
  }
  try {
    return JSON.parse(readFileSync(infoPath, 'utf8'))
  } catch (error) {
    return { unreadable: error.message }
  }
}

/**
 * Whether a committed build is what its inputs make: `ok`, or the reason it is not.
 * Compiles nothing.
 */
function status(build, outDir, root = packageDir) {
  const info = readInfo(outDir)
  const where = relative(root, outDir) || '.'
  if (info === undefined) {
    return { ok: false, why: `${where}/build-info.json is missing` }
  }
  if (info.unreadable !== undefined) {
    return { ok: false, why: `${where}/build-info.json cannot be read (${info.unreadable})` }
  }
  if (info.inputsHash !== build.inputsHash) {
    const changed = Object.keys(build.inputs).filter(
      (key) => JSON.stringify(build.inputs[key]) !== JSON.stringify(info.inputs?.[key]),
    )
    return {
      ok: false,
      stale: true,
      why: `${where} was built from other inputs (changed: ${changed.join(', ') || 'the recipe'})`,
    }
  }
  for (const file of build.outputs) {
    const path = join(outDir, file)
    const expected = info.outputs?.[file]?.sha256
    if (!existsSync(path)) {
      return { ok: false, why: `${where}/${file} is missing` }
    }
    const actual = sha256(readFileSync(path))
    if (expected !== actual) {
      return { ok: false, why: `${where}/${file} has SHA-256 ${actual.slice(0, 16)}…, the manifest says ${String(expected).slice(0, 16)}…` }
    }
  }
  return { ok: true, info }
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
      fail(`unknown variant "${args.variant}" (one of ${Object.keys(VARIANTS).join(', ')})`, 64)
    }
    const shipped = Object.values(SHIPPED).find((target) => target.variant === args.variant)
    const out = args.out ?? (shipped === undefined ? join('build', 'variants', args.variant) : undefined)
    if (out === undefined) {
      fail(`${args.variant} is a shipped build: use --only ${Object.keys(SHIPPED).find((k) => SHIPPED[k].variant === args.variant)}`, 64)
    }
    await compile(args, plan(args.variant), resolve(packageDir, out), { strictToolchain: false })
    return
  }
  const names = args.only === undefined ? Object.keys(SHIPPED) : [args.only]
  for (const name of names) {
    if (SHIPPED[name] === undefined) {
      fail(`unknown shipped build "${name}" (one of ${Object.keys(SHIPPED).join(', ')})`, 64)
    }
  }
  if (args.changedSince !== undefined) {
    changedSince(args.changedSince, names)
    return
  }
  let failures = 0
  for (const name of names) {
    const target = SHIPPED[name]
    const build = plan(target.variant)
    const outDir = resolve(args.root, target.out)
    const state = status(build, outDir, args.root)
    if (args.check) {
      if (state.ok) {
        console.log(`${tag}: ${target.out}/ matches its inputs (${build.inputsHash.slice(0, 16)}…) and its output hashes`)
      } else {
        failures += 1
        console.error(`${tag}: ${name}: ${state.why}; rebuild with \`node scripts/build-wasm.mjs --only ${name}\` (needs emcc) and commit ${target.out}/`)
      }
    } else if (args.verify) {
      if (!state.ok) {
        failures += 1
        console.error(`${tag}: ${name}: ${state.why}: nothing to verify against`)
        continue
      }
      failures += await verify(args, build, outDir, state.info) ? 0 : 1
    } else if (state.ok && !args.force) {
      console.log(`${tag}: ${target.out}/lightgbm.wasm is up to date (${target.variant}, committed; inputs ${build.inputsHash.slice(0, 16)}…)`)
    } else {
      if (!state.ok) {
        console.log(`${tag}: ${name}: ${state.why}: compiling`)
      }
      await compile(args, build, outDir, { strictToolchain: true })
    }
  }
  if (failures > 0) {
    process.exit(1)
  }
}

/**
 * Compiles a shipped build from scratch into build/verify/<variant>/ and compares each output,
 * byte for byte, with the committed one.
 */
async function verify(args, build, outDir, info) {
  const verifyDir = join(packageDir, 'build', 'verify', build.variantName)
  rmSync(verifyDir, { recursive: true, force: true })
  const made = await compile(args, build, join(verifyDir, 'out'), { strictToolchain: true, workDir: verifyDir, quiet: true })
  let same = true
  for (const file of build.outputs) {
    const committed = info.outputs[file].sha256
    const rebuilt = made.outputs[file].sha256
    const where = `${relative(packageDir, outDir)}/${file}`
    if (committed === rebuilt) {
      console.log(`${tag}: verified ${where}: the rebuild is byte-identical (SHA-256 ${rebuilt.slice(0, 16)}…)`)
    } else {
      same = false
      console.error(`${tag}: ${where} differs from a rebuild of its inputs: committed ${committed.slice(0, 16)}…, rebuilt ${rebuilt.slice(0, 16)}… (kept in ${relative(packageDir, verifyDir)}/out)`)
    }
  }
  return same
}

/** Exit 3 and name the shipped builds whose manifest differs from the one at commit `ref`. */
function changedSince(ref, names) {
  const changed = []
  for (const name of names) {
    const target = SHIPPED[name]
    const path = relative(repoDir, join(packageDir, target.out, 'build-info.json'))
    const then = spawnSync('git', ['show', `${ref}:${path}`], { cwd: repoDir, encoding: 'utf8' })
    const now = readInfo(join(packageDir, target.out))
    if (then.status !== 0) {
      changed.push(`${name} (no ${path} at ${ref}, or ${ref} is not in this clone)`)
      continue
    }
    let before
    try {
      before = JSON.parse(then.stdout)
    } catch {
      before = undefined
    }
    if (before?.inputsHash !== now?.inputsHash || JSON.stringify(before?.outputs) !== JSON.stringify(now?.outputs)) {
      changed.push(name)
    }
  }
  if (changed.length === 0) {
    console.log(`${tag}: the shipped builds are unchanged since ${ref}`)
    return
  }
  console.log(`${tag}: changed since ${ref}: ${changed.join('; ')}`)
  process.exit(3)
}

async function compile(args, build, outDir, options) {
  const { variant, threaded, lgb, sources, isOwn, ompHeader, ompHeaders, cxxFlags, cFlags, linkFlags } = build
  const env = emscriptenEnv()
  const emccVersion = checkEmcc(env, `building ${build.variantName} (${relative(packageDir, outDir) || outDir})`)
  if (options.strictToolchain && !emccVersion.includes(` ${EMSCRIPTEN_VERSION} `) && !emccVersion.endsWith(` ${EMSCRIPTEN_VERSION}`)) {
    fail(
      `the shipped builds are made with Emscripten ${EMSCRIPTEN_VERSION} (Debian 12's package) and this emcc is "${emccVersion}", which makes other bytes; ` +
        `use Debian 12's emcc, or change EMSCRIPTEN_VERSION in this script and rebuild and commit both builds`,
    )
  }
  const workDir = options.workDir ?? join(packageDir, 'build', build.variantName)
  const objDir = join(workDir, 'obj')
  mkdirSync(objDir, { recursive: true })
  mkdirSync(outDir, { recursive: true })
  console.log(`${tag}: ${emccVersion}; LightGBM ${lgb.lightgbmVersion} (npm lightgbm@${lgb.version}); variant ${build.variantName}`)

  const started = Date.now()
  // Objects of a threaded build depend on our headers, which the mtime check misses: LightGBM's
  // on omp.h's declarations (comments stripped, so that editing them rebuilds nothing), ours
  // on both headers as written.
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
      writeFileAtomic(job.stamp, job.flagsHash)
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
  // The worker script is CommonJS; `.cjs` keeps Node from reading it as an ES module inside
  // this "type": "module" package. src/module.ts points Emscripten's locateFile at it.
  const made = { 'lightgbm.wasm': 'lightgbm.wasm', 'lightgbm.cjs': 'lightgbm.js', 'lightgbm.worker.cjs': 'lightgbm.worker.js' }
  const outputs = {}
  for (const file of build.outputs) {
    const data = readFileSync(join(workDir, made[file]))
    outputs[file] = { bytes: data.length, sha256: sha256(data) }
    copyFileAtomic(join(workDir, made[file]), join(outDir, file))
  }
  const info = {
    variant: build.variantName,
    threaded,
    lightgbm: lgb.lightgbmVersion,
    wasmBytes: outputs['lightgbm.wasm'].bytes,
    inputsHash: build.inputsHash,
    inputs: build.inputs,
    outputs,
    // how this copy was made: for the record, not part of its identity
    emcc: emccVersion,
    toolchain: toolchainRecord(env, emccVersion),
    buildSeconds: Math.round((Date.now() - started) / 1000),
  }
  writeFileAtomic(join(outDir, 'build-info.json'), `${JSON.stringify(info, null, 2)}\n`)
  console.log(`${tag}: wrote ${relative(packageDir, outDir)}/lightgbm.{cjs,wasm} (${info.wasmBytes} bytes) in ${info.buildSeconds} s`)
  return info
}

main().catch((error) => {
  fail(error instanceof Error ? error.message : String(error))
})
