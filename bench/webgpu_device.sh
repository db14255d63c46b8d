#!/bin/bash
# WebGPU speed and parity on a lent GPU machine (no Rust, no registry, 64 MiB of files): build here, run there.
#
#   bash bench/webgpu_device.sh prepare     # here: test binaries (stripped, xz) + tokenizer into .gpu/, Vulkan
#                                           # loader .debs into .gl/ (both git-ignored through .git/info/exclude)
#   bash bench/webgpu_device.sh run         # there (device tool, carry [".gl", ".gpu"]): random-weight models,
#                                           # tests/webgpu/bench.rs for several models/windows, the parity tests
#
# The models are scripts/fixtures/random_bert.py's seeded random-weight copies of the test models' graphs: the
# real weights (90 MB each) cannot travel, speed does not depend on their values, and the parity tests compare
# WebGPU with tract on the same file. Results: docs/benchmarks.md, "WebGPU on a GPU"; docs/webgpu.md.
set -euo pipefail
cd "$(dirname "$0")/.."

prepare() {
  grep -qx '/.gpu/' .git/info/exclude 2>/dev/null || printf '/.gl/\n/.gpu/\n' >> .git/info/exclude
  mkdir -p .gpu .gl /tmp/amd64/partial
  cargo test --profile native-test --test webgpu --no-run --message-format=json \
    | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{for(const l of s.split("\n")){try{const m=JSON.parse(l);if(m.executable&&m.target.name==="webgpu")console.log(m.target.name+" "+m.executable)}catch{}}})' \
    | while read -r name exe; do strip -o ".gpu/$name" "$exe"; xz -f -T2 -6 ".gpu/$name"; done
  cp "${RERANKIT_MODELS:-$HOME/.cache/rerankit/models}/ce-parity-1/tokenizer.json" .gpu/
  local o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
  # shellcheck disable=SC2086
  apt-get $o update >/dev/null && (cd .gl && apt-get $o download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
  du -sh .gpu .gl
}

run() {
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
  if [ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ]; then
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  fi
  nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv || true
  # the test binaries read fixtures from the repository path they were built in
  mkdir -p /work
  [ -e /work/main ] || ln -s "$PWD" /work/main
  xz -dc .gpu/webgpu.xz > /tmp/webgpu; chmod +x /tmp/webgpu
  python3 scripts/fixtures/random_bert.py /tmp/models .gpu/tokenizer.json
  export RERANKIT_MODELS=/tmp/models
  local out="${OUT:-/tmp}"
  bench() { echo "== $*"; env "$@" timeout 200 /tmp/webgpu bench:: --ignored --nocapture 2>&1 | grep '"bench"'; }
  {
    bench RERANKIT_BENCH_MAX_LENGTH=256 RERANKIT_BENCH_QUERIES=4 RERANKIT_BENCH_BATCHES=16,64
    RERANKIT_BENCH_MATMUL=0 bench RERANKIT_BENCH_MAX_LENGTH=512 RERANKIT_BENCH_QUERIES=4 RERANKIT_BENCH_BATCHES=16,32 RERANKIT_BENCH_CPU_DOCS=20
    RERANKIT_BENCH_MATMUL=0 bench RERANKIT_BENCH_MAX_LENGTH=32 RERANKIT_BENCH_QUERIES=4 RERANKIT_BENCH_BATCHES=16,100
    RERANKIT_BENCH_MATMUL=0 bench RERANKIT_BENCH_MODEL=ce-minilm-l12 RERANKIT_BENCH_MAX_LENGTH=256 RERANKIT_BENCH_QUERIES=4 RERANKIT_BENCH_BATCHES=16,32 RERANKIT_BENCH_CPU_DOCS=20
    RERANKIT_BENCH_MATMUL=0 bench RERANKIT_BENCH_MODEL=ce-bert-base RERANKIT_BENCH_MAX_LENGTH=256 RERANKIT_BENCH_QUERIES=4 RERANKIT_BENCH_BATCHES=16,32 RERANKIT_BENCH_CPU_DOCS=10
  } 2>&1 | tee "$out/webgpu_bench.log"
  # every parity test whose expectation does not come from the real weights (references, int8, ce-probe)
  timeout 300 /tmp/webgpu parity:: --include-ignored --skip reference --skip int8 --skip failed_probe \
    --nocapture --test-threads 1 2>&1 | tee "$out/webgpu_parity.log"
}

case "${1:-}" in
  prepare) prepare ;;
  run) run ;;
  *) echo "usage: bash bench/webgpu_device.sh prepare|run" >&2; exit 2 ;;
esac
