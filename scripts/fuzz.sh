#!/usr/bin/env bash
# `npm run fuzz -- [--seconds N] [--inputs N] [--seed N]`: the fuzz suites for longer than `npm test` runs them.
#   Rust (tests/fuzz/main.rs): every parser and what consumes its output, N seconds (or inputs) per target;
#   JS   (tests/fuzz/api.mjs): every exported function and method of the built package, the same budget;
#   differential (tests/fuzz/differential.mjs, trec_eval_differential.mjs): evaluate from text vs from objects,
#        and the CLI vs trec_eval (needs `npm run fixtures` for its venv), 10 collections per budgeted second.
# With no budget: 60 seconds per target. The package must be built (`npm run build:dev` at least).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="" inputs="" seed=1
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --inputs) inputs=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    *) echo "npm run fuzz: unknown option $1 (--seconds N | --inputs N | --seed N)" >&2; exit 2 ;;
  esac
done
[ -z "$seconds" ] && [ -z "$inputs" ] && seconds=60
if [ -n "$seconds" ]; then rust_budget=(RERANKIT_FUZZ_SECONDS="$seconds"); js_budget=(--seconds "$seconds")
else rust_budget=(RERANKIT_FUZZ_INPUTS="$inputs"); js_budget=(--inputs "$inputs"); fi
status=0
env "${rust_budget[@]}" RERANKIT_FUZZ_SEED="$seed" cargo test --profile native-test --test fuzz -- --nocapture --test-threads 1 || status=1
node tests/fuzz/api.mjs --seed "$seed" "${js_budget[@]}" || status=1
collections=${inputs:-$(( seconds * 10 ))}
node tests/fuzz/differential.mjs --seed "$seed" --inputs "$collections" || status=1
node tests/fuzz/trec_eval_differential.mjs --seed "$seed" --inputs "$collections" --batch 100 || status=1
exit $status
