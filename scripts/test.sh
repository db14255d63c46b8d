#!/usr/bin/env bash
# `npm test`: every test suite, on a fresh machine too (it installs what is missing), and a table of each part's
# seconds at the end, so that CI's budget is visible in every log.
#
#   npm test                     everything
#   npm test -- rust|node|demo|webgpu|runtimes    one part (with what it needs installed and built)
#
# Two tracks run side by side, because the machine has 2 cores and each track has long stretches that use one
# core or none (downloads, apt, link steps, single-threaded test binaries, browsers waiting on the CPU path):
#   native: cargo builds the Rust tests (release speed, no LTO) → the Rust suites, one test binary per area
#           (tests/<area>/main.rs; the WebGPU kernels on Mesa's lavapipe)
#   wasm:   wasm-bindgen-cli → the package (wasm) → the API reference (TypeDoc) → the Node suites → the demo,
#           WebGPU and runtime matrix in headless Chromium, Deno and workerd
# while the test models (npm run fixtures), the npm dependencies and the system packages (lavapipe, Chromium)
# install in the background; each waits only for what it needs. Each track's output goes to a log that is
# printed whole when the track ends (CI shows one track after the other, never interleaved lines).
set -euo pipefail
cd "$(dirname "$0")/.."
part=${1:-all}
case "$part" in all|rust|node|demo|webgpu|runtimes) ;; *) echo "npm test: unknown part '$part' (all|rust|node|demo|webgpu|runtimes)" >&2; exit 2 ;; esac
want() { [ "$part" = all ] || [[ " $* " == *" $part "* ]]; }

# CI builds from a fresh clone: keep cargo's build products in a cache outside the clone so that a machine that
# has built rerankit before rebuilds only the crate itself (on a fresh machine this is simply an empty cache).
if [ "${CI:-}" = true ] && [ -z "${CARGO_TARGET_DIR:-}" ]; then
  export CARGO_TARGET_DIR="$HOME/.cache/rerankit/cargo-target"
fi
# the collection check on 2 of its 12 queries (200 pairs; a plain `cargo test --test inference` runs all 12)
export RERANKIT_COLLECTION_QUERIES=${RERANKIT_COLLECTION_QUERIES:-2}

