#!/usr/bin/env bash
# `npm test`: every test suite, on a fresh machine too. Installs what is missing (scripts/setup.sh), builds the
# models and fixtures (npm run fixtures), runs the Rust tests natively, builds the wasm package once and runs the
# Node tests against it, then the other runtimes (Deno, workerd, Chromium). `npm test -- rust|node|runtimes` runs
# one part.
set -euo pipefail
cd "$(dirname "$0")/.."
part=${1:-all}
# CI builds from a fresh clone: keep cargo's build products in a cache outside the clone so that a machine that
# has built rerankit before rebuilds only the crate itself (on a fresh machine this is simply an empty cache).
if [ "${CI:-}" = true ] && [ -z "${CARGO_TARGET_DIR:-}" ]; then
  export CARGO_TARGET_DIR="$HOME/.cache/rerankit/cargo-target"
fi
t0=$(date +%s)
say() { printf '\n[test] %s\n' "$*"; }

bash scripts/setup.sh

say "fixtures (npm run fixtures)"
bash scripts/fixtures.sh

if [ "$part" = all ] || [ "$part" = rust ]; then
  # The WebGPU kernels are tested natively on Mesa's software Vulkan driver where no GPU is present.
  if [ -f scripts/install-vulkan.sh ]; then bash scripts/install-vulkan.sh; fi
  say "Rust tests (native, release)"
  cargo test --release --locked
fi

if [ "$part" = all ] || [ "$part" = node ]; then
  # wasm-opt (binaryen compiled to JS) takes many minutes on the 20 MB module, so tests build without it;
  # RERANKIT_TEST_OPTIMIZED=1 tests the optimised package instead.
  say "build the package (once for every JS suite)"
  if [ "${RERANKIT_TEST_OPTIMIZED:-}" = 1 ]; then node scripts/build.mjs; else node scripts/build.mjs --dev; fi
  say "Node tests (node:test, importing the package by name)"
  node --test --test-reporter=spec tests/node/*.test.mjs
fi

if [ "$part" = all ] || [ "$part" = runtimes ]; then
  bash scripts/install-chromium.sh
  if [ "$part" = runtimes ] && [ ! -f pkg/dist/node.js ]; then node scripts/build.mjs --dev; fi
  say "runtimes: Deno, Cloudflare workerd, headless Chromium"
  node --test --test-reporter=spec --test-concurrency=1 tests/runtimes/runtimes.test.mjs
fi

say "all suites passed in $(( $(date +%s) - t0 )) s"
