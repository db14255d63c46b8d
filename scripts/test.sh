#!/usr/bin/env bash
# `npm test`: the test suites, on a fresh machine too. Installs what is missing (scripts/setup.sh), builds the
# models and fixtures (npm run fixtures), runs the Rust tests natively, builds the wasm package once and runs the
# Node tests against it, then the demo (www/) in headless Chromium, then the runtime matrix (Deno, Cloudflare
# workerd, headless Chromium; model delivery), then WebGPU in headless Chromium.
# `npm test -- rust|node|demo|runtimes|webgpu` runs one part.
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

rust_suites=(
  --lib --bins
  --test metrics_trec_eval --test metrics_inputs --test metrics_profiles --test metrics_collection
  --test rankers_recentness --test rankers_lost_in_the_middle --test rankers_diversity --test rankers_fusion
  --test rankers_adaptive_weight --test rankers_pipeline_value
  --test agent_eval --test agent_eval_llm --test agent_eval_bad_input
  --test haystack_eval_squad --test haystack_eval --test haystack_eval_sas
  --test webgpu_kernels --test webgpu_parity
  --test inference_collection --test inference_models --test inference_int8
)
node_suites=(tests/node/document.test.mjs tests/node/metrics.test.mjs tests/node/rankers.test.mjs tests/node/pipeline.test.mjs
  tests/node/agent_eval.test.mjs tests/node/haystack_eval.test.mjs tests/node/haystack_sas.test.mjs
  tests/node/cross_encoder.test.mjs tests/node/cross_encoder_int8.test.mjs tests/node/cross_encoder_shapes.test.mjs)

bash scripts/setup.sh

say "fixtures (npm run fixtures)"
bash scripts/fixtures.sh

build_package() {
  # wasm-opt (binaryen compiled to JS) takes many minutes on the 20 MB module, so tests build without it;
  # RERANKIT_TEST_OPTIMIZED=1 tests the optimised package instead.
  say "build the package (once for every JS suite)"
  if [ "${RERANKIT_TEST_OPTIMIZED:-}" = 1 ]; then node scripts/build.mjs; else node scripts/build.mjs --dev; fi
}

if [ "$part" = all ] || [ "$part" = rust ]; then
  say "Rust tests (native, release)"
  # The WebGPU kernels run natively on Mesa's software Vulkan driver (lavapipe) where no GPU is present.
  bash scripts/install-vulkan.sh
  # the collection check on 4 of its 12 queries (a plain `cargo test --test inference_collection` runs all 12)
  RERANKIT_COLLECTION_QUERIES=4 cargo test --profile native-test --locked "${rust_suites[@]}"
fi

if [ "$part" = all ] || [ "$part" = node ]; then
  build_package
  say "Node tests (node:test, importing the package by name)"
  node --test --test-reporter=spec "${node_suites[@]}"
fi

if [ "$part" = all ] || [ "$part" = demo ]; then
  [ -f pkg/dist/browser.js ] || build_package
  bash scripts/install-chromium.sh
  say "demo: www/ in headless Chromium, checked against the Node entry"
  node --test --test-reporter=spec tests/browser/demo.test.mjs
fi

if [ "$part" = all ] || [ "$part" = webgpu ]; then
  # Without a GPU, Chromium's WebGPU adapter is SwiftShader (software), so the test scores the 9 short reference
  # pairs per model (8.5 min on the loaded 2-core dev machine); RERANKIT_WEBGPU_FULL=1 takes all 30.
  [ -f pkg/dist/browser.js ] || build_package
  bash scripts/install-chromium.sh
  say "WebGPU: the package's WGSL kernels in headless Chromium vs the CPU path, and the no-adapter fallback"
  node --test --test-reporter=spec tests/browser/webgpu.test.mjs
fi

if [ "$part" = all ] || [ "$part" = runtimes ]; then
  # Deno and wrangler (workerd) come from the npm devDependencies; Chromium is Debian's (apt, when missing).
  [ -f pkg/dist/node.js ] || build_package
  bash scripts/install-chromium.sh
  say "runtimes: model delivery and CommonJS require (Node), Deno, Cloudflare workerd, headless Chromium"
  node --test --test-reporter=spec --test-concurrency=1 tests/runtimes/model_source.test.mjs tests/runtimes/node_cjs.test.cjs tests/runtimes/runtimes.test.mjs
fi

say "suites passed in $(( $(date +%s) - t0 )) s"
