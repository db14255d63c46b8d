#!/usr/bin/env bash
# Debian's chromium for the browser tests (never a browser download), installed only when missing.
set -euo pipefail
[ -x /usr/bin/chromium ] && exit 0
echo "[setup] installing Debian's chromium (apt-get)"
sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null
