#!/usr/bin/env bash
# Installs what pubmatch needs on a fresh machine and builds it: pnpm (the version pinned in
# package.json), the npm dependencies (frozen lockfile), then `pnpm build`. Needs Node.js ≥ 20.19
# and no root: LightGBM's WebAssembly is committed (packages/lightgbm-wasm/wasm/, with a
# manifest of its inputs), so nothing is compiled from C++ unless those inputs change; then
# `pnpm build` says so and `bash scripts/dev-deps.sh emscripten` installs the compiler.
# The Solr backend's Java (packages/solr/java) is built by `pnpm build` with Maven when a JDK 17
# and Maven are on the PATH (`bash scripts/dev-deps.sh java` installs them); without them the
# embedded engine works as before and `pubmatch solr up` says what is missing.
# Safe to run again: each step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

node_version=$(node -p 'process.versions.node')
if ! node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>20||(a===20&&b>=19)?0:1)'; then
  echo "bootstrap: pubmatch needs Node.js >= 20.19; this is $node_version" >&2
  exit 1
fi

want_pnpm=$(node -p "require('./package.json').packageManager.split('@')[1]")
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$want_pnpm" ]; then
  prefix=$(npm config get prefix)
  if [ "$(id -u)" = "0" ] || { [ -w "$prefix/lib/node_modules" ] && [ -w "$prefix/bin" ]; }; then
    echo "bootstrap: installing pnpm@$want_pnpm"
    npm install --global --no-fund --no-audit "pnpm@$want_pnpm" >/dev/null
  else
    # no root: into ~/.local/bin, which Debian's and Ubuntu's login shells put on the PATH
    echo "bootstrap: installing pnpm@$want_pnpm into $HOME/.local (no root needed)"
    npm install --global --prefix "$HOME/.local" --no-fund --no-audit "pnpm@$want_pnpm" >/dev/null
    export PATH="$HOME/.local/bin:$PATH"
    echo "bootstrap: if \`pnpm\` is not found afterwards: export PATH=\"\$HOME/.local/bin:\$PATH\"" >&2
  fi
fi

echo "bootstrap: pnpm install --frozen-lockfile"
pnpm install --frozen-lockfile
echo "bootstrap: pnpm build"
pnpm build
