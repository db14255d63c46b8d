#!/usr/bin/env bash
# `npm start`: installs what is missing, builds the package if its sources changed, builds the demo (www/) and
# serves it on http://127.0.0.1:${PORT:-8080}/ with the local models (RERANKIT_MODELS) under /models/.
# The package is built with `--dev` (no wasm-opt, which adds about 2.5 minutes on 2 cores for both modules);
# `npm run build` makes the optimised one. The command-line quick start is `node examples/node/quickstart.mjs`.
set -euo pipefail
cd "$(dirname "$0")/.."
port=${PORT:-8080}
bash scripts/setup.sh

# Rust (or shaders, or the crate's manifest) newer than the wasm → full build; only TypeScript → recompile it.
newer_than() { find "${@:2}" -newer "$1" \( -name '*.rs' -o -name '*.wgsl' -o -name 'Cargo.toml' -o -name 'Cargo.lock' -o -name '*.ts' \) \
  -not -path 'pkg/dist/*' -not -path 'pkg/wasm/*' -print -quit 2>/dev/null; }
if [ ! -f pkg/wasm/rerankit_bg.wasm ] || [ ! -f pkg/wasm/rerankit_relaxed_bg.wasm ] || [ ! -f pkg/wasm_workers/rerankit_bg.wasm ] || [ ! -f pkg/wasm_eval/rerankit_bg.wasm ] || [ ! -f pkg/wasm_pipeline_eval/rerankit_bg.wasm ] || [ -n "$(newer_than pkg/wasm/rerankit_bg.wasm src shaders bindings Cargo.toml Cargo.lock | grep -v '\.ts$' || true)" ]; then
  echo "[start] building the package (wasm, --dev); the first build takes 20+ minutes"
  node scripts/build.mjs --dev
elif [ ! -f pkg/dist/index.js ] || [ -n "$(find pkg -name '*.ts' -not -path 'pkg/dist/*' -not -path 'pkg/wasm*' -newer pkg/dist/index.js -print -quit)" ]; then
  node scripts/build.mjs --ts-only
fi

bash scripts/build-demo.sh
models=${RERANKIT_MODELS:-$HOME/.cache/rerankit/models}
if [ ! -f "$models/ce-probe/model.onnx" ]; then
  echo "[start] no local models in $models: run \`npm run fixtures\`, or give an ONNX + tokenizer URL in the page"
fi
echo "[start] the demo: http://127.0.0.1:$port/"
exec node_modules/.bin/vite preview --config www/vite.config.mjs --host 127.0.0.1 --port "$port" --strictPort
