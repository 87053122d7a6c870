#!/usr/bin/env bash
# Debian packages that some development tasks need, and users never do (root or sudo):
#   emscripten   compile LightGBM to WebAssembly (packages/lightgbm-wasm; only when its inputs change)
#   xapian       Xapian's Python bindings, for tools/bench-search's comparison and parity test
#   chromium     Debian's Chromium, for the web page's end-to-end tests (apps/server, playwright-core)
#   java         OpenJDK 17 and Maven, for the Solr backend (packages/solr/java: `pnpm build` runs Maven,
#                which resolves Solr 9.10.1 from Maven Central into ~/.m2)
# Usage: bash scripts/dev-deps.sh emscripten xapian
set -euo pipefail

declare -A package=([emscripten]=emscripten [xapian]=python3-xapian [chromium]=chromium [java]='openjdk-17-jdk-headless maven')
declare -A present=(
  [emscripten]='command -v emcc'
  [xapian]="/usr/bin/python3 -c 'import xapian' || python3 -c 'import xapian'"
  [chromium]='test -x /usr/bin/chromium'
  [java]='command -v javac && command -v mvn'
)
missing=()
for want in "$@"; do
  if [ -z "${package[$want]:-}" ]; then
    echo "dev-deps: unknown dependency '$want' (one of: ${!package[*]})" >&2
    exit 64
  fi
  if ! eval "${present[$want]}" >/dev/null 2>&1; then
    read -r -a names <<<"${package[$want]}"
    missing+=("${names[@]}")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=()
if [ "$(id -u)" != "0" ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "dev-deps: ${missing[*]} missing, and this user cannot install Debian packages (no root, no sudo)" >&2
    exit 1
  fi
  sudo=(sudo)
fi
echo "dev-deps: apt-get install ${missing[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
