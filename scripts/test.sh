#!/usr/bin/env bash
# `npm test`: every test suite, on a fresh machine too. Installs what is missing (scripts/setup.sh), builds the
# models and fixtures (npm run fixtures), runs the Rust tests natively, builds the wasm package once and runs the
# Node tests against it. `npm test rust` / `npm test node` run one part.
set -euo pipefail
cd "$(dirname "$0")/.."
part=${1:-all}
t0=$(date +%s)
say() { printf '\n[test] %s\n' "$*"; }

bash scripts/setup.sh

if [ -f scripts/fixtures.sh ] && [ "$part" != rust-quick ]; then
  say "fixtures (npm run fixtures)"
  bash scripts/fixtures.sh
fi

if [ "$part" = all ] || [ "$part" = rust ]; then
  say "Rust tests (native, release)"
  cargo test --release --locked
fi

if [ "$part" = all ] || [ "$part" = node ]; then
  say "build the package (once for every JS suite)"
  node scripts/build.mjs ${RERANKIT_BUILD:+--$RERANKIT_BUILD}
  say "Node tests (node:test, importing the package by name)"
  node --test --test-reporter=spec tests/node/*.test.mjs
fi

say "all suites passed in $(( $(date +%s) - t0 )) s"
