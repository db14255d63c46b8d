#!/usr/bin/env bash
# Builds the demo (www/ → www/dist): checks that the bundled SciFact sample matches the fixtures, type-checks
# the page's TypeScript against the package's declarations, then `vite build`. Needs the package built
# (pkg/dist: `node scripts/build.mjs --dev`). The model weights are not part of the build: the preview server
# serves them from RERANKIT_MODELS (www/vite.config.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f pkg/dist/runtimes/browser.js ] || { echo "[demo] pkg/dist is missing: run node scripts/build.mjs --dev" >&2; exit 1; }
node scripts/build-demo-sample.mjs --check
node_modules/.bin/tsc -p www/tsconfig.json
node_modules/.bin/vite build --config www/vite.config.mjs --logLevel warn
echo "[demo] built www/dist"
