#!/usr/bin/env bash
# Times what a new user and CI go through, from a fresh clone of a commit:
#   1. the README's main command: `bash scripts/bootstrap.sh && pnpm demo` (to its first result)
#   2. the README's test command: `pnpm test`
#   3. the rest of a CI run: `bash .ci/run` as CI runs it (typecheck, lint, publint, demo; and
#      for commits with a .ci/wasm-verified-base, the WebAssembly check)
# Each clone gets an empty pnpm store (as on a new machine) and ../shared beside it.
#
#   bash tools/fresh-clone/measure.sh [--no-ci] [--as-verified] REF [REF…]
#
# --as-verified: the CI clone's .ci/wasm-verified-base names the commit itself, as for a later
# commit that changes no WebAssembly (no rebuild-and-compare); without it CI verifies whatever
# changed since the recorded base.
# Prints one line per step and writes the logs to $PUBMATCH_MEASURE_DIR (default /tmp/pubmatch-fresh-clone).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
shared=$(cd "$repo/../shared" 2>/dev/null && pwd || true)
out=${PUBMATCH_MEASURE_DIR:-/tmp/pubmatch-fresh-clone}
ci=1
as_verified=0
refs=()
for arg in "$@"; do
  case "$arg" in
    --no-ci) ci=0 ;;
    --as-verified) as_verified=1 ;;
    *) refs+=("$arg") ;;
  esac
done
[ ${#refs[@]} -gt 0 ] || { echo "usage: measure.sh [--no-ci] REF [REF…]" >&2; exit 64; }

stamp() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", b - a }'; }

echo "machine: $(nproc) × $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem:/ {print $2}') GB; node $(node --version); $(date -u +%Y-%m-%dT%H:%MZ)"
echo "emcc present before the runs: $(command -v emcc >/dev/null && echo yes || echo no)"
for ref in "${refs[@]}"; do
  commit=$(git -C "$repo" rev-parse --short "$ref")
  work="$out/$commit"
  rm -rf "$work"
  mkdir -p "$work"
  [ -n "$shared" ] && ln -s "$shared" "$work/shared"
  git clone -q "$repo" "$work/main"
  git -C "$work/main" checkout -q "$commit"
  export npm_config_store_dir="$work/pnpm-store" CI=1 TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
  cd "$work/main"

  t0=$(stamp)
  bash scripts/bootstrap.sh > "$work/bootstrap.log" 2>&1
  t1=$(stamp)
  # the first result: the demo's first "N matching documents" line
  first=""
  while IFS= read -r line; do
    if [ -z "$first" ] && [[ "$line" == *"matching documents"* ]]; then first=$(stamp); fi
    printf '%s\n' "$line"
  done < <(pnpm demo --plain 2>&1) > "$work/demo.log"
  t2=$(stamp)
  echo "$commit: bootstrap $(elapsed "$t0" "$t1") s; first search result $(elapsed "$t0" "${first:-$t2}") s after the clone; demo done $(elapsed "$t0" "$t2") s"

  t3=$(stamp)
  pnpm test > "$work/test.log" 2>&1 && status=ok || status="FAILED (see $work/test.log)"
  t4=$(stamp)
  echo "$commit: pnpm test $(elapsed "$t3" "$t4") s, $status"

  if [ "$ci" = 1 ]; then
    # a CI run from its own fresh clone (its own empty store)
    rm -rf "$work/ci" && git clone -q "$repo" "$work/ci/main" && git -C "$work/ci/main" checkout -q "$commit"
    [ -n "$shared" ] && ln -s "$shared" "$work/ci/shared"
    if [ "$as_verified" = 1 ] && [ -f "$work/ci/main/.ci/wasm-verified-base" ]; then
      git -C "$work/ci/main" rev-parse HEAD > "$work/ci/main/.ci/wasm-verified-base"
    fi
    export npm_config_store_dir="$work/ci/pnpm-store"
    t5=$(stamp)
    bash "$work/ci/main/.ci/run" > "$work/ci.log" 2>&1 && status=ok || status="FAILED (see $work/ci.log)"
    t6=$(stamp)
    echo "$commit: cold CI run (bash .ci/run$([ "$as_verified" = 1 ] && echo ', WebAssembly as verified')) $(elapsed "$t5" "$t6") s, $status"
  fi
  cd "$repo"
done
