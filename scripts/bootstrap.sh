#!/usr/bin/env bash
# Installs everything pubmatch needs on a fresh machine and builds it:
#   pnpm (the version pinned in package.json), Emscripten (to compile LightGBM to WebAssembly),
#   the npm dependencies (frozen lockfile), then `pnpm build`.
# Safe to run again: each step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

want_pnpm=$(node -p "require('./package.json').packageManager.split('@')[1]")
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$want_pnpm" ]; then
  echo "bootstrap: installing pnpm@$want_pnpm"
  npm install --global "pnpm@$want_pnpm" >/dev/null
fi

if ! command -v emcc >/dev/null 2>&1; then
  echo "bootstrap: installing Emscripten (Debian package 'emscripten') to build @pubmatch/lightgbm-wasm"
  if [ "$(id -u)" = "0" ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq emscripten >/dev/null
  elif command -v sudo >/dev/null 2>&1; then
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq emscripten >/dev/null
  else
    echo "bootstrap: emcc is missing and this user cannot install packages; install Emscripten and run again" >&2
    exit 1
  fi
fi

# Xapian's Python bindings: optional; @pubmatch/bench-search compares against Xapian and its
# parity test (src/xapian.test.ts) is skipped without them. Debian puts the module under
# /usr/bin/python3 (a pyenv python3 on the PATH may not see it), so probe that one first.
if ! /usr/bin/python3 -c 'import xapian' >/dev/null 2>&1 && ! python3 -c 'import xapian' >/dev/null 2>&1; then
  echo "bootstrap: installing Xapian (Debian package 'python3-xapian') for @pubmatch/bench-search"
  if [ "$(id -u)" = "0" ]; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-xapian >/dev/null; } ||
      echo "bootstrap: warning: could not install python3-xapian; the Xapian benchmark and its parity test will be skipped" >&2
  elif command -v sudo >/dev/null 2>&1; then
    { sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-xapian >/dev/null; } ||
      echo "bootstrap: warning: could not install python3-xapian; the Xapian benchmark and its parity test will be skipped" >&2
  else
    echo "bootstrap: warning: python3-xapian is missing and this user cannot install packages; the Xapian benchmark and its parity test will be skipped" >&2
  fi
fi

echo "bootstrap: pnpm install --frozen-lockfile"
pnpm install --frozen-lockfile
echo "bootstrap: pnpm build"
pnpm build
