#!/usr/bin/env node
/**
 * How big each package's public entries are, and who imports them (CONTRIBUTING.md, "Public
 * API"): for every entry of every workspace package and app (`@pubmatch/x`, `@pubmatch/x/internal`,
 * …), the names it exports and how many of them are imported from outside the package.
 *
 *   node scripts/entry-usage.mjs                      # one line per entry, and the total of main entries
 *   node scripts/entry-usage.mjs --detail @pubmatch/x # each name of that entry and the folders importing it
 *
 * Reads sources only (`@pubmatch/source` of each `exports` entry, and every tracked `.ts` file's
 * import and export declarations); needs the installed TypeScript, no build.
 */
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const ts = createRequire(join(root, 'package.json'))('typescript')
const detailAt = process.argv.indexOf('--detail')
const detail = detailAt > 0 ? process.argv[detailAt + 1] : undefined

/** Entry specifier → imported name → files that import it. */
const uses = new Map()
const use = (spec, name, file) => {
  const names = uses.get(spec) ?? new Map()
  uses.set(spec, names)
  names.set(name, (names.get(name) ?? new Set()).add(file))
}
const files = execFileSync('git', ['ls-files', '*.ts'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean)
for (const file of files) {
  const text = readFileSync(join(root, file), 'utf8')
  if (!text.includes('@pubmatch/')) {
    continue
  }
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true)
  for (const node of source.statements) {
    const isImport = ts.isImportDeclaration(node)
    if (!(isImport || ts.isExportDeclaration(node)) || node.moduleSpecifier === undefined || !ts.isStringLiteral(node.moduleSpecifier)) {
      continue
    }
    const spec = node.moduleSpecifier.text
    if (!spec.startsWith('@pubmatch/')) {
      continue
    }
    const bindings = isImport ? node.importClause?.namedBindings : node.exportClause
    if (bindings !== undefined && (ts.isNamedImports(bindings) || ts.isNamedExports(bindings))) {
      for (const element of bindings.elements) {
        use(spec, (element.propertyName ?? element.name).text, file)
      }
    } else if (bindings !== undefined) {
      use(spec, '*', file)
    }
  }
}

let mainNames = 0
let mainUsed = 0
const folders = ['packages', 'apps'].flatMap((top) => readdirSync(join(root, top)).map((name) => `${top}/${name}`))
for (const folder of folders) {
  const manifest = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8'))
  for (const [subpath, conditions] of Object.entries(manifest.exports ?? {})) {
    const sourceFile = typeof conditions === 'object' ? conditions['@pubmatch/source'] : undefined
    if (sourceFile === undefined) {
      continue
    }
    const file = join(root, folder, sourceFile)
    const program = ts.createProgram([file], {
      noEmit: true,
      allowImportingTsExtensions: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      customConditions: ['@pubmatch/source'],
      target: ts.ScriptTarget.ES2022,
    })
    const checker = program.getTypeChecker()
    const symbol = checker.getSymbolAtLocation(program.getSourceFile(file))
    const names = symbol === undefined ? [] : checker.getExportsOfModule(symbol).map((exported) => exported.name)
    const spec = subpath === '.' ? manifest.name : `${manifest.name}${subpath.slice(1)}`
    const importers = (name) => [...(uses.get(spec)?.get(name) ?? [])].filter((importer) => !importer.startsWith(`${folder}/`))
    const used = names.filter((name) => importers(name).length > 0)
    if (subpath === '.') {
      mainNames += names.length
      mainUsed += used.length
    }
    console.log(`${spec}\t${names.length} names\t${used.length} imported from outside ${folder}`)
    if (spec === detail) {
      for (const name of names) {
        const where = new Set(importers(name).map((importer) => importer.split('/').slice(0, 2).join('/') + (/\.test\.ts$|\/test\//.test(importer) ? ' (tests)' : '')))
        console.log(`  ${name}\t${[...where].sort().join(', ') || '–'}`)
      }
    }
  }
}
console.log(`main entries: ${mainNames} names, ${mainUsed} imported from outside their package`)
