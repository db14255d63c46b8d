#!/usr/bin/env bash
# `npm start`: build the package if needed, then run the quick-start example (rerank + evaluate).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ ! -f pkg/dist/node.js ] || [ -n "$(find src pkg -newer pkg/dist/node.js \( -name '*.rs' -o -name '*.ts' \) -not -path 'pkg/dist/*' -print -quit)" ]; then
  node scripts/build.mjs
fi
exec node examples/node/quickstart.mjs