logs=$(mktemp -d "${TMPDIR:-/tmp}/rerankit-test.XXXXXX")
times="$logs/times.tsv"   # part, start (s after t0), seconds, status
t0=$(date +%s.%N)
now() { awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.0f", b-a}'; }
say() { printf '\n[test] %s\n' "$*"; }

# timed PART COMMAND...: runs it, records its start, seconds and status (never stops the script by itself).
timed() {
  local name=$1; shift
  local start; start=$(now)
  say "$name"
  local rc=0
  "$@" || rc=$?
  printf '%s\t%s\t%s\t%s\n' "$name" "$start" "$(( $(now) - start ))" "$([ $rc = 0 ] && echo ok || echo "FAILED ($rc)")" >>"$times"
  return $rc
}

report() {
  local rc=$?
  [ -s "$times" ] || return
  printf '\n[test] seconds per part (start = seconds after npm test began; the two tracks overlap):\n'
  printf '  %-58s %6s %8s  %s\n' part start seconds status
  sort -t$'\t' -k2,2n "$times" | while IFS=$'\t' read -r name start secs status; do
    printf '  %-58s %6s %8s  %s\n' "$name" "$start" "$secs" "$status"
  done
  printf '  %-58s %6s %8s  %s\n' "npm test (wall)" 0 "$(now)" "$([ $rc = 0 ] && echo ok || echo FAILED)"
  rm -rf "$logs"
}
trap report EXIT

# bg NAME COMMAND...: a background job, its output in $logs/NAME.log and its status in $logs/NAME.rc when it ends.
# await NAME: waits for it (from either track) and returns its status; show NAME prints its log, once.
bg() {
  local name=$1; shift
  touch "$logs/$name.started"
  ( set +e; timed "$name" "$@"; echo $? >"$logs/$name.rc" ) >"$logs/$name.log" 2>&1 &
}
await() {
  [ -e "$logs/$1.started" ] || return 0
  while [ ! -s "$logs/$1.rc" ]; do sleep 1; done
  return "$(cat "$logs/$1.rc")"
}
show() {
  [ -e "$logs/$1.started" ] && mkdir "$logs/$1.shown" 2>/dev/null || return 0
  local rc=0
  await "$1" || rc=$?
  printf '\n----- %s (ran in the background) -----\n' "$1"
  cat "$logs/$1.log"
  [ $rc = 0 ] || echo "[test] $1 FAILED ($rc)"
  return $rc
}

# ---------------------------------------------------------------- installs, in the background
bg fixtures bash scripts/fixtures.sh
need_system=()
want rust && need_system+=(scripts/install-vulkan.sh)
want demo webgpu runtimes && need_system+=(scripts/install-chromium.sh)
if [ ${#need_system[@]} -gt 0 ]; then
  bg system-packages bash -c 'for s in "$@"; do bash "$s" || exit; done' _ "${need_system[@]}"
fi
want node demo webgpu runtimes && bg npm-install bash scripts/setup.sh npm

# ---------------------------------------------------------------- native track
# Every suite is one test binary per area under tests/ (cargo finds them: tests/<area>/main.rs), plus the crate's
# unit tests and the CLI's.
native_track() {
  local status=0
  timed "native: cargo build (Rust tests, profile native-test)" \
    cargo test --profile native-test --locked --no-run --lib --bins --tests || return 1
  await fixtures || { echo "[test] the test models are missing (fixtures failed)"; return 1; }
  await system-packages || { echo "[test] lavapipe is missing (system packages failed)"; return 1; }
  timed "native: unit tests (--lib --bins)" cargo test --profile native-test --locked --lib --bins || status=1
  local area
  for area in $(cd tests && for d in */; do [ -f "$d/main.rs" ] && echo "${d%/}"; done); do
    timed "native: tests/$area" cargo test --profile native-test --locked --test "$area" || status=1
  done
  return $status
}

# ---------------------------------------------------------------- wasm track
build_package() {
  timed "wasm: setup (wasm32 target, wasm-bindgen-cli)" bash scripts/setup.sh rust || return 1
  show npm-install || return 1
  # The published build is the tested build: wasm-opt (native Binaryen, scripts/wasm_opt.py) on the five modules.
  # RERANKIT_TEST_DEV=1 tests a --dev build instead (no wasm-opt: minutes faster, for quick local runs).
  if [ "${RERANKIT_TEST_DEV:-}" = 1 ]; then
    timed "wasm: build the package (--dev)" node scripts/build.mjs --dev
  else
    timed "wasm: build the package (published: SIMD128 + relaxed SIMD + Workers + eval + pipeline-eval, wasm-opt)" node scripts/build.mjs
  fi
}

wasm_track() {
  local status=0
  build_package || return 1
  if want node; then
    # TypeDoc type-checks against the wasm-bindgen glue the build just wrote (pkg/wasm), so it runs here; an
    # export without a doc comment fails the tests (typedoc.json: warnings are errors). Written to the logs
    # folder: a test run leaves docs/api/ as it was.
    timed "docs: API reference (TypeDoc, any warning fails)" npx --no-install typedoc --out "$logs/api" || status=1
  fi
  show fixtures || return 1
  if want node; then
    timed "node: the package's suites (node:test)" node --test --test-reporter=spec tests/node/*.test.mjs || status=1
  fi
  if want demo webgpu runtimes; then
    show system-packages || return 1
  fi
  if want demo; then
    timed "browser: the demo (www/) in headless Chromium" node --test --test-reporter=spec tests/browser/demo.test.mjs || status=1
  fi
  if want webgpu; then
    # Without a GPU, Chromium's WebGPU adapter is SwiftShader (software): the small random-weight models. The int8
    # test shares the page: Chromium's relaxed-SIMD module and its dot-product kernel
    timed "browser: WebGPU kernels, relaxed-SIMD int8, in headless Chromium" node --test --test-reporter=spec --test-concurrency=1 \
      tests/browser/webgpu.test.mjs tests/browser/int8_relaxed.test.mjs || status=1
  fi
  if want runtimes; then
    # Deno and wrangler (workerd) come from the npm devDependencies; Chromium is Debian's
    timed "runtimes: model delivery, CommonJS, Deno, workerd, Chromium" node --test --test-reporter=spec --test-concurrency=1 \
      tests/runtimes/model_source.test.mjs tests/runtimes/node_cjs.test.cjs tests/runtimes/runtimes.test.mjs || status=1
  fi
  return $status
}

status=0
if want rust && want node demo webgpu runtimes; then
  # both tracks: the native one in the background, printed when it ends
  bg native-track native_track
  wasm_track || status=1
  show native-track || status=1
elif want rust; then
  native_track || status=1
else
  wasm_track || status=1
fi
for job in fixtures npm-install system-packages native-track; do show "$job" || status=1; done
[ $status = 0 ] && say "all suites passed" || say "some suites FAILED (see the table)"
exit $status
